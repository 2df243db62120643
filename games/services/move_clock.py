"""The clock of seconds per move (issue 55): in a game with a ``MoveClock`` the seat to move
must move within ``seconds`` of the last move (or of the start); when the time runs out the
game's timeout policy plays for it (``forfeit``: it resigns; ``default_move``: its engine's
least wasteful move; ``bot``: the site's computer player of the game's ``timeout_bot``
level). A bot that runs out of time in three games in a row is paused.

Why a loop of its own, and this one (docs/bot-api.md, "The move clock"): the minute sweep
is a minute too coarse for a clock of seconds. The deadline is not stored: it is read from
the game row the move already writes (``last_move_at``, else ``started_at``) plus the
clock's seconds, so no write can leave it stale and a restart loses nothing. The loop asks
the database for the earliest deadline and sleeps until then, or one second at most (a new
game's first deadline is ``FEWEST_SECONDS`` ahead, so none is missed): one indexed query a
second however many games are timed. Each firing locks the game and checks the deadline
again, so two loops (two stream processes) never play a timeout twice."""

import logging
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import bots, notify
from games import table as tbl
from games.models import BotAccount, Game, MoveClock
from games.repository import game_table
from games.selectors.names import is_bot_account
from games.services.bot_accounts import player_news
from games.services.common import act, bot_seed, locked_game
from games.services.deadlines import seat_forfeits

log = logging.getLogger(__name__)

# The loop sleeps at most this long between two looks at the earliest deadline.
LOOK_SECONDS = 1.0
# A bot that ran out of time in this many of its latest timed games in a row is paused.
TIMEOUTS_IN_A_ROW = 3
# Why, kept in English and said in its reader's language where it is shown (the bots page,
# the owner's email).
PAUSED_FOR_TIMEOUTS = gettext_noop("ran out of time in three games in a row")


def _running():
    """The clocks of the games in play, each with its ``due`` time."""
    if connection.vendor == "sqlite":  # make run's database keeps durations in microseconds
        seconds = ExpressionWrapper(F("seconds") * Value(1_000_000), DurationField())
    else:
        seconds = ExpressionWrapper(F("seconds") * Value(timedelta(seconds=1)), DurationField())
    return (
        MoveClock.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__paused_at__isnull=True,
            game__to_move__isnull=False,
        )
        .annotate(
            due=ExpressionWrapper(
                Coalesce(F("game__last_move_at"), F("game__started_at")) + seconds,
                DateTimeField(),
            )
        )
        .order_by("due")
    )


def next_due() -> datetime | None:
    """The earliest deadline of a timed game in play."""
    first = _running().values_list("due", flat=True).first()
    return first


def clocks_fire(*, now: datetime | None = None) -> int:
    """Play the timeout policy in every timed game whose deadline has passed, each in its
    own transaction (one that fails is logged and leaves the others); how many fired."""
    now = now or timezone.now()
    fired = 0
    for game_id in list(_running().filter(due__lte=now).values_list("game_id", flat=True)):
        try:
            fired += move_clock_fire(game_id=game_id, now=now)
        except Exception:
            log.exception("the move clock of game %s failed", game_id)
    return fired


@transaction.atomic
def move_clock_fire(*, game_id: int, now: datetime) -> bool:
    """The seat to move in timed game ``game_id`` ran out of time: the game's timeout
    policy plays for it. Nothing if it moved meanwhile (checked under the game's lock)."""
    game = locked_game(game_id)
    clock = _running().filter(game_id=game_id, due__lte=now).first()
    if clock is None or game.status != Game.Status.ACTIVE:
        return False
    seat = next(s for s in game.seats.all() if s.position == game.to_move)
    if game.timeout_policy == Game.TimeoutPolicy.FORFEIT:
        seat_forfeits(game, seat, now=now)
    else:
        table = game_table(game)
        if game.timeout_policy == Game.TimeoutPolicy.BOT:
            command = bots.choose(
                table.engine,
                table.state,
                seat.position,
                game.timeout_bot or "medium",
                seed=bot_seed(game, table.last_seq),
            )
        else:
            command = table.engine.default_command(table.state)
        act(
            game,
            tbl.Play(seat.position, command, "timeout"),
            actor="system",
            reason=tbl.TIME_RAN_OUT,
            table=table,
            at=now,
        )
    if seat.position not in clock.timed_out:
        MoveClock.objects.filter(pk=clock.pk).update(timed_out=[*clock.timed_out, seat.position])
        if seat.user is not None and is_bot_account(seat.user):
            _pause_if_absent(seat.user, now)
    return True


def _pause_if_absent(user, now: datetime) -> None:
    """Pause the bot if it ran out of time in each of its latest ``TIMEOUTS_IN_A_ROW``
    timed games (its owner sees why on the account page, and its event stream is told)."""
    latest = list(
        MoveClock.objects.filter(game__seats__user=user)
        .order_by("-game__started_at", "-game_id")
        .values_list("timed_out", "game_id")[:TIMEOUTS_IN_A_ROW]
    )
    positions = dict(
        Game.objects.filter(pk__in=[game_id for _t, game_id in latest], seats__user=user)
        .values_list("pk", "seats__position")
        .distinct()
    )
    absent = [positions.get(game_id) in timed_out for timed_out, game_id in latest]
    if len(absent) < TIMEOUTS_IN_A_ROW or not all(absent):
        return
    account = BotAccount.objects.select_related("owner").filter(user=user).first()
    paused = BotAccount.objects.filter(user=user, paused_at__isnull=True).update(
        paused_at=now, paused_reason=PAUSED_FOR_TIMEOUTS, on_ladder=False
    )
    if paused:
        log.info("bot %s paused: out of time in %s games in a row", user.pk, TIMEOUTS_IN_A_ROW)
        player_news(user.pk)
        notify.bot_paused(account.owner, user, reason=PAUSED_FOR_TIMEOUTS, at=now)


def seconds_to_sleep(look_seconds: float = LOOK_SECONDS) -> float:
    """One turn of the loop: fire what is due; how long to sleep before the next."""
    clocks_fire()
    due = next_due()
    wait = look_seconds if due is None else (due - timezone.now()).total_seconds()
    return min(max(wait, 0.01), look_seconds)
