"""Waits at the table (issue 30): whole games between a person and three computer players,
played through the services with real Celery workers (the default queue's and the
analysis queue's, as the Procfile runs them) and no minute sweep. The person is scripted:
as soon as it is their turn they play a legal move. For every move of theirs the bench
measures the wait until their next turn (or the end), and subtracts the time the computer
players spent thinking in between (the wall time of ``games.bots.choose`` in the worker,
logged by the bench's worker wrapper): what is left is what the site adds (queueing,
reading the table, committing, the bench's 20 ms polling). Printed per game: p50 / p95 /
max of the waits and of what is left.

Then the same with an analysis running beside: the analysis queue's worker starts only
now (the first part's finished games wait in its queue for their analyses, at the site's
simulations) and is kept busy (when no analysis is left, two people's finished game is
analysed again); printed as before, with how often an analysis was under way.

    REDIS_URL=redis://127.0.0.1:6379/4 nice -n 10 .venv/bin/python bench/waits.py
    .venv/bin/python bench/waits.py --game azul --games 3 --levels easy medium hard

The bench uses its own database (``DATABASE_URL``, default ``azulsite_bench_waits``),
emptied at the start.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_waits")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault(
    "CELERY_BROKER_URL", os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
)
os.environ["EMAIL_URL"] = "console://"
os.environ.setdefault("LOG_LEVEL", "ERROR")

from bench.store import migrated, truncate  # noqa: E402 - after the environment it reads

GAMES = ("azul", "summer-pavilion", "miyabi")
QUEUES = ("celery", "analysis")
"""The Procfile's workers: the moves' and emails' queue, and the analyses' own."""
POLL_SECONDS = 0.02
LONGEST_WAIT = 600.0
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


def start_worker(queue: str, thinking: Path, hard_seconds: float) -> subprocess.Popen:
    """``celery -A azulsite worker --queues=<queue>`` (one process, as the Procfile's
    analysis worker; the default queue's with the solo pool for a fair single core)."""
    env = {
        **os.environ,
        "BENCH_THINKING": str(thinking),
        "BOT_HARD_SECONDS": str(hard_seconds),
        "YOUR_TURN_GRACE_SECONDS": "0",
        "CONN_MAX_AGE": "0",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            WORKER,
            "-A",
            "azulsite",
            "worker",
            f"--queues={queue}",
            "--pool=solo",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=warning",
            f"--hostname=bench-{queue}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_until_ready(app, names: list[str], timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while len(app.control.ping(destination=names, timeout=1.0)) < len(names):
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start")


def thinking_between(log: Path, start: float, end: float) -> float:
    """Seconds the computer players thought between ``start`` and ``end`` (wall clock)."""
    if not log.exists():
        return 0.0
    total = 0.0
    for line in log.read_text().splitlines():
        began, ended = json.loads(line)
        total += max(0.0, min(ended, end) - max(began, start))
    return total


def person_turn_or_end(game, person) -> float:
    """Poll until it is ``person``'s turn or the game is over; the wall clock then."""
    from games.models import Game

    deadline = time.monotonic() + LONGEST_WAIT
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return time.time()
        if game.seats.filter(position=game.to_move, user=person).exists():
            return time.time()
        time.sleep(POLL_SECONDS)
    raise SystemExit(f"game {game.pk}: no turn came back in {LONGEST_WAIT} s (left to the sweep?)")


def play_game(
    slug: str, person, levels: list[str], log: Path, before_move=None
) -> list[tuple[float, float]]:
    """One game of ``person`` and computer players of ``levels``: (wait, thinking) per move
    of the person, from the commit of their move to their next turn or the end;
    ``before_move`` is called before each of the person's moves."""
    from games import services
    from games.models import Game
    from games.repository import game_table

    game = services.game_create(creator=person, game=slug, players=1 + len(levels), bots=levels)
    waits = []
    person_turn_or_end(game, person)
    while game.status == Game.Status.ACTIVE:
        if before_move is not None:
            before_move()
        table = game_table(game)
        move = table.engine.format(table.engine.default_command(table.state))
        services.move_submit(game=game, user=person, move=move)
        since = time.time()
        back = person_turn_or_end(game, person)
        waits.append((back - since, thinking_between(log, since, back)))
    return waits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(label: str, waits: list[tuple[float, float]]) -> str:
    raw = [wait for wait, _ in waits]
    left = [max(0.0, wait - thought) for wait, thought in waits]
    return (
        f"{label:40} {len(waits):4} waits  wait p50 {statistics.median(raw):6.2f} p95 "
        f"{percentile(raw, 0.95):6.2f} max {max(raw):6.2f} s   minus thinking: p50 "
        f"{statistics.median(left):5.2f} p95 {percentile(left, 0.95):5.2f} max {max(left):5.2f} s"
    )


def finished_game(people):
    """Two people's game of Azul played to its end with default moves (its analysis is
    asked for by the finishing move and queued to the analysis worker)."""
    from games import services
    from games.models import Game
    from games.repository import game_table

    game = services.game_create(creator=people[0], game="azul", players=2)
    services.game_join(game=game, user=people[1])
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        table = game_table(game)
        mover = game.seats.get(position=game.to_move).user
        move = table.engine.format(table.engine.default_command(table.state))
        services.move_submit(game=game, user=mover, move=move)
        game.refresh_from_db()
    return game


class BusyAnalysis:
    """Keeps the analysis worker busy: whenever no analysis is left waiting or running, the
    finished game's analysis is asked for again (the old one dropped). Counts, before each
    of the person's moves, whether one was under way."""

    def __init__(self, game) -> None:
        self.game, self.asked, self.checks, self.busy = game, 0, 0, 0

    def __call__(self) -> None:
        from django.db import transaction

        from games.models import Analysis
        from games.services.analysis import analysis_request

        self.checks += 1
        unfinished = Analysis.objects.exclude(status=Analysis.Status.DONE)
        if unfinished.exists():
            self.busy += 1
            return
        self.asked += 1
        with transaction.atomic():
            Analysis.objects.filter(game=self.game).delete()
            analysis_request(game=self.game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--games", type=int, default=1, help="games per game and setting")
    parser.add_argument("--levels", nargs=3, default=["easy", "medium", "hard"])
    parser.add_argument(
        "--hard-seconds", type=float, default=0.5, help="the hard level's CPU per move"
    )
    parser.add_argument("--skip-analysis", action="store_true")
    arguments = parser.parse_args()

    migrated()
    truncate("games_game, events_event, auth_user RESTART IDENTITY CASCADE")
    from django.contrib.auth import get_user_model

    from azulsite.celery import app

    app.connection_for_write().default_channel.client.flushdb()
    users = [
        get_user_model().objects.create(
            username=f"bench{i}@bench.example", email=f"bench{i}@bench.example"
        )
        for i in range(3)
    ]
    person = users[0]
    names = [f"bench-{queue}@{socket.gethostname()}" for queue in QUEUES]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "celery.jsonl"
        # The analysis worker starts only for the second part: the first part's finished
        # games ask for their analyses, which wait in its queue until then.
        workers = [start_worker(QUEUES[0], log, arguments.hard_seconds)]
        try:
            wait_until_ready(app, names[:1])
            print(
                f"a person and computer players {', '.join(arguments.levels)} (hard: "
                f"{arguments.hard_seconds} s CPU a move); {arguments.games} game(s) each; "
                "waits from the person's move to their next turn, in seconds",
                flush=True,
            )
            for slug in arguments.game or GAMES:
                waits = []
                for _ in range(arguments.games):
                    waits += play_game(slug, person, arguments.levels, log)
                print(summary(slug, waits), flush=True)
            if arguments.skip_analysis:
                return
            busy = BusyAnalysis(finished_game(users[1:]))
            workers.append(
                start_worker(QUEUES[1], Path(folder) / "analysis.jsonl", arguments.hard_seconds)
            )
            wait_until_ready(app, names)
            for slug in arguments.game or GAMES:
                waits = []
                for _ in range(arguments.games):
                    waits += play_game(slug, person, arguments.levels, log, before_move=busy)
                print(summary(f"{slug}, an analysis beside", waits), flush=True)
            print(
                f"an analysis was under way at {busy.busy} of the person's {busy.checks} "
                f"moves (at the others one was asked for: {busy.asked})"
            )
        finally:
            for worker in workers:
                if worker.poll() is None:
                    os.killpg(worker.pid, 15)
                    worker.wait(30)


if __name__ == "__main__":
    main()
