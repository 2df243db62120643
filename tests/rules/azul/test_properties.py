"""Azul's own invariants over random games (2, 3 and 4 players, both wall sides); the
properties every game shares are in ``tests/rules/test_contract.py``."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.azul import decide, evolve, is_over, legal_commands, replay, start
from games.rules.azul.board import COLOURS, TILES_PER_COLOUR, WALL_SIDES
from games.rules.common import add_counts, count_of


def random_events(players, wall, seed):
    """Every event of a game of random legal commands."""
    rng = random.Random(seed)
    events = start(players, {"wall": wall}, rng)
    state = replay(events)
    while not is_over(state):
        decided = decide(state, rng.choice(legal_commands(state)), rng)
        for event in decided:
            state = evolve(state, event)
        events += decided
    return events


def tiles_by_colour(state):
    """Bag, lid, factory displays, centre, pattern lines, walls and floor lines."""
    counts = add_counts(add_counts(state.bag, state.lid), state.centre)
    for factory in state.factories:
        counts = add_counts(counts, factory)
    for board in state.boards:
        placed = [line.colour for line in board.lines for _ in range(line.count)]
        placed += [tile for row in board.wall for tile in row if tile is not None]
        counts = add_counts(counts, count_of((*placed, *board.floor), COLOURS))
    return counts


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.sampled_from(WALL_SIDES), st.integers(0, 2**32 - 1))
def test_no_tile_is_created_or_lost_and_no_score_drops_below_zero(players, wall, seed):
    state = None
    for event in random_events(players, wall, seed):
        state = evolve(state, event)
        assert tiles_by_colour(state) == (TILES_PER_COLOUR,) * COLOURS
        assert all(board.score >= 0 for board in state.boards)
        assert sum(board.marker for board in state.boards) + state.marker_in_centre <= 1
