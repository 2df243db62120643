"""Tables set up for the Azul tests: walls and tiles written as letters (B Y R K W, ``.``
for an empty space), so each test shows the position the rulebook describes."""

import random
from dataclasses import replace

from games.rules.azul import decide, evolve, parse, replay, start
from games.rules.azul.board import COLOUR_LETTERS, COLOURS, Wall
from games.rules.azul.model import EMPTY_LINE, PatternLine, Phase, PlayerBoard, State

NO_TILES = (0,) * COLOURS


def opening(players: int = 2, wall: str = "colored", seed: int = 0) -> State:
    """A game just set up: the factory displays filled, the start player to move."""
    return replay(start(players, {"wall": wall}, random.Random(seed)))


def colour(letter: str) -> int:
    return COLOUR_LETTERS.index(letter.upper())


def tiles(letters: str) -> tuple[int, ...]:
    """A multiset of tiles from letters: ``"BBY"`` is two blue and a yellow."""
    counts = [0] * COLOURS
    for letter in letters:
        counts[colour(letter)] += 1
    return tuple(counts)


def wall(*rows: str) -> Wall:
    """A wall from rows of letters, ``.`` for an empty space (missing spaces and rows empty)."""
    rows = tuple(row.ljust(5, ".") for row in rows + ("",) * (5 - len(rows)))
    return tuple(tuple(None if c == "." else colour(c) for c in row) for row in rows)


def board(
    *,
    score: int = 0,
    lines: dict[int, str] | None = None,
    wall_rows: tuple[str, ...] = (),
    floor: str = "",
    marker: bool = False,
) -> PlayerBoard:
    """A player board; ``lines`` maps pattern lines (numbered from 1 as in the rulebook)
    to their tiles, e.g. ``{4: "B"}``."""
    pattern = [EMPTY_LINE] * 5
    for number, held in (lines or {}).items():
        pattern[number - 1] = PatternLine(colour(held[0]), len(held))
    return PlayerBoard(
        score, tuple(pattern), wall(*wall_rows), tuple(colour(c) for c in floor), marker
    )


def table(
    state: State,
    *,
    factories: tuple[str, ...] = (),
    centre: str = "",
    marker_holder: int | None = None,
    boards: dict[int, PlayerBoard] | None = None,
    turn: int = 0,
    bag: str | None = None,
    lid: str = "",
) -> State:
    """The factory offer with the given factory displays (the others empty), centre and
    boards; the first player marker is in the centre unless someone holds it. The bag is
    the opening's unless given (these tables need not hold exactly 100 tiles)."""
    displays = [tiles(f) for f in factories] + [NO_TILES] * (len(state.factories) - len(factories))
    seats = list(state.boards)
    for seat, placed in (boards or {}).items():
        seats[seat] = placed
    return replace(
        state,
        phase=Phase.OFFER,
        turn=turn,
        factories=tuple(displays),
        centre=tiles(centre),
        marker_in_centre=marker_holder is None,
        marker_holder=marker_holder,
        boards=tuple(seats),
        bag=tiles(bag) if bag is not None else state.bag,
        lid=tiles(lid),
    )


def play(state: State, *moves: str, seed: int = 0) -> tuple[list, State]:
    """Decide and fold each move, written in the notation; every event and the state after."""
    events = []
    for move in moves:
        decided = decide(state, parse(move), random.Random(seed))
        for event in decided:
            state = evolve(state, event)
        events += decided
    return events, state
