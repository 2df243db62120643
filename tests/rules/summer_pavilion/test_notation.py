"""The notation players type in an email reply: examples, aliases and precise errors."""

import pytest

from games.rules.common import InvalidNotation
from games.rules.summer_pavilion import (
    ChooseBonusTiles,
    Pass,
    PlaceTile,
    TakeTiles,
    format,
    parse,
)
from games.rules.summer_pavilion.board import BLUE, GREEN, ORANGE, PURPLE, RED, YELLOW

EXAMPLES = [
    ("y3", TakeTiles(2, YELLOW)),
    ("yc", TakeTiles(None, YELLOW)),
    ("p1", TakeTiles(0, PURPLE)),
    ("bb6", PlaceTile(4, 6, BLUE, 0)),
    ("bb6+3", PlaceTile(4, 6, BLUE, 3)),
    ("oo4+3", PlaceTile(2, 4, ORANGE, 3)),
    ("gc3", PlaceTile(0, 3, GREEN, 0)),
    ("rg1+1", PlaceTile(6, 1, RED, 1)),
    ("pass", Pass(())),
    ("pass ggr", Pass((GREEN, GREEN, RED))),
    ("bonus pb", ChooseBonusTiles((PURPLE, BLUE))),
]


@pytest.mark.parametrize(("text", "command"), EXAMPLES)
def test_every_kind_of_command_has_a_short_text_that_round_trips(text, command):
    assert parse(text) == command
    assert format(command) == text


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("Y3", TakeTiles(2, YELLOW)),
        (" y C ", TakeTiles(None, YELLOW)),
        ("BB6 +3", PlaceTile(4, 6, BLUE, 3)),
        ("b46", PlaceTile(4, 6, BLUE, 0)),
        ("g03", PlaceTile(0, 3, GREEN, 0)),
        ("PASS  R g g", Pass((GREEN, GREEN, RED))),
        ("pass green, green red", Pass((GREEN, GREEN, RED))),
        ("Bonus b p", ChooseBonusTiles((PURPLE, BLUE))),
    ],
)
def test_case_spaces_star_digits_and_colour_names_are_accepted(text, command):
    assert parse(text) == command


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ("pavilion_expected_command", {})),
        ("hello", ("pavilion_expected_command", {})),
        ("x3", ("pavilion_expected_command", {})),
        ("y0", ("pavilion_expected_take", {})),
        ("yz", ("pavilion_expected_take", {})),
        ("bb7", ("pavilion_expected_place", {})),
        ("bx6", ("pavilion_expected_place", {})),
        ("bb6+", ("pavilion_expected_place", {})),
        ("pass xyz", ("pavilion_expected_kept", {"most": 4})),
        ("pass ggggg", ("pavilion_keep_too_many", {"most": 4})),
        ("bonus", ("pavilion_expected_bonus", {})),
        ("bonus q", ("pavilion_expected_bonus", {})),
    ],
)
def test_unreadable_text_says_what_was_expected(text, expected):
    with pytest.raises(InvalidNotation) as error:
        parse(text)
    assert (error.value.code, error.value.params) == expected
    assert error.value.text == text
