"""Pillars, statues and windows: surrounding one earns supply tiles of the player's choice,
taken before anyone else moves; the supply is then refilled from the bag (and the tower)."""

import dataclasses
import random

import pytest

from games.rules.common import IllegalMove
from games.rules.summer_pavilion import (
    BonusTilesTaken,
    ChooseBonusTiles,
    PlaceTile,
    Side,
    SupplyRefilled,
    decide,
    evolve,
    legal_commands,
    to_move,
)
from games.rules.summer_pavilion.board import (
    BLUE,
    GREEN,
    PURPLE,
    RED,
    STAR_COLOUR,
    STRUCTURES,
    YELLOW,
    index,
    star_and_space,
)
from games.rules.summer_pavilion.engine import SUPPLY_REFILLED_BEFORE_EVERY_TURN

from .tables import phase_two, tiles

RNG = random.Random(0)


def colour_for(star: int, order: int) -> int:
    """A colour every side accepts there: the star's own colour, or on the centre star a
    different colour per tile."""
    return order if star == 0 else STAR_COLOUR[star]


def refusal(state, command) -> tuple[str, dict]:
    """The code and params of the ``IllegalMove`` that ``command`` raises."""
    with pytest.raises(IllegalMove) as refused:
        decide(state, command, RNG)
    return refused.value.code, refused.value.params


def test_structures_border_the_spaces_named_in_the_rules_reference():
    by_name = {structure.name: structure for structure in STRUCTURES}
    assert len(STRUCTURES) == 18
    assert by_name["pillar 1"].spaces == (index(1, 2), index(1, 3), index(0, 5), index(0, 6))
    assert by_name["statue 6"].spaces == (index(6, 1), index(6, 2), index(1, 3), index(1, 4))
    assert by_name["window 3"].spaces == (index(3, 5), index(3, 6))
    assert [s.bonus for s in STRUCTURES] == [1] * 6 + [2] * 6 + [3] * 6


@pytest.mark.parametrize("side", list(Side))
@pytest.mark.parametrize("structure", STRUCTURES, ids=lambda s: s.name)
def test_surrounding_each_structure_earns_its_bonus_tiles(structure, side):
    """Rulebook "Scoring": a pillar earns 1 tile, a statue 2, a window 3."""
    *first, last = (star_and_space(p) for p in structure.spaces)
    star, space = last
    colour = colour_for(star, 5)
    state = phase_two(
        beside=tuple(6 if c == colour else 0 for c in range(6)),
        placed={spot: colour_for(spot[0], order) for order, spot in enumerate(first)},
        side=side,
    )
    events = decide(state, PlaceTile(star, space, colour), RNG)
    assert len(events) == 1
    placed = events[0]
    assert placed.structures == (structure.name,)
    assert placed.bonus_tiles == structure.bonus
    after = evolve(state, placed)
    assert to_move(after) == 0 and after.bonus_due == structure.bonus
    choices = legal_commands(after)
    assert choices and all(len(c.colours) == structure.bonus for c in choices)


def test_one_tile_can_surround_a_pillar_and_a_statue_at_once():
    """Rules reference: bonuses from several structures completed by one tile add up.
    Purple space 2 borders pillar 1 and statue 1."""
    state = phase_two(
        beside=tiles(purple=2),
        placed={
            (1, 1): PURPLE,
            (1, 3): PURPLE,
            (0, 5): RED,
            (0, 6): BLUE,
            (2, 3): 2,
            (2, 4): 2,
        },
    )
    placed = decide(state, PlaceTile(1, 2, PURPLE), RNG)[0]
    assert placed.structures == ("pillar 1", "statue 1")
    assert placed.bonus_tiles == 3


def window_state(supply):
    """Seat 0 about to surround window 3 (red 5 and 6) with the given supply."""
    state = phase_two(beside=tiles(red=6), placed={(3, 5): RED})
    return dataclasses.replace(state, supply=supply)


