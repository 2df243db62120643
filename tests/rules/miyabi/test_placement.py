"""Placing a garden tile (rulebook p.4, "1. Colocar la pieza de jardín"), the lantern
and the points (steps 2 and 3), with the rulebook's examples."""

import pytest

from games.rules.miyabi import (
    ORIENTATIONS,
    GardenObject,
    IllegalMove,
    PlaceTile,
    TilePlaced,
    decide,
    legal_commands,
    parse,
)
from games.rules.miyabi.engine import visible_objects
from games.rules.miyabi.placement import CANONICAL, footprint, placement_problem
from tests.rules.miyabi.tables import garden, play, table, tile, with_garden


def placed(events) -> TilePlaced:
    return next(event for event in events if isinstance(event, TilePlaced))


def refusal(state, move: str) -> tuple[str, dict]:
    with pytest.raises(IllegalMove) as refused:
        decide(state, parse(move), None)
    return refused.value.code, refused.value.params


def test_three_pagodas_on_level_one_score_three_points():
    """p.4: "Por la pieza con las 3 pagodas, el jugador/a recibe:
    3 pagodas x nivel 1 = 3 puntos"."""
    _, events = play(table("3P3", "1M1"), "3P3 a2")
    assert placed(events).level == 1
    assert placed(events).points == 3


def test_two_fish_on_level_two_score_four_points():
    """p.4: "Por la pieza con los 2 peces del estanque, el jugador/a recibe más adelante:
    2 peces x nivel 2 = 4 puntos" — each fish is an object ("cada uno de los peces
    constituye un objeto")."""
    state, events = play(table("2F2", "2F2", "1M1", "1M1"), "2F2 a3", "1M1 a1")
    assert placed(events).points == 2
    _, events = play(state, "2F2 b3 r180")
    assert placed(events).level == 2
    assert placed(events).points == 4


def test_the_lantern_goes_on_the_column_of_the_objects():
    """p.4 step 2: the lantern goes on the lantern space of the column where the objects
    were just placed, not on the columns of the green squares."""
    state, _ = play(table("LS3", "1M1"), "LS3 c6 r270")
    assert state.gardens[0].lanterns == (False, False, True, False, False, False)
    assert state.gardens[0].heights[5 * 6 + 2 : 5 * 6 + 4] == (1, 1)


def test_objects_must_lie_in_their_own_row():
    """p.4: objects go in the row printed for them ("Fila incorrecta")."""
    state = table("3P3", "1M1")
    assert refusal(state, "3P3 a3") == ("object_wrong_row", {"object": 1, "row": 2, "own_row": 1})
    assert placement_problem(state.gardens[0], PlaceTile(tile("3P3"), 1, 0, 0)) is None


def test_objects_need_a_column_whose_lantern_space_is_empty():
    """p.4: objects must lie in a column with an empty lantern space ("Casilla ocupada")."""
    state, _ = play(table("1P1", "1P1", "1M1", "1M1"), "1P1 b2", "1M1 a1")
    assert refusal(state, "1P1 b2") == ("column_has_lantern", {"column": 1})


def test_green_squares_may_lie_in_a_column_with_a_lantern():
    """p.4: "Las casillas verdes vacías … podrán encontrarse en cualquier fila o columna,
    independientemente de si la casilla de farol … se encuentra ocupada o vacía"."""
    state, _ = play(table("3S3", "1M1", "1M1"), "1M1 a1", "1M1 a1")
    assert state.gardens[0].lanterns[0]
    state, events = play(state, "3S3 c6 r180")
    assert placed(events).column == 2
    assert state.gardens[0].heights[5 * 6 : 5 * 6 + 3] == (1, 1, 1)


def test_a_tile_must_lie_wholly_inside_the_grid():
    """p.4: "Las piezas de jardín deberán colocarse dentro de la cuadrícula de 6x6; no
    podrán sobresalir" ("Sobresale de la cuadrícula")."""
    state = table("3P3", "1M1")
    assert refusal(state, "3P3 e2") == ("tile_off_grid", {"rows": 6})
    assert refusal(state, "3P3 b2 r180") == ("tile_off_grid", {"rows": 6})
    assert footprint(tile("3P3").shape, 2, 1, 2) == (6, 7, 8)


def test_a_tile_on_top_must_overlap_the_tiles_below_completely():
    """p.4: tiles may go on top of others "solo si se solapan por completo"."""
    state = with_garden(
        table("3F3", "1M1"),
        0,
        garden("000000", "000000", "110000", "000000", "000000", "000000"),
    )
    assert refusal(state, "3F3 a3") == ("uneven_levels", {"levels": (0, 1)})


