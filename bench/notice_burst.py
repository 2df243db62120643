"""A burst of moves in a few games against everyone else's emails (issue 58).

Sixteen busy games play a burst of moves (``--moves``, 1,800 by default: what 16 API
clients played in a minute), each move passing the turn and asking for a "your turn" email
after its grace period; then ``--quiet`` other games each see one move, whose "your turn"
email is the one a player elsewhere waits for. The minute sweep then runs pass after pass
on a simulated clock, sending at most ``MAIL_SWEEP_BATCH`` rows a pass itself (no worker
here). The bench prints the rows waiting after the burst and how late each quiet game's
email left: from its due time to the pass that sent it.

It runs twice: as the site runs (a move withdraws the turn notices of the turn it ends),
and with that withdrawal turned off, which is how the site ran before: every obsolete row
stayed queued until the loop claimed it and skipped it at send time. The target: no quiet
email later than its own due time plus one sweep.

    .venv/bin/python bench/notice_burst.py [--moves 1800] [--quiet 100]
"""

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from random import Random
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_burst")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ["EMAIL_URL"] = "file://" + str(ROOT / "var" / "bench-burst-mail")
# No worker takes a task: every email due leaves from the sweep, a batch a pass.
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ.setdefault("LOG_LEVEL", "ERROR")

from bench.store import migrated, truncate  # noqa: E402 - after the environment it reads

BUSY_GAMES = 16
SWEEP = timedelta(minutes=1)


def reset() -> None:
    truncate(
        "games_delivery, games_seatclock, games_seat, games_playersettings, games_game, "
        "events_event, events_streamkey RESTART IDENTITY CASCADE"
    )


def people(count: int) -> list:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    made = []
    for index in range(count):
        email = f"player{index}@burst.example"
        user = User.objects.filter(username=email).first()
        made.append(user or User.objects.create_user(username=email, email=email))
    return made


def game_between(first, second):
    from games.services.tables import game_create, game_join

    game = game_create(creator=first, game="azul", players=2)
    game_join(game=game, user=second)
    game.refresh_from_db()
    return game


def move(game, chooser: Random) -> bool:
    """The seat to move plays a random legal move; whether the game goes on."""
    from games import repository
    from games.models import Game
    from games.selectors.moves import legal_moves_of
    from games.services.moves import move_submit

    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return False
    seat = game.seats.select_related("user").get(position=game.to_move)
    moves = [m["move"] for m in legal_moves_of(repository.game_table(game))]
    move_submit(game=game, user=seat.user, move=chooser.choice(moves))
    return True


def run(moves: int, quiet: int, *, withdrawn: bool) -> None:
    from django.conf import settings
    from django.utils import timezone

    from games.models import NoticeKind, Outbox
    from games.services.sweep import sweep

    reset()
    players = people(2 * (BUSY_GAMES + quiet))
    chooser = Random(58)
    busy = [game_between(players[2 * i], players[2 * i + 1]) for i in range(BUSY_GAMES)]
    calm = [
        game_between(players[2 * i], players[2 * i + 1])
        for i in range(BUSY_GAMES, BUSY_GAMES + quiet)
    ]
    # What the starts asked for leaves first: the sweep's batches then hold the burst alone.
    sweep(now=timezone.now())

    began = time.perf_counter()
    played = 0
    while played < moves:
        for game in busy:
            if played >= moves:
                break
            if move(game, chooser):
                played += 1
            else:
                busy[busy.index(game)] = game_between(*[s.user for s in game.seats.all()])
    burst = time.perf_counter() - began
    before_quiet = Outbox.objects.order_by("-pk").values_list("pk", flat=True).first()
    for game in calm:
        move(game, chooser)
    waiting = Outbox.objects.filter(
        kind=NoticeKind.YOUR_TURN, sent_at__isnull=True, cancelled_at__isnull=True
    )
    queued = waiting.count()
    quiet_rows = dict(waiting.filter(pk__gt=before_quiet).values_list("pk", "due_at"))

    # The first pass when the first quiet email is due, then one a minute.
    now, passes, late = min(quiet_rows.values()), 0, {}
    while len(late) < len(quiet_rows) and passes < 30:
        passes += 1
        sweep(now=now)
        for pk in Outbox.objects.filter(pk__in=quiet_rows, sent_at__isnull=False).values_list(
            "pk", flat=True
        ):
            late.setdefault(pk, (now - quiet_rows[pk]).total_seconds())
        now += SWEEP
    lateness = sorted(late.values())
    unsent = len(quiet_rows) - len(late)
    label = "as the site runs" if withdrawn else "without the withdrawal (before)"
    print(
        f"{label:33} burst of {played} moves in {burst:5.1f} s; your-turn rows waiting after "
        f"it: {queued:5}; quiet games' emails late by p50 {lateness[len(lateness) // 2]:5.0f} s, "
        f"max {lateness[-1]:5.0f} s ({passes} passes of {settings.MAIL_SWEEP_BATCH} rows"
        + (f", {unsent} never sent" if unsent else "")
        + ")"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1800)
    parser.add_argument("--quiet", type=int, default=100)
    arguments = parser.parse_args()
    migrated()
    from django.conf import settings

    # The sweep sends every row of its batch itself, as when no worker is there to hand to.
    settings.SWEEP_SECONDS = 3600
    run(arguments.moves, arguments.quiet, withdrawn=True)
    with mock.patch("games.notify.turn_passed", lambda **kwargs: None):
        run(arguments.moves, arguments.quiet, withdrawn=False)


if __name__ == "__main__":
    main()
