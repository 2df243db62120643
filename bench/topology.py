"""More than one machine, on the engines we already use (issue 33): the site's processes
share only PostgreSQL and Redis. This runs two gunicorn processes, two Celery workers and
two Celery beats (the second one started by mistake) against PostgreSQL behind PgBouncer in
transaction pooling (Debian's ``pgbouncer``) and Redis, and checks that nothing is lost or
doubled:

1. the same move ×100 at once: 100 clients send one move with one ``Idempotency-Key``
   (one event, every answer the same), then 100 different moves on one ``expected_seq``
   (one 201, the rest 409);
2. mixed writes: in ``--clients``/2 games both players write at once, each through another
   web process: moves, undo, takeback requests and answers, chat messages (through the
   game's page, with a session); afterwards every acknowledged move and message is stored
   once, every stream is gapless and every game's state folds;
3. a soak of ``--clients`` clients for ``--seconds`` playing whole games (moves with
   ``expected_seq`` and an ``Idempotency-Key``, retried with the same key on any error or
   on the other web process), while one web process is killed (SIGKILL) a third of the way
   in and one worker two thirds of the way in;
4. afterwards: every move a client was told was played is in its game's events, once; no
   idempotency key is used twice in a stream; every email of the outbox is sent, and no
   Message-ID is written twice (emails go to ``.eml`` files), with the two beats (one
   started by mistake) running the minute sweep all along.

With ``--replica`` the database is a primary and a streaming replica of its own (two
PostgreSQL clusters made with initdb and pg_basebackup on free ports; the machine's server
on 5432 is left alone): the web processes get ``DATABASE_REPLICA_URL``, and the bench shows
the replay, archive and leaderboard reads arriving at the replica (its transaction count)
and the game pages and moves not.

    .venv/bin/python bench/topology.py [--seconds 60] [--clients 16] [--replica]

Without ``--replica`` the primary is ``--database-url`` (default: the machine's server,
database ``azulsite_topology``). Everything listens on 127.0.0.1 and is stopped at the end.
"""

import argparse
import contextlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from email import message_from_binary_file
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
LOCALHOST = "127.0.0.1"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOCALHOST, 0))
        return sock.getsockname()[1]


def as_postgres(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """PostgreSQL's and PgBouncer's tools refuse to run as root."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    return subprocess.run(prefix + command, check=True, capture_output=True, **kwargs)


def wait_for(check, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet, whatever the reason
            pass
        time.sleep(0.3)
    raise SystemExit(f"{what} did not come up within {seconds:.0f} s")


# --- the engines ------------------------------------------------------------------------------


class Clusters:
    """A primary and its streaming replica, each a PostgreSQL cluster of its own."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.primary_port, self.replica_port = free_port(), free_port()
        self.primary, self.replica = home / "primary", home / "replica"

    def start(self) -> None:
        os.chown(self.home, *_postgres_ids())
        as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(self.primary), "-A", "trust", "-U", "postgres"]
        )
        with open(self.primary / "postgresql.conf", "a") as conf:
            conf.write(
                f"port = {self.primary_port}\nlisten_addresses = '{LOCALHOST}'\n"
                "unix_socket_directories = ''\nwal_level = replica\nmax_wal_senders = 4\n"
                "fsync = off\nsynchronous_commit = on\n"
            )
        with open(self.primary / "pg_hba.conf", "a") as hba:
            hba.write(f"host replication postgres {LOCALHOST}/32 trust\n")
        self._ctl(self.primary, "start")
        as_postgres(
            [
                str(PG_BIN / "pg_basebackup"),
                "-h",
                LOCALHOST,
                "-p",
                str(self.primary_port),
                "-U",
                "postgres",
                "-D",
                str(self.replica),
                "-R",
                "-X",
                "stream",
            ]
        )
        with open(self.replica / "postgresql.conf", "a") as conf:
            # Every statement logged: the bench counts what each request read there.
            conf.write(f"port = {self.replica_port}\nhot_standby = on\nlog_statement = 'all'\n")
        self._ctl(self.replica, "start")

    def stop(self) -> None:
        for data in (self.replica, self.primary):
            if (data / "postmaster.pid").exists():
                self._ctl(data, "stop", "-m", "fast")

    def _ctl(self, data: Path, *action: str) -> None:
        as_postgres(
            [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(data) + ".log", "-w", *action]
        )


