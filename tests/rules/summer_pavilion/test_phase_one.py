"""Phase 1, acquire tiles: factories, the centre, the wild colour and the start player token."""

import dataclasses
import random

import pytest

from games.rules.common import IllegalMove
from games.rules.summer_pavilion import (
    Phase,
    TakeTiles,
    TilesTaken,
    decide,
    evolve,
    legal_commands,
    to_move,
)
from games.rules.summer_pavilion.board import BLUE, GREEN, ORANGE, PURPLE, RED, YELLOW

from .tables import NO_TILES, phase_one, tiles

CENTRE = None
RNG = random.Random(0)


def act(state, command):
    for event in decide(state, command, RNG):
        state = evolve(state, event)
    return state


def refusal(state, command) -> tuple[str, dict]:
    """The code and params of the ``IllegalMove`` that ``command`` raises."""
    with pytest.raises(IllegalMove) as refused:
        decide(state, command, RNG)
    return refused.value.code, refused.value.params


def test_rulebook_turn_example_three_yellow_and_a_wild_from_the_centre_cost_four():
    """Rulebook "Turn example" (round 1, purple is wild): "Ina picks both red tiles from a
    Factory display. Because there are no tiles of the wild color, she may not pick any other
    tiles. She then moves the remaining yellow tiles to the center of the table. Andrea takes
    a green tile from another Factory display. Because there are tiles of the wild color on
    the display, she also takes a purple tile and moves the remaining two tiles to the center
    of the table. Tom picks the three yellow tiles from the center of the table. He
    additionally takes a wild tile. Because he is the first player to take tiles from the
    center of the table, he must also take the start player token and move his scoring
    marker 4 spaces backwards."""
    others = (tiles(blue=4),) * 5
    state = phase_one(
        factories=(tiles(red=2, yellow=2), tiles(green=1, purple=2, yellow=1), *others)
    )
    ina = decide(state, TakeTiles(0, RED), RNG)
    assert ina == [TilesTaken(0, 0, RED, tiles(red=2), tiles(yellow=2), False, 0)]
    state = evolve(state, ina[0])
    andrea = decide(state, TakeTiles(1, GREEN), RNG)[0]
    assert andrea.taken == tiles(green=1, purple=1)
    assert andrea.to_centre == tiles(purple=1, yellow=1)
    state = evolve(state, andrea)
    assert state.centre == tiles(yellow=3, purple=1)
    tom = decide(state, TakeTiles(CENTRE, YELLOW), RNG)[0]
    assert tom.taken == tiles(yellow=3, purple=1)
    assert tom.start_token and tom.points_lost == 4
    state = evolve(state, tom)
    assert state.players[2].score == 1 and state.token_taker == 2
    assert state.centre == NO_TILES


def test_a_factory_take_moves_extra_wild_tiles_to_the_centre():
    state = phase_one(factories=(tiles(blue=1, purple=3), tiles(red=4)))
    state = act(state, TakeTiles(0, BLUE))
    assert state.players[0].beside == tiles(blue=1, purple=1)
    assert state.centre == tiles(purple=2)


def test_a_wild_only_factory_gives_exactly_one_wild_tile():
    """Rulebook phase 1 A: "If there are only tiles of the wild color on the Factory display
    you have chosen, you are only allowed to take one wild tile." """
    state = phase_one(factories=(tiles(purple=3), tiles(red=4)))
    assert TakeTiles(0, PURPLE) in legal_commands(state)
    state = act(state, TakeTiles(0, PURPLE))
    assert state.players[0].beside == tiles(purple=1)
    assert state.centre == tiles(purple=2)


def test_a_wild_only_centre_gives_exactly_one_wild_tile_and_the_token():
    state = phase_one(factories=(tiles(red=4),), centre=tiles(purple=3))
    event = decide(state, TakeTiles(CENTRE, PURPLE), RNG)[0]
    assert event.taken == tiles(purple=1) and event.start_token and event.points_lost == 1


def test_the_wild_colour_cannot_be_chosen_while_the_source_holds_another_colour():
    state = phase_one(factories=(tiles(blue=1, purple=3), tiles(red=4)))
    assert TakeTiles(0, PURPLE) not in legal_commands(state)
    assert refusal(state, TakeTiles(0, PURPLE)) == (
        "wild_taken_alone",
        {"source": 0, "wild": PURPLE},
    )


