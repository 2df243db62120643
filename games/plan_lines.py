"""Conditional moves (issue 32), pure: a seat's lines checked by playing them on the
position with its engine, and followed as the game goes on.

A line is a sequence of moves in the game's notation from the position it was written on:
the moves the player expects from the others and the player's own answers, in the order
they would be played (whose move each is, the engine says). Lines branch where they
differ; where they expect the same moves they must give the same answer. A move that draws
at random (a barrier: Azul's new factory displays, Summer Pavilion's refills, Miyabi's new
phase) ends a line: what follows it cannot be known when the line is written
(``LINE_ENDS_AT_DRAW``). Standard library only.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from games.rules.common import IllegalMove, InvalidNotation

# Ruling (issue 32): a line ends with the move that draws new tiles (or a new layout):
# the draw is secret until it happens, so no answer can be written to the position after it.
LINE_ENDS_AT_DRAW = True
# At most this many lines, each of at most this many moves: a plan is checked by playing
# every move of it, in the request that stores it.
MOST_LINES = 30
MOST_STEPS = 40
# The legal moves a refusal names at most (an Azul position may have a hundred).
MOST_NAMED = 12
# A step's answer is checked on a throwaway generator: a line never reaches past a draw, so
# nothing it plays depends on the game's own draws (which stay secret).
CHECKING_SEED = 0


@dataclass(frozen=True)
class LineRefused(Exception):
    """A line that cannot be kept: line ``line`` (from 1), step ``step`` (from 1; 0 for the
    line as a whole), why (``code``: ``empty``, ``too_many_lines``, ``too_long``,
    ``unreadable``, ``illegal``, ``after_draw``, ``after_end``, ``ends_with_theirs``,
    ``two_answers``), the text of the step, the engine's error if it had
    one, and what would have been accepted there (``accepted``: moves in notation)."""

    code: str
    line: int = 0
    step: int = 0
    text: str = ""
    error: Any = None
    accepted: tuple[str, ...] = ()
    other: int = 0
    params: dict = field(default_factory=dict)


def read_lines(text: str) -> list[list[str]]:
    """Lines as a person writes them: one a row, the moves of a row separated by ``;``
    (no notation uses it). Blank rows are skipped."""
    rows = [row.strip() for row in text.splitlines()]
    return [[step.strip() for step in row.split(";")] for row in rows if row]


def written(lines: Sequence[Sequence[str]]) -> str:
    """Lines as ``read_lines`` reads them."""
    return "\n".join("; ".join(line) for line in lines)


def check(
    engine: ModuleType, state: Any, seat: int, lines: Sequence[Sequence[str]]
) -> list[list[str]]:
    """The ``lines`` of ``seat``, each move in the notation's own form (``F2 blue 4``), after
    playing each on ``state``; raises ``LineRefused`` for the first that cannot be kept.
    Every line ends with an answer of ``seat`` (a line that ends with another player's move
    would answer nothing)."""
    if len(lines) > MOST_LINES:
        raise LineRefused("too_many_lines", params={"most": MOST_LINES})
    answers: dict[tuple[str, ...], tuple[str, int]] = {}
    checked = []
    for number, line in enumerate(lines, 1):
        steps = _checked_line(engine, state, seat, line, number)
        for index, (move, mine) in enumerate(steps):
            before = tuple(move for move, _ in steps[:index])
            if not mine:
                continue
            given, first = answers.setdefault(before, (move, number))
            if given != move:
                raise LineRefused(
                    "two_answers",
                    number,
                    index + 1,
                    line[index],
                    other=first,
                    params={"move": given},
                )
        played = [move for move, _ in steps]
        if played not in checked:
            checked.append(played)
    return checked


def _checked_line(
    engine: ModuleType, state: Any, seat: int, line: Sequence[str], number: int
) -> list[tuple[str, bool]]:
    """The moves of one line in notation, each with whether it is ``seat``'s own."""
    if not line or not any(str(step).strip() for step in line):
        raise LineRefused("empty", number)
    steps = list(_played(engine, state, seat, line, number).steps)
    if not steps[-1][1]:
        raise LineRefused("ends_with_theirs", number, len(line), line[-1])
    return steps


