"""Moves through the REST API: moves per second and p50/p99 latency over HTTP, with gunicorn
and PostgreSQL, for 1 and 16 concurrent clients playing random games; and whether a move
late in a game is slower than an early one (it must not grow with the game's history).

The script makes its own database (``azulsite_bench_api``) and migrates it, creates users
and their API tokens, starts gunicorn on a free port of 127.0.0.1, and runs each scenario:
every client (a thread with its own keep-alive connection) opens a game, plays every seat
of it with random legal moves (GET legal-moves when the turn passes to a seat, as that
player's client would once told it is their turn, then POST moves with ``expected_seq`` and
an ``Idempotency-Key``; a move's answer lists the mover's next moves when the turn stays with
them, so no GET then), and starts another game until the time is up; it then finishes the
game in hand (bounded by ``--grace``) so that every game counted has a last ten moves, and
clients done early keep the server as busy with uncounted games meanwhile. Throughput and
latency count the moves of the timed window; early against late counts the first and last
ten moves of every finished game. Everything talks to 127.0.0.1 only.

The server's own time for each move and poll comes from gunicorn's access log (the
target is 3 ms a move on a quiet machine, with 1 client).

Around each scenario, the framework's floor with as many clients (issue 33): the cheapest
authenticated DRF POST through the same middleware, inserting one row in one transaction
(``bench/floor_wsgi.py``), its requests/s and server time against the moves'. Half of it
runs just before the moves and half just after, so that a machine whose load drifts
(others' benches, fsync times) weighs on both alike. Beside the times, the CPU each side
spent: the gunicorn workers' and the bench's own client's (its threads share the same
cores), per move (everything the scenario asked for it: creating and joining games,
polls) and per floor request, and the requests the scenario sent per move: figures a
busy machine bends far less than latencies. Last, the floor of a read (``GET`` of the same
route: authenticated, reading nothing more) and what it bounds: where the server is
CPU-bound, moves/s against the floor's requests/s is at most the floor's CPU over a move's
and its polls', so a move that cost no more than a floor request, with this client's polls
costing no more than a floor read, would reach ``floor / (floor + polls a move x read)``
and no more (the "ceiling").

Before each scenario, raw single-row INSERT transactions per second with as many writers
(``bench/store.py``'s baseline) on the same database, and the ratio of moves to those.

    .venv/bin/python bench/api_moves.py                # 1 and 16 clients, 30 s each
    .venv/bin/python bench/api_moves.py --clients 1 4 --seconds 10 --game azul
"""

import argparse
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LOCALHOST = "127.0.0.1"
DEFAULT_DATABASE = f"postgres://postgres@{LOCALHOST}:5432/azulsite_bench_api"
GAMES = ("azul", "summer-pavilion", "miyabi")
EDGE = 10  # moves counted as "early" and as "late" in each finished game


# --- the server -----------------------------------------------------------------------------


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')


def server_environment(database_url: str, var_dir: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "azulsite.settings",
        "AZULSITE_VAR_DIR": var_dir,
        "DEBUG": "0",
        "ALLOWED_HOSTS": LOCALHOST,
        "SITE_URL": f"http://{LOCALHOST}",
        "CELERY_BROKER_URL": "filesystem://",
        "EMAIL_URL": f"file://{var_dir}/mail",
        "LOG_LEVEL": "ERROR",
        # A load test, not a client: past the API's per-user rate every move would be a 429.
        "API_USER_RATE": "1000000/min",
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOCALHOST, 0))
        return probe.getsockname()[1]


# gunicorn's access log, one line a request: the method, path, status and the server's time
# for it in microseconds (from reading the request to the last byte of the answer).
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"


def start_gunicorn(
    env: dict, port: int, workers: int, threads: int, access_log: str
) -> subprocess.Popen:
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        # The site plus the floor's route (bench/floor_wsgi.py).
        "bench.floor_wsgi",
        "--bind",
        f"{LOCALHOST}:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--log-level",
        "warning",
        "--access-logfile",
        access_log,
        "--access-logformat",
        ACCESS_FORMAT,
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection(LOCALHOST, port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer /healthz within 30 s")


def make_players(count: int) -> list[str]:
    """``count`` users with API tokens (made in the database directly: hashing passwords
    for POST /api/token/ would only time the password hasher)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    User = get_user_model()
    tokens = []
    for index in range(count):
        email = f"bench-{index}@bench.example"
        user, created = User.objects.get_or_create(
            username=email, defaults={"email": email, "first_name": f"Bench {index}"}
        )
        if created:
            user.set_unusable_password()
            user.save()
        tokens.append(Token.objects.get_or_create(user=user)[0].key)
    return tokens


FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, player integer,"
    " data jsonb, recorded_at timestamptz NOT NULL DEFAULT now())"
)


# --- a client -------------------------------------------------------------------------------


class Api:
    """One keep-alive HTTP connection to the server, as one client has."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection(LOCALHOST, port, timeout=60)

    def call(self, method: str, path: str, token: str, body: dict | None = None, key=None):
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        if key:
            headers["Idempotency-Key"] = key
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, payload, headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read() or b"null")
            except (http.client.HTTPException, OSError):
                # The server closed the kept-alive connection: reconnect and send again
                # (a move carries an Idempotency-Key, so sending it twice is safe).
                self.connection.close()
                self.connection = http.client.HTTPConnection(LOCALHOST, self.port, timeout=60)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


