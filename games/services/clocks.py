"""Time control: the clock of the seat to move, kept in database columns the sweep reads.

For services only: every function runs inside the caller's transaction with the game row
locked. Invariant for a game in play with a time control: either its clock runs
(``Game.deadline`` is set; the seat has ``deadline - now`` left) or it is stopped (a
moderator's pause, ``Game.paused_at``, or the player's vacation; ``deadline`` is empty and
``SeatClock.bank_seconds`` holds what is left). Kinds (``Game.time_control``):

- ``none``: no deadline; reminders only.
- ``per_move``: each turn has ``days`` days.
- ``bank``: each seat starts with ``bank_hours``; a turn spends from the bank, and a move
  adds ``increment_hours`` back, never above ``cap_hours``.
"""

from datetime import datetime, timedelta

from django.conf import settings

from games.models import Game, PlayerSettings, SeatClock

HOUR = 3600
DAY = 24 * HOUR


def reminder_policy(game: Game) -> tuple[timedelta, timedelta, timedelta]:
    """(first reminder after, then every, deadline warning before): the game's own policy
    (``time_control["reminders"]``), the site's settings for what it leaves out."""
    chosen = (game.time_control or {}).get("reminders", {})
    return (
        timedelta(hours=chosen.get("first_hours", settings.MAIL_REMINDER_FIRST_HOURS)),
        timedelta(hours=chosen.get("every_hours", settings.MAIL_REMINDER_EVERY_HOURS)),
        timedelta(hours=chosen.get("warning_hours", settings.MAIL_DEADLINE_WARNING_HOURS)),
    )


def ends_with_move(table) -> bool:
    """Whether the table's last event is a move's (not an undo's, a takeback's or a
    resignation's): only a move earns a bank its increment."""
    if not table.steps:
        return False
    step = table.steps[-1]
    return step.seq + len(step.events) == table.last_seq


def turn_changed(game: Game, *, previous: int | None, now: datetime, moved: bool) -> None:
    """Start the clock of the seat now to move (``game.to_move``) and settle the one of the
    seat that had the turn (``previous``). At the start of a game every bank is filled; a
    finished game has no deadline and no reminders. With a bank, a seat that ``moved``
    gains the increment; when the turn comes back by an undo or a takeback, the seat whose
    move was taken back gives that increment back, so moving and undoing gains no time.
    The caller saves ``game``."""
    if game.status != Game.Status.ACTIVE or game.to_move is None:
        game.deadline = None
        SeatClock.objects.filter(seat__game=game).update(next_reminder_at=None, warning_at=None)
        return
    control = game.time_control or {}
    clocks = _clocks(game)
    if game.to_move == previous:
        # The same seat keeps the turn; a clock left stopped by a pause that has ended
        # (the turn passed while paused) runs again.
        clock = clocks.get(game.to_move)
        timed = control.get("kind", "none") != "none"
        if timed and clock and game.deadline is None and not is_stopped(game, clock):
            _run(game, clock, now)
            clock.save(update_fields=["next_reminder_at", "warning_at"])
        return
    if previous is None:
        for clock in clocks.values():
            clock.bank_seconds = control.get("bank_hours", 0) * HOUR
    elif previous in clocks:
        settled = clocks[previous]
        if control.get("kind") == "bank":
            left = _seconds_left(game, settled, now)
            increment = control["increment_hours"] * HOUR if moved else 0
            settled.bank_seconds = min(control["cap_hours"] * HOUR, left + increment)
            settled.increment_earned_seconds = max(0, settled.bank_seconds - left)
        settled.next_reminder_at = settled.warning_at = None
    clock = clocks.get(game.to_move)
    if clock is not None:
        if control.get("kind") == "per_move":
            clock.bank_seconds = control["days"] * DAY
        elif not moved:
            clock.bank_seconds -= min(clock.bank_seconds, clock.increment_earned_seconds)
            clock.increment_earned_seconds = 0
        _run(game, clock, now)
    SeatClock.objects.bulk_update(
        clocks.values(),
        ["bank_seconds", "increment_earned_seconds", "next_reminder_at", "warning_at"],
    )


