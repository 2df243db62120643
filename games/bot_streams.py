"""The bot API's streams (issue 55, docs/bot-api.md): newline-delimited JSON, one object a
line, an empty line as keep-alive, served by the stream process beside the pages' streams
(``games.streams``) and heard through its one Redis subscription (its hub).

- ``GET /api/bot/stream/event``: first every open challenge (``challenge``) and game in
  play (``gameStart``, then ``yourTurn`` where it is the player's turn); then ``challenge``,
  ``challengeDeclined``, ``challengeCanceled``, ``gameStart``, ``yourTurn`` and
  ``gameFinish`` as they happen.
- ``GET /api/bot/game/stream/<id>``: ``gameFull`` (settings, players, the position as the
  player's seat sees it, its legal moves on its turn), then ``gameState`` at each change and
  ``chatLine`` for each message; it ends after the game's last ``gameState``.

Each stream reads the world again when news comes and says what changed (a news lost or
two that came at once cost nothing). It ends cleanly, after its last line, when its token
is revoked or its account closed (checked at each news and every ``TOKEN_CHECK_SECONDS``).

Where they are served: by the stream process (uvicorn, ``azulsite.asgi``), each stream a
coroutine heard through the hub; under ``make run`` by runserver (``NEWS_STREAM_IN_THREADS``),
each stream the same coroutine run in the request's thread on an event loop of its own,
listening to Redis with a connection of its own, or watching the news files without Redis.

The move clock (``services.move_clock``) and the bot ladder's pairing
(``services.bot_ladder``) run in the stream process's event loop from its start (the ASGI
lifespan, ``clocks_start``), and in ``manage.py move_clock`` (which ``make run`` starts)."""

import asyncio
import json
import logging
import os
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from rest_framework.exceptions import AuthenticationFailed

from games import news
from games.authentication import TokenAuthentication
from games.errors import ServiceError
from games.selectors import bot_world
from games.selectors.access import game_for_viewer
from games.services import bot_ladder, move_clock
from games.services.bot_accounts import bot_topic
from games.streams import AWAY_SECONDS, _hub, _Page

log = logging.getLogger(__name__)

# An empty line this often: a client (or a proxy) takes a quiet line for a live one.
KEEP_ALIVE_SECONDS = 6
# A stream checks its token at least this often (and at every news: a revocation tells).
TOKEN_CHECK_SECONDS = 30
# A stream lasts this long at most; the client opens it again and is told the world anew.
HOLD_SECONDS = 3600
KEEP_ALIVE = b"\n"
# Event streams one account may hold open at once in one process; one more is refused with
# 429 (a bot needs one; a few let one that reconnects overlap its old one, which ends at its
# next keep-alive, or at once where the process notices the client gone).
MOST_EVENT_STREAMS = 4
# Whether this process runs the move clock (a deployment that runs ``manage.py
# move_clock`` apart may turn it off; two loops are safe, only wasteful).
CLOCK_IN_STREAMS = os.environ.get("MOVE_CLOCK_IN_STREAMS", "1") != "0"


