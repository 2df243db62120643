"""The notation of docs/notation.md (Azul): what a player types in an email reply."""

import pytest

from games.rules.azul import (
    CENTRE,
    FLOOR,
    InvalidNotation,
    PlaceOnWall,
    TakeTiles,
    format,
    legal_commands,
    parse,
)
from games.rules.azul.board import Colour
from tests.rules.azul.tables import opening


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (TakeTiles(2, Colour.BLUE, 3), "F3 blue 4"),
        (TakeTiles(CENTRE, Colour.RED, FLOOR), "C red floor"),
        (TakeTiles(8, Colour.WHITE, 0), "F9 white 1"),
        (TakeTiles(0, Colour.BLACK, 4), "F1 black 5"),
        (PlaceOnWall(1), "wall 2"),
    ],
)
def test_commands_are_written_short(command, text):
    assert format(command) == text
    assert parse(text) == command


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("f3 BLUE 4", TakeTiles(2, Colour.BLUE, 3)),
        ("F3 b 4", TakeTiles(2, Colour.BLUE, 3)),
        ("factory 3 blue line 4", TakeTiles(2, Colour.BLUE, 3)),
        ("  F3,blue,4  ", TakeTiles(2, Colour.BLUE, 3)),
        ("centre k fl", TakeTiles(CENTRE, Colour.BLACK, FLOOR)),
        ("Center Yellow Floor", TakeTiles(CENTRE, Colour.YELLOW, FLOOR)),
        ("c w l1", TakeTiles(CENTRE, Colour.WHITE, 0)),
        ("Wall 5", PlaceOnWall(4)),
        ("column 1", PlaceOnWall(0)),
        ("wall3", PlaceOnWall(2)),
    ],
)
def test_parsing_ignores_case_and_accepts_long_forms(text, command):
    assert parse(text) == command


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_command_round_trips(players):
    for command in legal_commands(opening(players)):
        assert parse(format(command)) == command


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ("azul_expected_source", {"last": 9})),
        ("take it all", ("azul_expected_source", {"last": 9})),
        ("F0 blue 1", ("azul_expected_source", {"last": 9})),
        ("F10 blue 1", ("azul_expected_source", {"last": 9})),
        ("F3", ("azul_expected_colour", {})),
        ("F3 green 1", ("azul_expected_colour", {})),
        ("F3 blue", ("azul_expected_line", {"last": 5})),
        ("F3 blue 6", ("azul_expected_line", {"last": 5})),
        ("C red ceiling", ("azul_expected_line", {"last": 5})),
        ("F3 blue 4 please", ("azul_expected_end", {})),
        ("F3 blue 4!", ("azul_expected_end", {})),
        ("wall", ("azul_expected_column", {"last": 5})),
        ("wall 6", ("azul_expected_column", {"last": 5})),
        ("wall two", ("azul_expected_column", {"last": 5})),
    ],
)
def test_a_parse_error_says_what_was_expected(text, expected):
    with pytest.raises(InvalidNotation) as error:
        parse(text)
    assert error.value.text == text
    assert (error.value.code, error.value.params) == expected
