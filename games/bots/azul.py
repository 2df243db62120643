"""Azul for the bots: a position is worth the score plus what the pattern lines, the
floor line and the wall promise. Nothing in the state is hidden: the bag is held as counts,
which anyone at the table deduces (every tile not shown on a board, a display, the centre
or in the lid is in the bag); its order is decided by the game's RNG, which bots never get.
"""

from functools import lru_cache

from games.bots.knowledge import Knowledge, nothing_hidden
from games.rules import azul
from games.rules.azul.board import (
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    FLOOR_SPACES,
    GREY,
    ROW_BONUS,
    WALL_SIZE,
    coloured_wall_column,
    floor_penalty,
    grey_wall_columns,
    place_on_wall,
    score_wall_placement,
)

PARTIAL_LINE = 0.5
"""A pattern line part-filled is worth this share of its wall placement per tile held:
it will probably be completed, but it blocks the line meanwhile."""
PARTIAL_BONUS = 0.5
"""An unfinished row, column or colour set is worth this share of its end bonus, times the
square of how far along it is."""
FIRST_PLAYER = 1.0
"""Choosing first in the next round is worth about a point."""


def evaluate(state: azul.State) -> tuple[float, ...]:
    """Every seat's expected final points (rulebook phases B and end of the game)."""
    if azul.is_over(state):
        return tuple(float(score) for score in azul.scores(state))
    return tuple(_board_value(board, state.wall_side) for board in state.boards)


# A search values thousands of positions that differ in one board only (the other seats'
# boards recur), and many commands leave the mover's board alike: a board is worth the same
# wherever it appears. The cache stays small: every entry lengthens a full garbage
# collection, which hard must fit in its time budget.
@lru_cache(maxsize=1 << 13)
def _board_value(board, wall_side: str) -> float:
    value = float(board.score)
    wall = board.wall
    floor = len(board.floor) + board.marker
    for row, line in enumerate(board.lines):
        if line.count == 0:
            continue
        column = _column_for(wall, row, line.colour, wall_side)
        complete = line.count == row + 1
        if column is None:
            floor += line.count if complete else 0
            continue
        points = score_wall_placement(wall, row, column)
        if complete:
            value += points
            wall = place_on_wall(wall, row, column, line.colour)
        else:
            value += PARTIAL_LINE * points * line.count / (row + 1)
    value += floor_penalty(min(floor, FLOOR_SPACES))
    value += FIRST_PLAYER * board.marker
    return value + _bonus_promise(wall)


def _column_for(wall, row: int, colour: int, wall_side: str) -> int | None:
    if wall_side != GREY:
        column = coloured_wall_column(row, colour)
        return None if wall[row][column] is not None else column
    columns = grey_wall_columns(wall, row, colour)
    return max(columns, key=lambda column: score_wall_placement(wall, row, column), default=None)


def _bonus_promise(wall) -> float:
    rows = [sum(space is not None for space in line) for line in wall]
    columns = [sum(line[column] is not None for line in wall) for column in range(WALL_SIZE)]
    placed = [space for line in wall for space in line if space is not None]
    colours = [placed.count(colour) for colour in range(COLOURS)]
    value = 0.0
    for counts, bonus in ((rows, ROW_BONUS), (columns, COLUMN_BONUS), (colours, COLOUR_BONUS)):
        for count in counts:
            share = 1.0 if count == WALL_SIZE else PARTIAL_BONUS * (count / WALL_SIZE) ** 2
            value += bonus * share
    return value


KNOWLEDGE = Knowledge(
    engine=azul,
    evaluate=evaluate,
    determinize=nothing_hidden,
    scale=8.0,
    round_of=lambda state: state.round,
)
