"""The table: what the service adds around a rules engine, folded from a game's stream.

A game's stream holds two kinds of events (``../shared/DESIGN.md``): the engine's rules
events and the service's table events (type ``table.*``). Each move is one append:
``table.Moved`` (who, in notation) followed by the rules events that ``decide`` returned,
so the history falls into *steps*. ``table.MovesVoided`` (an undo, an agreed takeback, a
moderator's revert) drops the steps after a point; nothing is ever deleted, replay just
skips them. Standard library only, like the engines, so ``verify_game`` can use it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.rules.common import Codec, RulesError

TABLE_PREFIX = "table."


@dataclass(frozen=True)
class Started:
    """The game began: players in seat order (shuffled by the service), the game and its
    options. The engine's opening events follow in the same append."""

    game: str
    options: dict
    players: tuple[str, ...]


@dataclass(frozen=True)
class Moved:
    """A seat gave a command; the rules events it caused follow in the same append.
    ``auto`` says why nobody typed it: ``timeout``, ``resigned``, ``moderator`` (or "")."""

    seat: int
    move: str
    command: dict
    auto: str = ""


@dataclass(frozen=True)
class MovesVoided:
    """Every step after ``back_to`` no longer counts (``cause``: undo, takeback, revert)."""

    back_to: int
    cause: str


@dataclass(frozen=True)
class TakebackRequested:
    """A seat asks the others to take the game back to the state after ``to_seq``."""

    request: int
    seat: int
    to_seq: int


@dataclass(frozen=True)
class TakebackAnswered:
    """A seat accepted or declined the open takeback request."""

    request: int
    seat: int
    accepted: bool


@dataclass(frozen=True)
class Resigned:
    """The seat left the game; its turns are then played for it (``AUTO_FOR_RESIGNED``)."""

    seat: int


@dataclass(frozen=True)
class Moderated:
    """A moderator's act that changes no rules state (pause, resume, extend a deadline,
    replace a seat, abort, hide a message): the audit trail. ``details`` holds its facts."""

    action: str
    details: dict


TABLE_EVENTS = (
    Started,
    Moved,
    MovesVoided,
    TakebackRequested,
    TakebackAnswered,
    Resigned,
    Moderated,
)
codec = Codec(*TABLE_EVENTS)

# Ruling (issue 5): a resigned seat in a game of three or four keeps its place and plays
# its engine's default command whenever its turn comes, so the others play on unchanged.
AUTO_FOR_RESIGNED = "resigned"


def table_type(event: Any) -> str:
    """The stored type of a table event."""
    return TABLE_PREFIX + type(event).__name__


def encode_table(event: Any) -> tuple[str, dict]:
    """(stored type, data) of a table event."""
    data = codec.encode(event)
    del data["type"], data["version"]
    return table_type(event), data


@dataclass(frozen=True)
class Record:
    """One stored event as the table reads it."""

    seq: int
    type: str
    version: int
    data: dict
    actor: str = "system"


@dataclass
class Step:
    """A move (or the start) and the rules events it caused."""

    seq: int
    seat: int | None
    move: str
    auto: str
    events: list = field(default_factory=list)
    barrier: bool = False
    last: int = 0


@dataclass
class Takeback:
    request: int
    seat: int
    to_seq: int
    accepted: set[int] = field(default_factory=set)


@dataclass
class Table:
    """Where a game stands: seats, the counting steps, the rules state, open requests."""

    engine: ModuleType
    players: tuple[str, ...] = ()
    steps: list[Step] = field(default_factory=list)
    resigned: set[int] = field(default_factory=set)
    takeback: Takeback | None = None
    last_seq: int = 0
    aborted: bool = False
    _state: Any = None

    @property
    def started(self) -> bool:
        """Whether the engine's opening events are in (not just ``table.Started``)."""
        return bool(self.steps and self.steps[0].events)

    def fork(self) -> Table:
        """A copy that folding more events into leaves this one untouched (the state and
        the events themselves are immutable and shared)."""
        steps = list(self.steps)
        if steps:
            last = steps[-1]
            steps[-1] = Step(
                last.seq,
                last.seat,
                last.move,
                last.auto,
                list(last.events),
                last.barrier,
                last.last,
            )
        takeback = self.takeback and Takeback(
            self.takeback.request,
            self.takeback.seat,
            self.takeback.to_seq,
            set(self.takeback.accepted),
        )
        return Table(
            engine=self.engine,
            players=self.players,
            steps=steps,
            resigned=set(self.resigned),
            takeback=takeback,
            last_seq=self.last_seq,
            aborted=self.aborted,
            _state=self.state,
        )

    @property
    def state(self) -> Any:
        """The rules state: the fold of every counting rules event."""
        if self._state is None and self.started:
            self._state = self.engine.replay(e for step in self.steps for e in step.events)
        return self._state

    def rules_events(self) -> list:
        return [event for step in self.steps for event in step.events]

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
        """Seats sharing the victory: the engine's outcome among seats that did not resign
        (a player who resigned cannot win; the last player left wins)."""
        if not self.over or self.aborted:
            return ()
        active = self.active_seats()
        if len(active) == 1:
            return tuple(active)
        result = self.engine.outcome(self.state)
        winners = tuple(seat for seat in result.winners if seat in active)
        if winners:
            return winners
        best = max(result.scores[seat] for seat in active)
        return tuple(seat for seat in active if result.scores[seat] == best)

    def step_at(self, seq: int) -> Step | None:
        for step in self.steps:
            if step.seq == seq:
                return step
        return None

    def boundaries(self) -> list[int]:
        """The ends of the start and of each move but the last: where a takeback may go."""
        return [step.last for step in self.steps[:-1]]


