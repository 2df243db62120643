"""The bridge: an HTTP client of the bot API (``Client``) and a player (``Bot``) that keeps
the event stream open, accepts the challenges it wants, follows each game on its own stream
in a thread of its own, and answers every turn with ``choose``. Streams that break are
opened again after a back-off that doubles (with jitter) up to a minute."""

from __future__ import annotations

import json
import logging
import random
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator

log = logging.getLogger("azulbot")

# The server sends an empty line every few seconds: a stream silent this long is dead.
STREAM_TIMEOUT_SECONDS = 30
FIRST_BACKOFF_SECONDS = 1.0
LONGEST_BACKOFF_SECONDS = 60.0


class ApiError(Exception):
    """An answer other than 2xx: ``status``, and the server's ``code`` and ``message``."""

    def __init__(self, status: int, body: dict, retry_after: float | None = None) -> None:
        self.status, self.body, self.retry_after = status, body, retry_after
        self.code = body.get("code", "")
        super().__init__(f"{status} {self.code}: {body.get('message') or body.get('detail')}")


class Backoff:
    """Waits that double from ``first`` to ``longest``, each with up to a quarter more at
    random (so that many bots cut off at once do not all come back at once)."""

    def __init__(
        self, first: float = FIRST_BACKOFF_SECONDS, longest: float = LONGEST_BACKOFF_SECONDS
    ):
        self.first, self.longest, self.next = first, longest, first

    def wait(self, stop: threading.Event, at_least: float = 0.0) -> None:
        seconds = max(at_least, self.next * (1 + random.random() / 4))
        self.next = min(self.next * 2, self.longest)
        stop.wait(seconds)

    def reset(self) -> None:
        self.next = self.first