def test_a_tile_on_top_must_rest_on_one_level_without_gaps():
    """Reference [public]: every square rests on a tile, all at the same level."""
    state = with_garden(
        table("2F2", "1M1"),
        0,
        garden("000000", "000000", "120000", "000000", "000000", "000000"),
    )
    assert refusal(state, "2F2 a3") == ("uneven_levels", {"levels": (1, 2)})


def test_a_tile_may_span_several_tiles_of_one_level():
    """Complete overlap holds over two tiles side by side at the same height."""
    state = with_garden(
        table("3F3", "1M1"),
        0,
        garden("000000", "000000", "222000", "000000", "000000", "000000"),
    )
    _, events = play(state, "3F3 a3")
    assert placed(events).level == 3
    assert placed(events).points == 9


def test_objects_underneath_are_covered_and_no_longer_visible():
    """p.4: "podrás cubrir los objetos que se encuentren en estas piezas"."""
    state, _ = play(table("2F2", "2F2", "1M1", "1M1"), "2F2 a3", "1M1 a1")
    assert state.gardens[0].visible[2 * 6 : 2 * 6 + 2] == (2, 0)
    state, _ = play(state, "2F2 b3 r180")
    assert state.gardens[0].heights[2 * 6 : 2 * 6 + 2] == (2, 2)
    assert state.gardens[0].visible[2 * 6 : 2 * 6 + 2] == (0, 2)
    assert visible_objects(state.gardens[0], GardenObject.POND) == 2


def test_the_other_rules_still_apply_on_top():
    """p.4: "Continuarán aplicándose las demás reglas" — row and lantern rules on level 2."""
    state = with_garden(
        table("2P2", "1M1"),
        0,
        garden("000000", "110000", "110000", "000000", "000000", "000000", lanterns="L....."),
    )
    assert refusal(state, "2P2 a2") == ("column_has_lantern", {"column": 0})
    assert refusal(state, "2P2 a3") == ("object_wrong_row", {"object": 1, "row": 2, "own_row": 1})
    _, events = play(state, "2P2 b2 r180")
    assert placed(events).level == 2


def test_every_rotation_and_reflection_is_allowed():
    """Ruling: the rulebook does not say whether tiles turn or flip; all eight are allowed,
    and each distinct placement is named once (its lowest orientation)."""
    assert list(ORIENTATIONS) == list(range(8))
    shapes = {shape: set(CANONICAL[shape]) for shape in CANONICAL}
    assert {shape.value: len(orientations) for shape, orientations in shapes.items()} == {
        "1": 1,
        "2": 4,
        "3": 4,
        "L": 4,
    }
    angle = tile("LB3")
    covered = {footprint(angle.shape, o, 4, 2) for o in ORIENTATIONS}
    # The objects on c5 (cell 26); the arms point east+south, south+west, west+north
    # and north+east.
    assert covered == {(26, 27, 32), (25, 26, 32), (20, 25, 26), (20, 26, 27)}


def test_each_distinct_placement_is_listed_once():
    """Symmetric orientations that lay the same squares appear once in legal_commands."""
    state = table("LB3", "3S3", "2M2", "1P1")
    commands = [c for c in legal_commands(state) if isinstance(c, PlaceTile)]
    laid = [
        (c.tile, footprint(c.tile.shape, c.orientation, c.row, c.column), c.column)
        for c in commands
    ]
    assert len(laid) == len(set(laid))
    assert all(c.orientation == CANONICAL[c.tile.shape][c.orientation] for c in commands)


def test_a_repeated_orientation_is_refused_naming_its_canonical_form():
    state = table("LB3", "1M1")
    with pytest.raises(IllegalMove) as refused:
        decide(state, PlaceTile(tile("LB3"), 4, 2, 4), None)
    assert (refused.value.code, refused.value.params) == (
        "orientation_not_canonical",
        {"orientation": 4, "canonical": 1},
    )


def test_a_tile_not_in_the_centre_is_refused():
    with pytest.raises(IllegalMove) as refused:
        decide(table("1M1", "1M1"), PlaceTile(tile("3P3"), 1, 0, 0), None)
    assert (refused.value.code, refused.value.params) == (
        "tile_not_displayed",
        {"shape": "3", "object": GardenObject.PAGODA, "count": 3},
    )
