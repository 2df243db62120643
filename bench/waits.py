"""Waits at the table as the page sees them (issues 30 and 43): a person plays against 1 and
3 computer players of each level, through a real web server and real Celery workers, in
each configuration: ``make run``'s defaults (SQLite and the filesystem broker in a var
dir of the bench's own, ``runserver``, one worker with embedded beat) and the Procfile's
(PostgreSQL and Redis, gunicorn, a worker).

The person is a client that does what the game page does: it confirms a move (the form's
POST, then the page it is sent back to), then checks ``/games/<id>/live`` at the page's
own intervals (``data-ms`` and ``data-soon-ms`` of the page, as ``play.js`` chooses
between them) until the answer says it is their turn (or the game is over). The wait is
from the Confirm to that answer; from it the bench subtracts the time the computer
players spent thinking meanwhile (the wall time of ``games.bots.choose`` in the worker,
logged by the bench's worker wrapper): what is left is what the site adds (the POST, the
page, queueing, the page's checks). Printed per case: p50 / p95 / max of both.

    REDIS_URL=redis://127.0.0.1:6379/4 nice -n 10 .venv/bin/python bench/waits.py
    .venv/bin/python bench/waits.py --config make-run --moves 10 --game azul

The PostgreSQL configuration uses its own database (``DATABASE_URL``, default
``azulsite_bench_waits``), emptied at the start, and flushes the Redis database it uses.
"""

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = ("azul", "summer-pavilion", "miyabi")
LEVELS = ("easy", "medium", "hard")
OPPONENTS = (1, 3)
CONFIGS = ("make-run", "postgres-redis")
LONGEST_WAIT = 600.0
# play.js: the fast checks last this long after the last change the page saw.
SOON_FOR_SECONDS = 30.0
# The worker's wrapper: every ``games.bots.choose`` logs its start and end (wall clock)
# to the file named by BENCH_THINKING, one JSON line each; then Celery's own main runs.
WORKER = """
import json, os, sys, time
import django
django.setup()
import games.services.bots as service
choose = service.bots.choose
def timed(*args, **kwargs):
    began = time.time()
    try:
        return choose(*args, **kwargs)
    finally:
        with open(os.environ["BENCH_THINKING"], "a") as log:
            log.write(json.dumps([began, time.time()]) + "\\n")
service.bots.choose = timed
from celery.__main__ import main
sys.argv = ["celery", *sys.argv[1:]]
main()
"""


def configure(config: str, var_dir: Path) -> None:
    """The environment of ``config`` for this process and the servers it starts."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "azulsite.settings"
    os.environ["AZULSITE_VAR_DIR"] = str(var_dir)
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    if config == "make-run":
        for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "EMAIL_URL"):
            os.environ.pop(name, None)
        # As azulsite/devrun.py starts runserver: it holds the pages' streams itself.
        os.environ["NEWS_STREAM_IN_THREADS"] = "1"
        return
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_waits")
    os.environ["CELERY_BROKER_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/4"
    os.environ["NEWS_REDIS_URL"] = os.environ["CELERY_BROKER_URL"]
    os.environ["EMAIL_URL"] = "console://"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_web(config: str, port: int, workers: int = 2) -> subprocess.Popen:
    """The web server of ``config``: ``make run``'s ``runserver`` (as ``azulsite/devrun.py``
    starts it) or the Procfile's gunicorn with ``workers`` processes."""
    if config == "make-run":
        command = ["manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"]
    else:
        gunicorn = ["-m", "gunicorn", "azulsite.wsgi", f"--workers={workers}"]
        command = [*gunicorn, f"--bind=127.0.0.1:{port}"]
    return serving([sys.executable, *command], port, "the web server")


def start_stream(port: int) -> subprocess.Popen:
    """The Procfile's ``stream`` process (uvicorn, the site's ASGI application): what the
    proxy sends ``/stream/`` to."""
    command = ["-m", "uvicorn", "azulsite.asgi:application", "--port", str(port)]
    command += ["--timeout-graceful-shutdown", "5"]
    return serving([sys.executable, *command, "--log-level", "warning"], port, "the stream server")


def serving(command: list[str], port: int, what: str) -> subprocess.Popen:
    """``command`` started, once it answers ``/healthz`` on ``port``."""
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return server
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{what} did not start")


