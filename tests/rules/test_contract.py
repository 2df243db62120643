"""The decider contract (``docs/engines.md``), checked once for every registered game.

What holds for every game lives here; what is one game's own (its tiles conserved, its
rulebook examples) stays in ``tests/rules/<game>/``. A new game in ``games.registry`` is
checked by this file without a line added to it, except ``HIDDEN_PILE`` below.
"""

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.registry import GAME_TYPES
from games.rules.common import IllegalMove, InvalidNotation

ENGINES = [pytest.param(game.engine, id=slug) for slug, game in GAME_TYPES.items()]

HIDDEN_PILE = {"azul": "bag", "summer-pavilion": "bag", "miyabi": "box"}
"""The state field of each game's face-down tiles (the bag, Miyabi's box): the view shows
it only as a count, and an event that changes it revealed a draw (a barrier)."""

SHARED_KEYS = (
    "game",
    "players",
    "round",
    "rounds",
    "phase",
    "to_move",
    "start_player",
    "scores",
    "over",
    "ended_by",
)
"""The keys of every view (``games.rules.common.table_view``)."""

LONGEST_GAME = 50_000
"""Far more commands than any game needs: Azul games whose players drop every tile on the
floor line run longest, ending by a repeated position after 20,000 commands at most."""

SMALL_NUMBERS = range(-1, 10)

seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 4)
FEW = settings(max_examples=15, deadline=None)


@dataclass
class Played:
    """A whole game: the opening events, then each state, the command given there and the
    events it caused; the final state."""

    opening: list
    turns: list[tuple[Any, Any, list]]
    final: Any

    @property
    def events(self) -> list:
        return self.opening + [event for _, _, events in self.turns for event in events]


def random_options(engine, rng: random.Random) -> dict:
    return {name: rng.choice(values) for name, values in engine.OPTIONS.items()}


def play(engine, players: int, seed: int, stubborn: float = 0.0, default: float = 0.2) -> Played:
    """A game of random legal commands; with probability ``default`` the default command,
    with probability ``stubborn`` the last legal command (dropping tiles on the floor line,
    passing): the players who make games longest."""
    rng = random.Random(seed)
    opening = engine.start(players, random_options(engine, rng), rng)
    state = engine.replay(opening)
    turns = []
    while not engine.is_over(state):
        assert len(turns) < LONGEST_GAME, f"no end after {LONGEST_GAME} commands"
        legal = engine.legal_commands(state)
        roll = rng.random()
        if roll < stubborn:
            command = legal[-1]
        elif roll < stubborn + default:
            command = engine.default_command(state)
        else:
            command = rng.choice(legal)
        events = engine.decide(state, command, rng)
        turns.append((state, command, events))
        for event in events:
            state = engine.evolve(state, event)
    return Played(opening, turns, state)


