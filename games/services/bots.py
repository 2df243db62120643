"""Computer players at the table (issue 15). A bot plays through ``act`` like a person, as
actor ``bot:<level>``: for a bot seat (a seat with a level and no user), and for a seat
whose time ran out in a game whose timeout policy is ``bot``.

A bot never moves inside a web request. When a change leaves a bot seat to move, its
transaction queues the Celery task ``bot_move`` on commit (the reaction
``reactions.computer_player_queued``); the task reads the table and decides *outside* the
game's lock (the hard level thinks for ``BOT_HARD_SECONDS``), then locks the game and
submits with the seq it read. A stale seq means someone acted meanwhile: it reads again.
The task goes on while a computer is to move (the next bot seat, a bot's second placement),
one broker round trip for them all, for ``BOT_TASK_SECONDS`` at most, then hands over to a
new task (issue 42: three computer players gave the turn back only after three tasks).
A task the broker lost is made up for by the minute sweep (``bots_sweep``). A bot sees the
engine state only (``games.bots``), never the game's RNG or secret."""

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from azulsite import metrics
from azulsite.celery import send_quickly
from games import bots
from games import table as tbl
from games.models import BotLevel, Game, Seat
from games.repository import game_table
from games.selectors.names import bot_actor
from games.services import sweep_failures
from games.services.common import act, bot_seed, games_swept, locked_game

log = logging.getLogger(__name__)

# The sweep plays a bot seat that has been to move this long: its task was lost.
LOST_AFTER = timedelta(minutes=1)
# Games a sweep pass takes (each move may take BOT_HARD_SECONDS: past ``SWEEP_SECONDS``
# the pass hands them to the workers); the rest wait a minute.
SWEEP_BATCH = 100
# The minute sweep's job of computer players' moves (``services.sweep.JOBS``).
SWEEP_JOB = "bot_moves"
# Reads again after a stale seq at most this often per move before leaving it to the sweep.
STALE_TRIES = 5


@dataclass(frozen=True)
class _Owed:
    """A move a bot owes now: for which seat, at which level, and why (``auto``)."""

    seat: Seat
    level: str
    auto: str


def _owed(game: Game | None, now: datetime) -> _Owed | None:
    if game is None or game.status != Game.Status.ACTIVE or game.to_move is None:
        return None
    seat = next((s for s in game.seats.all() if s.position == game.to_move), None)
    if seat is None or seat.status != Seat.Status.JOINED:
        return None
    if seat.bot and not seat.user_id:
        return _Owed(seat, seat.bot, "")
    timed_out = (
        game.timeout_policy == Game.TimeoutPolicy.BOT
        and game.deadline is not None
        and game.deadline <= now
        and game.paused_at is None
    )
    if timed_out:
        return _Owed(seat, game.timeout_bot or BotLevel.MEDIUM, "timeout")
    return None


def bot_move(*, game_id: int, now: datetime | None = None) -> int:
    """Play what bots owe in the game now, while they owe it: bot seats' moves, and the
    whole turn of a seat whose time ran out (timeout policy ``bot``; its player is told, as
    for every timeout: the reaction ``timeout_notices``). After ``BOT_TASK_SECONDS`` a new
    task is asked to go on. Returns the moves played."""
    began = time.monotonic()
    count = 0
    while (owed := _owed(_read(game_id), now or timezone.now())) is not None:
        if count and time.monotonic() - began > settings.BOT_TASK_SECONDS:
            if not send_quickly("games.tasks.bot_move", [game_id]):
                log.warning("game %s: broker unreachable; the sweep will play on", game_id)
            break
        if _play(game_id, owed, now) is None:
            break
        count += 1
    return count


def _read(game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).prefetch_related("seats").first()


def _play(game_id: int, owed: _Owed, now: datetime | None) -> str | None:
    """Decide outside the lock, then submit under it with the seq read; read again after a
    stale seq. The move played (notation), or ``None`` when nothing is owed any more."""
    for _ in range(STALE_TRIES):
        game = _read(game_id)
        table = game_table(game)
        if _owed(game, now or timezone.now()) != owed or table.to_move() != owed.seat.position:
            return None
        with metrics.THINKING_SECONDS.labels(level=owed.level).time():
            command = bots.choose(
                game.game_type,
                table.state,
                owed.seat.position,
                owed.level,
                seed=bot_seed(game, table.last_seq),
                budget_seconds=settings.BOT_HARD_SECONDS,
            )
        move = table.engine.format(command)
        if _submit(game, table, owed, command, now):
            return move
    log.warning("game %s: the bot's move kept going stale; the sweep will retry", game_id)
    return None


@transaction.atomic
def _submit(game: Game, table: tbl.Table, owed: _Owed, command, now) -> bool:
    """Lock the game and play ``command`` if nobody acted since ``table`` was read."""
    game = locked_game(game)
    if game.last_seq != table.last_seq:
        return False
    reason = tbl.TIME_RAN_OUT if owed.auto == "timeout" else ""
    act(
        game,
        tbl.Play(owed.seat.position, command, owed.auto),
        actor=bot_actor(owed.level),
        reason=reason,
        table=table,
        at=now,
        plays_on=True,
    )
    return True


def bots_sweep(*, now: datetime) -> int:
    """The minute sweep's part: play the bot seats that have been to move for more than
    ``LOST_AFTER`` (their task was lost) and the turns whose time ran out in games whose
    timeout policy is ``bot``, oldest first, at most ``SWEEP_BATCH`` games a pass."""
    bot_to_move = Seat.objects.filter(
        game=OuterRef("pk"), position=OuterRef("to_move"), user__isnull=True
    ).exclude(bot="")
    due = (
        Game.objects.filter(status=Game.Status.ACTIVE)
        .filter(
            Q(Exists(bot_to_move), last_move_at__lte=now - LOST_AFTER)
            | Q(
                timeout_policy=Game.TimeoutPolicy.BOT,
                deadline__lte=now,
                paused_at__isnull=True,
            )
        )
        .exclude(pk__in=sweep_failures.resting(SWEEP_JOB, now))
        .order_by(F("last_move_at").asc(nulls_first=True))
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return games_swept(due, bot_move, now=now, job=SWEEP_JOB)
