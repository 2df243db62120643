"""Tables set up for a test: states built by hand from a started game, so each test shows
only the tiles that matter to its rule."""

import dataclasses
import random

from games.rules.summer_pavilion import Phase, Side, State, replay, start
from games.rules.summer_pavilion.board import BOARD_SPACES, COLOURS, index

NO_TILES = (0,) * len(COLOURS)


def tiles(**counts: int) -> tuple[int, ...]:
    """A multiset by colour name: ``tiles(blue=3, purple=3)``."""
    unknown = set(counts) - set(COLOURS)
    assert not unknown, unknown
    return tuple(counts.get(colour, 0) for colour in COLOURS)


def board(placed: dict[tuple[int, int], int] | None = None) -> tuple[int | None, ...]:
    """A player board with tiles on (star, space) spaces."""
    spaces: list[int | None] = [None] * BOARD_SPACES
    for (star, space), colour in (placed or {}).items():
        spaces[index(star, space)] = colour
    return tuple(spaces)


def started(players: int = 2, side: Side = Side.COLOURED, seed: int = 0) -> State:
    """A freshly set up game."""
    return replay(start(players, {"board": side.value}, random.Random(seed)))


def phase_two(
    *,
    beside: tuple[int, ...],
    placed: dict[tuple[int, int], int] | None = None,
    side: Side = Side.COLOURED,
    players: int = 2,
    round: int = 1,
    seat: int = 0,
    score: int = 5,
) -> State:
    """Phase 2 of ``round`` with ``seat`` to move, holding ``beside`` and ``placed``."""
    state = started(players, side)
    player = dataclasses.replace(
        state.players[seat], beside=beside, board=board(placed), score=score
    )
    return dataclasses.replace(
        state,
        round=round,
        phase=Phase.PLAY,
        factories=tuple(NO_TILES for _ in state.factories),
        players=state.players[:seat] + (player,) + state.players[seat + 1 :],
        current=seat,
        start_player=seat,
        token_taker=seat,
    )


def phase_one(
    *,
    factories: tuple[tuple[int, ...], ...],
    centre: tuple[int, ...] = NO_TILES,
    players: int = 3,
    seat: int = 0,
    round: int = 1,
) -> State:
    """Phase 1 of ``round`` with the given sources and ``seat`` to move."""
    state = started(players)
    return dataclasses.replace(
        state, round=round, factories=factories, centre=centre, current=seat, start_player=seat
    )
