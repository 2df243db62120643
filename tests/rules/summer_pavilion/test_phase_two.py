"""Phase 2, play tiles and score: costs, wild tiles, the centre star, passing; the rulebook's
scoring examples A-F (round 1, purple is wild)."""

import dataclasses
import random

import pytest

from games.rules.common import IllegalMove
from games.rules.summer_pavilion import (
    Pass,
    Passed,
    PlaceTile,
    decide,
    evolve,
    legal_commands,
    to_move,
)
from games.rules.summer_pavilion.board import BLUE, GREEN, ORANGE, PURPLE, RED, YELLOW

from .tables import phase_two, tiles

RNG = random.Random(0)
CENTRE_STAR, PURPLE_STAR, ORANGE_STAR, RED_STAR, BLUE_STAR = 0, 1, 2, 3, 4


def placed(state, command):
    event = decide(state, command, RNG)[0]
    return event, evolve(state, event)


def refusal(state, command) -> tuple[str, dict]:
    """The code and params of the ``IllegalMove`` that ``command`` raises."""
    with pytest.raises(IllegalMove) as refused:
        decide(state, command, RNG)
    return refused.value.code, refused.value.params


def test_example_a_seven_blue_tiles_pay_for_blue_space_six():
    """Example A: "Ina has 7 blue tiles next to her player board, which she can use to play
    on space '6' of her blue star. To do this, she uses 6 blue tiles, placing one on space
    '6' of her blue star and discarding the other 5 tiles into the tower. Ina scores 1 point
    this turn. She can use the remaining blue tile later." """
    state = phase_two(beside=tiles(blue=7))
    event, after = placed(state, PlaceTile(BLUE_STAR, 6, BLUE))
    assert event.spent == tiles(blue=6) and event.points == 1
    assert after.players[0].beside == tiles(blue=1)
    assert after.players[0].score == 6
    assert after.tower == tiles(blue=5)


def test_example_b_three_red_tiles_on_red_space_three_score_one():
    """Example B: "Ina has 3 red tiles ... She places one tile on space '3' and discards the
    other 2 into the tower. For this she scores 1 point, because there are no other tiles
    connected to this space on the red star." """
    state = phase_two(beside=tiles(red=3))
    event, after = placed(state, PlaceTile(RED_STAR, 3, RED))
    assert event.points == 1
    assert after.tower == tiles(red=2) and after.players[0].beside == tiles()


def test_example_c_three_blue_and_three_wild_purple_score_three():
    """Example C: "Andrea has 3 blue and 3 purple wild tiles next to her player board, which
    she can use to play on space '6' of her blue star. She places 1 blue tile onto her player
    board on space '6' and discards the 2 blue and 3 purple tiles into the tower. Andrea
    scores 3 points this turn because there are 2 other tiles connected to this space." """
    state = phase_two(
        beside=tiles(blue=3, purple=3), placed={(BLUE_STAR, 1): BLUE, (BLUE_STAR, 2): BLUE}
    )
    event, after = placed(state, PlaceTile(BLUE_STAR, 6, BLUE, wilds=3))
    assert event.spent == tiles(blue=3, purple=3) and event.points == 3
    assert after.tower == tiles(blue=2, purple=3)


def test_example_d_one_orange_and_three_wilds_on_orange_four_keeping_the_green():
    """Example D: "Andrea has 1 orange, 1 green and 3 purple wild tiles available to play.
    She uses the 3 purple tiles as wild tiles and places the orange tile on space '4' of her
    orange star, discarding the 3 purple tiles into the tower and scoring 3 points. Andrea
    may decide to keep the green tile for the next round, when green is the wild color." """
    state = phase_two(
        beside=tiles(orange=1, green=1, purple=3),
        placed={(ORANGE_STAR, 2): ORANGE, (ORANGE_STAR, 3): ORANGE},
    )
    event, after = placed(state, PlaceTile(ORANGE_STAR, 4, ORANGE, wilds=3))
    assert event.points == 3 and after.tower == tiles(purple=3)
    after = dataclasses.replace(after, current=0)
    passed = decide(after, Pass((GREEN,)), RNG)[0]
    assert passed.kept == tiles(green=1) and passed.points_lost == 0