def fold(engine: ModuleType, records: Iterable[Record]) -> Table:
    """The table after ``records`` (in seq order)."""
    table = Table(engine=engine)
    for record in records:
        apply(table, record)
    return table


def apply(table: Table, record: Record) -> None:
    """Fold one stored event into the table (in place: a fold is private to its caller)."""
    table.last_seq = record.seq
    if not record.type.startswith(TABLE_PREFIX):
        event = table.engine.decode({"type": record.type, "version": record.version, **record.data})
        step = table.steps[-1]
        step.events.append(event)
        step.last = record.seq
        step.barrier = step.barrier or table.engine.is_barrier(event)
        if table._state is not None:
            table._state = table.engine.evolve(table._state, event)
        return
    event = codec.decode(
        {"type": record.type[len(TABLE_PREFIX) :], "version": record.version, **record.data}
    )
    match event:
        case Started(players=players):
            table.players = players
            table.steps.append(Step(record.seq, None, "start", "", last=record.seq))
        case Moved(seat=seat, move=move, auto=auto):
            table.state  # noqa: B018 - materialise before the step's events fold in
            table.steps.append(Step(record.seq, seat, move, auto, last=record.seq))
            table.takeback = None
        case MovesVoided(back_to=back_to):
            table.steps = [step for step in table.steps if step.seq <= back_to]
            table._state = None
            table.takeback = None
        case TakebackRequested(request=request, seat=seat, to_seq=to_seq):
            table.takeback = Takeback(request, seat, to_seq)
        case TakebackAnswered(request=request, seat=seat, accepted=accepted):
            if table.takeback and table.takeback.request == request:
                if accepted:
                    table.takeback.accepted.add(seat)
                else:
                    table.takeback = None
        case Resigned(seat=seat):
            table.resigned.add(seat)
            table.takeback = None
        case Moderated(action="abort"):
            table.aborted = True
        case Moderated(action="replace_seat", details=details):
            players = list(table.players)
            players[details["seat"]] = details["to"]
            table.players = tuple(players)
        case Moderated():
            pass
        case _:
            raise ValueError(f"unknown table event {record.type}")


# Moves nobody chose: they do not count as "another player acting" for an undo.
UNCHOSEN = {"forced", AUTO_FOR_RESIGNED}


def undoable_step(table: Table, seat: int) -> Step | None:
    """The step ``seat`` may take back alone: its own last move, if no other player has
    acted since (moves nobody chose do not count, and are taken back with it) and no draw
    (barrier) lies after it (DESIGN.md, "Undo, as events")."""
    for step in reversed(table.steps[1:]):
        if step.barrier:
            return None
        if step.auto in UNCHOSEN:
            continue
        return step if step.seat == seat and not step.auto else None
    return None


def is_takeback_point(table: Table, seen: Table) -> bool:
    """Whether going back to ``seen`` (the table as it was after some event N) lands on the
    very position ``seen`` shows: N ends a move that still counts, and voiding every move
    after N leaves exactly the moves that ``seen`` had."""
    kept = [(step.seq, step.last) for step in table.steps if step.seq <= seen.last_seq]
    return (
        bool(kept)
        and kept == [(step.seq, step.last) for step in seen.steps]
        and (len(kept) < len(table.steps))
    )


def crosses_barrier(table: Table, to_seq: int) -> bool:
    """Whether going back to ``to_seq`` would void a draw."""
    return any(step.barrier for step in table.steps if step.seq > to_seq)


