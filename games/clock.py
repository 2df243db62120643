"""The correspondence clock as a value, folded from a game's events (like scalachess's
correspondence clock): the deadline of every seat is a pure function of the stream, the
game's time control and the time. Standard library only.

Kinds of time control (``TimeControl.kind``):

- ``none``: no deadline; reminders only.
- ``per_move``: each turn has ``days`` days.
- ``bank``: each seat starts with ``bank_hours``; a turn spends from the bank, and a move
  adds ``increment_hours`` back, never above ``cap_hours``.

A seat's clock runs while it is that seat's turn, unless a moderator paused the game or
the player is on vacation. The database columns the sweep reads (``Game.deadline``, the
seats' banks) are a projection of this value.

Playing hours (issue 32): a game may let each seat's clock run only during that seat's
daily ``PlayingHours`` on its player's wall clock; outside them the seat's time stands
still. A deadline then counts only time inside the hours, and a "day" of the time control
(days per move, "+1 day") is one day's playing hours. Without hours (every game before
issue 32) a seat's time is plain elapsed time, as it always was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo

HOUR = 3600
DAY = 24 * HOUR
MINUTES_A_DAY = 24 * 60


@dataclass(frozen=True)
class PlayingHours:
    """A seat's daily playing hours: its clock runs from ``start`` to ``end`` ("HH:MM") as
    its player's wall clock in ``zone`` (an IANA name) shows them. An ``end`` at or before
    ``start`` is on the next day (22:00–06:00 wraps midnight); ``start == end`` is no
    window at all and never recorded (the services refuse it).

    Rulings where the wall clock is not plain (daylight-saving changes): the window opens
    (closes) at the first moment of its day the wall clock shows its ``start`` (``end``)
    or later. A time the clock skips when it is put forward is reached at the moment it
    jumps; a time shown twice when it is put back counts its first showing. So a day's
    playing time is the chosen length, and an hour less or more on the night of a change
    when the window spans it."""

    start: str
    end: str
    zone: str = "UTC"

    @property
    def minutes(self) -> int:
        """The window's length on an ordinary day, in minutes."""
        return (minute_of(self.end) - minute_of(self.start)) % MINUTES_A_DAY

    def day_seconds(self) -> int:
        """What a "day" of the time control is worth under these hours."""
        return self.minutes * 60


def minute_of(text: str) -> int:
    """The minute of the day ``"HH:MM"`` names (00:00 to 23:59); ``ValueError`` otherwise."""
    hours, sep, minutes = str(text).partition(":")
    if not (sep and len(hours) == 2 and len(minutes) == 2 and (hours + minutes).isdigit()):
        raise ValueError(text)
    if int(hours) > 23 or int(minutes) > 59:
        raise ValueError(text)
    return int(hours) * 60 + int(minutes)