def test_bonus_tiles_may_all_be_wild_and_the_supply_is_refilled_before_the_next_turn():
    """Rulebook: "...take any three tiles of your choice. If available, these may all be
    wild tiles. ... Before the next player's turn, fill up the empty supply spaces"."""
    supply = (PURPLE, RED, PURPLE, BLUE, PURPLE, GREEN, GREEN, GREEN, YELLOW, YELLOW)
    state = evolve(window_state(supply), decide(window_state(supply), PlaceTile(3, 6, RED), RNG)[0])
    assert ChooseBonusTiles((PURPLE, PURPLE, PURPLE)) in legal_commands(state)
    taken, refill = decide(state, ChooseBonusTiles((PURPLE, PURPLE, PURPLE)), RNG)
    assert taken == BonusTilesTaken(0, (0, 2, 4), (PURPLE, PURPLE, PURPLE))
    assert isinstance(refill, SupplyRefilled) and refill.spaces == (0, 2, 4)
    state = evolve(evolve(state, taken), refill)
    assert state.players[0].beside == tiles(purple=3)
    assert None not in state.supply
    assert to_move(state) == 1


def test_a_short_supply_gives_what_is_there():
    """Ruling SHORT_SUPPLY_GIVES_WHAT_IS_THERE: fewer tiles on the supply than earned."""
    supply = (None,) * 9 + (BLUE,)
    placed = decide(window_state(supply), PlaceTile(3, 6, RED), RNG)[0]
    assert placed.bonus_tiles == 1


def test_an_empty_supply_gives_nothing_and_is_refilled_from_the_tower_before_the_next_turn():
    state = window_state((None,) * 10)
    state = dataclasses.replace(state, bag=tiles(), tower=tiles())
    placed, refill = decide(state, PlaceTile(3, 6, RED), RNG)
    assert placed.bonus_tiles == 0
    assert refill == SupplyRefilled((0, 1, 2, 3, 4), (RED,) * 5, bag_refilled_after=0)
    state = evolve(evolve(state, placed), refill)
    assert to_move(state) == 1
    assert state.supply == (RED,) * 5 + (None,) * 5


def test_a_supply_left_short_is_completed_after_a_later_placement_pays_into_the_tower():
    """Ruling SUPPLY_REFILLED_BEFORE_EVERY_TURN: bag and tower run dry, so the refill leaves
    five supply spaces empty; the next player's placement pays five blue tiles into the
    tower, and before the following turn they fill the supply again, no bonus needed."""
    assert SUPPLY_REFILLED_BEFORE_EVERY_TURN
    state = dataclasses.replace(window_state((None,) * 10), bag=tiles(), tower=tiles())
    second = dataclasses.replace(state.players[1], beside=tiles(blue=6))
    state = dataclasses.replace(state, players=(state.players[0], second))
    placed, short = decide(state, PlaceTile(3, 6, RED), RNG)
    state = evolve(evolve(state, placed), short)
    assert state.supply == (RED,) * 5 + (None,) * 5 and to_move(state) == 1
    placed, refill = decide(state, PlaceTile(4, 6, BLUE), RNG)
    assert placed.bonus_tiles == 0 and placed.spent == tiles(blue=6)
    assert refill == SupplyRefilled((5, 6, 7, 8, 9), (BLUE,) * 5, bag_refilled_after=0)
    state = evolve(evolve(state, placed), refill)
    assert state.supply == (RED,) * 5 + (BLUE,) * 5
    assert state.bag == tiles() and state.tower == tiles()


def test_the_supply_refill_empties_the_tower_into_the_bag_when_the_bag_runs_out():
    supply = (BLUE,) * 10
    state = dataclasses.replace(window_state(supply), bag=tiles(green=1), tower=tiles(yellow=4))
    state = evolve(state, decide(state, PlaceTile(3, 6, RED), RNG)[0])
    taken, refill = decide(state, ChooseBonusTiles((BLUE,) * 3), RNG)
    assert refill.bag_refilled_after == 1
    assert refill.tiles[0] == GREEN
    state = evolve(evolve(state, taken), refill)
    assert state.tower == tiles()
    assert sum(state.bag) == 4 + 5 - 2  # the 4 yellow and the 5 red spent, less 2 drawn


def test_bonus_choices_are_checked_against_the_supply():
    supply = (PURPLE, RED) + (BLUE,) * 8
    state = evolve(window_state(supply), decide(window_state(supply), PlaceTile(3, 6, RED), RNG)[0])
    for colours, reason in [
        ((BLUE, BLUE), ("bonus_count", {"count": 3, "chosen": 2})),
        ((PURPLE, PURPLE, RED), ("supply_lacks_colour", {"colour": PURPLE})),
        ((RED, BLUE, BLUE), ("bonus_not_sorted", {})),
    ]:
        assert refusal(state, ChooseBonusTiles(colours)) == reason
    assert refusal(window_state(supply), ChooseBonusTiles((BLUE,))) == ("no_bonus_due", {})
