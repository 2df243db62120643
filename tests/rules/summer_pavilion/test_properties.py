"""Summer Pavilion's own invariants over random games (2-4 players, both board sides,
random and default moves); the properties every game shares are in
``tests/rules/test_contract.py``."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.summer_pavilion import (
    Side,
    decide,
    default_command,
    evolve,
    is_over,
    legal_commands,
    replay,
    scores,
    start,
)
from games.rules.summer_pavilion.board import ROUNDS, TILE_TOTAL

GAMES = settings(max_examples=30, deadline=None)
games = st.tuples(
    st.integers(2, 4), st.sampled_from(list(Side)), st.integers(0, 2**32), st.floats(0, 1)
)


def random_events(players, side, seed, randomness):
    """Every event of a game; each move is a random legal command with probability
    ``randomness``, else the default command."""
    rng = random.Random(seed)
    events = start(players, {"board": side.value}, rng)
    state = replay(events)
    while not is_over(state):
        if rng.random() < randomness:
            command = rng.choice(legal_commands(state))
        else:
            command = default_command(state)
        new = decide(state, command, rng)
        for event in new:
            state = evolve(state, event)
        events += new
    return events


def tiles_on_the_table(state):
    held = sum(
        sum(p.beside) + sum(p.corners) + sum(t is not None for t in p.board) for p in state.players
    )
    return (
        sum(state.bag)
        + sum(state.tower)
        + sum(map(sum, state.factories))
        + sum(state.centre)
        + sum(t is not None for t in state.supply)
        + held
    )


@GAMES
@given(games)
def test_no_tile_is_created_or_lost(game):
    state = None
    for event in random_events(*game):
        state = evolve(state, event)
        assert tiles_on_the_table(state) == TILE_TOTAL, event
        assert min(state.bag + state.tower + state.centre) >= 0


@GAMES
@given(games)
def test_every_game_ends_after_round_six_with_no_score_below_one(game):
    state = replay(random_events(*game))
    assert is_over(state) and state.round == ROUNDS
    assert min(scores(state)) >= 1