def test_example_e_the_wild_colour_placed_as_itself_on_the_purple_star():
    """Example E: "Charlotte has 2 purple wild tiles, 2 red tiles, and 4 green tiles
    available to play. She places 1 purple tile on space '2' of her purple star and discards
    the other purple tile, scoring 3 points. She saves her remaining tiles to be used on her
    other turns in the same round." """
    state = phase_two(
        beside=tiles(purple=2, red=2, green=4),
        placed={(PURPLE_STAR, 3): PURPLE, (PURPLE_STAR, 4): PURPLE},
    )
    event, after = placed(state, PlaceTile(PURPLE_STAR, 2, PURPLE))
    assert event.spent == tiles(purple=2) and event.points == 3
    assert after.players[0].beside == tiles(red=2, green=4)


def test_example_f_passing_keeps_four_green_and_loses_two_for_the_red():
    """Example F: "Charlotte has 4 green and 2 red tiles. She passes and takes the 4 tiles
    with her into the next round, in which green is the wild tile, by placing them on the
    four spaces in the corners of her player board. She discards the 2 red tiles into the
    tower and loses 2 points on the scoring track." """
    state = phase_two(beside=tiles(green=4, red=2))
    events = decide(state, Pass((GREEN,) * 4), RNG)
    assert events[0] == Passed(0, tiles(green=4), tiles(red=2), 2)
    after = evolve(state, events[0])
    assert after.players[0].corners == tiles(green=4)
    assert after.players[0].score == 3 and after.tower == tiles(red=2)


def test_the_player_chooses_how_many_wild_tiles_to_spend():
    state = phase_two(beside=tiles(blue=3, purple=2))
    choices = [c for c in legal_commands(state) if isinstance(c, PlaceTile) and c.space == 3]
    assert [c.wilds for c in choices if c.star == BLUE_STAR] == [0, 1, 2]
    event = decide(state, PlaceTile(BLUE_STAR, 3, BLUE, wilds=2), RNG)[0]
    assert event.spent == tiles(blue=1, purple=2)


def test_wild_tiles_need_one_tile_of_the_placed_colour():
    state = phase_two(beside=tiles(purple=5))
    assert refusal(state, PlaceTile(BLUE_STAR, 3, BLUE, wilds=2)) == (
        "too_few_of_colour",
        {"needed": 1, "colour": BLUE, "have": 0},
    )
    assert refusal(state, PlaceTile(BLUE_STAR, 3, BLUE, wilds=3)) == (
        "wilds_out_of_range",
        {"cost": 3, "most": 2, "wilds": 3},
    )


def test_a_wild_tile_placed_as_itself_is_paid_with_that_colour_only():
    state = phase_two(beside=tiles(purple=3))
    assert refusal(state, PlaceTile(PURPLE_STAR, 3, PURPLE, wilds=1)) == (
        "wild_paid_with_wilds",
        {"colour": PURPLE},
    )
    assert decide(state, PlaceTile(PURPLE_STAR, 3, PURPLE), RNG)[0].spent == tiles(purple=3)


def test_a_wild_tile_is_never_placed_on_the_star_of_the_colour_it_replaces():
    state = phase_two(beside=tiles(purple=3))
    assert refusal(state, PlaceTile(BLUE_STAR, 1, PURPLE)) == (
        "star_refuses_colour",
        {"star": BLUE_STAR, "accepted": (BLUE,), "colour": PURPLE},
    )


def test_the_centre_star_takes_six_different_colours_the_wild_one_included():
    state = phase_two(beside=tiles(blue=2, purple=2, red=1), placed={(CENTRE_STAR, 1): BLUE})
    code, params = refusal(state, PlaceTile(CENTRE_STAR, 2, BLUE))
    assert (code, params["star"], params["colour"]) == ("star_refuses_colour", CENTRE_STAR, BLUE)
    assert BLUE not in params["accepted"] and PURPLE in params["accepted"]
    assert decide(state, PlaceTile(CENTRE_STAR, 2, PURPLE), RNG)[0].points == 2
    assert decide(state, PlaceTile(CENTRE_STAR, 2, RED, wilds=1), RNG)[0].spent == tiles(
        red=1, purple=1
    )


