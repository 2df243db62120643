"""The Azul notation: what a player types in an email reply and what the move list shows.

``F3 blue 4``: take the blue tiles of factory display 3 and put them on pattern line 4.
``C red floor``: take the red tiles of the centre and put them all on the floor line.
``wall 2``: grey wall, move the complete pattern line's tile to wall column 2.

Case does not matter; factory displays, pattern lines and columns count from 1; colours
may be written out or as one letter (b, y, r, k for black, w for white); ``factory 3``,
``centre``/``center``, ``line 4``, ``fl`` and ``column 2`` are read too.
"""

import re

from games.rules.azul.board import COLOUR_LETTERS, PATTERN_LINES, WALL_SIZE, Colour
from games.rules.azul.model import CENTRE, FLOOR, Command, PlaceOnWall, TakeTiles
from games.rules.common import InvalidNotation

COLOUR_WORDS = {
    **{colour.name.lower(): colour for colour in Colour},
    **{letter.lower(): Colour(colour) for colour, letter in enumerate(COLOUR_LETTERS)},
}
FACTORY_WORDS = ("f", "factory")
CENTRE_WORDS = ("c", "centre", "center")
LINE_WORDS = ("line", "l")
FLOOR_WORDS = ("floor", "fl")
WALL_WORDS = ("wall", "column", "col")
MOST_FACTORIES = 9

# What was expected where reading stopped: the code of the ``InvalidNotation`` and its facts
# (the door says it in the reader's language, ``games.refusals``).
SOURCE = ("azul_expected_source", {"last": MOST_FACTORIES})
COLOUR = ("azul_expected_colour", {})
LINE = ("azul_expected_line", {"last": PATTERN_LINES})
COLUMN = ("azul_expected_column", {"last": WALL_SIZE})
END = ("azul_expected_end", {})


def format(command: Command) -> str:
    """The notation of a command: ``F3 blue 4``, ``C red floor``, ``wall 2``; anything
    else raises ``InvalidNotation``."""
    match command:
        case TakeTiles(source, colour, line):
            where = "C" if source == CENTRE else f"F{source + 1}"
            to = "floor" if line == FLOOR else str(line + 1)
            return f"{where} {Colour(colour).name.lower()} {to}"
        case PlaceOnWall(column):
            return f"wall {column + 1}"
    raise InvalidNotation(repr(command), "not_a_command", game="azul")


def parse(text: str) -> Command:
    """Read a command; raises ``InvalidNotation`` saying what was expected."""
    tokens = re.findall(r"[a-z]+|\d+|[^\s,]", text.lower())
    reader = _Reader(text, tokens)
    if reader.take(WALL_WORDS):
        command: Command = PlaceOnWall(reader.number(WALL_SIZE, COLUMN) - 1)
    else:
        command = TakeTiles(_source(reader), _colour(reader), _line(reader))
    reader.end()
    return command


def _source(reader: "_Reader") -> int:
    if reader.take(CENTRE_WORDS):
        return CENTRE
    if reader.take(FACTORY_WORDS):
        return reader.number(MOST_FACTORIES, SOURCE) - 1
    raise reader.invalid(SOURCE)


def _colour(reader: "_Reader") -> Colour:
    word = reader.next(COLOUR)
    if word not in COLOUR_WORDS:
        raise reader.invalid(COLOUR)
    return COLOUR_WORDS[word]


def _line(reader: "_Reader") -> int:
    if reader.take(FLOOR_WORDS):
        return FLOOR
    reader.take(LINE_WORDS)
    return reader.number(PATTERN_LINES, LINE) - 1


class _Reader:
    """The tokens of one command, read left to right."""

    def __init__(self, text: str, tokens: list[str]) -> None:
        self.text = text
        self.tokens = tokens
        self.at = 0

    def invalid(self, expected: tuple[str, dict]) -> InvalidNotation:
        code, params = expected
        return InvalidNotation(self.text, code, **params)

    def next(self, expected: tuple[str, dict]) -> str:
        if self.at == len(self.tokens):
            raise self.invalid(expected)
        self.at += 1
        return self.tokens[self.at - 1]

    def take(self, words: tuple[str, ...]) -> bool:
        if self.at < len(self.tokens) and self.tokens[self.at] in words:
            self.at += 1
            return True
        return False

    def number(self, highest: int, expected: tuple[str, dict]) -> int:
        token = self.next(expected)
        if not token.isdigit() or not 1 <= int(token) <= highest:
            raise self.invalid(expected)
        return int(token)

    def end(self) -> None:
        if self.at < len(self.tokens):
            raise self.invalid(END)
