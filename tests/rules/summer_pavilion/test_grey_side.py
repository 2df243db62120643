"""The grey side (variant): other costs, star colours chosen by the player, star and number
bonuses for the chosen stars."""

import random

import pytest

from games.rules.common import IllegalMove
from games.rules.summer_pavilion import PlaceTile, Side, decide, legal_commands
from games.rules.summer_pavilion.board import (
    BLUE,
    COSTS,
    GREEN,
    NUMBER_SETS,
    ORANGE,
    PURPLE,
    RED,
    YELLOW,
    index,
)
from games.rules.summer_pavilion.rules import number_points, star_points

from .tables import board, phase_two, tiles

RNG = random.Random(0)
GREY = Side.GREY


def refusal(state, command) -> tuple[str, dict]:
    """The code and params of the ``IllegalMove`` that ``command`` raises."""
    with pytest.raises(IllegalMove) as refused:
        decide(state, command, RNG)
    return refused.value.code, refused.value.params


def test_grey_costs_are_three_on_the_centre_and_three_two_one_four_five_six_outside():
    costs = COSTS[GREY]
    assert [costs[index(0, space)] for space in range(1, 7)] == [3] * 6
    for star in range(1, 7):
        assert [costs[index(star, space)] for space in range(1, 7)] == [3, 2, 1, 4, 5, 6]


def test_grey_number_sets_have_six_six_twelve_and_six_spaces():
    assert {n: len(spaces) for n, spaces in NUMBER_SETS[GREY].items()} == {1: 6, 2: 6, 3: 12, 4: 6}
    assert {n: len(spaces) for n, spaces in NUMBER_SETS[Side.COLOURED].items()} == {
        1: 7,
        2: 7,
        3: 7,
        4: 7,
    }


def test_a_grey_star_takes_any_colour_while_it_holds_fewer_than_two_tiles():
    state = phase_two(beside=tiles(red=1, blue=1), side=GREY, placed={(2, 1): GREEN})
    assert PlaceTile(1, 3, RED) in legal_commands(state)
    assert PlaceTile(1, 3, BLUE) in legal_commands(state)
    assert decide(state, PlaceTile(2, 3, RED), RNG)[0].spent == tiles(red=1)


def test_the_colour_placed_on_a_grey_space_costs_its_grey_number():
    state = phase_two(beside=tiles(red=2, purple=3), side=GREY)
    event = decide(state, PlaceTile(0, 4, RED, wilds=1), RNG)[0]
    assert event.spent == tiles(red=2, purple=1)
    assert decide(state, PlaceTile(4, 3, RED), RNG)[0].spent == tiles(red=1)


def test_two_tiles_of_one_colour_fix_a_single_coloured_star():
    """Rules reference: a star's kind is fixed once it holds two tiles."""
    state = phase_two(
        beside=tiles(green=3, red=3), side=GREY, placed={(3, 1): GREEN, (3, 2): GREEN}
    )
    assert refusal(state, PlaceTile(3, 3, RED)) == (
        "star_refuses_colour",
        {"star": 3, "accepted": (GREEN,), "colour": RED},
    )
    assert decide(state, PlaceTile(3, 3, GREEN), RNG)[0].points == 3


def test_two_different_tiles_fix_a_multicolour_star():
    state = phase_two(
        beside=tiles(green=6, red=6), side=GREY, placed={(3, 1): GREEN, (3, 2): YELLOW}
    )
    code, params = refusal(state, PlaceTile(3, 3, GREEN))
    assert (code, params["star"], params["colour"]) == ("star_refuses_colour", 3, GREEN)
    assert GREEN not in params["accepted"] and RED in params["accepted"]
    assert decide(state, PlaceTile(3, 3, RED), RNG)[0].points == 3


def test_several_stars_may_share_a_colour_on_the_grey_side():
    state = phase_two(beside=tiles(blue=6), side=GREY, placed={(1, 1): BLUE, (1, 2): BLUE})
    assert decide(state, PlaceTile(2, 3, BLUE), RNG)[0].points == 1


def test_the_coloured_side_refuses_a_colour_its_star_does_not_show():
    state = phase_two(beside=tiles(green=6))
    assert refusal(state, PlaceTile(1, 3, GREEN)) == (
        "star_refuses_colour",
        {"star": 1, "accepted": (PURPLE,), "colour": GREEN},
    )


def test_completed_grey_stars_score_their_colour_or_twelve_when_multicoloured():
    """Variant: "You receive points for these stars as described in the normal rules"."""
    full = {(1, s): PURPLE for s in range(1, 7)}
    full |= {(2, s): PURPLE for s in range(1, 7)}
    full |= {(3, s): colour for s, colour in zip(range(1, 7), range(6), strict=True)}
    full |= {(4, s): ORANGE for s in range(1, 6)}
    assert star_points(board(full)) == 20 + 20 + 12


def test_grey_number_bonuses_need_every_space_printed_with_that_number():
    ones = {(star, 3): RED for star in range(1, 7)}
    assert number_points(GREY, board(ones)) == 4
    threes = {(star, 1): RED for star in range(1, 7)}
    assert number_points(GREY, board(threes)) == 0
    threes |= {(0, s): BLUE for s in range(1, 7)}
    assert number_points(GREY, board(threes)) == 12
