"""The table: a pure decider around a rules engine, like the engines themselves.

A game's stream holds the engine's rules events and the table's own events
(``games.table_events``, stored as ``table.*``; rules events as ``<game namespace>.*``).
``decide(table, command)`` returns the events a table command causes (a move's ``Moved``
followed by the rules events its engine decided); ``evolve(table, record)`` folds one
stored event into a new, immutable ``Table``. Each move is one append, so the history falls
into *steps*: a ``Moved`` and its rules events. ``MovesVoided`` (an undo, an agreed
takeback, a moderator's revert) drops the steps after a point; nothing is ever deleted,
replay just skips them. The clock of every seat (``games.clock``) is folded from the same
events. Beside it: how events and folded tables are stored (``games.table_storage``),
checking an exported record (``games.table_verification``) and what a seat may do now
(``games.seat_actions``).
Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from types import ModuleType
from typing import Any

from games import clock as clocks
from games.clock import Clock, PlayingHours, TimeControl
from games.table_events import (
    TABLE_EVENTS,
    Aborted,
    DeadlineExtended,
    HoursChanged,
    MessageHidden,
    Moved,
    MovesVoided,
    Paused,
    Resigned,
    Resumed,
    SeatReplaced,
    Started,
    TakebackAnswered,
    TakebackRequested,
    TimeGranted,
    VacationEnded,
    VacationStarted,
)

TABLE = "table"

# --- commands (imperative): what someone asks of the table ------------------------------


@dataclass(frozen=True)
class Begin:
    """Seat the players (in this order) and deal the opening (``hours``: each seat's
    playing hours, in a game that has them)."""

    game: str
    options: dict
    players: tuple[str, ...]
    hours: tuple[PlayingHours | None, ...] = ()


@dataclass(frozen=True)
class Play:
    """``seat`` gives a rules command (``auto``: why nobody typed it)."""

    seat: int
    command: Any
    auto: str = ""


@dataclass(frozen=True)
class Undo:
    seat: int


@dataclass(frozen=True)
class RequestTakeback:
    seat: int
    to_seq: int


@dataclass(frozen=True)
class AnswerTakeback:
    seat: int
    request: int
    accept: bool


@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class Revert:
    to_seq: int


@dataclass(frozen=True)
class ReplaceSeat:
    seat: int
    by: str
    hours: PlayingHours | None = None


@dataclass(frozen=True)
class ChangeHours:
    seat: int
    hours: PlayingHours


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Resume:
    pass


@dataclass(frozen=True)
class ExtendDeadline:
    seconds: int


@dataclass(frozen=True)
class GrantTime:
    by: int
    seconds: int


@dataclass(frozen=True)
class StartVacation:
    seat: int


@dataclass(frozen=True)
class EndVacation:
    seat: int


@dataclass(frozen=True)
class Abort:
    pass


@dataclass(frozen=True)
class HideMessage:
    message: int


class Refused(Exception):
    """A table command that cannot be done now: a ``code`` the doors turn into a sentence
    for the reader, and the facts it needs (``params``)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


# Ruling (issue 5): a resigned seat in a game of three or four keeps its place and its turns
# are played for it whenever they come, so the others play on unchanged. The table offers
# its engine's default command; the service has a computer player choose instead (issue 15).
AUTO_FOR_RESIGNED = "resigned"
# The reason a move played on timeout, or a forfeit on timeout (a ``Resigned``), is stored
# with: how the record tells a seat that ran out of time from one that resigned.
TIME_RAN_OUT = "time ran out"
# Moves nobody chose: they do not count as "another player acting" for an undo.
UNCHOSEN = frozenset({"forced", AUTO_FOR_RESIGNED})

# --- the table --------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One stored event as the table reads it: its place in the stream, the event (a table
    event or the engine's), who did it and when."""

    seq: int
    event: Any
    actor: str = "system"
    at: datetime | None = None


@dataclass(frozen=True)
class Step:
    """The start or a move, the rules events it caused, and the rules state after it."""

    seq: int
    seat: int | None
    move: str
    auto: str
    events: tuple = ()
    barrier: bool = False
    last: int = 0
    state: Any = None