@cache
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def _first_showing(zone: ZoneInfo, day: date, minute: int) -> datetime:
    """The first moment of local ``day`` at which the wall clock in ``zone`` shows
    ``minute`` or later (in UTC)."""
    wall = datetime.combine(day, time(minute // 60, minute % 60))
    first = wall.replace(tzinfo=zone).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        # Shown once, or twice when the clock is put back: fold 0 is the first showing.
        return first
    # Skipped by the clock going forward: fold 0 read it with the offset before the change
    # (a moment after the jump), fold 1 with the offset after it (a moment before). The
    # jump lies between; find it to the second.
    before = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    while first - before > timedelta(seconds=1):
        middle = before + (first - before) // 2
        middle = middle.replace(microsecond=0)
        if middle.astimezone(zone).replace(tzinfo=None) >= wall:
            first = middle
        else:
            before = middle
    return first


def windows(hours: PlayingHours, at: datetime) -> Iterator[tuple[datetime, datetime]]:
    """The seat's playing windows (opening, closing), in order, from the one that is open
    at ``at`` or the next one (empty windows, swallowed by a daylight-saving jump, left
    out)."""
    zone = _zone(hours.zone)
    start, end = minute_of(hours.start), minute_of(hours.end)
    wraps = end <= start
    day = at.astimezone(zone).date() - timedelta(days=1)
    while True:
        opening = _first_showing(zone, day, start)
        closing = _first_showing(zone, day + timedelta(days=1 if wraps else 0), end)
        if closing > at and closing > opening:
            yield opening, closing
        day += timedelta(days=1)


def advance(hours: PlayingHours | None, since: datetime, seconds: int) -> datetime:
    """The moment ``seconds`` of the seat's time have passed after ``since``: plain
    elapsed time without hours; else counted only inside them (the earliest such moment,
    so advancing by a and then by b is advancing by a + b)."""
    if hours is None or seconds <= 0:
        return since + timedelta(seconds=max(0, seconds))
    left = timedelta(seconds=seconds)
    for opening, closing in windows(hours, since):
        begin = max(opening, since)
        if left <= closing - begin:
            return begin + left
        left -= closing - begin
    raise AssertionError("windows never end")


def played(hours: PlayingHours | None, since: datetime, until: datetime) -> timedelta:
    """The seat's time between ``since`` and ``until``: all of it without hours, else the
    part inside them."""
    if until <= since:
        return timedelta(0)
    if hours is None:
        return until - since
    total = timedelta(0)
    for opening, closing in windows(hours, since):
        if opening >= until:
            return total
        total += min(closing, until) - max(opening, since)
    raise AssertionError("windows never end")


def opens_at(hours: PlayingHours | None, at: datetime) -> datetime | None:
    """When the seat's hours begin again, if ``at`` is outside them (else ``None``)."""
    if hours is None:
        return None
    opening, _closing = next(windows(hours, at))
    return opening if opening > at else None


@dataclass(frozen=True)
class TimeControl:
    """A game's time control in seconds (``from_dict`` reads the stored form)."""

    kind: str = "none"
    per_move: int = 0
    bank: int = 0
    increment: int = 0
    cap: int = 0

    @classmethod
    def from_dict(cls, control: dict | None) -> TimeControl:
        """``{"kind": "per_move", "days": 3}``, ``{"kind": "bank", "bank_hours": …,
        "increment_hours": …, "cap_hours": …}`` or ``{"kind": "none"}``."""
        control = control or {}
        match control.get("kind", "none"):
            case "per_move":
                return cls("per_move", per_move=control["days"] * DAY)
            case "bank":
                return cls(
                    "bank",
                    bank=control["bank_hours"] * HOUR,
                    increment=control["increment_hours"] * HOUR,
                    cap=control["cap_hours"] * HOUR,
                )
            case _:
                return cls()

    @property
    def timed(self) -> bool:
        return self.kind != "none"


@dataclass(frozen=True)
class Clock:
    """Every seat's time: ``banks`` (seconds left, as of ``since`` for the seat whose turn
    it is), the increment each seat's last move ``earned`` (an undo gives it back), whose
    turn it is (``turn``), when that turn began or its clock last started again
    (``since``), a moderator's pause, the seats away on vacation, each seat's playing
    ``hours`` (none for every seat when the game has no playing hours, and for a computer
    player) and the hours a seat changed to during its own turn, kept ``pending`` until
    that turn ends (so nobody stops a running clock by moving their hours)."""

    control: TimeControl = TimeControl()
    banks: tuple[int, ...] = ()
    earned: tuple[int, ...] = ()
    turn: int | None = None
    since: datetime | None = None
    turn_began: datetime | None = None
    paused_since: datetime | None = None
    away: frozenset[int] = frozenset()
    hours: tuple[PlayingHours | None, ...] = ()
    pending: tuple[tuple[int, PlayingHours | None], ...] = ()

    def hours_of(self, seat: int) -> PlayingHours | None:
        """The seat's playing hours, ``None`` when its time always runs."""
        return self.hours[seat] if seat < len(self.hours) else None

    def pending_hours(self, seat: int) -> PlayingHours | None:
        """The hours the seat will have once its turn ends (its hours if none pending)."""
        return dict(self.pending).get(seat, self.hours_of(seat))

    def day_seconds(self, seat: int) -> int:
        """A "day" of the time control for ``seat``: a day, or a day's playing hours."""
        hours = self.hours_of(seat)
        return DAY if hours is None else hours.day_seconds()

    def runs(self, seat: int) -> bool:
        """Whether ``seat``'s time is running now."""
        return (
            self.control.timed
            and self.turn == seat
            and self.since is not None
            and self.paused_since is None
            and seat not in self.away
        )

    def stopped(self) -> bool:
        """The seat to move is held up: a moderator's pause, or its player's vacation."""
        return self.turn is not None and (self.paused_since is not None or self.turn in self.away)

    def deadline(self) -> datetime | None:
        """When the seat to move runs out of time; ``None`` when no clock runs."""
        if self.turn is None or not self.runs(self.turn):
            return None
        return advance(self.hours_of(self.turn), self.since, self.banks[self.turn])

    def after(self, seat: int, at: datetime, seconds: int) -> datetime:
        """When ``seconds`` of a day's time (a reminder's hours) have passed for ``seat``
        after ``at``: under playing hours, the same share of its days of playing hours."""
        share = seconds * self.day_seconds(seat) // DAY
        return advance(self.hours_of(seat), at, share)

    def warning(self, seconds: int) -> datetime | None:
        """When the seat to move has ``seconds`` of a day's time left (a deadline
        warning's hours: under playing hours, the same share of its days); ``None`` when
        no clock runs or it never had that much."""
        seat = self.turn
        if seat is None or not self.runs(seat):
            return None
        share = seconds * self.day_seconds(seat) // DAY
        if self.banks[seat] <= share:
            return None
        return advance(self.hours_of(seat), self.since, self.banks[seat] - share)

    def seconds_left(self, seat: int, now: datetime) -> int:
        """The time ``seat`` has left at ``now``."""
        if not self.banks:
            return 0
        if self.runs(seat):
            spent = played(self.hours_of(seat), self.since, now)
            return max(0, self.banks[seat] - _seconds(spent))
        return self.banks[seat]

    def resting_until(self, seat: int, now: datetime) -> datetime | None:
        """When the running clock of ``seat`` starts again, while ``now`` is outside the
        seat's playing hours (``None`` when it is running, or stopped for another cause)."""
        if not self.runs(seat):
            return None
        return opens_at(self.hours_of(seat), now)

    def time_left(self, now: datetime) -> TimeLeft | None:
        """The time the seat to move has left at ``now``, the one figure every page, API
        answer and email gives; ``None`` without a time control or a seat to move."""
        seat = self.turn
        if seat is None or not self.control.timed or seat >= len(self.banks):
            return None
        return TimeLeft(
            seat=seat,
            seconds=self.seconds_left(seat, now),
            deadline=self.deadline(),
            resting_until=self.resting_until(seat, now),
            hours=self.hours_of(seat),
        )


@dataclass(frozen=True)
class TimeLeft:
    """The time left to the seat to move: ``seconds`` of its clock (of playing time, when
    the seat has playing ``hours``), the wall-clock ``deadline`` (``None`` while its clock
    is stopped by a moderator's pause or a vacation) and, while the clock rests outside
    the seat's playing hours, when it runs again (``resting_until``)."""

    seat: int
    seconds: int
    deadline: datetime | None
    resting_until: datetime | None
    hours: PlayingHours | None

    @property
    def stopped(self) -> bool:
        """The clock stands still for another cause than the seat's playing hours."""
        return self.deadline is None


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds())


def _with(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


def settled(clock: Clock, at: datetime) -> Clock:
    """The running seat's bank counted down to ``at`` (its clock keeps running from there)."""
    seat = clock.turn
    if seat is None or not clock.runs(seat):
        return clock
    hours = clock.hours_of(seat)
    # Whole seconds, and ``since`` moves on to where exactly those were spent: the
    # deadline never drifts.
    spent = min(clock.banks[seat], _seconds(played(hours, clock.since, at)))
    return replace(
        clock,
        banks=_with(clock.banks, seat, clock.banks[seat] - spent),
        since=advance(hours, clock.since, spent),
    )


def started(control: TimeControl, seats: int, hours: tuple[PlayingHours | None, ...] = ()) -> Clock:
    """Every bank filled at the start of a game (``bank`` kind), with the seats' playing
    hours when the game has them."""
    bank = control.bank if control.kind == "bank" else 0
    return Clock(control, banks=(bank,) * seats, earned=(0,) * seats, hours=tuple(hours))


def turn_passed(
    clock: Clock, to: int | None, at: datetime, *, mover: int | None, voided: bool
) -> Clock:
    """The turn goes from ``clock.turn`` to ``to``. The seat that had it keeps what is
    left and, when it was the seat that just moved (``mover``), gains the increment (never
    above the cap; nothing when an extension put it past the cap) and takes up the hours
    it changed to during its turn; the seat now to move gets its days (``per_move``: its
    days of playing hours), or, when the turn came back because moves were ``voided`` (an
    undo, a takeback), gives back the increment its voided move had earned, so moving and
    undoing gains no time."""
    clock = _hours_taken_up(settled(clock, at))
    control = clock.control
    banks, earned = clock.banks, clock.earned
    before = clock.turn
    if before is not None and control.kind == "bank" and before == mover:
        left = banks[before]
        # A bank already past the cap (an extension, a day granted) keeps it and gains
        # nothing: the cap stops the increment, it takes no time away.
        after = max(left, min(control.cap, left + control.increment))
        banks, earned = _with(banks, before, after), _with(earned, before, after - left)
    if to is not None:
        if control.kind == "per_move":
            banks = _with(banks, to, control.per_move // DAY * clock.day_seconds(to))
        elif voided:
            banks = _with(banks, to, banks[to] - min(banks[to], earned[to]))
            earned = _with(earned, to, 0)
    return replace(clock, banks=banks, earned=earned, turn=to, since=at, turn_began=at)


def timed_out(clock: Clock, at: datetime) -> Clock:
    """The seat to move ran out of time: its bank is empty (a bank then gets only the
    increment of the move played for it)."""
    if clock.turn is None:
        return clock
    return replace(clock, banks=_with(clock.banks, clock.turn, 0), since=at)


def paused(clock: Clock, at: datetime) -> Clock:
    """A moderator stops every clock."""
    return replace(settled(clock, at), paused_since=at)


def resumed(clock: Clock, at: datetime) -> Clock:
    """The clocks run again from what they had left; the turn's reminders start over."""
    return replace(clock, paused_since=None, since=at, turn_began=at)


def away(clock: Clock, seat: int, at: datetime) -> Clock:
    """The player of ``seat`` went on vacation: their clock stops."""
    clock = settled(clock, at)
    return replace(clock, away=clock.away | {seat})


def back(clock: Clock, seat: int, at: datetime) -> Clock:
    """The player of ``seat`` is back: their clock runs again from what it had left."""
    clock = settled(clock, at)
    restarted = clock.turn == seat
    return replace(
        clock,
        away=clock.away - {seat},
        since=at,
        turn_began=at if restarted else clock.turn_began,
    )


def added(clock: Clock, seat: int, seconds: int, at: datetime) -> Clock:
    """More time for ``seat`` (an opponent's "+1 day", a moderator's extension)."""
    clock = settled(clock, at)
    return replace(clock, banks=_with(clock.banks, seat, clock.banks[seat] + seconds))


def hours_changed(clock: Clock, seat: int, hours: PlayingHours | None, at: datetime) -> Clock:
    """The player of ``seat`` chose other hours (or moved to another time zone): at once
    when it is not their turn, else from the end of this turn (its deadline stays)."""
    if clock.turn == seat:
        kept = tuple(item for item in clock.pending if item[0] != seat)
        return replace(clock, pending=(*kept, (seat, hours)))
    return _hours_set(clock, seat, hours)


def hours_replaced(clock: Clock, seat: int, hours: PlayingHours | None, at: datetime) -> Clock:
    """Another player took the seat (a moderator's act): their hours count from ``at``."""
    clock = settled(clock, at)
    kept = tuple(item for item in clock.pending if item[0] != seat)
    clock = _hours_set(replace(clock, pending=kept), seat, hours)
    return replace(clock, since=at) if clock.turn == seat else clock


def _hours_set(clock: Clock, seat: int, hours: PlayingHours | None) -> Clock:
    every = clock.hours + (None,) * (seat + 1 - len(clock.hours))
    return replace(clock, hours=_with(every, seat, hours))


def _hours_taken_up(clock: Clock) -> Clock:
    """The hours changed during a turn, now that it ended."""
    for seat, hours in clock.pending:
        clock = _hours_set(clock, seat, hours)
    return replace(clock, pending=())
