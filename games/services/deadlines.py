"""Time running out and time stopped: the timeout policy of a game whose deadline has
passed, and players' vacations (their clocks stop in every game)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import table as tbl
from games.errors import Conflict
from games.models import Game, PlayerSettings, Seat
from games.repository import game_table
from games.services import sweep_failures
from games.services.common import act, actor_of, games_swept, locked_game
from games.services.moves import seat_resign

# A timed-out seat's turn is played out by default moves; a turn is never longer.
LONGEST_TURN = 100
# The minute sweep's job of timeouts (``services.sweep.JOBS``).
JOB = "timeouts"


def timeouts_apply(*, now: datetime) -> int:
    """Apply the timeout policy of every game whose deadline has passed. A computer player
    never times out, and the policy ``bot`` is applied by ``bots.bots_sweep``: both are
    left to it."""
    bot_to_move = Seat.objects.filter(
        game=OuterRef("pk"), position=OuterRef("to_move"), user__isnull=True
    ).exclude(bot="")
    ids = (
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now, paused_at__isnull=True)
        .exclude(timeout_policy=Game.TimeoutPolicy.BOT)
        .exclude(Exists(bot_to_move))
        .exclude(pk__in=sweep_failures.resting(JOB, now))
        .order_by("deadline")
        .values_list("pk", flat=True)[: settings.MAIL_SWEEP_BATCH]
    )
    return games_swept(ids, game_timeout, now=now, job=JOB)


@transaction.atomic
def game_timeout(*, game_id: int, now: datetime) -> bool:
    """The seat to move ran out of time: with ``default_move`` its turn is played by its
    engine's ``default_command`` (the documented least wasteful move); with ``forfeit``
    the seat resigns. The player is told either way."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if (
        game is None
        or game.status != Game.Status.ACTIVE
        or game.deadline is None
        or game.deadline > now
        or game.paused_at is not None
        or game.timeout_policy == Game.TimeoutPolicy.BOT
    ):
        return False
    seat = game.seats.select_related("user").get(position=game.to_move)
    if seat.user is None:
        return False
    if game.timeout_policy == Game.TimeoutPolicy.FORFEIT:
        return seat_forfeits(game, seat, now=now)
    played = []
    table = game_table(game)
    for _turn in range(LONGEST_TURN):
        if table.over or table.to_move() != seat.position:
            break
        command = table.engine.default_command(table.state)
        played.append(table.engine.format(command))
        table, _written = act(
            game,
            tbl.Play(seat.position, command, "timeout"),
            actor="system",
            reason=tbl.TIME_RAN_OUT,
            table=table,
            at=now,
        )
    return True


def seat_forfeits(game: Game, seat: Seat, *, now: datetime) -> bool:
    """The time-out policy ``forfeit``: ``seat`` (the one to move, its time run out)
    resigns (its player is told: the reaction ``timeout_notices``). In the game's
    transaction, the game locked."""
    seat_resign(game, seat, actor="system", reason=tbl.TIME_RAN_OUT, at=now)
    return True


# --- vacation -----------------------------------------------------------------------------


def vacation_left(prefs: PlayerSettings, now: datetime) -> timedelta:
    """Vacation time left this year (the allowance is ``vacation_days_per_year``)."""
    used = prefs.vacation_seconds_used if prefs.vacation_year == now.year else 0
    if prefs.vacation_started_at is not None:
        used += int((now - prefs.vacation_started_at).total_seconds())
    return max(timedelta(0), timedelta(days=prefs.vacation_days_per_year, seconds=-used))


@transaction.atomic
def vacation_start(*, user, now: datetime | None = None) -> PlayerSettings:
    """Go on vacation: the player's clocks stop in every game until they come back or
    their vacation days for the year run out."""
    now = now or timezone.now()
    prefs, _created = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    if prefs.vacation_started_at is not None:
        raise Conflict(_("you are already on vacation"), code="on_vacation")
    if prefs.vacation_year != now.year:
        prefs.vacation_year, prefs.vacation_seconds_used = now.year, 0
    if vacation_left(prefs, now) <= timedelta(0):
        raise Conflict(
            ngettext(
                "you have used your %(days)s vacation day this year",
                "you have used your %(days)s vacation days this year",
                prefs.vacation_days_per_year,
            )
            % {"days": prefs.vacation_days_per_year},
            code="no_vacation_left",
        )
    prefs.vacation_started_at = now
    prefs.save()
    _every_game_of(user, tbl.StartVacation, now)
    return prefs


@transaction.atomic
def vacation_end(*, user, now: datetime | None = None) -> PlayerSettings:
    """Come back: the days used are counted and the clocks run again from what they had
    left."""
    now = now or timezone.now()
    prefs, _created = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    if prefs.vacation_started_at is None:
        raise Conflict(_("you are not on vacation"), code="not_on_vacation")
    allowance = prefs.vacation_days_per_year * 86400
    spent = int((now - prefs.vacation_started_at).total_seconds())
    prefs.vacation_seconds_used = min(allowance, prefs.vacation_seconds_used + spent)
    prefs.vacation_started_at = None
    prefs.save()
    _every_game_of(user, tbl.EndVacation, now)
    return prefs


def vacations_expire(*, now: datetime) -> int:
    """End every vacation whose days ran out, at the moment they ran out."""
    ended = 0
    on_vacation = PlayerSettings.objects.filter(vacation_started_at__isnull=False)
    for prefs in list(on_vacation.select_related("user")[: settings.MAIL_SWEEP_BATCH]):
        # vacation_start counted the year's days used before this vacation began.
        ends = prefs.vacation_started_at + timedelta(
            days=prefs.vacation_days_per_year, seconds=-prefs.vacation_seconds_used
        )
        if ends <= now:
            vacation_end(user=prefs.user, now=ends)
            ended += 1
    return ended


def _every_game_of(user, command, now: datetime) -> None:
    """Record the vacation in every game the player is playing, so each game's clock knows
    it (``command``: ``StartVacation`` or ``EndVacation``)."""
    seats = Seat.objects.filter(
        user=user, status=Seat.Status.JOINED, game__status=Game.Status.ACTIVE
    ).order_by("game_id")
    for game_id, position in list(seats.values_list("game_id", "position")):
        game = locked_game(Game(pk=game_id))
        act(game, command(position), actor=actor_of(user), at=now)