def _postgres_ids() -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam("postgres")
    return entry.pw_uid, entry.pw_gid


def start_pgbouncer(home: Path, port: int, database: str, db_port: int) -> subprocess.Popen:
    """PgBouncer in transaction pooling in front of ``database``."""
    ini = home / "pgbouncer.ini"
    (home / "users.txt").write_text('"postgres" ""\n')
    ini.write_text(
        f"[databases]\n{database} = host={LOCALHOST} port={db_port} dbname={database}\n"
        f"[pgbouncer]\nlisten_addr = {LOCALHOST}\nlisten_port = {port}\n"
        f"auth_type = trust\nauth_file = {home / 'users.txt'}\npool_mode = transaction\n"
        "max_client_conn = 400\ndefault_pool_size = 20\nunix_socket_dir =\n"
        "ignore_startup_parameters = extra_float_digits,options\n"
        "log_connections = 0\nlog_disconnections = 0\n"
    )
    os.chown(home, *_postgres_ids())
    for path in (ini, home / "users.txt"):
        os.chown(path, *_postgres_ids())
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    process = subprocess.Popen(
        prefix + ["pgbouncer", str(ini)],
        stdout=(home / "pgbouncer.log").open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for(lambda: socket.create_connection((LOCALHOST, port), 1), "PgBouncer")
    return process


# --- the site's processes ---------------------------------------------------------------------


def environment(database_url: str, redis_url: str, var_dir: Path, replica_url: str) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        # PgBouncer's transaction pooling keeps no prepared statement between transactions.
        "DATABASE_PREPARE_THRESHOLD": "",
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "azulsite.settings",
        "AZULSITE_VAR_DIR": str(var_dir),
        "DEBUG": "0",
        "ALLOWED_HOSTS": LOCALHOST,
        "SITE_URL": f"http://{LOCALHOST}",
        "EMAIL_URL": f"file://{var_dir / 'mail'}",
        "YOUR_TURN_GRACE_SECONDS": "0",
        # A connection per request: PgBouncer pools them; and the replica's statistics
        # (which the bench reads) are written when a connection ends.
        "CONN_MAX_AGE": "0",
        "MAIL_BOARD_PICTURES": "0",
        "LOG_LEVEL": "ERROR",
        "API_USER_RATE": "1000000/min",
    }
    if replica_url:
        env["DATABASE_REPLICA_URL"] = replica_url
    return env