@dataclass(frozen=True)
class Takeback:
    """An open takeback request and the seats that accepted it so far."""

    request: int
    seat: int
    to_seq: int
    accepted: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Table:
    """Where a game stands: seats, the steps that count, the rules state after them, an
    open takeback request, resignations and the clock."""

    engine: ModuleType
    namespace: str
    players: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()
    resigned: frozenset[int] = frozenset()
    takeback: Takeback | None = None
    last_seq: int = 0
    aborted: bool = False
    # The seat whose resignation (or forfeit) aborted the game; None: not aborted so.
    aborted_by: int | None = None
    clock: Clock = Clock()

    @property
    def started(self) -> bool:
        """Whether the engine's opening events are in (not just ``Started``)."""
        return bool(self.steps and self.steps[0].events)

    @property
    def state(self) -> Any:
        """The rules state: the fold of every counting rules event."""
        return self.steps[-1].state if self.steps else None

    @property
    def over(self) -> bool:
        if self.aborted:
            return True
        if not self.started:
            return False
        return self.engine.is_over(self.state) or len(self.active_seats()) <= 1

    def active_seats(self) -> list[int]:
        return [seat for seat in range(len(self.players)) if seat not in self.resigned]

    def to_move(self) -> int | None:
        if self.over or not self.started:
            return None
        return self.engine.to_move(self.state)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.engine.scores(self.state)) if self.started else ()

    def winners(self) -> tuple[int, ...]:
        """Seats sharing the victory: the engine's outcome, by the game's own tie-breaks,
        among the seats that did not resign (the last player left wins)."""
        if not self.over or self.aborted:
            return ()
        active = self.active_seats()
        if len(active) == 1:
            return tuple(active)
        return tuple(self.engine.outcome(self.state, active).winners)

    def rules_events(self) -> list:
        return [event for step in self.steps for event in step.events]

    def step_at(self, seq: int) -> Step | None:
        for step in self.steps:
            if step.seq == seq:
                return step
        return None

    def yet_to_move(self) -> frozenset[int]:
        """The seats that have not made a move of their own (one they chose: not a move
        played for them on timeout, after resigning or by a moderator) among the moves that
        count. A resignation while any is left aborts the game (issue 29)."""
        moved = {step.seat for step in self.steps[1:] if not step.auto}
        return frozenset(range(len(self.players))) - moved

    def boundaries(self) -> list[int]:
        """The ends of the start and of each move but the last: where a revert may go."""
        return [step.last for step in self.steps[:-1]]


def empty(engine: ModuleType, namespace: str, control: dict | None = None) -> Table:
    """The table before its first event, with the game's time control."""
    return Table(engine, namespace, clock=Clock(TimeControl.from_dict(control)))


def fold(table: Table, records: Iterable[Record]) -> Table:
    """``table`` after ``records`` (in seq order)."""
    for record in records:
        table = evolve(table, record)
    return table


# --- decide -----------------------------------------------------------------------------


def decide(table: Table, command: Any, rng: random.Random) -> list:
    """The events ``command`` causes (table events and, for a move, the rules events its
    engine decided), or ``Refused``; an engine's ``IllegalMove`` passes through. Never
    changes ``table``."""
    return decide_and_evolve(table, command, rng)[0]


def decide_and_evolve(table: Table, command: Any, rng: random.Random) -> tuple[list, Any]:
    """``decide``'s events and, when they end with rules events (a move), the rules state
    after them, which the engine's ``decide_and_evolve`` works out anyway (else ``None``):
    for ``evolve(..., state=)``, so the write path folds no rules event twice."""
    if isinstance(command, Play):
        _check_in_play(table)
        if table.to_move() != command.seat:
            raise Refused("not_your_turn", to_move=table.to_move())
        engine = table.engine
        events, state = engine.decide_and_evolve(table.state, command.command, rng)
        moved = Moved(
            command.seat,
            engine.format(command.command),
            engine.encode_command(command.command),
            command.auto,
        )
        return [moved, *events], state if events else None
    return _decide(table, command, rng), None