def _line(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _db(function, *args):
    """Read the database in a pool's thread (one connection per thread, few in all)."""
    return sync_to_async(function, thread_sensitive=False)(*args)


def _refused(status: int, message: str, code: str, **headers) -> HttpResponse:
    return JsonResponse({"detail": message, "code": code}, status=status, headers=headers)


def _signed_in(request: HttpRequest):
    """(user, token) of ``Authorization: Token <key>``, or a refusal."""
    try:
        found = TokenAuthentication().authenticate(request)
    except AuthenticationFailed as error:
        return None, _refused(401, str(error.detail), "not_authenticated")
    if found is None:
        return None, _refused(
            401,
            _("send your bot's token: Authorization: Token <key>"),
            "not_authenticated",
            **{"WWW-Authenticate": "Token"},
        )
    return found, None


def _watching(request: HttpRequest):
    """How this process holds a stream (a watch's class), or why it does not (a 503 the
    client retries)."""
    if isinstance(request, ASGIRequest) and settings.NEWS_REDIS_URL:
        return _Watch, None
    if not isinstance(request, ASGIRequest) and settings.NEWS_STREAM_IN_THREADS:
        return _ThreadWatch, None
    return None, _refused(
        503,
        _("the bot streams are served by the stream process; try again in a moment"),
        "streams_elsewhere",
        **{"Retry-After": str(AWAY_SECONDS)},
    )


def _ndjson(lines) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _opening(request: HttpRequest):
    """(user, a watch of its token) of a stream this process may open, or the answer
    refusing it."""
    watch, refusal = _watching(request)
    if refusal:
        return None, refusal
    found, refusal = _signed_in(request)
    if refusal:
        return None, refusal
    user, token = found
    return (user, watch(token)), None


def _served(watch, lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    """The stream's answer: its lines as they come, in the event loop or in this thread."""
    connections.close_all()
    if isinstance(watch, _ThreadWatch):
        return _ndjson(_in_this_thread(lines))
    return _ndjson(lines)


# Each account's open event streams (their watches): a stream whose answer never started
# (its client gone first) leaves when its watch is collected.
_event_streams: dict[int, weakref.WeakSet] = {}
_event_streams_lock = threading.Lock()


def _one_more_event_stream(user_id: int, watch) -> bool:
    """Whether the account may open one more event stream (counted if so)."""
    with _event_streams_lock:
        open_now = _event_streams.setdefault(user_id, weakref.WeakSet())
        if len(open_now) >= MOST_EVENT_STREAMS:
            return False
        open_now.add(watch)
        return True


def _event_stream_ended(user_id: int, watch) -> None:
    with _event_streams_lock:
        open_now = _event_streams.get(user_id)
        if open_now is not None:
            open_now.discard(watch)
            if not open_now:
                del _event_streams[user_id]


@require_GET
def event_stream(request: HttpRequest) -> HttpResponse:
    """``/api/bot/stream/event``: the player's challenges and games (module docstring).
    At most ``MOST_EVENT_STREAMS`` at once an account: one more gets 429."""
    found, refusal = _opening(request)
    if refusal:
        return refusal
    user, watch = found
    if not _one_more_event_stream(user.pk, watch):
        return _refused(
            429,
            _(
                "this account has %(most)s event streams open already, the most at once: "
                "close one (a stream left behind ends within a few seconds) and open it again"
            )
            % {"most": MOST_EVENT_STREAMS},
            "too_many_streams",
            **{"Retry-After": str(KEEP_ALIVE_SECONDS)},
        )
    return _served(watch, _events(user, watch))


@require_GET
def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/api/bot/game/stream/<id>``: one game, from its full state on."""
    found, refusal = _opening(request)
    if refusal:
        return refusal
    user, watch = found
    try:
        game = game_for_viewer(game_id, user)
    except ServiceError as error:
        return _refused(error.status, error.message, error.code)
    return _served(watch, _game_events(user, watch, game.pk))


class _Watch:
    """A stream's place in the hub and its clocks: when to send a keep-alive, to check
    the token, to end."""

    def __init__(self, token) -> None:
        self.token = token
        self.ends = time.monotonic() + HOLD_SECONDS
        self.checked = time.monotonic()

    async def start(self) -> None:
        self.hub, self.page = _hub(), _Page()

    async def listen(self, topics: list[str]) -> bool:
        return await self.hub.join(self.page, [news.channel(topic).encode() for topic in topics])

    async def wait(self) -> bool | None:
        """Whether news came within ``KEEP_ALIVE_SECONDS``; ``None``: Redis was lost."""
        changed = await self.page.wait(KEEP_ALIVE_SECONDS)
        return None if self.page.lost else changed

    async def next(self) -> bool | None:
        """``True``: news came; ``False``: time for a keep-alive; ``None``: the stream ends
        (Redis lost, the hold over, the token revoked)."""
        if time.monotonic() >= self.ends:
            return None
        changed = await self.wait()
        if changed is None:
            return None
        if changed or time.monotonic() - self.checked >= TOKEN_CHECK_SECONDS:
            self.checked = time.monotonic()
            if not await self.db(bot_world.token_alive, self.token):
                return None
        return changed

    def db(self, function, *args):
        return _db(function, *args)

    def leave(self) -> None:
        self.hub.leave(self.page)


class _ThreadWatch(_Watch):
    """``make run``'s watch, in runserver's thread for the request (which runs the
    stream's coroutine on an event loop of its own): Redis through a subscription of its
    own where there is Redis, else the news files. Nothing else runs on that loop, so its
    waits may block it."""

    async def start(self) -> None:
        self.topics: list[str] = []
        self.seen: tuple[int, ...] = ()
        self.subscription = None
        if settings.NEWS_REDIS_URL:
            self.subscription = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
                ignore_subscribe_messages=True
            )

    async def listen(self, topics: list[str]) -> bool:
        self.topics += topics
        if self.subscription is not None:
            self.subscription.subscribe(*map(news.channel, topics))
        self.seen = news.stamps(self.topics)
        return True

    async def wait(self) -> bool | None:
        if self.subscription is not None:
            return self.subscription.get_message(timeout=KEEP_ALIVE_SECONDS) is not None
        waited = 0.0
        while waited < KEEP_ALIVE_SECONDS:
            time.sleep(news.WATCH_SECONDS)
            waited += news.WATCH_SECONDS
            now = news.stamps(self.topics)
            if now != self.seen:
                self.seen = now
                return True
        return False

    def db(self, function, *args):
        # A pool thread of this request's own loop: its connection goes with the read.
        return _db(_closing, function, *args)

    def leave(self) -> None:
        if self.subscription is not None:
            self.subscription.close()


def _closing(function, *args):
    try:
        return function(*args)
    finally:
        connection.close()


def _in_this_thread(lines: AsyncIterator[bytes]) -> Iterator[bytes]:
    """The stream's coroutine run in this thread (runserver's, for the request) on an
    event loop of its own, each line passed on as it comes."""
    loop = asyncio.new_event_loop()
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(lines))
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(lines.aclose())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


async def _events(user, watch: _Watch):
    await watch.start()
    try:
        if not await watch.listen([bot_topic(user.pk)]):
            return
        world = await watch.db(bot_world.world_of, user)
        await watch.listen([news.game_topic(game_id) for game_id in world["games"]])
        # Read again once every game's news is heard: a move between the two reads is in
        # this one.
        world = await watch.db(bot_world.world_of, user)
        for challenge in world["challenges"].values():
            yield _line({"type": "challenge", "challenge": challenge})
        for game in world["games"].values():
            yield _line({"type": "gameStart", "game": game})
            if game["is_my_turn"]:
                yield _line({"type": "yourTurn", "game": game})
        while (changed := await watch.next()) is not None:
            if not changed:
                yield KEEP_ALIVE
                continue
            new, lines = await watch.db(_changes, user, world)
            fresh = [game_id for game_id in new["games"] if game_id not in world["games"]]
            if fresh:
                await watch.listen([news.game_topic(game_id) for game_id in fresh])
            world = new
            for line in lines:
                yield _line(line)
    finally:
        watch.leave()
        _event_stream_ended(user.pk, watch)


def _changes(user, old: dict) -> tuple[dict, list[dict]]:
    """The player's world now, and the lines that tell what changed since ``old``."""
    new = bot_world.world_of(user)
    lines = []
    for challenge_id in old["challenges"].keys() - new["challenges"].keys():
        challenge = bot_world.challenge_now(challenge_id)
        kind = {"declined": "challengeDeclined", "cancelled": "challengeCanceled"}.get(
            challenge["status"] if challenge else "cancelled"
        )
        if kind:
            lines.append({"type": kind, "challenge": challenge or old["challenges"][challenge_id]})
    for challenge_id in new["challenges"].keys() - old["challenges"].keys():
        lines.append({"type": "challenge", "challenge": new["challenges"][challenge_id]})
    for game_id in old["games"].keys() - new["games"].keys():
        seat = old["games"][game_id]["seat"]
        lines.append({"type": "gameFinish", "game": bot_world.finished_line(game_id, seat)})
    for game_id, game in new["games"].items():
        before = old["games"].get(game_id)
        if before is None:
            lines.append({"type": "gameStart", "game": game})
        if game["is_my_turn"] and (
            before is None or not before["is_my_turn"] or before["last_seq"] != game["last_seq"]
        ):
            lines.append({"type": "yourTurn", "game": game})
    return new, lines


async def _game_events(user, watch: _Watch, game_id: int):
    await watch.start()
    try:
        if not await watch.listen([news.game_topic(game_id)]):
            return
        full, chat = await watch.db(_full, user, game_id)
        yield _line(full)
        state = full["state"]
        while not state["over"] and state["status"] == "active":
            changed = await watch.next()
            if changed is None:
                return
            if not changed:
                yield KEEP_ALIVE
                continue
            now, lines = await watch.db(_game_changes, user, game_id, chat)
            chat = max([chat, *(line["id"] for line in lines)])
            for line in lines:
                yield _line(line)
            if (now["last_seq"], now["status"]) != (state["last_seq"], state["status"]):
                yield _line(now)
            state = now
    finally:
        watch.leave()


def _full(user, game_id: int) -> tuple[dict, int]:
    game = game_for_viewer(game_id, user)
    return bot_world.game_full(game, user), bot_world.last_chat(game_id)


def _game_changes(user, game_id: int, chat: int) -> tuple[dict, list[dict]]:
    game = game_for_viewer(game_id, user)
    seat = next((s.position for s in game.seats.all() if s.user_id == user.pk), None)
    return bot_world.game_state(game, seat), bot_world.chat_lines(game_id, chat)


# --- the move clock and the ladder, in an event loop of their own process ----------------


def clocks_start() -> list[asyncio.Task]:
    """Start the move clock and the ladder in the running event loop (the stream
    process's, from its start), unless they run elsewhere (``MOVE_CLOCK_IN_STREAMS=0``)."""
    if not CLOCK_IN_STREAMS:
        return []
    loop = asyncio.get_running_loop()
    return [loop.create_task(_clock()), loop.create_task(_ladder())]


async def clocks() -> None:
    """The move clock and the ladder, until cancelled (``manage.py move_clock``)."""
    await asyncio.gather(_clock(), _ladder())


async def _clock() -> None:
    """The move clock: fire what is due, sleep until the next deadline."""
    while True:
        try:
            wait = await _db(move_clock.seconds_to_sleep)
        except Exception:
            log.exception("the move clock failed; it looks again in a second")
            wait = move_clock.LOOK_SECONDS
        await asyncio.sleep(wait)


async def _ladder() -> None:
    """The bot ladder, every ``LADDER_SECONDS``: settle the matches over, pair the free
    bots (a task of its own: a slow pairing never makes a deadline late). The ladder
    needs PostgreSQL (``make run``'s SQLite has the move clock, not the ladder)."""
    if connection.vendor != "postgresql":
        log.info("the bot ladder needs PostgreSQL: no ladder on %s", connection.vendor)
        return
    while True:
        try:
            await _db(bot_ladder.ladder_settle)
            await _db(bot_ladder.ladder_pair)
        except Exception:
            log.exception("the bot ladder failed; it tries again")
        await asyncio.sleep(bot_ladder.LADDER_SECONDS)


# --- the streams in the OpenAPI description (drf-spectacular describes DRF's views) ---------

_STREAM_REFUSALS = {
    "401": "A missing, wrong or revoked token.",
    "503": "This server does not hold streams now (Retry-After): try again.",
}


def _stream_path(operation: str, summary: str, lines: str, **more) -> dict:
    said = {"detail": {"type": "string"}, "code": {"type": "string"}}
    refused = {"application/json": {"schema": {"type": "object", "properties": said}}}
    responses = {
        "200": {
            "description": f"{lines} One JSON object a line; an empty line every "
            f"{KEEP_ALIVE_SECONDS} s keeps the stream alive. See docs/bot-api.md.",
            "content": {"application/x-ndjson": {"schema": {"type": "object"}}},
        },
        **{
            status: {"description": why, "content": refused}
            for status, why in {**more, **_STREAM_REFUSALS}.items()
        },
    }
    return {
        "get": {
            "operationId": operation,
            "summary": summary,
            "tags": ["bot"],
            "security": [{"tokenAuth": []}],
            "responses": responses,
        }
    }


def schema_paths(result: dict, generator, request, public) -> dict:
    """drf-spectacular's last step: the two bot streams, newline-delimited JSON."""
    result["paths"]["/api/bot/stream/event"] = _stream_path(
        "bot_stream_event",
        "The bot's event stream: its challenges and games",
        "First every open challenge (challenge) and game in play (gameStart, then yourTurn); "
        "then challenge, challengeDeclined, challengeCanceled, gameStart, yourTurn and "
        "gameFinish as they happen.",
        **{"429": f"More than {MOST_EVENT_STREAMS} event streams open at once (Retry-After)."},
    )
    game = _stream_path(
        "bot_stream_game",
        "One game's stream, as the bot's seat sees it",
        "First gameFull (settings, players, the position, the legal moves on your turn); "
        "then gameState at each change and chatLine for each message; it ends after the "
        "last gameState of a game that is over.",
        **{"404": "No such game, or not one you may see."},
    )
    game["get"]["parameters"] = [
        {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    ]
    result["paths"]["/api/bot/game/stream/{game_id}"] = game
    return result
