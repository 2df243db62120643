"""The clock's projection: the columns the periodic sweep reads, written from the clock
value the table folds (``games.clock``) in the transaction of every append.

- ``Game.deadline``: when the seat to move runs out of time (empty while its clock is
  stopped by a pause or a vacation, and in games without a time control).
- ``Game.paused_at``: since when a moderator's pause stops every clock.
- ``SeatClock.bank_seconds`` / ``increment_earned_seconds``: each seat's time left (as of
  its turn's start for the seat to move) and the increment its last move earned.
- ``SeatClock.next_reminder_at`` / ``warning_at``: the reminder and deadline-warning times of
  the seat to move, set when its turn begins (or its stopped clock runs again); the sweep
  moves them on as it sends. Under playing hours both count the seat's time only (a
  reminder's hours are that share of its days of playing hours), so they fall inside its
  hours.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection

from games.clock import Clock
from games.models import Game, SeatClock
from games.prepared import write
from games.repository import game_table


def reminder_policy(game: Game) -> tuple[timedelta, timedelta, timedelta]:
    """(first reminder after, then every, deadline warning before): the game's own policy
    (``time_control["reminders"]``), the site's settings for what it leaves out."""
    chosen = (game.time_control or {}).get("reminders", {})
    return (
        timedelta(hours=chosen.get("first_hours", settings.MAIL_REMINDER_FIRST_HOURS)),
        timedelta(hours=chosen.get("every_hours", settings.MAIL_REMINDER_EVERY_HOURS)),
        timedelta(hours=chosen.get("warning_hours", settings.MAIL_DEADLINE_WARNING_HOURS)),
    )


def reminder_following(game: Game, seat: int, at: datetime, now: datetime) -> datetime:
    """When the seat's next reminder is due after the one due ``at`` (the policy's
    ``every`` later, never in the past): under playing hours, counted in the seat's
    hours, like the first."""
    _, every, _ = reminder_policy(game)
    if not (game.time_control or {}).get("playing_hours"):
        return at + every if at + every > now else now + every
    clock = game_table(game).clock
    following = clock.after(seat, at, _seconds(every))
    return following if following > now else clock.after(seat, now, _seconds(every))


def project(game: Game, clock: Clock, *, before: Clock | None, now: datetime) -> None:
    """Write ``clock`` into the game row (saved by the caller) and the seats' clocks. The
    reminder times of the seat to move start over only when its turn began or its clock
    ran again since ``before``; a finished game has no deadline and no reminders."""
    game.paused_at = clock.paused_since
    in_play = game.status == Game.Status.ACTIVE and clock.turn is not None
    game.deadline = clock.deadline() if in_play else None
    if before is not None and before == clock:
        return
    clocks = _clocks(game)
    if not clocks:
        return
    restarted = before is None or (clock.turn_began, clock.stopped()) != (
        before.turn_began,
        before.stopped(),
    )
    changed = []
    for seat, row in clocks.items():
        was = _columns(row)
        row.bank_seconds = clock.banks[seat] if seat < len(clock.banks) else 0
        row.increment_earned_seconds = clock.earned[seat] if seat < len(clock.earned) else 0
        if not in_play or seat != clock.turn or clock.stopped():
            row.next_reminder_at = row.warning_at = None
        elif restarted or before.deadline() != game.deadline:
            first, _, warn = reminder_policy(game)
            if restarted:
                row.next_reminder_at = clock.after(seat, now, _seconds(first))
            # The warning is due the policy's hours before the deadline (under playing
            # hours, that share of the seat's days, counted in its hours); none when that
            # moment has already passed (the turn email says how long is left).
            warning = clock.warning(_seconds(warn)) if game.deadline else None
            row.warning_at = warning if warning and warning > now else None
        if _columns(row) != was:
            changed.append(row)
    if changed:
        _update(changed)


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds())


COLUMNS = ["bank_seconds", "increment_earned_seconds", "next_reminder_at", "warning_at"]
# PostgreSQL types the columns of a VALUES list from its parameters, so a time that may be
# NULL needs a cast there; SQLite takes them as they come.
_ROW = {
    "postgresql": "(%s, %s, %s, CAST(%s AS timestamptz), CAST(%s AS timestamptz))",
    "sqlite": "(%s, %s, %s, %s, %s)",
}


def _update(rows: list[SeatClock]) -> None:
    """Write the rows' clock columns in one statement, built by hand: the ORM's
    ``bulk_update`` (a CASE per column) cost more to build than the whole move's rules."""
    operations = connection.ops
    params: list = []
    for row in rows:
        params += [
            row.pk,
            row.bank_seconds,
            row.increment_earned_seconds,
            operations.adapt_datetimefield_value(row.next_reminder_at),
            operations.adapt_datetimefield_value(row.warning_at),
        ]
    table = SeatClock._meta.db_table
    values = ", ".join([_ROW[connection.vendor]] * len(rows))
    columns = ", ".join(f"{column} = new.{column}" for column in COLUMNS)
    write(
        f"WITH new (id, {', '.join(COLUMNS)}) AS (VALUES {values})"
        f" UPDATE {table} SET {columns} FROM new WHERE {table}.id = new.id",
        params,
    )


def _columns(row: SeatClock) -> tuple:
    return tuple(getattr(row, column) for column in COLUMNS)


def _clocks(game: Game) -> dict[int, SeatClock]:
    """The clock row of every seated player (read with the seats), created when missing."""
    seats = [s for s in game.seats.all() if s.position is not None and s.user_id is not None]
    clocks = {}
    for seat in seats:
        try:
            clocks[seat.position] = seat.clock
        except SeatClock.DoesNotExist:
            clocks[seat.position] = SeatClock.objects.create(seat=seat)
    return clocks
