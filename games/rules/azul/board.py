"""The player board of Azul: colours, the wall pattern, the floor line and scoring.

Names follow the rulebook: factory displays, the centre of the table, pattern lines, the
wall, the floor line, the box lid, the first player marker. Rows, columns, pattern lines,
factories and seats are numbered from 0 here; the notation shows them from 1.

Rulings where the rulebook is silent: ``START_SEAT`` below; in the engine, a grey-wall
line without a legal space drops to the floor line (``_line_dropped_to_floor``), the marker
taken onto a full floor line (``_take_tiles``) and nobody taking the marker
(``_next_start_player``); in ``ending.py``, the end of a game by a dead position, a repeated
position or no tile left to draw.
"""

from enum import IntEnum

Wall = tuple[tuple[int | None, ...], ...]
"""Five rows of five spaces, each holding the colour of its tile or ``None``."""


class Colour(IntEnum):
    """The five tile colours, in the order of the coloured wall's top row (rules reference).
    White is the light-blue tile."""

    BLUE = 0
    YELLOW = 1
    RED = 2
    BLACK = 3
    WHITE = 4


COLOURS = len(Colour)
COLOUR_LETTERS = "BYRKW"
"""One letter per colour, in ``Colour`` order (K for black, W for white)."""
TILES_PER_COLOUR = 20
"""Setup: 100 tiles, 20 of each colour, in the bag."""
TILES = COLOURS * TILES_PER_COLOUR
FACTORIES = {2: 5, 3: 7, 4: 9}
"""Setup: 5, 7 or 9 factory displays for 2, 3 or 4 players."""
TILES_PER_FACTORY = 4
WALL_SIZE = 5
PATTERN_LINES = WALL_SIZE
FLOOR_PENALTIES = (-1, -1, -2, -2, -2, -3, -3)
"""The floor line's spaces, left to right, with the points each one loses."""
FLOOR_SPACES = len(FLOOR_PENALTIES)
ROW_BONUS = 2
COLUMN_BONUS = 7
COLOUR_BONUS = 10
"""End of the game: +2 per complete horizontal row, +7 per complete vertical column,
+10 per colour with all 5 of its tiles on the wall."""

COLOURED = "colored"
GREY = "grey"
WALL_SIDES = (COLOURED, GREY)
"""The two sides of the player board; every player uses the same side."""

START_SEAT = 0
"""Ruling: the rulebook lets "the player who most recently visited Portugal" start; the
service seats the players, so seat 0 starts the first round."""

EMPTY_WALL: Wall = tuple((None,) * WALL_SIZE for _ in range(WALL_SIZE))


def wall_colour(row: int, column: int) -> Colour:
    """The colour printed on a space of the coloured wall (row 0: B Y R K W, each row
    below shifted one space to the right)."""
    return Colour((column - row) % WALL_SIZE)


def coloured_wall_column(row: int, colour: int) -> int:
    """Phase B: on the coloured wall a tile moves to the space of its colour in its row."""
    return (row + colour) % WALL_SIZE


def grey_wall_columns(wall: Wall, row: int, colour: int) -> tuple[int, ...]:
    """Variant: on the grey wall a tile may go to any empty space of its row, but no colour
    may appear twice in a vertical column."""
    return tuple(
        column
        for column in range(WALL_SIZE)
        if wall[row][column] is None and all(line[column] != colour for line in wall)
    )


def wall_row_has(wall: Wall, row: int, colour: int) -> bool:
    """Phase A: no tiles on a pattern line whose wall row already holds that colour."""
    return colour in wall[row]


def place_on_wall(wall: Wall, row: int, column: int, colour: int) -> Wall:
    """The wall with one more tile."""
    line = wall[row]
    placed = line[:column] + (colour,) + line[column + 1 :]
    return wall[:row] + (placed,) + wall[row + 1 :]


def score_wall_placement(wall: Wall, row: int, column: int) -> int:
    """Scoring: a tile with no horizontal or vertical neighbour scores 1; otherwise the
    horizontally linked tiles (if any) plus the vertically linked tiles (if any), each
    count including the new tile. ``wall`` is the wall before the tile is placed."""
    horizontal = _linked(wall, row, column, 0, 1) + _linked(wall, row, column, 0, -1)
    vertical = _linked(wall, row, column, 1, 0) + _linked(wall, row, column, -1, 0)
    if not horizontal and not vertical:
        return 1
    return (horizontal + 1 if horizontal else 0) + (vertical + 1 if vertical else 0)


def _linked(wall: Wall, row: int, column: int, down: int, right: int) -> int:
    count = 0
    row, column = row + down, column + right
    while 0 <= row < WALL_SIZE and 0 <= column < WALL_SIZE and wall[row][column] is not None:
        count += 1
        row, column = row + down, column + right
    return count


def floor_penalty(occupied: int) -> int:
    """Phase B: each occupied floor space loses the points printed above it (negative)."""
    return sum(FLOOR_PENALTIES[:occupied])


def complete_rows(wall: Wall) -> int:
    """Horizontal rows of 5 tiles: one ends the game; each is worth +2 and breaks ties."""
    return sum(None not in line for line in wall)


def complete_columns(wall: Wall) -> int:
    """Vertical columns of 5 tiles, worth +7 each at the end."""
    return sum(all(line[column] is not None for line in wall) for column in range(WALL_SIZE))


def complete_colours(wall: Wall) -> int:
    """Colours with all 5 tiles on the wall, worth +10 each at the end."""
    placed = [space for line in wall for space in line if space is not None]
    return sum(placed.count(colour) == WALL_SIZE for colour in range(COLOURS))
