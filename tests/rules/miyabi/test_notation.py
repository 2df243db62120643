"""The notation (docs/notation.md (Miyabi)): every command written and read back, and parse
errors that say what was expected."""

import pytest

from games.rules.miyabi import (
    GardenObject,
    InvalidNotation,
    Pass,
    PlaceTile,
    Shape,
    Tile,
    encode_command,
    format,
    parse,
)
from tests.rules.miyabi.tables import tile


def test_pass_is_written_pass():
    assert format(Pass()) == "pass"
    assert parse("  PASS ") == Pass()


def test_a_placement_is_tile_square_and_orientation():
    command = PlaceTile(Tile(Shape.ANGLE, GardenObject.PAGODA, 3), 1, 1, 1)
    assert format(command) == "LP3 b2 r90"
    assert parse("lp3 B2 R90") == command


def test_every_object_letter_and_shape_reads_back():
    letters = {"M": "MAPLE", "P": "PAGODA", "F": "POND", "A": "AZALEA", "B": "BOXWOOD"}
    letters["S"] = "STONE"
    for letter, name in letters.items():
        for shape in Shape:
            read = tile(f"{shape.value}{letter}2")
            assert read == Tile(shape, GardenObject[name], 2)


def test_a_single_tile_needs_no_orientation():
    command = PlaceTile(tile("1F1"), 2, 5, 0)
    assert format(command) == "1F1 f3"
    assert parse("1F1 f3 r270") == command


def test_the_orientation_defaults_to_r0():
    assert parse("3S3 a6") == PlaceTile(tile("3S3"), 5, 0, 0)


def test_a_mirrored_orientation_reads_as_its_canonical_name():
    """Ruling: reflections are allowed; a flipped straight or angle lays the same squares
    as a turn, and the notation reads it as that turn."""
    assert parse("2M2 c1 m0") == parse("2M2 c1 r180")
    assert parse("LB3 c5 m0") == parse("LB3 c5 r90")
    assert format(parse("3A3 d4 m90")) == "3A3 d4 r270"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ("miyabi_expected_command", {})),
        ("place LP3 at b2", ("miyabi_expected_command", {})),
        ("XP3 b2", ("miyabi_expected_tile", {"word": "xp3"})),
        ("LQ3 b2", ("miyabi_expected_tile", {"word": "lq3"})),
        ("LP4 b2", ("miyabi_expected_tile", {"word": "lp4"})),
        ("LP3 g2", ("miyabi_expected_square", {"word": "g2", "rows": 6})),
        ("LP3 b7", ("miyabi_expected_square", {"word": "b7", "rows": 6})),
        ("LP3 b2 r45", ("miyabi_expected_orientation", {"word": "r45"})),
    ],
)
def test_unreadable_text_says_what_was_expected(text, expected):
    with pytest.raises(InvalidNotation) as error:
        parse(text)
    assert (error.value.code, error.value.params) == expected


def test_a_command_has_a_structured_form():
    assert encode_command(parse("LP3 b2 r90")) == {
        "type": "PlaceTile",
        "version": 1,
        "tile": {"shape": "L", "object": 1, "count": 3},
        "row": 1,
        "column": 1,
        "orientation": 1,
    }
    assert encode_command(Pass()) == {"type": "Pass", "version": 1}