def test_the_wild_colour_changes_with_the_round():
    state = phase_one(factories=(tiles(green=2, purple=2), tiles(red=4)), round=2)
    assert state.wild == GREEN
    event = decide(state, TakeTiles(0, PURPLE), RNG)[0]
    assert event.taken == tiles(purple=2, green=1)
    assert event.to_centre == tiles(green=1)


def test_taking_from_the_centre_leaves_the_other_colours_there():
    state = phase_one(factories=(tiles(red=4),), centre=tiles(blue=2, orange=1, purple=2))
    state = act(state, TakeTiles(CENTRE, BLUE))
    assert state.centre == tiles(orange=1, purple=1)


def test_first_centre_pick_takes_token_and_stops_at_one():
    """Rulebook: "move your scoring marker backwards ... but no further backwards than
    space 1"; ruling LOWEST_SCORE."""
    state = phase_one(factories=(tiles(red=4),), centre=tiles(blue=6, purple=1))
    event = decide(state, TakeTiles(CENTRE, BLUE), RNG)[0]
    assert event.points_lost == 4
    assert evolve(state, event).players[0].score == 1


def test_a_marker_already_on_space_one_does_not_move_back():
    state = phase_one(factories=(tiles(red=4),), centre=tiles(blue=2))
    low = dataclasses.replace(state.players[0], score=1)
    state = dataclasses.replace(state, players=(low, *state.players[1:]))
    event = decide(state, TakeTiles(CENTRE, BLUE), RNG)[0]
    assert event.start_token and event.points_lost == 0


def test_only_the_first_centre_pick_takes_the_token():
    state = phase_one(factories=(tiles(red=4),), centre=tiles(blue=2, orange=2))
    state = act(state, TakeTiles(CENTRE, BLUE))
    event = decide(state, TakeTiles(CENTRE, ORANGE), RNG)[0]
    assert not event.start_token and event.points_lost == 0


def test_empty_or_missing_sources_and_colours_are_refused_with_a_reason():
    state = phase_one(factories=(tiles(red=4), NO_TILES))
    for command, reason in [
        (TakeTiles(1, RED), ("source_lacks_colour", {"source": 1, "colour": RED})),
        (TakeTiles(5, RED), ("no_such_factory", {"factory": 5, "factories": 2})),
        (TakeTiles(CENTRE, RED), ("source_lacks_colour", {"source": None, "colour": RED})),
        (TakeTiles(0, BLUE), ("source_lacks_colour", {"source": 0, "colour": BLUE})),
        (TakeTiles(0, 9), ("no_such_colour", {"colour": 9, "colours": 6})),
    ]:
        assert refusal(state, command) == reason


def test_play_goes_clockwise_and_phase_two_starts_with_the_token_holder():
    state = phase_one(factories=(tiles(red=2, blue=2),), players=3, seat=1)
    state = act(state, TakeTiles(0, RED))
    assert to_move(state) == 2
    state = act(state, TakeTiles(CENTRE, BLUE))
    assert state.phase is Phase.PLAY
    assert to_move(state) == 2


def test_previous_start_player_keeps_the_role_if_nobody_took_from_the_centre():
    """Ruling UNCLAIMED_TOKEN_STARTER: with the centre never used, the start player of the
    round places first and starts the next round."""
    state = phase_one(factories=(tiles(red=4), tiles(blue=4)), players=3, seat=1)
    state = act(state, TakeTiles(0, RED))
    state = act(state, TakeTiles(1, BLUE))
    assert state.phase is Phase.PLAY and state.token_taker is None
    assert to_move(state) == 1


def test_phase_one_commands_are_refused_in_phase_two():
    state = phase_one(factories=(tiles(red=2),))
    state = act(state, TakeTiles(0, RED))
    assert refusal(state, TakeTiles(0, RED)) == (
        "not_acquire_phase",
        {"action": "take_tiles", "current": "play"},
    )


def test_legal_takes_list_every_colour_of_every_source_once():
    state = phase_one(
        factories=(tiles(red=2, blue=1, purple=1), tiles(purple=2), NO_TILES),
        centre=tiles(green=1, orange=2),
    )
    assert legal_commands(state) == [
        TakeTiles(0, BLUE),
        TakeTiles(0, RED),
        TakeTiles(1, PURPLE),
        TakeTiles(CENTRE, GREEN),
        TakeTiles(CENTRE, ORANGE),
    ]