@dataclass(frozen=True)
class LinePlayed:
    """A line (or the start of one) played on the position: its moves in notation, each
    with whether it is the seat's own, the rules events of each, the state after the
    last, and whether the line must end there (a draw, or the game's end). ``shown``: the
    state to draw, which is ``state`` except after a draw: there the throwaway generator's
    tiles are no guess of the game's own, so it is the state just before the draw."""

    steps: tuple[tuple[str, bool], ...]
    events: tuple[tuple, ...]
    seats: tuple[int, ...]
    state: Any
    ended: bool
    shown: Any


def played(engine: ModuleType, state: Any, seat: int, line: Sequence[str]) -> LinePlayed:
    """The start of a line being built (the analysis board of the game page): played on
    ``state`` like a kept line, but it may be empty or end with another player's move.
    Raises ``LineRefused`` (line 1) for the first move that cannot be played."""
    return _played(engine, state, seat, line, 1)


def _played(
    engine: ModuleType, state: Any, seat: int, line: Sequence[str], number: int
) -> LinePlayed:
    if len(line) > MOST_STEPS:
        raise LineRefused("too_long", number, params={"most": MOST_STEPS})
    rng = random.Random(CHECKING_SEED)
    steps: list[tuple[str, bool]] = []
    played_events: list[tuple] = []
    seats: list[int] = []
    drawn = False
    shown = state
    for index, text in enumerate(line, 1):
        text = str(text).strip()
        if engine.is_over(state):
            raise LineRefused("after_end", number, index, text)
        if drawn and LINE_ENDS_AT_DRAW:
            raise LineRefused("after_draw", number, index, text)
        seats.append(engine.to_move(state))
        mine = seats[-1] == seat
        try:
            command = engine.parse(text)
        except InvalidNotation as error:
            raise LineRefused(
                "unreadable", number, index, text, error, _legal(engine, state)
            ) from None
        before = state
        try:
            events, state = engine.decide_and_evolve(state, command, rng)
        except IllegalMove as error:
            raise LineRefused(
                "illegal", number, index, text, error, _legal(engine, state)
            ) from None
        steps.append((engine.format(command), mine))
        played_events.append(tuple(events))
        drawn = any(engine.is_barrier(event) for event in events)
        shown = _before_draw(engine, before, events) if drawn else state
    ended = (drawn and LINE_ENDS_AT_DRAW) or engine.is_over(state)
    return LinePlayed(tuple(steps), tuple(played_events), tuple(seats), state, ended, shown)


def _before_draw(engine: ModuleType, state: Any, events: Sequence) -> Any:
    """``state`` after ``events`` up to the first that draws at random."""
    for event in events:
        if engine.is_barrier(event):
            break
        state = engine.evolve(state, event)
    return state


def whose(engine: ModuleType, state: Any, seat: int, line: Sequence[str]) -> list[tuple[str, bool]]:
    """The moves of a checked line, each with whether it is ``seat``'s own answer (or a
    move expected from another player): for showing the line to its player."""
    return _checked_line(engine, state, seat, line, 1)


def _legal(engine: ModuleType, state: Any) -> tuple[str, ...]:
    """The first ``MOST_NAMED`` legal moves, in notation: what a refusal offers instead."""
    return tuple(engine.format(command) for command in engine.legal_commands(state)[:MOST_NAMED])


def follow(lines: Sequence[Sequence[str]], move: str) -> list[list[str]]:
    """The lines after ``move`` (notation) was played: the rest of each line that expected
    it, the lines that did not dropped, and those it ended too."""
    return [list(line[1:]) for line in lines if line and line[0] == move and len(line) > 1]


def answer(lines: Sequence[Sequence[str]]) -> str | None:
    """The move the lines give now, when it is their player's turn (checked lines that
    expected the same moves agree on it)."""
    return lines[0][0] if lines and lines[0] else None