def _decide(table: Table, command: Any, rng: random.Random) -> list:
    match command:
        case Begin(game=game, options=options, players=players, hours=hours):
            if table.steps:
                raise Refused("already_started")
            return [
                Started(game, options, players, tuple(hours)),
                *table.engine.start(len(players), options, rng),
            ]
        case Undo(seat=seat):
            _check_in_play(table)
            step = undoable_step(table, seat)
            if step is None:
                raise Refused("nothing_to_undo")
            return [MovesVoided(step.seq - 1, "undo")]
        case RequestTakeback(seat=seat, to_seq=to_seq):
            _check_in_play(table)
            if to_seq not in takeback_points(table):
                if to_seq in table.boundaries():
                    raise Refused("takeback_crosses_draw")
                raise Refused("invalid_takeback", accepted=list(takeback_points(table)))
            if table.takeback is not None:
                raise Refused("takeback_open", request=table.takeback.request)
            return [TakebackRequested(table.last_seq + 1, seat, to_seq)]
        case AnswerTakeback(seat=seat, request=request, accept=accept):
            _check_in_play(table)
            pending = table.takeback
            if pending is None or pending.request != request:
                raise Refused("no_takeback")
            if seat == pending.seat:
                raise Refused("own_request")
            answered = TakebackAnswered(request, seat, bool(accept))
            others = {s for s in table.active_seats() if s != pending.seat}
            if accept and others <= pending.accepted | {seat}:
                return [answered, MovesVoided(pending.to_seq, "takeback")]
            return [answered]
        case Resign(seat=seat):
            _check_in_play(table)
            if seat in table.resigned:
                raise Refused("already_resigned")
            # Ruling (issue 29, as lichess does): resigning, or forfeiting on timeout, before
            # every player has made a move of their own ends the game with no result,
            # counted for nobody's rating.
            if table.yet_to_move():
                return [Resigned(seat), Aborted(seat)]
            return [Resigned(seat)]
        case Revert(to_seq=to_seq):
            _check_in_play(table)
            if to_seq not in table.boundaries():
                raise Refused("invalid_revert", accepted=table.boundaries())
            return [MovesVoided(to_seq, "revert")]
        case ReplaceSeat(seat=seat, by=by, hours=hours):
            if not 0 <= seat < len(table.players):
                raise Refused("invalid_seat", seats=len(table.players))
            # A person sits once at a table; computer players of one level are alike and
            # may sit several times (as a game may start with three easy ones).
            if by in table.players and not by.startswith("bot:"):
                raise Refused("already_seated")
            kept = hours if table.clock.hours else None
            return [SeatReplaced(seat, table.players[seat], by, kept)]
        case ChangeHours(seat=seat, hours=hours):
            if not table.clock.hours or table.over:
                return []
            known = table.clock.pending_hours(seat)
            return [] if known == hours else [HoursChanged(seat, hours)]
        case Pause():
            _check_in_play(table)
            if table.clock.paused_since is not None:
                raise Refused("already_paused")
            return [Paused()]
        case Resume():
            if table.clock.paused_since is None:
                raise Refused("not_paused")
            return [Resumed()]
        case ExtendDeadline(seconds=seconds):
            _timed_turn(table)
            return [DeadlineExtended(seconds)]
        case GrantTime(by=by, seconds=seconds):
            seat = _timed_turn(table)
            if seat == by:
                raise Refused("own_turn")
            # A day given is a day of the seat's playing hours, when it has them.
            return [TimeGranted(seat, by, seconds * table.clock.day_seconds(seat) // clocks.DAY)]
        case StartVacation(seat=seat):
            return [] if seat in table.clock.away else [VacationStarted(seat)]
        case EndVacation(seat=seat):
            return [VacationEnded(seat)] if seat in table.clock.away else []
        case Abort():
            _check_in_play(table)
            return [Aborted()]
        case HideMessage(message=message):
            return [MessageHidden(message)]
    raise TypeError(f"not a table command: {command!r}")


def _check_in_play(table: Table) -> None:
    if not table.started or table.over:
        raise Refused("not_in_play")


def _timed_turn(table: Table) -> int:
    _check_in_play(table)
    if not table.clock.control.timed:
        raise Refused("no_deadline")
    return table.to_move()


def unchosen_move(table: Table) -> Play | None:
    """The move nobody has a choice about, if the seat to move has one: a resigned seat's
    turn (its engine's default command) or a seat's only legal move (say, passing with
    nothing left to play)."""
    if table.over or not table.started:
        return None
    seat = table.to_move()
    engine = table.engine
    if seat in table.resigned:
        return Play(seat, engine.default_command(table.state), AUTO_FOR_RESIGNED)
    legal = engine.legal_commands(table.state)
    if len(legal) == 1:
        return Play(seat, legal[0], "forced")
    return None


# --- evolve -----------------------------------------------------------------------------


def evolve(table: Table, record: Record, *, state: Any = None) -> Table:
    """``table`` after one stored event (``state``: the rules state after this rules event,
    when the caller knows it already, from ``decide_and_evolve``)."""
    event = record.event
    at = record.at
    before = table.to_move()
    table = replace(table, last_seq=record.seq)
    if not isinstance(event, TABLE_EVENTS):
        *kept, last = table.steps
        if state is None:
            state = table.engine.evolve(last.state, event)
        barrier = last.barrier or table.engine.is_barrier(event)
        step = replace(
            last, events=(*last.events, event), last=record.seq, state=state, barrier=barrier
        )
        return _turn(replace(table, steps=(*kept, step)), before, at, mover=last.seat)
    match event:
        case Started(players=players, hours=hours):
            start = Step(record.seq, None, "start", "", last=record.seq)
            clock = clocks.started(table.clock.control, len(players), hours)
            return replace(table, players=tuple(players), steps=(start,), clock=clock)
        case Moved(seat=seat, move=move, auto=auto):
            step = Step(record.seq, seat, move, auto, last=record.seq, state=table.state)
            clock = clocks.timed_out(table.clock, at) if auto == "timeout" else table.clock
            return replace(table, steps=(*table.steps, step), takeback=None, clock=clock)
        case MovesVoided(back_to=back_to):
            kept = tuple(step for step in table.steps if step.seq <= back_to)
            steps = _with_state(table.engine, kept)
            return _turn(replace(table, steps=steps, takeback=None), before, at, voided=True)
        case TakebackRequested(request=request, seat=seat, to_seq=to_seq):
            return replace(table, takeback=Takeback(request, seat, to_seq))
        case TakebackAnswered(request=request, seat=seat, accepted=accepted):
            pending = table.takeback
            if pending is None or pending.request != request:
                return table
            if not accepted:
                return replace(table, takeback=None)
            return replace(table, takeback=replace(pending, accepted=pending.accepted | {seat}))
        case Resigned(seat=seat):
            table = replace(table, resigned=table.resigned | {seat}, takeback=None)
            return _turn(table, before, at)
        case SeatReplaced(seat=seat, by=by, hours=hours):
            players = table.players[:seat] + (by,) + table.players[seat + 1 :]
            clock = table.clock
            if clock.hours:
                clock = clocks.hours_replaced(clock, seat, hours, at)
            return replace(table, players=players, clock=clock)
        case HoursChanged(seat=seat, hours=hours):
            return replace(table, clock=clocks.hours_changed(table.clock, seat, hours, at))
        case Paused():
            return replace(table, clock=clocks.paused(table.clock, at))
        case Resumed():
            return replace(table, clock=clocks.resumed(table.clock, at))
        case DeadlineExtended(seconds=seconds):
            return replace(table, clock=clocks.added(table.clock, table.clock.turn, seconds, at))
        case TimeGranted(seat=seat, seconds=seconds):
            return replace(table, clock=clocks.added(table.clock, seat, seconds, at))
        case VacationStarted(seat=seat):
            return replace(table, clock=clocks.away(table.clock, seat, at))
        case VacationEnded(seat=seat):
            return replace(table, clock=clocks.back(table.clock, seat, at))
        case Aborted(seat=seat):
            return _turn(replace(table, aborted=True, aborted_by=seat), before, at)
        case MessageHidden():
            return table
    raise TypeError(f"not a table event: {event!r}")


def _with_state(engine: ModuleType, steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """``steps`` with the rules state of the last: a compact table (``table_storage.compact``)
    keeps only the state after its last step, so the state a void goes back to is folded
    again, from the nearest step that has one, through the rules events of the steps after
    it."""
    if not steps or steps[-1].state is not None:
        return steps
    known = max((i for i, step in enumerate(steps) if step.state is not None), default=-1)
    state = steps[known].state if known >= 0 else None
    for step in steps[known + 1 :]:
        for event in step.events:
            state = engine.evolve(state, event)
    return (*steps[:-1], replace(steps[-1], state=state))


def _turn(
    table: Table,
    before: int | None,
    at: datetime | None,
    *,
    mover: int | None = None,
    voided: bool = False,
) -> Table:
    """Pass the clock on when the seat to move changed (``mover``: the seat whose move
    caused it; ``voided``: moves were taken back)."""
    after = table.to_move()
    if after == before and table.clock.turn == after:
        return table
    clock = clocks.turn_passed(table.clock, after, at, mover=mover, voided=voided)
    return replace(table, clock=clock)


# --- what a seat may take back ---------------------------------------------------------


def undoable_step(table: Table, seat: int) -> Step | None:
    """The step ``seat`` may take back alone: its own last move, if no other player has
    acted since (moves nobody chose do not count, and are taken back with it) and no draw
    (barrier) lies after it (docs/service.md, "Rulings of the service": Undo)."""
    for step in reversed(table.steps[1:]):
        if step.barrier:
            return None
        if step.auto in UNCHOSEN:
            continue
        return step if step.seat == seat and not step.auto else None
    return None


def takeback_points(table: Table) -> tuple[int, ...]:
    """The ends of moves a takeback may return to, newest first: every move but the last
    can be taken back to its start, unless a draw (barrier) lies after that point."""
    points = []
    for earlier, later in zip(reversed(table.steps[:-1]), reversed(table.steps[1:]), strict=True):
        if later.barrier:
            break
        points.append(earlier.last)
    return tuple(points)