# --- start ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("count", [0, 1, 5, "2"])
def test_start_refuses_a_player_count_the_game_is_not_for(engine, count):
    with pytest.raises(IllegalMove) as refusal:
        engine.start(count, {}, random.Random(0))
    assert refusal.value.code == "player_count"
    assert refusal.value.params == {
        "game": engine.NAME,
        "fewest": 2,
        "most": 4,
        "players": count,
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_start_refuses_an_unknown_option_and_names_the_known_ones(engine):
    with pytest.raises(IllegalMove) as refusal:
        engine.start(2, {"colour": "gold"}, random.Random(0))
    assert (refusal.value.code, refusal.value.params["unknown"]) == ("unknown_option", ("colour",))
    assert refusal.value.params["known"] == tuple(sorted(engine.OPTIONS))
    with pytest.raises(IllegalMove) as refusal:
        engine.start(2, ["wall"], random.Random(0))
    assert refusal.value.code == "options_not_mapping"


@pytest.mark.parametrize("engine", ENGINES)
def test_start_refuses_an_option_value_and_lists_the_accepted_ones(engine):
    for name, values in engine.OPTIONS.items():
        with pytest.raises(IllegalMove) as refusal:
            engine.start(2, {name: "gold"}, random.Random(0))
        assert refusal.value.code == "option_value"
        assert refusal.value.params == {
            "game": engine.NAME,
            "option": name,
            "values": tuple(values),
            "value": "gold",
        }


@pytest.mark.parametrize("engine", ENGINES)
def test_an_option_left_out_takes_its_first_value(engine):
    defaults = {name: values[0] for name, values in engine.OPTIONS.items()}
    assert engine.start(3, {}, random.Random(7)) == engine.start(3, defaults, random.Random(7))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_starts_once(engine):
    opening = engine.start(2, {}, random.Random(0))
    state = engine.replay(opening)
    with pytest.raises(ValueError, match="the game has already started"):
        engine.evolve(state, opening[0])
    if len(opening) > 1:
        with pytest.raises(ValueError, match="a game starts with"):
            engine.evolve(None, opening[1])
    with pytest.raises(ValueError, match="no events"):
        engine.replay([])


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unfinished_game_has_no_outcome(engine):
    with pytest.raises(ValueError, match="not over"):
        engine.outcome(engine.replay(engine.start(2, {}, random.Random(0))))


# --- notation ------------------------------------------------------------------------------


def a_legal_command(engine):
    return engine.legal_commands(engine.replay(engine.start(2, {}, random.Random(0))))[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_format_refuses_a_command_of_another_game(engine):
    others = [game.engine for game in GAME_TYPES.values() if game.engine is not engine]
    for stranger in [object(), *map(a_legal_command, others)]:
        with pytest.raises(InvalidNotation):
            engine.format(stranger)
        with pytest.raises(IllegalMove):
            engine.decide(engine.replay(engine.start(2, {}, random.Random(0))), stranger, None)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", ["", "hello world", "42", "pass pass pass pass pass pass"])
def test_parse_refuses_text_that_is_no_command_and_says_what_it_expected(engine, text):
    with pytest.raises(InvalidNotation) as refusal:
        engine.parse(text)
    assert re.fullmatch(r"[a-z_]+", refusal.value.code) and refusal.value.text == text


# --- a whole game --------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds)
def test_replay_equals_the_state_built_step_by_step(engine, players, seed):
    played = play(engine, players, seed)
    assert engine.replay(played.events) == played.final


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds)
def test_every_legal_command_is_accepted_and_round_trips(engine, players, seed):
    sampler = random.Random(seed)
    for state, _, _ in play(engine, players, seed).turns:
        legal = engine.legal_commands(state)
        assert legal and len(legal) == len(set(legal))
        assert engine.to_move(state) is not None
        for command in sampler.sample(legal, min(6, len(legal))):
            assert engine.decide(state, command, random.Random(0))
            assert engine.parse(engine.format(command)) == command
            data = json.loads(json.dumps(engine.encode_command(command)))
            assert engine.decode_command(data) == command


def near_misses(command, seen: list, rng: random.Random) -> list:
    """Commands one field away from a legal one: another small number, another value the
    same field had in a command seen this game, one tile more or fewer in a tuple."""
    misses = []
    for field in dataclasses.fields(command):
        value = getattr(command, field.name)
        if isinstance(value, int):
            candidates = [rng.choice(SMALL_NUMBERS)]
        elif isinstance(value, tuple):
            candidates = [value[1:], (*value, rng.choice(SMALL_NUMBERS))]
        else:
            candidates = []
        candidates += [
            getattr(other, field.name)
            for other in rng.sample(seen, min(3, len(seen)))
            if type(other) is type(command)
        ]
        misses += [dataclasses.replace(command, **{field.name: new}) for new in candidates]
    return misses


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds)
def test_a_command_that_is_not_legal_is_refused_with_a_reason(engine, players, seed):
    rng = random.Random(seed)
    seen: list = []
    for state, _, _ in play(engine, players, seed).turns:
        legal = engine.legal_commands(state)
        seen += rng.sample(legal, min(3, len(legal)))
        for near in rng.sample(legal, min(3, len(legal))):
            for command in near_misses(near, seen, rng):
                if command in legal:
                    continue
                with pytest.raises(IllegalMove) as refusal:
                    engine.decide(state, command, random.Random(0))
                assert re.fullmatch(r"[a-z_]+", refusal.value.code)
                assert "seat" not in refusal.value.code


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds)
def test_every_event_survives_encoding_and_a_draw_is_a_barrier(engine, players, seed):
    played = play(engine, players, seed)
    pile = HIDDEN_PILE[engine.NAME]
    state = None
    for event in played.events:
        data = json.loads(json.dumps(engine.encode(event)))
        assert data["type"] == type(event).__name__ and data["version"] >= 1
        assert engine.decode(data) == event
        before, state = state, engine.evolve(state, event)
        if before is not None and getattr(before, pile) != getattr(state, pile):
            assert engine.is_barrier(event), f"{event} drew tiles but is no barrier"


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=8, deadline=None)
@given(players, seeds)
def test_the_view_shares_the_contract_keys_and_shows_the_face_down_tiles_as_a_count(
    engine, players, seed
):
    played = play(engine, players, seed)
    pile = HIDDEN_PILE[engine.NAME]
    for state in [state for state, _, _ in played.turns[::7]] + [played.final]:
        shown = engine.view(state)
        assert json.loads(json.dumps(shown)) == shown
        assert shown["game"] == engine.NAME and shown["players"] == players
        assert shown["to_move"] == engine.to_move(state)
        assert shown["scores"] == list(engine.scores(state))
        assert shown["over"] == engine.is_over(state) == (shown["phase"] == "over")
        assert (shown["ended_by"] is None) != shown["over"]
        assert all(key in shown for key in SHARED_KEYS)
        assert all(engine.view(state, seat) == shown for seat in range(players))
        counts = getattr(state, pile)
        shuffled = dataclasses.replace(state, **{pile: counts[1:] + counts[:1]})
        assert engine.view(shuffled) == shown, "the view tells the face-down tiles apart"
    with pytest.raises(ValueError, match="seats are numbered"):
        engine.view(played.final, players)


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds, st.sets(st.integers(0, 3), min_size=1))
def test_every_game_ends_with_an_outcome_among_the_seats_still_playing(
    engine, players, seed, playing
):
    final = play(engine, players, seed).final
    assert engine.to_move(final) is None and engine.legal_commands(final) == []
    with pytest.raises(IllegalMove):
        engine.default_command(final)
    with pytest.raises(IllegalMove):
        engine.decide(final, a_legal_command(engine), random.Random(0))
    result = engine.outcome(final)
    assert result.scores == tuple(engine.scores(final)) and result.winners
    assert all(result.scores[seat] == max(result.scores) for seat in result.winners)
    assert engine.outcome(final, range(players)) == result
    seats = {seat for seat in playing if seat < players} or {0}
    among = engine.outcome(final, seats)
    assert among.scores == result.scores and set(among.winners) <= seats
    best = max(result.scores[seat] for seat in seats)
    assert all(result.scores[seat] == best for seat in among.winners)
    with pytest.raises(ValueError):
        engine.outcome(final, ())


@pytest.mark.parametrize("engine", ENGINES)
@FEW
@given(players, seeds)
def test_the_default_command_is_legal_deterministic_and_ends_the_game(engine, players, seed):
    played = play(engine, players, seed, default=1.0)
    for state, command, _ in played.turns:
        assert command in engine.legal_commands(state)
        assert engine.default_command(state) == command
    assert engine.is_over(played.final)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=6, deadline=None)
@given(players, seeds, st.floats(0.5, 1.0))
def test_no_game_runs_for_ever_even_when_players_stall(engine, players, seed, stubborn):
    """A search for a game without an end, bounded in time: players who mostly give the
    last legal command (all tiles to the floor line, passing) make games longest."""
    assert engine.is_over(play(engine, players, seed, stubborn=stubborn).final)
