"""Miyabi notation (``docs/notation.md (Miyabi)``): what a player types in an email reply,
what the move list shows and what the API accepts. Case-insensitive.

- ``pass`` — take no tile; out of this building phase.
- ``<tile> <square> [<orientation>]`` — e.g. ``LP3 b2 r90``:
  the tile as shape (``1``, ``2``, ``3`` straight or ``L`` angled), object letter and
  count; the square of its objects as column ``a``–``f`` and row ``1``–``6`` (row 1 is the
  maple row at the top); the orientation ``r0``, ``r90``, ``r180``, ``r270`` (turned
  clockwise) or ``m0``…``m270`` (mirrored, then turned), ``r0`` when left out. A mirrored
  or turned form that lays the same squares is read as its canonical name.
"""

import re

from games.rules.common import InvalidNotation
from games.rules.miyabi.model import GRID, Command, GardenObject, Pass, PlaceTile, Shape, Tile
from games.rules.miyabi.placement import CANONICAL

OBJECT_LETTERS = {
    GardenObject.MAPLE: "M",
    GardenObject.PAGODA: "P",
    GardenObject.POND: "F",
    GardenObject.AZALEA: "A",
    GardenObject.BOXWOOD: "B",
    GardenObject.STONE: "S",
}
"""Maple, Pagoda, Fish (the koi pond), Azalea, Boxwood, Stone."""

COLUMNS = "abcdef"
ORIENTATION_NAMES = ("r0", "r90", "r180", "r270", "m0", "m90", "m180", "m270")

_TILE = re.compile(r"([123l])([mpfabs])([1-3])")
_SQUARE = re.compile(r"([a-f])([1-6])")
_SHAPES = {shape.value.lower(): shape for shape in Shape}
_OBJECTS = {letter.lower(): garden_object for garden_object, letter in OBJECT_LETTERS.items()}

EXPECTED = "miyabi_expected_command"
"""The code of ``InvalidNotation`` for text that is no command at all (the door says what
is expected in the reader's language, ``games.refusals``)."""


def format_tile(tile: Tile) -> str:
    """A tile as shape, object letter and count: ``LP3``, ``2F2``, ``1M1``."""
    return f"{tile.shape.value}{OBJECT_LETTERS[tile.object]}{tile.count}"


def format_square(row: int, column: int) -> str:
    """A garden square as column letter and row number: ``b2``."""
    return f"{COLUMNS[column]}{row + 1}"


def format(command: Command) -> str:
    """The notation of a command; ``parse(format(c)) == c``; anything else raises
    ``InvalidNotation``."""
    match command:
        case Pass():
            return "pass"
        case PlaceTile(tile=tile, row=row, column=column, orientation=orientation):
            text = f"{format_tile(tile)} {format_square(row, column)}"
            if len(set(CANONICAL[tile.shape])) == 1:
                return text
            return f"{text} {ORIENTATION_NAMES[orientation]}"
    raise InvalidNotation(repr(command), "not_a_command", game="miyabi")


def parse(text: str) -> Command:
    """The command written in ``text``; ``InvalidNotation`` says what was expected."""
    words = text.strip().lower().split()
    if words == ["pass"]:
        return Pass()
    if len(words) not in (2, 3):
        raise InvalidNotation(text, EXPECTED)
    tile = _parse_tile(text, words[0])
    row, column = _parse_square(text, words[1])
    orientation = _parse_orientation(text, words[2]) if len(words) == 3 else 0
    return PlaceTile(tile, row, column, CANONICAL[tile.shape][orientation])


def _parse_tile(text: str, word: str) -> Tile:
    match = _TILE.fullmatch(word)
    if not match:
        raise InvalidNotation(text, "miyabi_expected_tile", word=word)
    shape, garden_object, count = match.groups()
    return Tile(_SHAPES[shape], _OBJECTS[garden_object], int(count))


def _parse_square(text: str, word: str) -> tuple[int, int]:
    match = _SQUARE.fullmatch(word)
    if not match:
        raise InvalidNotation(text, "miyabi_expected_square", word=word, rows=GRID)
    column, row = match.groups()
    return int(row) - 1, COLUMNS.index(column)


def _parse_orientation(text: str, word: str) -> int:
    if word not in ORIENTATION_NAMES:
        raise InvalidNotation(text, "miyabi_expected_orientation", word=word)
    return ORIENTATION_NAMES.index(word)