def timed_out(game: Game) -> None:
    """The seat to move has no time left: its turn's remaining time is zero (a bank then
    gets only the increment of the move played for it)."""
    SeatClock.objects.filter(seat__game=game, seat__position=game.to_move).update(
        bank_seconds=0, next_reminder_at=None, warning_at=None
    )
    game.deadline = None
    game.save(update_fields=["deadline"])


def stop(game: Game, *, now: datetime) -> None:
    """Stop the clock of the seat to move (a pause, the player's vacation): what is left
    is kept in its bank, no deadline and no reminders until it runs again."""
    clock = _clock_to_move(game)
    if clock is None:
        return
    if game.deadline is not None:
        clock.bank_seconds = _seconds_left(game, clock, now)
        game.deadline = None
        game.save(update_fields=["deadline"])
    clock.next_reminder_at = clock.warning_at = None
    clock.save(update_fields=["bank_seconds", "next_reminder_at", "warning_at"])


def resume(game: Game, *, now: datetime) -> None:
    """Run the clock of the seat to move again from what it had left, unless something
    still stops it."""
    clock = _clock_to_move(game)
    if clock is None or game.deadline is not None:
        return
    _run(game, clock, now)
    game.save(update_fields=["deadline"])
    clock.save(update_fields=["next_reminder_at", "warning_at"])


def extend(game: Game, *, seconds: int, now: datetime) -> None:
    """Give the seat to move more time (an opponent's "+1 day", a moderator)."""
    clock = _clock_to_move(game)
    if clock is None:
        return
    if game.deadline is None:
        clock.bank_seconds += seconds
        clock.save(update_fields=["bank_seconds"])
        return
    game.deadline += timedelta(seconds=seconds)
    game.save(update_fields=["deadline"])
    clock.warning_at = _warning_at(game, now)
    clock.save(update_fields=["warning_at"])


def is_stopped(game: Game, clock: SeatClock) -> bool:
    """A moderator paused the game, or the player to move is on vacation."""
    if game.paused_at is not None:
        return True
    return PlayerSettings.objects.filter(
        user_id=clock.seat.user_id, vacation_started_at__isnull=False
    ).exists()


def _run(game: Game, clock: SeatClock, now: datetime) -> None:
    first, _, _ = reminder_policy(game)
    if is_stopped(game, clock):
        game.deadline = None
        clock.next_reminder_at = clock.warning_at = None
        return
    timed = (game.time_control or {}).get("kind", "none") != "none"
    game.deadline = now + timedelta(seconds=clock.bank_seconds) if timed else None
    clock.next_reminder_at = now + first
    clock.warning_at = _warning_at(game, now)


def _warning_at(game: Game, now: datetime) -> datetime | None:
    """The warning is due the policy's hours before the deadline; none when that moment
    has already passed (the turn email says how long is left)."""
    if game.deadline is None:
        return None
    _, _, before = reminder_policy(game)
    warning = game.deadline - before
    return warning if warning > now else None


def _seconds_left(game: Game, clock: SeatClock, now: datetime) -> int:
    if game.deadline is None:
        return clock.bank_seconds
    return max(0, int((game.deadline - now).total_seconds()))


def _clocks(game: Game) -> dict[int, SeatClock]:
    """The clock of every seated player, created when missing."""
    seats = game.seats.select_related("clock").filter(position__isnull=False, user__isnull=False)
    clocks = {}
    for seat in seats:
        try:
            clocks[seat.position] = seat.clock
        except SeatClock.DoesNotExist:
            clocks[seat.position] = SeatClock.objects.create(seat=seat)
    return clocks


def _clock_to_move(game: Game) -> SeatClock | None:
    if game.status != Game.Status.ACTIVE or game.to_move is None:
        return None
    return _clocks(game).get(game.to_move)
