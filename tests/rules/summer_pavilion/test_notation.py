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
        ("", "a take like 'y3'"),
        ("hello", "a take like 'y3'"),
        ("x3", "a take like 'y3'"),
        ("y0", "a factory number 1-9 or 'c'"),
        ("yz", "a factory number 1-9 or 'c'"),
        ("bb7", "a space 1-6"),
        ("bx6", "a star (c p o r b y g or 0-6)"),
        ("bb6+", "'+' with the number of wild tiles"),
        ("pass xyz", "up to 4 tile colours"),
        ("pass ggggg", "at most 4 tiles to keep"),
        ("bonus", "tile colours (p g o y b r or colour names) after 'bonus'"),
        ("bonus q", "after 'bonus'"),
    ],
)
def test_unreadable_text_says_what_was_expected(text, expected):
    with pytest.raises(InvalidNotation) as error:
        parse(text)
    assert expected in error.value.expected
    assert error.value.text == text
