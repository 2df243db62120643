"""A move's CPU against the framework's floor, in process (issue 33): the requests of
``bench/api_moves.py``'s client sent straight through the site's WSGI application
(``bench/floor_wsgi.py``: the same middleware, authentication, throttles and exception
handler), interleaved, so that both sides meet the same machine at the same moment, and
no HTTP server or client in between: the medians of what each request costs the process.

A client plays 2-player games with random legal moves, as ``api_moves.py``'s does: it asks
``legal-moves/`` when the turn passes (the poll), then POSTs the move with ``expected_seq``
and an ``Idempotency-Key``. After each move it sends one floor POST (one row in one
transaction) and one floor read (the same route's authenticated GET). Printed: the median
CPU (``time.process_time``) and wall time of each, and the move's and the poll's against
the floor's. ``--profile`` prints where the moves' CPU goes (cProfile, by CPU time).

    .venv/bin/python bench/move_cpu.py [--moves 1500] [--game azul] [--profile tottime]
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
import uuid
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_moves import FLOOR_PATH, FLOOR_TABLE, GAMES, ensure_database  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/azulsite_bench_cpu"


class Site:
    """The site's WSGI application, called as a server would call it for 127.0.0.1."""

    def __init__(self, application) -> None:
        self.application = application

    def call(self, method: str, path: str, token: str, body=None, key=None):
        data = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json",
            "HTTP_ACCEPT": "application/json",
            "HTTP_AUTHORIZATION": f"Token {token}",
        }
        if key:
            environ["HTTP_IDEMPOTENCY_KEY"] = key
        status = []
        answer = self.application(environ, lambda line, headers, info=None: status.append(line))
        try:
            content = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        return int(status[0].split()[0]), json.loads(content or b"null")


class Timed:
    """CPU and wall seconds of the requests of one kind."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def __call__(self, request, *arguments, profile: cProfile.Profile | None = None):
        """``request(*arguments)``, timed."""
        wall, cpu = time.perf_counter(), time.process_time()
        if profile:
            profile.enable()
        try:
            return request(*arguments)
        finally:
            if profile:
                profile.disable()
            self.cpu.append(time.process_time() - cpu)
            self.wall.append(time.perf_counter() - wall)

    def median(self, kind: str) -> float:
        return statistics.median(getattr(self, kind)) * 1000


def play(site: Site, tokens: list[str], game: str, moves: int, profile) -> dict[str, Timed]:
    """Games of ``game`` between the two ``tokens`` until ``moves`` moves are timed."""
    timed = {name: Timed() for name in ("move", "poll", "floor", "read")}
    chooser = Random(1)
    while len(timed["move"].cpu) < moves:
        status, body = site.call("POST", "/api/games/", tokens[0], {"game": game, "players": 2})
        if status != 201:
            raise SystemExit(f"creating a game: {status} {body}")
        path = f"/api/games/{body['id']}/"
        site.call("POST", path + "join/", tokens[1], {})
        seats = {}
        for token in tokens:
            detail = site.call("GET", path, token)[1]
            seats[detail["you"]["seat"]] = token
        to_move, offered = detail["to_move"], None
        while len(timed["move"].cpu) < moves:
            if offered is None:
                offered = timed["poll"](site.call, "GET", path + "legal-moves/", seats[to_move])[1]
                if offered["to_move"] is None:
                    break
                if offered["to_move"] != to_move:
                    to_move, offered = offered["to_move"], None
                    continue
            body = {"move": chooser.choice(offered["moves"])["move"]}
            body["expected_seq"] = offered["last_seq"]
            key = uuid.uuid4().hex
            status, answer = timed["move"](
                site.call, "POST", path + "moves/", seats[to_move], body, key, profile=profile
            )
            if status != 201:
                raise SystemExit(f"a move: {status} {answer}")
            timed["floor"](site.call, "POST", FLOOR_PATH, tokens[0], {"n": 1})
            timed["read"](site.call, "GET", FLOOR_PATH, tokens[0])
            if answer["to_move"] is None:
                break
            to_move = answer["to_move"]
            offered = answer if answer["moves"] else None
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--game", choices=GAMES, default="azul")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE)
    parser.add_argument("--profile", choices=["tottime", "cumtime"], help="sort the profile")
    args = parser.parse_args()
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": "azulsite.settings",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "CELERY_BROKER_URL": "filesystem://",
            "LOG_LEVEL": "ERROR",
            # A load test, not a client: past the API's per-user rate every move would be a 429.
            "API_USER_RATE": "1000000/min",
        }
    )
    os.environ.setdefault("AZULSITE_VAR_DIR", str(ROOT / "var" / "bench-cpu"))
    ensure_database(args.database_url)
    from django.core.management import call_command
    from django.db import connection

    from bench import floor_wsgi

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(FLOOR_TABLE)
    from bench.api_moves import make_players

    tokens = make_players(2)
    profile = cProfile.Profile(time.process_time) if args.profile else None
    timed = play(Site(floor_wsgi.application), tokens, args.game, args.moves, profile)
    floor = timed["floor"]
    print(f"{args.moves} moves of {args.game}, medians in ms (CPU of this process, wall):")
    print(f"{'request':>8} {'CPU':>6} {'of floor':>9} {'wall':>6} {'of floor':>9}")
    for name in ("move", "poll", "floor", "read"):
        spent = timed[name]
        print(
            f"{name:>8} {spent.median('cpu'):6.2f} {spent.median('cpu') / floor.median('cpu'):9.2f}"
            f" {spent.median('wall'):6.2f} {spent.median('wall') / floor.median('wall'):9.2f}"
        )
    if profile:
        pstats.Stats(profile).sort_stats(args.profile).print_stats(40)


if __name__ == "__main__":
    main()
