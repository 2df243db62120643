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
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

HOUR = 3600
DAY = 24 * HOUR


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
    (``since``), a moderator's pause and the seats away on vacation."""

    control: TimeControl = TimeControl()
    banks: tuple[int, ...] = ()
    earned: tuple[int, ...] = ()
    turn: int | None = None
    since: datetime | None = None
    turn_began: datetime | None = None
    paused_since: datetime | None = None
    away: frozenset[int] = frozenset()

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
        return self.since + timedelta(seconds=self.banks[self.turn])

    def seconds_left(self, seat: int, now: datetime) -> int:
        """The time ``seat`` has left at ``now``."""
        if not self.banks:
            return 0
        if self.runs(seat):
            return max(0, self.banks[seat] - _seconds(now - self.since))
        return self.banks[seat]


def _seconds(delta: timedelta) -> int:
    return int(delta.total_seconds())


def _with(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]


def settled(clock: Clock, at: datetime) -> Clock:
    """The running seat's bank counted down to ``at`` (its clock keeps running from there)."""
    seat = clock.turn
    if seat is None or not clock.runs(seat):
        return clock
    # Whole seconds, and ``since`` moves on by exactly those: the deadline never drifts.
    spent = min(clock.banks[seat], max(0, _seconds(at - clock.since)))
    return replace(
        clock,
        banks=_with(clock.banks, seat, clock.banks[seat] - spent),
        since=clock.since + timedelta(seconds=spent),
    )


def started(control: TimeControl, seats: int) -> Clock:
    """Every bank filled at the start of a game (``bank`` kind)."""
    bank = control.bank if control.kind == "bank" else 0
    return Clock(control, banks=(bank,) * seats, earned=(0,) * seats)


def turn_passed(
    clock: Clock, to: int | None, at: datetime, *, mover: int | None, voided: bool
) -> Clock:
    """The turn goes from ``clock.turn`` to ``to``. The seat that had it keeps what is
    left and, when it was the seat that just moved (``mover``), gains the increment (never
    above the cap); the seat now to move gets its days (``per_move``), or, when the turn
    came back because moves were ``voided`` (an undo, a takeback), gives back the increment
    its voided move had earned, so moving and undoing gains no time."""
    clock = settled(clock, at)
    control = clock.control
    banks, earned = clock.banks, clock.earned
    before = clock.turn
    if before is not None and control.kind == "bank" and before == mover:
        left = banks[before]
        after = min(control.cap, left + control.increment)
        banks, earned = _with(banks, before, after), _with(earned, before, after - left)
    if to is not None:
        if control.kind == "per_move":
            banks = _with(banks, to, control.per_move)
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
