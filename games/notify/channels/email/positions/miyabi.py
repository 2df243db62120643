"""A plain-text picture of a Miyabi table for emails, in the reader's language: the
centre, the bonus tiles and every garden as a 6×6 grid showing each square's level, what
lies on top and the lanterns.

A square reads ``<level><object><count>`` when objects show (``2P3``: three pagodas on
level 2), ``<level>.`` when green shows (``1.``), and ``.`` on the bare board: the
notation's letters (M P F A B S), the same in every language; a legend says them in words.
"""

from django.utils.translation import gettext, ngettext, pgettext

from games.boards.words import listing as and_listing
from games.boards.words import points, tiles
from games.notify.channels.email.positions.layout import listing, paragraph, player, separated
from games.refusals.miyabi import garden_objects_name
from games.rules.miyabi.data import BONUS_POINTS, PHASES
from games.rules.miyabi.engine import outcome
from games.rules.miyabi.model import GRID, Garden, GardenObject, State
from games.rules.miyabi.notation import COLUMNS, OBJECT_LETTERS, format_tile

CELL = 5
"""The width of a square: ``2P3`` and two spaces."""
LABEL = 12
"""The narrowest label column (the English one); a longer translated label widens it."""


def position_text(state: State) -> str:
    """The whole table as text, one garden under the other."""
    lines = [*paragraph(_headline(state)), ""]
    centre = " ".join(format_tile(tile) for tile in state.display) or pgettext("centre", "empty")
    lines.extend(paragraph(gettext("Centre: %(tiles)s") % {"tiles": centre}))
    lines.extend(paragraph(gettext("Box: %(tiles)s") % {"tiles": tiles(sum(state.box))}))
    bonus = [_bonus(state, garden_object) for garden_object in GardenObject]
    lines.extend(
        listing(gettext("Bonus tiles (level 5):"), bonus, pgettext("list separator", ", "))
    )
    labels = _row_labels()
    width = max(LABEL, *(len(label) + 1 for label in labels))
    for seat, garden in enumerate(state.gardens):
        lines.append("")
        lines.extend(_garden_lines(state, seat, garden, labels, width))
    lines.append("")
    lines.extend(_legend())
    return "\n".join(lines) + "\n"


def _headline(state: State) -> str:
    phases = PHASES[state.players]
    if state.over:
        winners = outcome(state).winners
        won_by = and_listing([player(seat) for seat in winners])
        # Translators: the first line of a finished Miyabi game in an email; %(winners)s
        # names the winners, e.g. "player 2" or "player 1 and player 3".
        return ngettext(
            "Miyabi, game over after %(phases)s building phase: won by %(winners)s",
            "Miyabi, game over after %(phases)s building phases: won by %(winners)s",
            phases,
        ) % {"phases": phases, "winners": won_by}
    # Translators: the first line of a Miyabi position in an email, e.g. "Miyabi, building
    # phase 2 of 6; bonsai: player 1; to move: player 2".
    return gettext(
        "Miyabi, building phase %(phase)s of %(phases)s; bonsai: %(bonsai)s; to move: %(player)s"
    ) % {
        "phase": state.phase,
        "phases": phases,
        "bonsai": player(state.bonsai),
        "player": player(state.turn),
    }


def _bonus(state: State, garden_object: GardenObject) -> str:
    said = {
        "objects": garden_objects_name(int(garden_object)),
        "points": BONUS_POINTS[garden_object],
    }
    taker = state.bonus_takers[garden_object]
    if taker is None:
        # Translators: a level-5 bonus tile and its points, e.g. "pagodas 4".
        return pgettext("bonus tile", "%(objects)s %(points)s") % said
    # Translators: a level-5 bonus tile already taken, e.g. "pagodas 4 (taken by player 2)".
    return pgettext("bonus tile", "%(objects)s %(points)s (taken by player %(number)s)") % {
        **said,
        "number": taker + 1,
    }


def _row_labels() -> list[str]:
    """The garden's row labels: the row number and its object, "2 pagodas"."""
    return [
        f"{garden_object.row + 1} {garden_objects_name(int(garden_object))}"
        for garden_object in GardenObject
    ]


def _garden_lines(
    state: State, seat: int, garden: Garden, labels: list[str], width: int
) -> list[str]:
    if garden.passed:
        status = pgettext("player", "passed")
    else:
        # Translators: the lanterns a player has placed this building phase.
        status = gettext("lanterns %(used)s of %(all)s used") % {
            "used": sum(garden.lanterns),
            "all": GRID,
        }
    parts = [points(state.points[seat]), status]
    if not state.over and seat == state.turn:
        parts.append(pgettext("player", "to move"))
    # Translators: a player's heading, e.g. "Player 1: 6 points, lanterns 2 of 6 used".
    heading = gettext("Player %(number)s: %(state)s") % {
        "number": seat + 1,
        "state": separated(parts),
    }
    lines = paragraph(heading)
    lines.append(" " * width + "".join(column.ljust(CELL) for column in COLUMNS).rstrip())
    lanterns = "".join(("L" if lit else ".").ljust(CELL) for lit in garden.lanterns)
    # The board pictures' label of the lantern row (games/boards/miyabi.py).
    lines.append(gettext("lanterns").ljust(width) + lanterns.rstrip())
    for garden_object, label in zip(GardenObject, labels, strict=True):
        row = garden_object.row
        cells = "".join(
            _square(garden, row * GRID + column, OBJECT_LETTERS[garden_object]).ljust(CELL)
            for column in range(GRID)
        )
        lines.append(label.ljust(width) + cells.rstrip())
    return lines


def _legend() -> list[str]:
    letters = separated(
        [
            f"{OBJECT_LETTERS[garden_object]} {garden_objects_name(int(garden_object))}"
            for garden_object in GardenObject
        ]
    )
    # Translators: the legend under a Miyabi position. Keep the notation as it is: "2P3",
    # "1.", "." and "L". %(letters)s pairs each object letter with its object
    # ("M maples, P pagodas, …").
    said = gettext(
        "Squares: level, then what shows on top (2P3 = 3 pagodas on level 2, 1. = green on "
        "level 1, . = bare board). L = lantern on the column's space. Objects: %(letters)s."
    ) % {"letters": letters}
    return paragraph(said)


def _square(garden: Garden, cell: int, letter: str) -> str:
    level = garden.heights[cell]
    if level == 0:
        return "."
    count = garden.visible[cell]
    return f"{level}{letter}{count}" if count else f"{level}."
