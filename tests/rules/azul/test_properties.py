"""Invariants over random games: 2, 3 and 4 players, both wall sides."""

import json
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.rules.azul import (
    CENTRE,
    FLOOR,
    IllegalMove,
    PlaceOnWall,
    TakeTiles,
    decide,
    decode,
    default_command,
    encode,
    encode_command,
    evolve,
    is_over,
    legal_commands,
    outcome,
    replay,
    start,
    to_move,
)
from games.rules.azul.board import COLOURS, TILES_PER_COLOUR, WALL_SIDES
from games.rules.common import add_counts, count_of

games = settings(max_examples=50, deadline=None)
players = st.integers(2, 4)
walls = st.sampled_from(WALL_SIDES)
seeds = st.integers(0, 2**32 - 1)

LONGEST_GAME = 2000
"""Far more commands than any game needs: random games take about 50 to 250."""

EVERY_COMMAND = [
    TakeTiles(source, colour, line)
    for source in [CENTRE, *range(10)]
    for colour in range(-1, COLOURS + 1)
    for line in [FLOOR, *range(6)]
] + [PlaceOnWall(column) for column in range(-1, 6)]


def random_game(players, wall, seed, choose=None):
    """A whole game of random legal commands: the states before each command, the
    commands, every event, the final state."""
    rng = random.Random(seed)
    events = start(players, {"wall": wall}, rng)
    state = replay(events)
    states, commands = [], []
    while not is_over(state):
        assert len(commands) < LONGEST_GAME, f"no end after {LONGEST_GAME} commands"
        command = choose(state) if choose else rng.choice(legal_commands(state))
        states.append(state)
        commands.append(command)
        decided = decide(state, command, rng)
        for event in decided:
            state = evolve(state, event)
        events += decided
    return states, commands, events, state


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


@games
@given(players, walls, seeds)
def test_no_tile_is_created_or_lost_after_any_event(players, wall, seed):
    _, _, events, _ = random_game(players, wall, seed)
    state = None
    for event in events:
        state = evolve(state, event)
        assert tiles_by_colour(state) == (TILES_PER_COLOUR,) * COLOURS
        assert all(board.score >= 0 for board in state.boards)
        assert sum(board.marker for board in state.boards) + state.marker_in_centre <= 1


@games
@given(players, walls, seeds)
def test_replay_equals_the_state_built_step_by_step(players, wall, seed):
    _, _, events, final = random_game(players, wall, seed)
    assert replay(events) == final


@settings(max_examples=25, deadline=None)
@given(players, walls, seeds)
def test_every_legal_command_is_accepted_and_every_other_refused_with_a_reason(players, wall, seed):
    states, _, _, _ = random_game(players, wall, seed)
    for state in states:
        legal = legal_commands(state)
        assert len(legal) == len(set(legal))
        for command in EVERY_COMMAND:
            if command in legal:
                assert decide(state, command, random.Random(0))
            else:
                try:
                    decide(state, command, random.Random(0))
                except IllegalMove as error:
                    assert error.reason
                else:
                    raise AssertionError(f"{command} was accepted but is not legal")


@games
@given(players, walls, seeds)
@example(3, "grey", 28057348)  # random play that never completed a row: ends after round 20
def test_every_game_ends_with_an_outcome(players, wall, seed):
    _, _, _, final = random_game(players, wall, seed)
    result = outcome(final)
    assert len(result.scores) == players and result.winners
    assert to_move(final) is None and legal_commands(final) == []
    best = max(result.scores)
    assert all(result.scores[seat] == best for seat in result.winners)


@games
@given(players, walls, seeds)
def test_events_and_commands_survive_encoding(players, wall, seed):
    _, commands, events, _ = random_game(players, wall, seed)
    for event in events:
        assert decode(json.loads(json.dumps(encode(event)))) == event
    for command in commands:
        assert decode(json.loads(json.dumps(encode_command(command)))) == command


@settings(max_examples=25, deadline=None)
@given(players, walls, seeds)
def test_games_of_default_commands_are_legal_and_end(players, wall, seed):
    def checked_default(state):
        command = default_command(state)
        assert command in legal_commands(state)
        assert default_command(state) == command
        return command

    _, _, _, final = random_game(players, wall, seed, choose=checked_default)
    assert is_over(final)
