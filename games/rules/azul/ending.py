"""When an Azul game ends, and why (rules reference ``rules/azul.md``, "End of the game").

The rulebook ends the game after the wall-tiling phase in which a player completed a
horizontal row. Three rulings cover what it is silent on; each is a reason of its own, so
the end-of-game screen and the move log can say why a game ended:

- a **dead position**: no sequence of legal moves, however the players cooperate, can
  complete any horizontal row (``is_dead_position``);
- a **repeated position**: the wall-tiling phase left everything exactly as after the
  wall-tiling phases of two earlier rounds (threefold repetition);
- **no tiles**: at the start of a round no tile can be drawn at all (bag and lid empty).

Everything here is a small pure function of boards and tile counts.
"""

from collections.abc import Sequence
from enum import StrEnum
from itertools import permutations

from games.rules.azul.board import (
    COLOURS,
    GREY,
    TILES_PER_COLOUR,
    WALL_SIZE,
    Wall,
    coloured_wall_column,
    grey_wall_columns,
)


class EndReason(StrEnum):
    """Why the game ended (``GameEnded.reason``)."""

    ROW_COMPLETED = "row_completed"
    """Rulebook: a player completed a horizontal row of their wall."""
    NO_TILES = "no_tiles"
    """Ruling: at the start of a round no tile could be drawn (bag and lid empty)."""
    DEAD_POSITION = "dead_position"
    """Ruling: no horizontal row could ever be completed any more."""
    REPEATED_POSITION = "repeated_position"
    """Ruling: the position after the wall tiling repeated for the third time."""
    ROUND_LIMIT = "round_limit"
    """Only in games recorded before the rulings above: the game ended after round 20, the
    former limit, or when no tile could be drawn (``GameEnded`` version 1 did not say)."""


REPETITIONS = 3
"""Ruling (the rulebook is silent): threefold repetition, as in chess. The position after a
wall-tiling phase that is the same as after the wall-tiling phases of two earlier rounds
ends the game: a game locked by turn order (the same two players empty the last displays
onto their floor lines every round) would otherwise run for ever, and the cooperative
dead-position check calls it alive."""

Lines = Sequence[tuple[int | None, int]]
"""A board's pattern lines, top to bottom: (colour or ``None``, tiles held)."""


def free_tiles(boards: Sequence[tuple[Wall, Lines]]) -> list[int]:
    """Step 1: per colour, the tiles on no wall and no pattern line (in the bag, the lid or
    the displays), out of the 20 of each colour."""
    free = [TILES_PER_COLOUR] * COLOURS
    for wall, lines in boards:
        for row in wall:
            for colour in row:
                if colour is not None:
                    free[colour] -= 1
        for colour, count in lines:
            if count:
                free[colour] -= count
    return free


def may_take(wall: Wall, row: int, colour: int, grey: bool) -> bool:
    """Whether a wall row still has a space that may take the colour: on the coloured wall
    its printed space is empty; on the grey wall an empty space whose column has no tile of
    that colour."""
    if grey:
        return bool(grey_wall_columns(wall, row, colour))
    return wall[row][coloured_wall_column(row, colour)] is None


def completable_lines(
    boards: Sequence[tuple[Wall, Lines]], grey: bool
) -> tuple[set[tuple[int, int]], list[int]]:
    """Step 2: the pattern lines (seat, row) that can still be completed, found to a
    fixpoint, and the free tiles per colour once their tiles count as freed. A line of size
    n holding k tiles of colour c can complete when its wall row may still take c and
    ``free(c) >= n - k``; it then frees ``k - 1`` tiles (it takes ``n - k``, one tile goes
    to the wall and ``n - 1`` to the lid). Every other non-empty line is stuck."""
    free = free_tiles(boards)
    completable: set[tuple[int, int]] = set()
    changed = True
    while changed:
        changed = False
        for seat, (wall, lines) in enumerate(boards):
            for row, (colour, count) in enumerate(lines):
                if not count or (seat, row) in completable:
                    continue
                if may_take(wall, row, colour, grey) and free[colour] >= row + 1 - count:
                    completable.add((seat, row))
                    free[colour] += count - 1
                    changed = True
    return completable, free


def row_completable(
    wall: Wall, row: int, line: tuple[int | None, int], line_ok: bool, free: list[int], grey: bool
) -> bool:
    """Step 3: a wall row can still be completed when its pattern line is not stuck
    (``line_ok``), its empty spaces can be given the row's missing colours (the grey wall
    needs a perfect matching: no colour twice in a column), and every missing colour other
    than the one on its pattern line has at least the line's size in free tiles."""
    line_colour, held = line
    if held and not line_ok:
        return False
    missing = [colour for colour in range(COLOURS) if colour not in wall[row]]
    size = row + 1
    if any(free[colour] < size for colour in missing if not (held and colour == line_colour)):
        return False
    return not grey or _columns_matched(wall, row, missing)


def _columns_matched(wall: Wall, row: int, missing: list[int]) -> bool:
    """Grey wall: the missing colours can go to the row's empty spaces one each, no colour
    in a column that already has it (at most 5! assignments)."""
    empty = [column for column in range(WALL_SIZE) if wall[row][column] is None]
    return any(
        all(
            all(line[column] != colour for line in wall)
            for colour, column in zip(missing, order, strict=True)
        )
        for order in permutations(empty)
    )


def is_dead_position(boards: Sequence[tuple[Wall, Lines]], wall_side: str) -> bool:
    """Ruling (a dead position; the rulebook is silent), checked after each wall-tiling
    phase with the floor lines emptied: step 4, no row of any player can still be
    completed. The check is optimistic (players may cooperate and share the free tiles),
    so it never ends a game that the rulebook continues."""
    grey = wall_side == GREY
    completable, free = completable_lines(boards, grey)
    return not any(
        row_completable(wall, row, lines[row], (seat, row) in completable, free, grey)
        for seat, (wall, lines) in enumerate(boards)
        for row in range(WALL_SIZE)
    )