def start_worker(config: str, thinking: Path, hard_seconds: float) -> subprocess.Popen:
    """The default queue's worker of ``config`` (``make run``'s: one process with embedded
    beat; the Procfile's: one per core), its computer players' thinking logged."""
    options = ["--beat", "--concurrency=1"] if config == "make-run" else []
    env = {**os.environ, "BENCH_THINKING": str(thinking), "BOT_HARD_SECONDS": str(hard_seconds)}
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, "-A", "azulsite", "worker", "--queues=celery", *options]
        + ["--loglevel=warning", "--hostname=bench-waits@%h"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, 15)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                process.wait(30)


def browser_for(user, url: str):
    """A ``requests`` session signed in as ``user`` (a test client's session cookie)."""
    import requests
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = requests.Session()
    session.cookies.set(
        settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value
    )
    session.base = session.stream_base = url
    return session


def thinking_between(log: Path, start: float, end: float) -> float:
    """Seconds the computer players thought between ``start`` and ``end`` (wall clock)."""
    if not log.exists():
        return 0.0
    total = 0.0
    for line in log.read_text().splitlines():
        began, ended = json.loads(line)
        total += max(0.0, min(ended, end) - max(began, start))
    return total


def live_of(html: str) -> dict:
    """The page's ``#live`` attributes that its script reads."""
    tag = re.search(r'<div id="live"[^>]*>', html).group(0)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))


def turn_seen(browser, game_id: int, html: str) -> None:
    """Follow the game as the page's script does, from the page ``html``, until it shows
    the person's turn or the game's end: its event stream, checking ``live`` at each
    news (and at the stream's hello, if the game moved on since the page); the page's
    polling where the site holds no stream."""
    if 'class="your-turn"' in html:
        return
    live = live_of(html)
    seq, chat = live["seq"], live["chat"]
    deadline = time.monotonic() + LONGEST_WAIT
    while time.monotonic() < deadline:
        stream = browser.get(
            f"{browser.stream_base}{live['stream']}", stream=True, timeout=LONGEST_WAIT
        )
        if stream.status_code == 204:
            return polled(browser, game_id, live)
        if turn_in_stream(browser, game_id, stream, seq, chat):
            return
        # The stream ended (a server ends it now and then): opened again, as EventSource does.
    raise SystemExit(f"game {game_id}: no turn came back in {LONGEST_WAIT} s")


def turn_in_stream(browser, game_id: int, stream, seq: str, chat: str) -> bool:
    """Read ``stream`` until the person's turn comes (``True``) or the stream ends."""
    with stream:
        # Line by line as the bytes come (by default requests waits for 512 of them).
        event = ""
        for line in stream.iter_lines(chunk_size=1, decode_unicode=True):
            if line.startswith("event:"):
                event = line[6:].strip()
                continue
            if not line.startswith("data:"):
                continue
            said = json.loads(line[5:])
            if event == "hello" and said["status"] != "active":
                return True  # the person's own move ended the game
            moved = event == "news" or str(said.get("seq")) != seq
            if moved and turn_checked(browser, game_id, seq, chat):
                return True
    return False


def turn_checked(browser, game_id: int, seq: str, chat: str) -> bool:
    """The page's check after news: whether the person's turn (or the end) came."""
    answer = browser.get(
        f"{browser.base}/games/{game_id}/live", params={"seq": seq, "chat": chat}
    ).json()
    return answer["status"] != "active" or bool(answer.get("my_turn"))


def polled(browser, game_id: int, live: dict) -> None:
    """The page's polling, at its own intervals, where the site holds no stream."""
    seq, chat, soon = live["seq"], live["chat"], live["soon"] == "1"
    every, soon_every = int(live["ms"]) / 1000, int(live["soon-ms"]) / 1000
    changed = time.monotonic()
    deadline = changed + LONGEST_WAIT
    while time.monotonic() < deadline:
        fast = soon and time.monotonic() - changed < SOON_FOR_SECONDS
        time.sleep(soon_every if fast else every)
        answer = browser.get(
            f"{browser.base}/games/{game_id}/live", params={"seq": seq, "chat": chat}
        ).json()
        if answer["status"] != "active" or answer.get("my_turn"):
            return
        if str(answer["seq"]) != seq:
            seq, soon, changed = str(answer["seq"]), answer["soon"], time.monotonic()
        chat = str(answer["chat"])
    raise SystemExit(f"game {game_id}: no turn came back in {LONGEST_WAIT} s")


