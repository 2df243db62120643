"""The fixed data and the ONE table of provisional values (data.PROVISIONAL)."""

from pathlib import Path

from games.rules.miyabi import PROVISIONAL, GardenObject, Provisional, Shape
from games.rules.miyabi.data import (
    BONUS_POINTS,
    INVENTORY,
    KINDS,
    MAJORITY_POINTS,
    PHASE_MIX,
    PHASES,
    SHAPE_SQUARES,
    SHAPES,
    TILES_PER_PLAYER,
)


def test_every_provisional_value_says_why_and_where_to_correct_it():
    assert set(PROVISIONAL) == {
        "bonus_tiles",
        "majority_values",
        "majority_ties",
        "majority_minimum",
        "final_tie_breaks",
        "inventory",
        "object_square",
    }
    for entry in PROVISIONAL.values():
        assert isinstance(entry, Provisional)
        assert entry.why and entry.correct_at


def test_the_box_holds_ninety_six_tiles():
    """Reference [public]: 96 garden tiles."""
    assert sum(INVENTORY) == 96


def test_a_tile_shows_as_many_objects_as_it_has_squares():
    """Reference [public]: 1, 2 or 3 identical objects, as many as the tile's squares."""
    assert all(tile.count == len(SHAPE_SQUARES[tile.shape]) for tile in KINDS)


def test_the_phases_use_no_more_tiles_than_the_box_holds():
    for players, phases in PHASES.items():
        assert sum(PHASE_MIX[players]) == TILES_PER_PLAYER * players
        for shape, per_phase in zip(SHAPES, PHASE_MIX[players], strict=True):
            in_box = sum(n for kind, n in zip(KINDS, INVENTORY, strict=True) if kind.shape == shape)
            assert per_phase * phases <= in_box


def test_each_player_adds_two_small_and_one_large_tile_of_each_shape_to_a_phase():
    """Reference (full rulebook facts): 4/4/2/2 with 2 players, 6/6/3/3 with 3, 8/8/4/4 with 4."""
    assert dict(PHASE_MIX) == {
        players: (2 * players, 2 * players, players, players) for players in (2, 3, 4)
    }


def test_the_phases_per_player_count_are_six_five_four():
    assert dict(PHASES) == {2: 6, 3: 5, 4: 4}


def test_maple_bonus_is_ten_and_the_values_decrease_down_the_rows():
    """Reference [public]: maple 10, decreasing object by object."""
    values = [BONUS_POINTS[garden_object] for garden_object in GardenObject]
    assert values[0] == 10
    assert values == sorted(values, reverse=True)


def test_every_object_has_a_higher_and_a_lower_majority_value():
    assert all(first > second for first, second in MAJORITY_POINTS.values())
    assert set(MAJORITY_POINTS) == set(GardenObject)


def test_the_shapes_are_straight_one_two_three_and_the_angle():
    assert [len(SHAPE_SQUARES[shape]) for shape in Shape] == [1, 2, 3, 3]


def test_the_provisional_page_lists_every_provisional_value():
    """The issue: docs say plainly which values are provisional."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "miyabi-provisional.md").read_text()
    for key in PROVISIONAL:
        assert f"`{key}`" in page