def start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A process in a group of its own (gunicorn's and Celery's children die with it)."""
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def kill(process: subprocess.Popen, sig=signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    process.wait(timeout=30)


def healthy(port: int) -> bool:
    connection = http.client.HTTPConnection(LOCALHOST, port, timeout=2)
    connection.request("GET", "/healthz")
    return connection.getresponse().status == 200


# --- clients ----------------------------------------------------------------------------------


class Client:
    """One player's keep-alive connection to one web process; on a failure it sends the
    same request again (a move with the same Idempotency-Key) to the other one."""

    def __init__(self, ports: list[int], first: int) -> None:
        self.ports, self.index = ports, first
        self.connection = None
        self.retries = 0

    def call(self, method: str, path: str, token: str, body=None, key=None):
        headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
        payload = json.dumps(body) if body is not None else None
        if payload:
            headers["Content-Type"] = "application/json"
        if key:
            headers["Idempotency-Key"] = key
        for _attempt in range(20):
            try:
                if self.connection is None:
                    port = self.ports[self.index % len(self.ports)]
                    self.connection = http.client.HTTPConnection(LOCALHOST, port, timeout=30)
                self.connection.request(method, path, payload, headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.status >= 500 and key:
                    raise OSError(f"{response.status}")
                return response.status, json.loads(data or b"null")
            except (http.client.HTTPException, OSError):
                self.retries += 1
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                self.index += 1
                time.sleep(0.2)
        raise RuntimeError(f"{method} {path}: no web process answered")


def new_game(client: Client, tokens: list[str], game: str) -> tuple[str, dict]:
    status, body = client.call("POST", "/api/games/", tokens[0], {"game": game, "players": 2})
    assert status == 201, (status, body)
    path = f"/api/games/{body['id']}/"
    status, body = client.call("POST", path + "join/", tokens[1], {})
    assert status == 200, (status, body)
    seats = {}
    for token in tokens:
        _, detail = client.call("GET", path, token)
        seats[detail["you"]["seat"]] = token
    return path, seats


def legal(client: Client, path: str, seats: dict) -> dict:
    for token in seats.values():
        _, offered = client.call("GET", path + "legal-moves/", token)
        if offered["to_move"] is None or offered["moves"]:
            return offered
    return offered


def same_move_at_once(ports: list[int], tokens: list[str]) -> list[str]:
    """Check 1; its failures."""
    failures = []
    client = Client(ports, 0)
    path, seats = new_game(client, tokens, "azul")
    offered = legal(client, path, seats)
    token = seats[offered["to_move"]]
    move = offered["moves"][0]["move"]
    key = uuid.uuid4().hex
    answers: list = []
    barrier = threading.Barrier(100)

    def send(index: int, body: dict, key: str) -> None:
        mine = Client(ports, index)
        barrier.wait()
        answers.append(mine.call("POST", path + "moves/", token, body, key=key))

    body = {"move": move, "expected_seq": offered["last_seq"]}
    threads = [threading.Thread(target=send, args=(i, body, key)) for i in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seqs = {json.dumps(answer, sort_keys=True) for status, answer in answers if status < 300}
    if len(seqs) != 1 or len(answers) != 100:
        failures.append(f"same move, same key x100: {len(seqs)} different answers")
    _, events = client.call("GET", path + "events/?after=0", token)
    if sum(1 for e in events if e.get("seq", 0) > offered["last_seq"]) != len(
        json.loads(seqs.pop())["events"] if seqs else []
    ):
        failures.append("same move, same key x100: the events appended differ from the answer")
    offered = legal(client, path, seats)
    token = seats[offered["to_move"]]
    moves = [m["move"] for m in offered["moves"]]
    answers.clear()
    barrier.reset()
    threads = [
        threading.Thread(
            target=send,
            args=(
                i,
                {"move": moves[i % len(moves)], "expected_seq": offered["last_seq"]},
                uuid.uuid4().hex,
            ),
        )
        for i in range(100)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counted = Counter(status for status, _ in answers)
    if counted[201] != 1 or counted[201] + counted[409] != 100:
        failures.append(f"100 moves on one expected_seq: {dict(counted)}")
    print(f"  same move x100: one answer; 100 moves on one seq: {dict(counted)}")
    return failures


def soak(ports, tokens, clients: int, seconds: float, played: list, errors: list) -> None:
    stop_at = time.monotonic() + seconds

    def player(index: int) -> None:
        client = Client(ports, index)
        mine = tokens[2 * index : 2 * index + 2]
        chooser = random.Random(index)
        games = ["azul", "summer-pavilion", "miyabi"]
        while time.monotonic() < stop_at:
            try:
                path, seats = new_game(client, mine, games[index % 3])
                while time.monotonic() < stop_at:
                    offered = legal(client, path, seats)
                    if offered["to_move"] is None:
                        break
                    move = chooser.choice(offered["moves"])["move"]
                    key = uuid.uuid4().hex
                    body = {"move": move, "expected_seq": offered["last_seq"]}
                    status, answer = client.call(
                        "POST", path + "moves/", seats[offered["to_move"]], body, key=key
                    )
                    if status in (200, 201):
                        played.append((path, key, answer["last_seq"]))
                    elif status != 409:
                        errors.append(f"move {status}: {answer}")
            except (AssertionError, RuntimeError, KeyError) as error:
                errors.append(repr(error)[:200])
        played_retries.append(client.retries)

    played_retries: list[int] = []
    threads = [threading.Thread(target=player, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"  clients' retries after a failure: {sum(played_retries)}")


def signed_in(tokens: list[str]) -> dict[str, str]:
    """A session cookie for each token's user (the chat is written on the game's page, a
    door with a session and CSRF, not the API)."""
    from django.test import Client as Browser
    from rest_framework.authtoken.models import Token

    cookies = {}
    for token in tokens:
        browser = Browser()
        browser.force_login(Token.objects.get(key=token).user)
        cookies[token] = browser.cookies["sessionid"].value
    return cookies


CSRF = "b" * 32  # a CSRF secret the client sets as cookie and header alike


def chat(client: Client, game_id: str, token: str, session: str, text: str) -> int:
    """Post ``text`` in the game's chat through its page, as a browser does; the status
    (a redirect back to the game once the POST was taken)."""
    body = f"text={text}"
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
        "Content-Type": "application/x-www-form-urlencoded",
    }
    for _attempt in range(20):
        try:
            if client.connection is None:
                port = client.ports[client.index % len(client.ports)]
                client.connection = http.client.HTTPConnection(LOCALHOST, port, timeout=30)
            client.connection.request("POST", f"/games/{game_id}/chat/", body, headers)
            response = client.connection.getresponse()
            response.read()
            return response.status
        except (http.client.HTTPException, OSError):
            client.retries += 1
            client.connection = None
            client.index += 1
            time.sleep(0.2)
    raise RuntimeError("chat: no web process answered")


def mixed_writes(ports, tokens, games: int, seconds: float, played: list) -> list[str]:
    """Check 2: in ``games`` games at once, both players write together through the two
    web processes (each player on another one): moves, undo, takeback requests and
    answers, and chat messages. Every answer is an answer (no 5xx); afterwards every
    acknowledged move and message is stored once, every stream is gapless, and every
    game's state still folds."""
    stop_at = time.monotonic() + seconds
    sessions = signed_in(tokens[: 2 * games])
    said: list[str] = []
    errors: list[str] = []
    counts: Counter = Counter()
    paths = []

    def player(path: str, seats: dict, token: str, index: int) -> None:
        client = Client(ports, index)
        chooser = random.Random(f"{path}{index}")
        game_id = path.strip("/").rsplit("/", 1)[-1]
        while time.monotonic() < stop_at:
            _, detail = client.call("GET", path, token)
            if detail["status"] != "active":
                return
            you, roll = detail["you"], chooser.random()
            if you["can_answer_takeback"]:
                request = detail["takeback"]["request"]
                answer = {"accept": roll < 0.5}
                status, body = client.call(
                    "POST", f"{path}takebacks/{request}/answer/", token, answer
                )
                kind = "takeback answer"
            elif you["your_turn"] and you["takeback_points"] and roll < 0.1:
                to_seq = {"to_seq": you["takeback_points"][0]}
                status, body = client.call("POST", path + "takebacks/", token, to_seq)
                kind = "takeback request"
            elif you["your_turn"]:
                _, offered = client.call("GET", path + "legal-moves/", token)
                if not offered["moves"]:
                    continue
                key = uuid.uuid4().hex
                body = {
                    "move": chooser.choice(offered["moves"])["move"],
                    "expected_seq": offered["last_seq"],
                }
                status, body = client.call("POST", path + "moves/", token, body, key=key)
                if status in (200, 201):
                    played.append((path, key, body["last_seq"]))
                kind = "move"
            elif you["can_undo"] and roll < 0.3:
                status, body = client.call("POST", path + "undo/", token, {})
                kind = "undo"
            else:
                text = uuid.uuid4().hex
                status, body = chat(client, game_id, token, sessions[token], text), None
                if status == 302:
                    said.append(text)
                kind = "chat"
            counts[(kind, status)] += 1
            if status >= 500:
                errors.append(f"{kind} {status}: {body}")

    threads = []
    for number in range(games):
        pair = tokens[2 * number : 2 * number + 2]
        path, seats = new_game(Client(ports, number), pair, "azul")
        paths.append((path, pair[0]))
        for index, token in enumerate(pair):
            threads.append(threading.Thread(target=player, args=(path, seats, token, index)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("  answers: " + ", ".join(f"{k} {s}: {n}" for (k, s), n in sorted(counts.items())))
    failures = [f"mixed writes: {e}" for e in errors[:5]]
    import psycopg

    with psycopg.connect(os.environ["BENCH_PRIMARY"], autocommit=True) as db:
        stored = Counter(
            text for (text,) in db.execute("SELECT text FROM games_chatmessage").fetchall()
        )
        gaps = db.execute(
            "SELECT stream FROM events_event GROUP BY stream HAVING count(*) <> max(seq)"
        ).fetchall()
    lost = [t for t in said if stored[t] != 1]
    print(
        f"  chat messages acknowledged: {len(said)}, not stored once: {len(lost)}; streams "
        f"with a gap: {len(gaps)}"
    )
    failures += [f"chat message not stored once: {t}" for t in lost[:5]]
    failures += [f"a stream with a gap: {stream}" for (stream,) in gaps[:5]]
    client = Client(ports, 0)
    for path, token in paths:
        status, _ = client.call("GET", path + "state/", token)
        if status != 200:
            failures.append(f"{path}state/ answered {status} after the mixed writes")
    return failures


# --- the bench --------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--replica", action="store_true")
    parser.add_argument(
        "--database-url", default=f"postgres://postgres@{LOCALHOST}:5432/azulsite_topology"
    )
    parser.add_argument("--redis-url", default=f"redis://{LOCALHOST}:6379/12")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="azulsite-topology-"))
    os.chmod(home, 0o777)
    var_dir = home / "var"
    (var_dir / "mail").mkdir(parents=True)
    os.chmod(var_dir, 0o777)
    name = args.database_url.rsplit("/", 1)[1]
    clusters = Clusters(home / "pg") if args.replica else None
    processes: list[subprocess.Popen] = []
    failures: list[str] = []
    try:
        if clusters:
            (home / "pg").mkdir()
            clusters.start()
            primary = f"postgres://postgres@{LOCALHOST}:{clusters.primary_port}/{name}"
            replica = f"postgres://postgres@{LOCALHOST}:{clusters.replica_port}/{name}"
            print(
                f"PostgreSQL primary :{clusters.primary_port}, streaming replica "
                f":{clusters.replica_port}"
            )
        else:
            primary, replica = args.database_url, ""
        db_port = int(primary.split(":")[-1].split("/")[0])
        import psycopg

        with psycopg.connect(primary.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
        bouncer_port = free_port()
        processes.append(start_pgbouncer(home, bouncer_port, name, db_port))
        bounced = f"postgres://postgres@{LOCALHOST}:{bouncer_port}/{name}"
        print(
            f"PgBouncer :{bouncer_port} (transaction pooling) -> :{db_port}/{name}; Redis "
            f"{args.redis_url}"
        )
        env = environment(bounced, args.redis_url, var_dir, replica)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
            cwd=ROOT,
            env={**env, "DATABASE_URL": primary},
            check=True,
        )
        os.environ.update(
            {
                k: env[k]
                for k in (
                    "DATABASE_URL",
                    "DJANGO_SETTINGS_MODULE",
                    "AZULSITE_VAR_DIR",
                    "DATABASE_PREPARE_THRESHOLD",
                )
            }
        )
        from api_moves import make_players

        tokens = make_players(2 * max(args.clients, 1))
        from django.db import connections

        connections.close_all()

        log = home / "processes.log"
        ports = [free_port(), free_port()]
        webs = [
            start(
                [
                    str(BIN / "gunicorn"),
                    "azulsite.wsgi",
                    "--bind",
                    f"{LOCALHOST}:{port}",
                    "--workers",
                    "2",
                    "--worker-class",
                    "gthread",
                    "--threads",
                    "4",
                    "--log-level",
                    "warning",
                ],
                env,
                log,
            )
            for port in ports
        ]
        workers = [
            start(
                [
                    str(BIN / "celery"),
                    "-A",
                    "azulsite",
                    "worker",
                    "--queues=celery",
                    "--concurrency=2",
                    f"--hostname=worker{i}@%h",
                    "--loglevel=warning",
                ],
                env,
                log,
            )
            for i in range(2)
        ]
        beats = [
            start(
                [
                    str(BIN / "celery"),
                    "-A",
                    "azulsite",
                    "beat",
                    "--loglevel=warning",
                    f"--schedule={home / f'beat{i}'}",
                ],
                env,
                log,
            )
            for i in range(2)
        ]
        processes += webs + workers + beats
        for port in ports:
            wait_for(lambda port=port: healthy(port), f"gunicorn :{port}")
        print(f"gunicorn :{ports[0]} and :{ports[1]} (2x4 each), 2 Celery workers, 2 beats")

        print("1. the same move at once")
        failures += same_move_at_once(ports, tokens[:2])

        played: list = []
        print(
            f"2. mixed writes: moves, undo, takebacks and chat at once in {args.clients // 2}"
            f" games, each player on another web process, for {args.seconds / 3:.0f} s"
        )
        os.environ["BENCH_PRIMARY"] = primary
        games = max(1, args.clients // 2)
        failures += mixed_writes(ports, tokens, games, args.seconds / 3, played)

        print(
            f"3. soak: {args.clients} clients for {args.seconds:.0f} s; a web process and a "
            "worker killed on the way"
        )
        errors: list = []
        load = threading.Thread(
            target=soak, args=(ports, tokens, args.clients, args.seconds, played, errors)
        )
        load.start()
        time.sleep(args.seconds / 3)
        kill(webs[0])
        print(f"  killed gunicorn :{ports[0]} (SIGKILL) at {args.seconds / 3:.0f} s")
        time.sleep(args.seconds / 3)
        kill(workers[0])
        print(f"  killed a Celery worker (SIGKILL) at {2 * args.seconds / 3:.0f} s")
        load.join()
        print(f"  moves acknowledged: {len(played)}; other errors: {len(errors)}")
        for error in errors[:5]:
            print(f"    {error}")
        failures += [f"soak: {e}" for e in errors[:5]]

        print("4. nothing lost, nothing doubled (two beats running throughout)")
        failures += audit(primary, played, var_dir / "mail")
        if clusters:
            REPLICA_LOG.append(Path(str(clusters.replica) + ".log"))
            failures += replica_reads(ports[1], tokens, played, replica, primary)
    finally:
        for process in reversed(processes):
            kill(process, signal.SIGTERM)
        if clusters:
            clusters.stop()
        shutil.rmtree(home, ignore_errors=True)
    print("\n" + ("every check passed" if not failures else "FAILED:\n  " + "\n  ".join(failures)))
    sys.exit(1 if failures else 0)


def audit(primary: str, played: list, mail: Path, drain_seconds: float = 150) -> list[str]:
    import psycopg

    failures = []
    with psycopg.connect(primary, autocommit=True) as db:
        keys = Counter(
            db.execute(
                "SELECT stream, idempotency_key FROM events_event WHERE idempotency_key IS NOT NULL"
            ).fetchall()
        )
        doubled = [k for k, n in keys.items() if n > 1]
        # The service stores a key as "<actor>:<the client's key>" (keys belong to a player).
        stored = {key.rsplit(":", 1)[-1] for _stream, key in keys}
        lost = [(path, key) for path, key, _seq in played if key not in stored]
        print(
            f"  moves acknowledged and not stored: {len(lost)}; keys stored twice: {len(doubled)}"
        )
        failures += [f"lost move {m}" for m in lost[:5]] + [f"doubled {k}" for k in doubled[:5]]
        deadline = time.monotonic() + drain_seconds
        while time.monotonic() < deadline:
            # Due now and claimed by no worker: the sweep's. A row a killed worker claimed
            # waits MAIL_CLAIM_STALE_SECONDS, then is sent again if it never reached DATA,
            # else left "in doubt" for the operator rather than risk sending it twice.
            (waiting,) = db.execute(
                "SELECT count(*) FROM games_delivery WHERE channel = 'email' AND sent_at IS NULL"
                " AND cancelled_at IS NULL AND claimed_at IS NULL AND due_at <= now()"
            ).fetchone()
            if not waiting:
                break
            time.sleep(2)
        (rows,) = db.execute(
            "SELECT count(*) FROM games_delivery WHERE channel = 'email' AND sent_at IS NOT NULL"
        ).fetchone()
        sent_ids = {
            mid
            for (mid,) in db.execute(
                "SELECT message_id FROM games_delivery"
                " WHERE channel = 'email' AND sent_at IS NOT NULL"
            )
        }
        later, in_doubt = db.execute(
            "SELECT count(*) FILTER (WHERE due_at > now()), count(*) FILTER (WHERE in_doubt_at"
            " IS NOT NULL) FROM games_delivery"
            " WHERE channel = 'email' AND sent_at IS NULL AND cancelled_at IS NULL"
        ).fetchone()
        claimed = {
            mid
            for (mid,) in db.execute(
                "SELECT message_id FROM games_delivery WHERE channel = 'email' AND sent_at IS NULL"
                " AND cancelled_at IS NULL AND claimed_at IS NOT NULL"
            )
        }
        doubtful = {
            mid
            for (mid,) in db.execute(
                "SELECT message_id FROM games_delivery"
                " WHERE channel = 'email' AND sent_at IS NULL AND in_doubt_at IS NOT NULL"
            )
        }
    written = Counter()
    for path in mail.glob("*.eml"):
        with path.open("rb") as file:
            written[message_from_binary_file(file)["Message-ID"].strip("<>")] += 1
    twice = [m for m, n in written.items() if n > 1]
    unsent = [m for m in sent_ids if m.strip("<>") not in written]
    print(
        f"  emails: {rows} sent rows, {sum(written.values())} written, {len(twice)} written "
        f"twice, {waiting} due and unsent after the drain, {len(unsent)} marked sent and not "
        f"written; {later} due later (reminders, digests); {in_doubt} in doubt, of which "
        f"{len([m for m in doubtful if m.strip('<>') in written])} written"
    )
    claimed_lost = [m for m in claimed if m.strip("<>") not in written]
    print(
        f"  claimed by a killed worker and unconfirmed: {len(claimed)}, of which written "
        f"{len(claimed) - len(claimed_lost)} (the rest are sent again once their claim is stale)"
    )
    failures += [f"email twice {m}" for m in twice[:5]]
    if waiting:
        failures.append(f"{waiting} emails never sent")
    failures += [f"email marked sent, not written: {m}" for m in unsent[:5]]
    return failures


def clusters_replica_log(replica: str) -> Path:
    return REPLICA_LOG[0]


REPLICA_LOG: list[Path] = []


def replica_reads(port: int, tokens, played, replica: str, primary: str) -> list[str]:
    """Lag-tolerant reads arrive at the replica; a game page and a move do not."""
    import psycopg

    log = Path(str(clusters_replica_log(replica)))

    with psycopg.connect(primary, autocommit=True) as db:
        (lag,) = db.execute(
            "SELECT coalesce(max(replay_lag), '0'::interval) FROM pg_stat_replication"
        ).fetchone()
    failures = []
    client = Client([port], 0)
    path = played[0][0] if played else "/api/games/1/"
    token = tokens[0]

    def delta(method: str, url: str) -> int:
        """Statements the replica ran while the web process answered ``url``."""
        time.sleep(0.3)
        before = log.stat().st_size
        client.call(method, url, token)
        time.sleep(0.5)
        with log.open("rb") as file:
            file.seek(before)
            logged = file.read()
        # Server-side binding logs "execute <name>: …"; the simple protocol "statement: …".
        return logged.count(b"LOG:  execute ") + logged.count(b"LOG:  statement: ")

    for url in (path + "export/", "/api/leaderboard/azul/", "/api/archive/"):
        seen = delta("GET", url)
        print(f"  GET {url}: {seen} statements on the replica")
        if seen <= 0:
            failures.append(f"{url} did not read the replica")
    seen = delta("GET", path)
    print(f"  GET {path} (a game as its player sees it): {seen} on the replica")
    if seen > 0:
        failures.append(f"{path} read the replica")
    print(f"  replication lag (pg_stat_replication.replay_lag): {lag}")
    return failures


if __name__ == "__main__":
    main()