class VerificationError(Exception):
    """An exported record that does not follow the rules: says which event and why."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def verify(engine: ModuleType, records: list[Record]) -> Table:
    """Replay a record through the rules, checking every step: the opening is what
    ``start`` produces, each move is legal where it was made and its rules events are
    exactly what ``decide`` returns — except draws (barriers), which must be of the same
    kind and possible from the bag at that point. Raises ``VerificationError``."""
    import random

    table = Table(engine=engine)
    index = 0
    while index < len(records):
        record = records[index]
        batch = [record]
        index += 1
        while index < len(records) and not records[index].type.startswith(TABLE_PREFIX):
            batch.append(records[index])
            index += 1
        try:
            _verify_batch(table, batch, random.Random(0))
        except VerificationError:
            raise
        except (RulesError, ValueError, KeyError, TypeError, IndexError) as error:
            raise VerificationError(record.seq, str(error) or type(error).__name__) from error
    return table


def _verify_batch(table: Table, batch: list[Record], rng: Any) -> None:
    head, rules = batch[0], batch[1:]
    if not head.type.startswith(TABLE_PREFIX):
        raise VerificationError(head.seq, "a rules event with no move or start before it")
    if head.seq != table.last_seq + 1:
        raise VerificationError(head.seq, f"expected event {table.last_seq + 1} (a gap)")
    event = codec.decode(
        {"type": head.type[len(TABLE_PREFIX) :], "version": head.version, **head.data}
    )
    engine = table.engine
    if isinstance(event, Started):
        if table.started:
            raise VerificationError(head.seq, "the game started twice")
        expected = engine.start(len(event.players), event.options, rng)
        state = None
    elif isinstance(event, Moved):
        if not table.started or table.over:
            raise VerificationError(head.seq, "a move outside a game in play")
        state = table.state
        if engine.to_move(state) != event.seat:
            raise VerificationError(
                head.seq, f"seat {event.seat} moved, but seat {engine.to_move(state)} was to move"
            )
        command = engine.parse(event.move)
        expected = engine.decide(state, command, rng)
    else:
        if rules:
            raise VerificationError(rules[0].seq, "rules events without a move")
        apply(table, head)
        return
    if len(rules) != len(expected):
        raise VerificationError(
            head.seq, f"{len(rules)} rules events recorded, the rules give {len(expected)}"
        )
    apply(table, head)
    for record, wanted in zip(rules, expected, strict=True):
        if record.seq != table.last_seq + 1:
            raise VerificationError(record.seq, f"expected event {table.last_seq + 1} (a gap)")
        recorded = engine.decode({"type": record.type, "version": record.version, **record.data})
        if engine.is_barrier(wanted):
            if type(recorded) is not type(wanted):
                raise VerificationError(
                    record.seq, f"recorded {record.type}, the rules give {type(wanted).__name__}"
                )
        elif recorded != wanted:
            raise VerificationError(
                record.seq,
                f"recorded {engine.encode(recorded)}, the rules give {engine.encode(wanted)}",
            )
        state = engine.evolve(state, recorded)
        apply(table, record)


@dataclass(frozen=True)
class SeatActions:
    """What one seat may do now: the single answer the game page, the API and the emails
    all show (DESIGN.md, "Undo, as events")."""

    move: bool
    undo: bool
    takeback_points: tuple[int, ...]
    answer_takeback: bool
    grant_time: bool
    resign: bool


NO_ACTIONS = SeatActions(False, False, (), False, False, False)


def seat_actions(table: Table, seat: int | None, *, self_undo: bool, timed: bool) -> SeatActions:
    """What ``seat`` may do now: move on its turn; undo its own last move (when the game
    allows it); ask to go back to the end of an earlier move that no draw separates from
    now (newest first); answer the open takeback it has not answered; give the seat to move
    one more day (``timed`` games, not on its own turn); resign while the game is on."""
    if seat is None or table.over or not table.started or seat in table.resigned:
        return NO_ACTIONS
    to_move = table.to_move()
    pending = table.takeback
    return SeatActions(
        move=to_move == seat,
        undo=self_undo and undoable_step(table, seat) is not None,
        takeback_points=() if pending is not None else takeback_points(table),
        answer_takeback=pending is not None
        and pending.seat != seat
        and seat not in pending.accepted,
        grant_time=timed and to_move is not None and to_move != seat,
        resign=True,
    )


def takeback_points(table: Table) -> tuple[int, ...]:
    """The ends of moves a takeback may return to, newest first: every move but the last
    can be taken back to its start, unless a draw (barrier) lies after that point."""
    points = []
    for earlier, later in zip(reversed(table.steps[:-1]), reversed(table.steps[1:]), strict=True):
        if later.barrier:
            break
        points.append(earlier.last)
    return tuple(points)