def test_a_covered_space_cannot_take_another_tile():
    state = phase_two(beside=tiles(red=3), placed={(RED_STAR, 1): RED})
    assert refusal(state, PlaceTile(RED_STAR, 1, RED)) == (
        "space_covered",
        {"star": RED_STAR, "space": 1},
    )


def test_completing_a_star_scores_all_six_connected_tiles():
    state = phase_two(
        beside=tiles(yellow=6), placed={(5, space): YELLOW for space in (1, 2, 3, 5, 6)}
    )
    assert decide(state, PlaceTile(5, 4, YELLOW), RNG)[0].points == 6


def test_a_run_is_counted_across_space_six_and_space_one():
    state = phase_two(beside=tiles(red=1), placed={(RED_STAR, 6): RED, (RED_STAR, 5): RED})
    assert decide(state, PlaceTile(RED_STAR, 1, RED), RNG)[0].points == 3


def test_tiles_on_other_stars_are_never_connected():
    state = phase_two(beside=tiles(red=1), placed={(BLUE_STAR, 1): BLUE, (CENTRE_STAR, 1): RED})
    assert decide(state, PlaceTile(RED_STAR, 1, RED), RNG)[0].points == 1


def test_passing_keeps_at_most_four_tiles_that_lie_beside_the_board():
    state = phase_two(beside=tiles(green=5, red=2))
    assert refusal(state, Pass((GREEN,) * 5)) == ("keep_too_many", {"most": 4, "kept": 5})
    assert refusal(state, Pass((BLUE,))) == ("kept_not_beside", {})
    assert refusal(state, Pass((RED, GREEN))) == ("kept_not_sorted", {})


def test_pass_penalties_stop_at_space_one():
    """Ruling LOWEST_SCORE applies to discards as well."""
    state = phase_two(beside=tiles(green=9), score=3)
    assert decide(state, Pass(), RNG)[0].points_lost == 2


def test_passed_players_take_no_more_turns_and_the_rest_go_clockwise():
    state = phase_two(beside=tiles(red=1), players=3)
    state = evolve(state, decide(state, Pass((RED,)), RNG)[0])
    assert to_move(state) == 1
    state = evolve(state, decide(state, Pass(), RNG)[0])
    assert to_move(state) == 2
    state = dataclasses.replace(
        state,
        players=state.players[:2]
        + (dataclasses.replace(state.players[2], beside=tiles(yellow=2)),),
    )
    state = evolve(state, decide(state, PlaceTile(5, 1, YELLOW), RNG)[0])
    assert to_move(state) == 2


def test_legal_passes_list_every_choice_of_up_to_four_tiles_once():
    state = phase_two(beside=tiles(green=5, red=2, blue=1))
    passes = [c.keep for c in legal_commands(state) if isinstance(c, Pass)]
    assert len(passes) == len(set(passes))
    # sizes 0..4 of a multiset {g x5, r x2, b x1}
    expected = {
        keep
        for keep in {
            tuple(sorted((GREEN,) * g + (RED,) * r + (BLUE,) * b))
            for g in range(5)
            for r in range(3)
            for b in range(2)
        }
        if len(keep) <= 4
    }
    assert set(passes) == expected


def test_phase_two_commands_are_refused_before_the_bonus_tiles_are_chosen():
    state = dataclasses.replace(phase_two(beside=tiles(red=3)), bonus_due=1)
    assert refusal(state, Pass()) == ("bonus_due", {"count": 1})
    assert all(type(c).__name__ == "ChooseBonusTiles" for c in legal_commands(state))


def test_placements_list_every_space_colour_and_wild_count_once():
    state = phase_two(beside=tiles(orange=2, purple=1, yellow=1), placed={(0, 1): YELLOW})
    placements = [c for c in legal_commands(state) if isinstance(c, PlaceTile)]
    assert len(placements) == len(set(placements))
    assert PlaceTile(ORANGE_STAR, 3, ORANGE, 1) in placements
    assert PlaceTile(0, 2, YELLOW, 0) not in placements
    assert PlaceTile(0, 2, PURPLE, 0) not in placements  # one purple cannot pay 2
    assert PlaceTile(PURPLE_STAR, 1, PURPLE, 0) in placements
    assert PlaceTile(0, 2, ORANGE, 1) in placements
