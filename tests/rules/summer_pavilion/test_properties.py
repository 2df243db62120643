"""Invariants over random games: 2-4 players, both board sides, random and default moves."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.common import IllegalMove
from games.rules.summer_pavilion import (
    ChooseBonusTiles,
    GameStarted,
    NextRoundPrepared,
    Pass,
    PlaceTile,
    Side,
    SupplyRefilled,
    TakeTiles,
    decide,
    decode,
    decode_command,
    default_command,
    encode,
    encode_command,
    evolve,
    format,
    is_barrier,
    is_over,
    legal_commands,
    outcome,
    parse,
    replay,
    scores,
    start,
    to_move,
    view,
)
from games.rules.summer_pavilion.board import ROUNDS, TILE_TOTAL

GAMES = settings(max_examples=40, deadline=None)
games = st.tuples(
    st.integers(2, 4), st.sampled_from(list(Side)), st.integers(0, 2**32), st.floats(0, 1)
)


def play(players, side, seed, randomness):
    """Yield (state, command, events) for a whole game; each move is a random legal command
    with probability ``randomness``, else the default command."""
    rng = random.Random(seed)
    events = start(players, {"board": side.value}, rng)
    state = replay(events)
    yield None, None, events
    while not is_over(state):
        if rng.random() < randomness:
            command = rng.choice(legal_commands(state))
        else:
            command = default_command(state)
        new = decide(state, command, rng)
        yield state, command, new
        state = _fold(state, new)


def _fold(state, events):
    for event in events:
        state = evolve(state, event)
    return state


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
    for _, _, events in play(*game):
        for event in events:
            state = evolve(state, event)
            assert tiles_on_the_table(state) == TILE_TOTAL, event
            assert min(state.bag + state.tower + state.centre) >= 0


@GAMES
@given(games)
def test_replay_equals_the_state_built_step_by_step(game):
    log, state = [], None
    for _, _, events in play(*game):
        log.extend(events)
        state = _fold(state, events) if state is not None else replay(events)
    assert replay(log) == state


@GAMES
@given(games)
def test_every_legal_command_is_accepted_and_round_trips_through_notation(game):
    rng = random.Random(0)
    for state, _, _ in play(*game):
        if state is None:
            continue
        commands = legal_commands(state)
        assert commands, "a player to move always has a legal command"
        assert len(commands) == len(set(commands))
        assert to_move(state) is not None
        for command in rng.sample(commands, min(8, len(commands))):
            assert decide(state, command, rng)
            assert parse(format(command)) == command
            assert decode_command(encode_command(command)) == command
        assert default_command(state) in commands


def random_colours(rng):
    """Up to 5 colours, some out of range, in ascending order or not."""
    colours = [rng.randrange(-1, 7) for _ in range(rng.randrange(6))]
    return tuple(sorted(colours) if rng.random() < 0.5 else colours)


def random_command(rng, legal):
    """Any command, or a legal one with one field changed (the near misses)."""
    small = rng.randrange(-1, 8)
    if legal and rng.random() < 0.5:
        near = rng.choice(legal)
        match near:
            case TakeTiles(source, colour):
                return rng.choice([TakeTiles(source, small), TakeTiles(small, colour)])
            case PlaceTile(star, space, colour, wilds):
                return rng.choice(
                    [
                        PlaceTile(star, space, colour, small),
                        PlaceTile(star, space, small, wilds),
                        PlaceTile(star, small, colour, wilds),
                        PlaceTile(small, space, colour, wilds),
                    ]
                )
            case ChooseBonusTiles(colours):
                return ChooseBonusTiles(tuple(sorted((*colours, rng.randrange(6)))))
            case Pass(keep):
                return Pass(tuple(sorted((*keep, rng.randrange(6)))))
    source = rng.choice([None, *range(-1, 10)])
    return rng.choice(
        [
            TakeTiles(source, small),
            PlaceTile(rng.randrange(-1, 8), small, rng.randrange(-1, 7), rng.randrange(-1, 7)),
            ChooseBonusTiles(random_colours(rng)),
            Pass(random_colours(rng)),
        ]
    )


@GAMES
@given(games)
def test_commands_outside_legal_commands_are_refused_with_a_reason(game):
    rng = random.Random(1)
    for state, _, _ in play(*game):
        if state is None:
            continue
        commands = legal_commands(state)
        legal = set(commands)
        for _ in range(20):
            command = random_command(rng, commands)
            if command in legal:
                assert decide(state, command, rng)
                continue
            try:
                decide(state, command, rng)
            except IllegalMove as refusal:
                assert refusal.reason
            else:
                raise AssertionError(f"{command} was accepted but is not legal")


@GAMES
@given(games)
def test_every_game_ends_after_round_six_with_an_outcome(game):
    state = None
    for _, _, events in play(*game):
        state = _fold(state, events) if state is not None else replay(events)
    assert is_over(state) and state.round == ROUNDS
    assert to_move(state) is None and legal_commands(state) == []
    result = outcome(state)
    assert result.scores == scores(state)
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)
    assert min(result.scores) >= 1


@GAMES
@given(games)
def test_decode_encode_is_the_identity_and_only_draws_are_barriers(game):
    for _, _, events in play(*game):
        for event in events:
            data = encode(event)
            assert decode(json.loads(json.dumps(data))) == event
            assert data["type"] == type(event).__name__ and data["version"] == 1
            assert is_barrier(event) == isinstance(
                event, (GameStarted, SupplyRefilled, NextRoundPrepared)
            )


@settings(max_examples=10, deadline=None)
@given(games)
def test_the_view_is_json_and_shows_the_bag_only_as_a_count(game):
    for state, _, _ in play(*game):
        if state is None:
            continue
        shown = view(state)
        json.dumps(shown)
        assert shown["bag"] == sum(state.bag)