@dataclass
class Move:
    finished_at: float
    seconds: float
    history: int  # events in the game before the move


@dataclass
class Played:
    moves: list[Move] = field(default_factory=list)
    legal_seconds: list[float] = field(default_factory=list)
    games: list[tuple[str, list[Move]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Run:
    """The clock of one scenario, shared by its clients."""

    stop_at: float
    hard_stop: float
    finishing: int  # clients still playing their last counted game
    lock: threading.Lock = field(default_factory=threading.Lock)

    def before_hard_stop(self) -> bool:
        return time.monotonic() < self.hard_stop

    def finished_one(self) -> None:
        with self.lock:
            self.finishing -= 1

    def others_finishing(self) -> bool:
        return self.finishing > 0 and self.before_hard_stop()


def play_games(api: Api, tokens: list[str], games: list[str], run: Run) -> Played:
    """Open games between ``tokens`` (in turn from ``games``) and play each to the end with
    random legal moves until ``run.stop_at``, finishing the game in hand. Then keep playing
    uncounted games while other clients finish theirs, so that the last moves of every
    counted game meet the same load as the first ones."""
    played = Played()
    chooser = Random(tokens[0])
    for game in itertools.cycle(games):
        if time.monotonic() >= run.stop_at:
            break
        moves = play_one(api, tokens, game, chooser, played, run.before_hard_stop)
        if moves is not None:
            played.games.append((game, moves))
    run.finished_one()
    for game in itertools.cycle(games):
        if not run.others_finishing():
            break
        play_one(api, tokens, game, chooser, Played(), run.others_finishing)
    return played


def play_one(
    api: Api, tokens: list[str], game: str, chooser: Random, played: Played, going_on: Callable
) -> list[Move] | None:
    """One game to its end (the moves) or until ``going_on()`` turns false (None)."""
    status, body = api.call("POST", "/api/games/", tokens[0], {"game": game, "players": 2})
    if status != 201:
        played.errors.append(f"create {status}: {body}")
        return None
    path = f"/api/games/{body['id']}/"
    status, body = api.call("POST", path + "join/", tokens[1], {})
    if status != 200:
        played.errors.append(f"join {status}: {body}")
        return None
    seats = {}
    for token in tokens:
        status, detail = api.call("GET", path, token)
        seats[detail["you"]["seat"]] = token
    to_move = detail["to_move"]
    moves: list[Move] = []
    offered = None
    while going_on():
        if offered is None:
            # The player to move asks for their moves once their turn comes (a real client
            # is told it is their turn); a move answers with the mover's next moves when
            # the turn stays with them.
            started = time.perf_counter()
            status, offered = api.call("GET", path + "legal-moves/", seats[to_move])
            played.legal_seconds.append(time.perf_counter() - started)
            if offered["to_move"] is None:
                return moves
            if offered["to_move"] != to_move:
                to_move, offered = offered["to_move"], None
                continue
        move = chooser.choice(offered["moves"])["move"]
        body = {"move": move, "expected_seq": offered["last_seq"]}
        started = time.perf_counter()
        status, answer = api.call(
            "POST", path + "moves/", seats[to_move], body, key=uuid.uuid4().hex
        )
        elapsed = time.perf_counter() - started
        if status != 201:
            played.errors.append(f"move {move!r} {status}: {answer}")
            return None
        record = Move(time.monotonic(), elapsed, offered["last_seq"])
        moves.append(record)
        played.moves.append(record)
        if answer["to_move"] is None:
            return moves
        to_move = answer["to_move"]
        offered = {**answer, "moves": answer["moves"]} if answer["moves"] else None
    return None


# --- a scenario -----------------------------------------------------------------------------


def server_times(access_log: str, start: int) -> dict[str, list[float]]:
    """The server's seconds for each move (POST …/moves/ answered 201) and legal-moves
    poll (GET …/legal-moves/ answered 200) logged after byte ``start`` of the access log."""
    times: dict[str, list[float]] = {"move": [], "legal": [], "floor": [], "read": []}
    with open(access_log, "rb") as log:
        log.seek(start)
        for line in log.read().decode().splitlines():
            method, path, status, micros = line.split()
            if method == "POST" and path.endswith("/moves/") and status == "201":
                times["move"].append(int(micros) / 1e6)
            elif method == "GET" and path.endswith("/legal-moves/") and status == "200":
                times["legal"].append(int(micros) / 1e6)
            elif method == "POST" and path == FLOOR_PATH and status == "201":
                times["floor"].append(int(micros) / 1e6)
            elif method == "GET" and path == FLOOR_PATH and status == "200":
                times["read"].append(int(micros) / 1e6)
    return times


def scenario(port: int, tokens: list[str], clients: int, args) -> dict:
    stop_at = time.monotonic() + args.seconds
    run = Run(stop_at, stop_at + args.grace, clients)
    games = list(GAMES) if args.game == "all" else [args.game]
    results: list[Played] = [Played() for _ in range(clients)]

    def client(index: int) -> None:
        api = Api(port)
        mine = tokens[2 * index : 2 * index + 2]
        turn = index % len(games)
        results[index] = play_games(api, mine, games[turn:] + games[:turn], run)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    timed = [m for r in results for m in r.moves if m.finished_at <= stop_at]
    return {
        "clients": clients,
        "moves": len(timed),
        "per_second": len(timed) / args.seconds,
        "latency": [m.seconds for m in timed],
        "legal": [s for r in results for s in r.legal_seconds],
        "all_moves": sum(len(r.moves) for r in results),
        "games": [g for r in results for g in r.games],
        "errors": [e for r in results for e in r.errors],
    }


FLOOR_PATH = "/api/bench-floor/"


def floor_scenario(
    port: int, tokens: list[str], clients: int, seconds: float, method: str = "POST"
) -> dict:
    """The framework's floor: ``clients`` clients (each a thread with its own keep-alive
    connection and user) POST ``FLOOR_PATH`` (one row in one transaction, bench/floor_wsgi.py)
    back to back for ``seconds``: requests per second and their latency. With ``method``
    GET, the floor of a read: the same authenticated request that reads nothing more."""
    stop_at = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[str] = []
    body, expected = ({"n": 1}, 201) if method == "POST" else (None, 200)

    def client(index: int) -> None:
        api = Api(port)
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            status, answer = api.call(method, FLOOR_PATH, tokens[2 * index], body)
            if status != expected:
                errors.append(f"floor {method} {status}: {answer}")
                return
            latencies[index].append(time.perf_counter() - started)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [seconds for mine in latencies for seconds in mine]
    return {"per_second": len(done) / seconds, "latency": done, "errors": errors}


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user and system, every thread) the processes ``pids`` have used."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                # The fields after the command's name (which may hold spaces), from the 3rd.
                fields = stat.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def workers_of(server: subprocess.Popen) -> list[int]:
    """The gunicorn workers (the master's children)."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (FileNotFoundError, ProcessLookupError):
                continue
            if parent == server.pid:
                children.append(int(entry))
    return children


@dataclass
class Spent:
    """CPU seconds spent by the server's workers and by this client, and the access log's
    lines written, between two ``Meter.read``s."""

    server: float = 0.0
    client: float = 0.0
    requests: int = 0

    def __add__(self, other: "Spent") -> "Spent":
        return Spent(
            self.server + other.server, self.client + other.client, self.requests + other.requests
        )


class Meter:
    """Reads what the server and this process spent since the last reading."""

    def __init__(self, server: subprocess.Popen, access_log: str) -> None:
        self.workers = workers_of(server)
        self.access_log = access_log
        self.last = self._now()

    def _now(self) -> tuple[float, float, int]:
        times = os.times()
        with open(self.access_log, "rb") as log:
            lines = log.read().count(b"\n")
        return cpu_seconds(self.workers), times.user + times.system, lines

    def read(self) -> Spent:
        now = self._now()
        spent = Spent(*(after - before for after, before in zip(now, self.last, strict=True)))
        self.last = now
        return spent


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return f"{percentile(values, 0.5) * 1000:7.1f} {percentile(values, 0.99) * 1000:7.1f}"


def report(results: list[dict]) -> None:
    print(
        f"\n{'clients':>7} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
        f"   legal-moves GET p50/p99 ms   games finished   GETs a move"
    )
    for r in results:
        print(
            f"{r['clients']:>7} {r['moves']:>6} {r['per_second']:>8.1f} {ms(r['latency'])}"
            f"   {ms(r['legal'])}              {len(r['games']):>5}"
            f"   {len(r['legal']) / max(1, r['all_moves']):10.2f}"
        )
    print(f"\nEarly against late moves of finished games (first {EDGE} vs last {EDGE} moves):")
    print(
        f"{'clients':>7} {'game':<16} {'games':>5} {'early p50/p99 ms':>17} "
        f"{'late p50/p99 ms':>17} {'events before late':>19}"
    )
    for r in results:
        for game in GAMES:
            finished = [moves for name, moves in r["games"] if name == game and len(moves) > EDGE]
            if not finished:
                continue
            early = [m.seconds for moves in finished for m in moves[:EDGE]]
            late = [m.seconds for moves in finished for m in moves[-EDGE:]]
            history = statistics.mean(m.history for moves in finished for m in moves[-EDGE:])
            print(
                f"{r['clients']:>7} {game:<16} {len(finished):>5} {ms(early):>17} "
                f"{ms(late):>17} {history:>19.0f}"
            )
    print("\nThe server's time (gunicorn's access log, every move of the run, in a worker):")
    print(f"{'clients':>7} {'move POST p50/p99 ms':>21} {'legal-moves GET p50/p99 ms':>27}")
    for r in results:
        print(f"{r['clients']:>7} {ms(r['server']['move']):>21} {ms(r['server']['legal']):>27}")
    for r in results:
        for error in r["errors"][:5]:
            print(f"error ({r['clients']} clients): {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--seconds", type=float, default=30.0, help="timed window per run")
    parser.add_argument("--grace", type=float, default=90.0, help="to finish games in hand")
    parser.add_argument("--game", choices=["all", *GAMES], default="all")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4, help="gthread threads per worker")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE)
    parser.add_argument("--raw-seconds", type=float, default=5.0, help="raw INSERTs per run")
    parser.add_argument("--floor-seconds", type=float, default=10.0, help="floor POSTs per run")
    args = parser.parse_args()
    if urlsplit(args.database_url).hostname != LOCALHOST:
        raise SystemExit(f"the benchmark talks to {LOCALHOST} only: use a database there")

    with tempfile.TemporaryDirectory(prefix="azulsite-bench-") as var_dir:
        env = server_environment(args.database_url, var_dir)
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "AZULSITE_VAR_DIR", "DEBUG")})
        os.environ["DJANGO_SETTINGS_MODULE"] = env["DJANGO_SETTINGS_MODULE"]
        ensure_database(args.database_url)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        tokens = make_players(2 * max(args.clients))
        import psycopg

        with psycopg.connect(args.database_url, autocommit=True) as database:
            database.execute(FLOOR_TABLE)
        port = free_port()
        access_log = os.path.join(var_dir, "access.log")
        server = start_gunicorn(env, port, args.workers, args.threads, access_log)
        print(
            f"gunicorn on {LOCALHOST}:{port}: {args.workers} workers x {args.threads} threads "
            f"(gthread); {os.cpu_count()} CPUs; games: {args.game}; {args.seconds:.0f} s per run"
        )
        try:
            results = []
            meter = Meter(server, access_log)
            for clients in args.clients:
                raw = raw_inserts(clients, args.raw_seconds)
                logged = os.path.getsize(access_log)
                half = args.floor_seconds / 2
                meter.read()
                floor = floor_scenario(port, tokens, clients, half)
                floor_spent = meter.read()
                moves = scenario(port, tokens, clients, args)
                moves_spent = meter.read()
                after = floor_scenario(port, tokens, clients, half)
                floor_spent += meter.read()
                read = floor_scenario(port, tokens, clients, half, method="GET")
                read["spent"] = meter.read()
                floor = {
                    "per_second": (floor["per_second"] + after["per_second"]) / 2,
                    "latency": floor["latency"] + after["latency"],
                    "errors": floor["errors"] + after["errors"],
                    "spent": floor_spent,
                }
                results.append(
                    {**moves, "raw": raw, "floor": floor, "read": read, "spent": moves_spent}
                )
                results[-1]["server"] = server_times(access_log, logged)
                print(
                    f"  {clients} client(s): {results[-1]['moves']} moves in the window; raw "
                    f"INSERT {raw:.0f}/s just before; load average {load()}"
                )
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(results)
    ratios(results)
    against_floor(results)
    cpu_against_floor(results)


def raw_inserts(writers: int, seconds: float) -> float:
    """Single-row INSERT transactions per second with ``writers`` writers on this database,
    measured as ``bench/store.py`` does (its ``raw INSERT``): the anchor of the ratios."""
    from django.db import connection
    from store import raw_insert_rate

    rate = raw_insert_rate(writers, seconds)
    connection.close()
    return rate


# Issue 19: 1 client at 10% of raw INSERT TPS; 16 clients at 4x the 23.5 moves/s measured
# before it.
TARGET_ONE = 0.10
BEFORE_SIXTEEN = 23.5


# Issue 33: against the framework's floor in the same run, a move's server time at most
# 1.5 times the floor's at 1 client; moves/s at 16 clients at least 0.6 of its requests/s.
FLOOR_TIME = 1.5
FLOOR_RATE = 0.6


def against_floor(results: list[dict]) -> None:
    print("\nAgainst the floor (an authenticated DRF POST inserting one row, same run):")
    for r in results:
        floor, server = r["floor"], r["server"]
        move_p50, floor_p50 = percentile(server["move"], 0.5), percentile(server["floor"], 0.5)
        line = (
            f"{r['clients']:>3} client(s): server p50 move {move_p50 * 1000:.1f} ms / floor"
            f" {floor_p50 * 1000:.1f} ms = {move_p50 / floor_p50:.2f}"
        )
        if r["clients"] == 1:
            line += f" (target <= {FLOOR_TIME})"
        line += (
            f"; moves/s {r['per_second']:.1f} / floor requests/s {floor['per_second']:.1f}"
            f" = {r['per_second'] / floor['per_second']:.2f}"
        )
        if r["clients"] == 16:
            line += f" (target >= {FLOOR_RATE})"
        print(line)
        for error in floor["errors"][:3]:
            print(f"floor error: {error}")


def cpu_against_floor(results: list[dict]) -> None:
    print(
        "\nCPU per move (all the scenario sent for it) and per floor request, ms: the server's"
        " gunicorn workers and the bench's own client; the requests sent per move:"
    )
    print(
        f"{'clients':>7} {'server move':>12} {'floor':>6} {'ratio':>6} {'client move':>12}"
        f" {'floor':>6} {'requests a move':>16}"
    )
    for r in results:
        # Every move of the scenario, the uncounted games' too, as its CPU counts them all.
        moves = max(1, len(r["server"]["move"]))
        floors = max(1, len(r["server"]["floor"]))
        spent, floor = r["spent"], r["floor"]["spent"]
        print(
            f"{r['clients']:>7} {spent.server / moves * 1000:>12.2f}"
            f" {floor.server / floors * 1000:>6.2f}"
            f" {spent.server / moves / (floor.server / floors):>6.2f}"
            f" {spent.client / moves * 1000:>12.2f} {floor.client / floors * 1000:>6.2f}"
            f" {spent.requests / moves:>16.2f}"
        )
    print(
        "\nThe floor of a read (the same route's authenticated GET), the server's CPU per"
        " request, and the ceiling it puts on moves/s against the floor's requests/s for this"
        " client (a move costing one floor request, each poll one floor read):"
    )
    print(f"{'clients':>7} {'read ms':>8} {'of floor':>9} {'polls a move':>13} {'ceiling':>8}")
    for r in results:
        floor = r["floor"]["spent"].server / max(1, len(r["server"]["floor"]))
        read = r["read"]["spent"].server / max(1, len(r["server"]["read"]))
        polls = len(r["legal"]) / max(1, r["all_moves"])
        print(
            f"{r['clients']:>7} {read * 1000:>8.2f} {read / floor:>9.2f} {polls:>13.2f}"
            f" {floor / (floor + polls * read):>8.2f}"
        )
        for error in r["read"]["errors"][:3]:
            print(f"read floor error: {error}")


def ratios(results: list[dict]) -> None:
    print("\nMoves per second against raw single-row INSERTs per second (same run):")
    for r in results:
        ratio = r["per_second"] / r["raw"]
        line = f"{r['clients']:>3} client(s): {r['per_second']:.1f} / {r['raw']:.0f} = {ratio:.1%}"
        if r["clients"] == 1:
            line += f" (target {TARGET_ONE:.0%})"
        if r["clients"] == 16:
            line += (
                f"; {r['per_second'] / BEFORE_SIXTEEN:.1f}x the {BEFORE_SIXTEEN} moves/s of"
                " before (target 4x)"
            )
        print(line)
    print(f"load average {load()}")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
