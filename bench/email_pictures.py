"""What the board picture adds to a turn email (issue 33): the CPU of a whole turn email
(``games.notify.channels.email.render.message``) with and without its picture, measured
interleaved in one run, and the picture's size, for every game and player count.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench \
        .venv/bin/python bench/email_pictures.py [--reps 5] [--moves 8]

For each game and player count, a game is started and played ``--moves`` moves into its
first round by the computer players' default command, and its turn email rendered once with
pictures (a worker has drawn pictures before: fonts loaded, boards' parts drawn). Then
``--reps`` times, one more move is played and the new turn email rendered with
``MAIL_BOARD_PICTURES`` off and on alternately. "cold" draws every picture of a position
the process has not drawn (the picture cache emptied before the render: the cost of the
first email of a position when none of the game's pictures is in the cache); "warm"
renders with the cache as the cold render left it (every further email of the same
picture: another reader of the same position, a reminder). "next" renders the turn email
after one more move, the position before it drawn (the first email of a position in a
running game: the boards the move left alone are cache reads). "cold" still finds, in the
process, the bands of the pictures it drew before (``games.notify.channels.email.raster.Sheet``: the
previous position's, in this bench); "bare" draws with those emptied too, as the first
pictures of a board and width since the process started (or since its sheet filled up and
started anew): the most a picture costs.
Each render starts from a garbage collection (both sides alike). Printed: CPU ms of the
rendering process (``time.process_time``: on a busy shared machine wall time says more
about the others), median (min–max) over the repetitions, the ratio of
each repetition's pair (target: ≤ 2), the largest picture's KiB (target: ≤ 60) and all
the email's pictures' KiB (what a reader downloads).
"""

import argparse
import gc
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

from bench.store import migrated  # noqa: E402

CASES = [(kind, players) for kind in ("azul", "summer-pavilion", "miyabi") for players in (2, 3, 4)]


def played_game(kind: str, players: int, moves: int):
    """A started game of ``players`` new users, ``moves`` default moves into it."""
    from django.contrib.auth import get_user_model

    from games.models import Game
    from games.registry import GAME_TYPES
    from games.repository import game_table
    from games.services.moves import move_submit
    from games.services.tables import game_create, game_join

    run = uuid.uuid4().hex[:6]
    # An account's username is its address (``player_by_address``): the email is then
    # addressed to a player, with their board wide and their numbered moves.
    addresses = [f"b{run}{i}@example.org" for i in range(players)]
    users = [
        get_user_model().objects.create_user(address, address, "x", first_name=f"P{i + 1}")
        for i, address in enumerate(addresses)
    ]
    game = game_create(creator=users[0], game=kind, players=players)
    for user in users[1:]:
        game_join(game=game, user=user)
    engine = GAME_TYPES[kind].engine
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        state = game_table(game).state
        if game.to_move is None:
            break
        command = engine.format(engine.default_command(state))
        user = game.seats.get(position=game.to_move).user
        move_submit(game=game, user=user, move=command)
    return Game.objects.get(pk=game.pk)


def one_more_move(game):
    """``game`` after its player to move plays the default move; ``None`` at its end."""
    from games.models import Game
    from games.registry import GAME_TYPES
    from games.repository import game_table
    from games.services.moves import move_submit

    game = Game.objects.get(pk=game.pk)
    if game.to_move is None:
        return None
    engine = GAME_TYPES[game.game_type].engine
    command = engine.format(engine.default_command(game_table(game).state))
    user = game.seats.get(position=game.to_move).user
    move_submit(game=game, user=user, move=command)
    return Game.objects.get(pk=game.pk)


def cpu_ms(row, now) -> tuple[float, object]:
    """CPU milliseconds of rendering ``row``'s email, and the email. Garbage collected
    first, so that a collection the step before triggered does not land in one side."""
    from games.notify.channels.email import render

    gc.collect()
    start = time.process_time()
    result = render.message(row, now)
    return (time.process_time() - start) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--moves", type=int, default=8)
    arguments = parser.parse_args()
    migrated()
    from django.conf import settings
    from django.core.mail.message import EmailMultiAlternatives
    from django.utils import timezone

    from games.models import NoticeKind, Outbox
    from games.notify.channels.email import pictures, raster

    settings.CELERY_TASK_ALWAYS_EAGER = False
    spread = lambda values: (  # noqa: E731
        f"{statistics.median(values):6.1f} ({min(values):.1f}–{max(values):.1f})"
    )
    print(
        f"{'game':>16} {'p':>2} {'without ms':>20} {'cold ms':>22} {'cold ratio':>16}"
        f" {'warm ms':>20} {'warm ratio':>12} {'next ratio':>12} {'bare ratio':>12}"
        f" {'KiB':>5} {'all':>5}"
    )
    for kind, players in CASES:
        game = played_game(kind, players, arguments.moves)
        row = Outbox.objects.filter(game=game, kind=NoticeKind.YOUR_TURN).latest("id")
        now = timezone.now()
        without, cold, warm, ratios, warm_ratios, bare_ratios = [], [], [], [], [], []
        size = total = 0
        settings.MAIL_BOARD_PICTURES = False
        cpu_ms(row, now)  # the first render of a process imports and compiles templates
        settings.MAIL_BOARD_PICTURES = True
        cpu_ms(row, now)  # and a worker has drawn pictures before (fonts, boards' parts)
        for _ in range(arguments.reps):
            game = one_more_move(game)
            if game is None:
                break
            row = Outbox.objects.filter(game=game, kind=NoticeKind.YOUR_TURN).latest("id")
            settings.MAIL_BOARD_PICTURES = False
            off, _message = cpu_ms(row, now)
            settings.MAIL_BOARD_PICTURES = True
            getattr(pictures, "forget", lambda: None)()  # the code before issue 33 kept none
            on, message = cpu_ms(row, now)
            hot, _message = cpu_ms(row, now)
            pictures.forget()
            raster.sheet_of.cache_clear()
            bare, _message = cpu_ms(row, now)
            bare_ratios.append(bare / off)
            assert isinstance(message, EmailMultiAlternatives)
            size = max(len(png) for _cid, png in message.pictures) / 1024
            total = sum(len(png) for _cid, png in message.pictures) / 1024
            without.append(off)
            cold.append(on)
            warm.append(hot)
            ratios.append(on / off)
            warm_ratios.append(hot / off)
        next_ratios = []
        for _ in range(arguments.reps):
            game = one_more_move(game)
            if game is None:
                break
            row = Outbox.objects.filter(game=game, kind=NoticeKind.YOUR_TURN).latest("id")
            settings.MAIL_BOARD_PICTURES = False
            off, _message = cpu_ms(row, now)
            settings.MAIL_BOARD_PICTURES = True
            on, _message = cpu_ms(row, now)
            next_ratios.append(on / off)
        print(
            f"{kind:>16} {players:>2} {spread(without):>20} {spread(cold):>22}"
            f" {min(ratios):5.2f}–{max(ratios):.2f}{'':>5} {spread(warm):>20}"
            f" {min(warm_ratios):5.2f}–{max(warm_ratios):.2f}{'':>2}"
            f" {min(next_ratios):5.2f}–{max(next_ratios):.2f}{'':>2}"
            f" {min(bare_ratios):5.2f}–{max(bare_ratios):.2f}{'':>2} {size:5.0f} {total:5.0f}"
        )


if __name__ == "__main__":
    main()
