"""A plain-text picture of an Azul table, for emails.

Tiles are letters (B blue, Y yellow, R red, K black, W white). A pattern line fills from
the right; an empty space is ``.``. On the wall a placed tile is a capital letter; an empty
space of the coloured wall shows its printed colour in lower case, of the grey wall ``.``.
"""

from games.rules.azul.board import COLOUR_LETTERS, GREY, WALL_SIZE, floor_penalty, wall_colour
from games.rules.azul.ending import EndReason
from games.rules.azul.engine import to_move
from games.rules.azul.model import Counts, Phase, PlayerBoard, State

ENDINGS = {
    EndReason.ROW_COMPLETED: "the game is over: a horizontal row was completed",
    EndReason.NO_TILES: "the game is over: no tile was left to draw for another round",
    EndReason.DEAD_POSITION: "the game is over: no horizontal row can be completed any more",
    EndReason.REPEATED_POSITION: (
        "the game is over: the same position came round for the third time"
    ),
    EndReason.ROUND_LIMIT: (
        "the game is over: it ended by the rules of its time, after round 20 or with no tile "
        "left to draw"
    ),
}
"""Why the game ended, in words (``GameEnded.reason``)."""


def render_text(state: State) -> str:
    """The whole table: factory displays, centre, bag and lid, then every player board."""
    side = "grey wall" if state.wall_side == GREY else "coloured wall"
    lines = [f"Azul, round {state.round}, {side}: {_status(state)}"]
    displays = "  ".join(
        f"F{number} {_tiles(factory) or '-'}" for number, factory in enumerate(state.factories, 1)
    )
    lines.append(f"Factory displays: {displays}")
    lines.append(f"Centre: {_with_marker(_tiles(state.centre), state.marker_in_centre)}")
    lines.append(f"Bag: {sum(state.bag)} tiles; box lid: {sum(state.lid)} tiles")
    for seat, board in enumerate(state.boards):
        lines.append("")
        lines.extend(_board(seat, board, state.wall_side == GREY))
    return "\n".join(lines) + "\n"


def _status(state: State) -> str:
    seat = to_move(state)
    match state.phase:
        case Phase.OFFER:
            return f"player {seat + 1} to take tiles"
        case Phase.TILING:
            return f"player {seat + 1} to choose a wall column"
        case Phase.OVER:
            return ENDINGS[state.end_reason]
        case Phase.REFILL:
            return "between rounds"


def _board(seat: int, board: PlayerBoard, grey: bool) -> list[str]:
    lines = [f"Player {seat + 1}: {board.score} points"]
    for row, (line, wall_row) in enumerate(zip(board.lines, board.wall, strict=True)):
        held = COLOUR_LETTERS[line.colour] * line.count if line.count else ""
        pattern = ("." * (row + 1 - line.count) + held).rjust(WALL_SIZE)
        wall = " ".join(
            COLOUR_LETTERS[tile]
            if tile is not None
            else ("." if grey else COLOUR_LETTERS[wall_colour(row, column)].lower())
            for column, tile in enumerate(wall_row)
        )
        lines.append(f"  {row + 1} {pattern} | {wall}")
    floor = _with_marker(" ".join(COLOUR_LETTERS[tile] for tile in board.floor), board.marker)
    occupied = len(board.floor) + board.marker
    penalty = f" ({floor_penalty(occupied)})" if occupied else ""
    lines.append(f"  Floor line: {floor}{penalty}")
    return lines


def _tiles(counts: Counts) -> str:
    return "".join(COLOUR_LETTERS[colour] * count for colour, count in enumerate(counts))


def _with_marker(tiles: str, marker: bool) -> str:
    shown = [part for part in (tiles, "first player marker" if marker else "") if part]
    return " + ".join(shown) or "-"
