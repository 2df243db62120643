"""Properties of random Miyabi games (2, 3 and 4 players)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.miyabi import (
    IllegalMove,
    Pass,
    PlaceTile,
    State,
    decide,
    decode,
    default_command,
    encode,
    evolve,
    format,
    is_barrier,
    is_over,
    legal_commands,
    outcome,
    parse,
    render_text,
    replay,
    start,
    view,
)
from games.rules.miyabi.data import INVENTORY, KIND_INDEX, KINDS, PHASES
from games.rules.miyabi.model import PhaseBegan

GAMES = settings(max_examples=100, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(2, 4)


def random_game(seed: int, players: int):
    """Yield (state, command, events) for a game of random legal commands, mostly
    placements, sometimes a pass by choice or the default command."""
    rng = random.Random(seed)
    state = replay(start(players, {}, rng))
    while not is_over(state):
        commands = legal_commands(state)
        roll = rng.random()
        if roll < 0.04:
            command = Pass()
        elif roll < 0.2:
            command = default_command(state)
        else:
            command = rng.choice(commands)
        events = decide(state, command, rng)
        yield state, command, events
        for event in events:
            state = evolve(state, event)


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
    for state, _, events in random_game(seed, players):
        assert tiles_everywhere(state) == INVENTORY
        for event in events:
            state = evolve(state, event)
            assert tiles_everywhere(state) == INVENTORY


@GAMES
@given(seeds, player_counts)
def test_replay_equals_the_state_built_step_by_step(seed, players):
    rng = random.Random(seed)
    log = start(players, {}, rng)
    state = replay(log)
    for _, _, events in random_game(seed, players):
        log.extend(events)
    for event in log[2:]:
        state = evolve(state, event)
    rebuilt = replay(log)
    assert rebuilt == state
    assert is_over(rebuilt)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts)
def test_every_legal_command_is_accepted(seed, players):
    sampler = random.Random(seed)
    for state, _, _ in random_game(seed, players):
        commands = legal_commands(state)
        assert len(commands) == len(set(commands))
        for command in sampler.sample(commands, min(len(commands), 25)):
            events = decide(state, command, random.Random(0))
            assert events
            assert parse(format(command)) == command


def random_command(rng: random.Random, state: State) -> PlaceTile:
    tile = rng.choice(state.display) if state.display and rng.random() < 0.7 else None
    return PlaceTile(
        tile or rng.choice(KINDS),
        rng.randrange(-1, 7),
        rng.randrange(-1, 7),
        rng.randrange(0, 9),
    )


@GAMES
@given(seeds, player_counts)
def test_commands_outside_legal_commands_are_refused_with_a_reason(seed, players):
    sampler = random.Random(seed)
    for state, _, _ in random_game(seed, players):
        legal = set(legal_commands(state))
        for _ in range(20):
            command = random_command(sampler, state)
            if command in legal:
                continue
            try:
                decide(state, command, random.Random(0))
            except IllegalMove as refused:
                assert refused.reason
            else:
                raise AssertionError(f"{command} was accepted but is not legal")


@GAMES
@given(seeds, player_counts)
def test_every_game_ends_with_an_outcome(seed, players):
    phases = 0
    state = None
    for state, _, events in random_game(seed, players):
        phases += sum(isinstance(event, PhaseBegan) for event in events)
        for event in events:
            state = evolve(state, event)
    assert is_over(state)
    assert phases + 1 == PHASES[players]
    result = outcome(state)
    assert result.scores == state.points
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)
    assert legal_commands(state) == []
    assert "game over" in render_text(state)


@GAMES
@given(seeds, player_counts)
def test_decode_of_encode_is_the_event(seed, players):
    rng = random.Random(seed)
    log = start(players, {}, rng)
    for _, _, events in random_game(seed, players):
        log.extend(events)
    for event in log:
        data = encode(event)
        assert decode(json.loads(json.dumps(data))) == event
        assert is_barrier(event) == isinstance(event, PhaseBegan)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts)
def test_the_view_is_json_safe_and_shows_the_box_only_as_a_count(seed, players):
    for state, _, _ in random_game(seed, players):
        seen = view(state)
        json.dumps(seen)
        assert seen["box"] == sum(state.box)
        assert len(seen["display"]) == len(state.display)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts)
def test_the_default_command_is_legal_and_deterministic(seed, players):
    for state, _, _ in random_game(seed, players):
        chosen = default_command(state)
        assert chosen == default_command(state)
        assert chosen in legal_commands(state)
        assert isinstance(chosen, PlaceTile) or legal_commands(state) == [Pass()]
