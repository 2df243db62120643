"""A plain-text picture of a Miyabi table for emails: the centre, the bonus tiles and
every garden as a 6×6 grid showing each square's level, what lies on top and the lanterns.

A square reads ``<level><object><count>`` when objects show (``2P3``: three pagodas on
level 2), ``<level>.`` when green shows (``1.``), and ``.`` on the bare board."""

from games.rules.miyabi.data import BONUS_POINTS, PHASES
from games.rules.miyabi.engine import outcome
from games.rules.miyabi.model import GRID, Garden, GardenObject, State
from games.rules.miyabi.notation import COLUMNS, OBJECT_LETTERS, format_tile

CELL = 5
LABEL = 12
LEGEND = (
    "Squares: level, then what shows on top (2P3 = 3 pagodas on level 2, 1. = green on "
    "level 1, . = bare board). L = lantern on the column's space."
)


def render_text(state: State) -> str:
    """The whole table as text, one garden under the other."""
    lines = [_headline(state), ""]
    centre = " ".join(format_tile(tile) for tile in state.display) or "empty"
    lines.append(f"Centre: {centre}")
    lines.append(f"Box: {sum(state.box)} tiles")
    lines.append("Bonus tiles (level 5): " + ", ".join(_bonus(state, o) for o in GardenObject))
    for seat, garden in enumerate(state.gardens):
        lines.append("")
        lines.extend(_garden_lines(state, seat, garden))
    lines.extend(["", LEGEND])
    return "\n".join(lines) + "\n"


def _headline(state: State) -> str:
    phases = PHASES[state.players]
    if state.over:
        winners = " and ".join(f"player {seat + 1}" for seat in outcome(state).winners)
        return f"Miyabi, game over after {phases} building phases: won by {winners}"
    return (
        f"Miyabi, building phase {state.phase} of {phases}; bonsai: player {state.bonsai + 1}; "
        f"to move: player {state.turn + 1}"
    )


def _bonus(state: State, garden_object: GardenObject) -> str:
    name = f"{garden_object.name.lower()} {BONUS_POINTS[garden_object]}"
    taker = state.bonus_takers[garden_object]
    return name if taker is None else f"{name} (taken by player {taker + 1})"


def _garden_lines(state: State, seat: int, garden: Garden) -> list[str]:
    used = sum(garden.lanterns)
    status = "passed" if garden.passed else f"lanterns {used} of {GRID} used"
    if not state.over and seat == state.turn:
        status += ", to move"
    points = state.points[seat]
    lines = [f"Player {seat + 1}: {points} point{'' if points == 1 else 's'}, {status}"]
    lines.append(" " * LABEL + "".join(column.ljust(CELL) for column in COLUMNS).rstrip())
    lanterns = "".join(("L" if lit else ".").ljust(CELL) for lit in garden.lanterns)
    lines.append("lanterns".ljust(LABEL) + lanterns.rstrip())
    for garden_object in GardenObject:
        row = garden_object.row
        label = f"{row + 1} {garden_object.name.lower()}".ljust(LABEL)
        cells = "".join(
            _square(garden, row * GRID + column, OBJECT_LETTERS[garden_object]).ljust(CELL)
            for column in range(GRID)
        )
        lines.append(label + cells.rstrip())
    return lines


def _square(garden: Garden, cell: int, letter: str) -> str:
    level = garden.heights[cell]
    if level == 0:
        return "."
    count = garden.visible[cell]
    return f"{level}{letter}{count}" if count else f"{level}."