class Client:
    """The bot API's requests, with the bot's token."""

    def __init__(self, url: str, token: str, timeout: float = STREAM_TIMEOUT_SECONDS) -> None:
        self.url, self.token, self.timeout = url.rstrip("/"), token, timeout

    def _request(self, method: str, path: str, body: dict | None = None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Token {self.token}",
                "Accept": "application/json",
                **({"Content-Type": "application/json"} if data is not None else {}),
                **(headers or {}),
            },
        )
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            try:
                answer = json.loads(error.read() or b"{}")
            except ValueError:
                answer = {}
            retry = error.headers.get("Retry-After")
            raise ApiError(error.code, answer, float(retry) if retry else None) from None

    def call(self, method: str, path: str, body: dict | None = None, headers=None) -> dict:
        with self._request(method, path, body, headers) as answer:
            return json.loads(answer.read() or b"{}")

    def stream(self, path: str) -> Iterator[dict | None]:
        """The NDJSON stream at ``path``: each object, ``None`` for a keep-alive line."""
        with self._request("GET", path) as answer:
            for line in answer:
                line = line.strip()
                yield json.loads(line) if line else None

    # The documented requests, by name.
    def account(self) -> dict:
        return self.call("GET", "/api/account/")

    def challenge(self, opponent: int, game: str, **settings) -> dict:
        return self.call(
            "POST", "/api/challenges/", {"opponent": opponent, "game": game, **settings}
        )

    def accept(self, challenge_id: int) -> dict:
        return self.call("POST", f"/api/challenges/{challenge_id}/accept/")

    def decline(self, challenge_id: int, reason: str = "generic") -> dict:
        return self.call("POST", f"/api/challenges/{challenge_id}/decline/", {"reason": reason})

    def move(self, game_id: int, move: str, expected_seq: int) -> dict:
        return self.call(
            "POST",
            f"/api/games/{game_id}/moves/",
            {"move": move, "expected_seq": expected_seq},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def export(self, game_id: int) -> list[dict]:
        lines = {"Accept": "application/x-ndjson"}
        with self._request("GET", f"/api/games/{game_id}/export/", headers=lines) as answer:
            return [json.loads(line) for line in answer.read().decode().splitlines() if line]


Choose = Callable[[dict, list[str]], str]


class Bot:
    """A bot that plays with ``choose(position, legal_moves) -> move``.

    ``position`` is the game stream's state (``gameState``) with ``game_id``, ``game`` and
    ``seat`` added; ``legal_moves`` the moves in notation. ``accept(challenge) -> bool``
    decides the challenges received (default: every one). ``run()`` plays until
    ``stop()``."""

    def __init__(
        self,
        url: str,
        token: str,
        choose: Choose,
        *,
        accept: Callable[[dict], bool] = lambda challenge: True,
        client: Client | None = None,
    ) -> None:
        self.client = client or Client(url, token)
        self.choose, self.accept = choose, accept
        self.stopping = threading.Event()
        self.games: dict[int, threading.Thread] = {}
        self.finished: list[dict] = []
        self.me: int | None = None

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        """Keep the event stream open (again after each break, backing off) and act on
        it, until ``stop()``. A revoked token (401) ends it."""
        backoff = Backoff()
        while not self.stopping.is_set():
            try:
                self.me = self.client.account()["id"]
                for event in self.client.stream("/api/bot/stream/event"):
                    backoff.reset()
                    if self.stopping.is_set():
                        return
                    if event is not None:
                        self.on_event(event)
                log.info("the event stream ended; opening it again")
            except ApiError as error:
                if error.status == 401:
                    log.error("the token is refused (%s): stopping", error)
                    return
                log.warning("event stream: %s", error)
                backoff.wait(self.stopping, error.retry_after or 0)
            except (OSError, ValueError) as error:
                log.warning("event stream broke (%s); trying again", error)
                backoff.wait(self.stopping)

    def on_event(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]
            if challenge["opponent"]["id"] == self.me:
                try:
                    if self.accept(challenge):
                        self.client.accept(challenge["id"])
                    else:
                        self.client.decline(challenge["id"])
                except ApiError as error:
                    log.warning("challenge %s: %s", challenge["id"], error)
        elif kind in ("gameStart", "yourTurn"):
            self.follow(event["game"]["id"])
        elif kind == "gameFinish":
            self.finished.append(event["game"])

    def follow(self, game_id: int) -> None:
        """Play game ``game_id`` in a thread of its own (once)."""
        thread = self.games.get(game_id)
        if thread is None or not thread.is_alive():
            thread = threading.Thread(target=self.play, args=(game_id,), daemon=True)
            self.games[game_id] = thread
            thread.start()

    def play(self, game_id: int) -> None:
        """Follow the game's stream and move on each turn, until the game is over."""
        backoff = Backoff()
        over = False
        while not over and not self.stopping.is_set():
            try:
                seat, game = None, None
                for line in self.client.stream(f"/api/bot/game/stream/{game_id}"):
                    backoff.reset()
                    if self.stopping.is_set():
                        return
                    if line is None or line.get("type") == "chatLine":
                        continue
                    if line["type"] == "gameFull":
                        seat, game, line = line["seat"], line["game"], line["state"]
                    over = line["over"] or line["status"] != "active"
                    if line["moves"]:
                        self.move(game_id, {**line, "game_id": game_id, "game": game, "seat": seat})
                    if over:
                        return
            except ApiError as error:
                if error.status in (401, 403, 404):
                    log.error("game %s: %s", game_id, error)
                    return
                backoff.wait(self.stopping, error.retry_after or 0)
            except (OSError, ValueError) as error:
                log.warning("game %s stream broke (%s); trying again", game_id, error)
                backoff.wait(self.stopping)

    def move(self, game_id: int, position: dict) -> None:
        try:
            move = self.choose(position, list(position["moves"]))
        except Exception:
            # The engine's fault: said in the log; the game's clock decides what follows.
            log.exception("game %s: choose failed at event %s", game_id, position["last_seq"])
            return
        try:
            self.client.move(game_id, move, position["last_seq"])
        except ApiError as error:
            # 409: the game moved on meanwhile (the stream brings the new position); a
            # refused move is the engine's fault, said in the log.
            log.warning("game %s: move %r refused: %s", game_id, move, error)
