"""Miyabi's own invariants over random games (2, 3 and 4 players); the properties every
game shares are in ``tests/rules/test_contract.py``."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.miyabi import (
    Pass,
    State,
    decide,
    default_command,
    evolve,
    is_over,
    legal_commands,
    replay,
    start,
)
from games.rules.miyabi.data import INVENTORY, KIND_INDEX, PHASES
from games.rules.miyabi.model import PhaseBegan

GAMES = settings(max_examples=50, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(2, 4)


def random_events(seed: int, players: int) -> list:
    """Every event of a game of random legal commands, mostly placements, sometimes a pass
    by choice or the default command."""
    rng = random.Random(seed)
    events = start(players, {}, rng)
    state = replay(events)
    while not is_over(state):
        roll = rng.random()
        if roll < 0.04:
            command = Pass()
        elif roll < 0.2:
            command = default_command(state)
        else:
            command = rng.choice(legal_commands(state))
        new = decide(state, command, rng)
        for event in new:
            state = evolve(state, event)
        events += new
    return events


def tiles_everywhere(state: State) -> tuple[int, ...]:
    """Box + display + gardens + removed, per kind of tile."""
    counts = [b + r for b, r in zip(state.box, state.removed, strict=True)]
    for tile in state.display:
        counts[KIND_INDEX[tile]] += 1
    for garden in state.gardens:
        for placed in garden.tiles:
            counts[KIND_INDEX[placed.tile]] += 1
    return tuple(counts)


@GAMES
@given(seeds, player_counts)
def test_no_tile_is_created_or_lost_after_any_event(seed, players):
    state = None
    for event in random_events(seed, players):
        state = evolve(state, event)
        assert tiles_everywhere(state) == INVENTORY


@GAMES
@given(seeds, player_counts)
def test_every_game_ends_after_its_building_phases(seed, players):
    events = random_events(seed, players)
    state = replay(events)
    assert is_over(state)
    assert sum(isinstance(event, PhaseBegan) for event in events) == PHASES[players]