def confirm(browser, game, html: str) -> str:
    """Send the move form of the page ``html`` with the move that wastes least; the page
    the browser is sent back to."""
    from games.repository import game_table

    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    expected = re.search(r'name="expected_seq" value="(\d+)"', html).group(1)
    game.refresh_from_db()
    table = game_table(game)
    move = table.engine.format(table.engine.default_command(table.state))
    answer = browser.post(
        f"{browser.base}/games/{game.pk}/move/",
        data={"csrfmiddlewaretoken": token, "expected_seq": expected, "move": move},
        headers={"Referer": f"{browser.base}/games/{game.pk}/"},
    )
    answer.raise_for_status()
    return answer.text


def play(slug: str, person, levels: list[str], browser, log: Path, moves: int) -> list:
    """Games of ``person`` against computer players of ``levels`` until ``moves`` moves of
    the person: (wait, thinking) per move, from the Confirm to the turn the page shows."""
    from games.models import Game
    from games.services.tables import game_create

    waits = []
    while len(waits) < moves:
        game = game_create(creator=person, game=slug, players=1 + len(levels), bots=levels)
        page = browser.get(f"{browser.base}/games/{game.pk}/").text
        turn_seen(browser, game.pk, page)
        page = browser.get(f"{browser.base}/games/{game.pk}/").text
        while len(waits) < moves and game.status == Game.Status.ACTIVE:
            since = time.time()
            page = confirm(browser, game, page)
            turn_seen(browser, game.pk, page)
            back = time.time()
            waits.append((back - since, thinking_between(log, since, back)))
            page = browser.get(f"{browser.base}/games/{game.pk}/").text
            game.refresh_from_db()
    return waits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(label: str, waits: list[tuple[float, float]]) -> str:
    raw = [wait for wait, _ in waits]
    left = [max(0.0, wait - thought) for wait, thought in waits]
    return (
        f"{label:34} {len(waits):3} waits  wait p50 {statistics.median(raw):5.2f} p95 "
        f"{percentile(raw, 0.95):5.2f}   minus thinking: p50 {statistics.median(left):5.2f} "
        f"p95 {percentile(left, 0.95):5.2f} max {max(left):5.2f} s"
    )


def load() -> str:
    return "load " + " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def prepared(config: str):
    """Django set up on ``config``'s empty, migrated database and broker."""
    if config == "make-run":
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        return
    from bench.store import migrated, truncate

    migrated()
    truncate("games_game, events_event, auth_user RESTART IDENTITY CASCADE")
    from azulsite.celery import app

    app.connection_for_write().default_channel.client.flushdb()


def run(config: str, arguments) -> None:
    """Every case in ``config``, printed as it ends."""
    with tempfile.TemporaryDirectory() as folder:
        configure(config, Path(folder))
        prepared(config)
        from django.contrib.auth import get_user_model

        person = get_user_model().objects.create(
            username="bench@bench.example", email="bench@bench.example"
        )
        log = Path(folder) / "thinking.jsonl"
        port = free_port()
        processes = [start_worker(config, log, arguments.hard_seconds)]
        try:
            processes.append(start_web(config, port))
            browser = browser_for(person, f"http://127.0.0.1:{port}")
            # The proxy's rule: /stream/ goes to the stream process (make run: runserver).
            if config != "make-run":
                stream_port = free_port()
                processes.append(start_stream(stream_port))
                browser.stream_base = f"http://127.0.0.1:{stream_port}"
            print(
                f"{config}: the person's moves, {arguments.moves} per case, against computer "
                f"players (hard: {arguments.hard_seconds} s CPU a move), from Confirm to the "
                f"turn the page shows, in seconds ({load()})",
                flush=True,
            )
            for slug in arguments.game or ["summer-pavilion"]:
                for opponents in OPPONENTS:
                    for level in arguments.levels:
                        waits = play(
                            slug, person, [level] * opponents, browser, log, arguments.moves
                        )
                        label = f"  {slug} against {opponents} {level}"
                        print(f"{summary(label, waits)}  ({load()})", flush=True)
        finally:
            stop(processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", choices=CONFIGS, action="append")
    parser.add_argument("--game", choices=GAMES, action="append", help="summer-pavilion")
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--moves", type=int, default=30, help="the person's moves per case")
    parser.add_argument(
        "--hard-seconds", type=float, default=0.5, help="the hard level's CPU per move"
    )
    arguments = parser.parse_args()
    configs = arguments.config or list(CONFIGS)
    if len(configs) == 1:
        run(configs[0], arguments)
        return
    # Django is set up once per process: each configuration runs in a process of its own.
    for config in configs:
        subprocess.run([sys.executable, *sys.argv, f"--config={config}"], check=True)


if __name__ == "__main__":
    main()
