"""A plain-text picture of an Azul table, for emails, in the reader's language.

Tiles are letters (B blue, Y yellow, R red, K black, W white: the notation's letters, the
same in every language; a legend line says them in words). A pattern line fills from the
right; an empty space is ``.``. On the wall a placed tile is a capital letter; an empty
space of the coloured wall shows its printed colour in lower case, of the grey wall ``.``.
"""

from django.utils.translation import gettext, pgettext

from games.boards.words import points, tiles
from games.notify.channels.email.positions.layout import listing, paragraph, player, separated
from games.refusals import colour_name
from games.rules.azul.board import COLOUR_LETTERS, GREY, WALL_SIZE, floor_penalty, wall_colour
from games.rules.azul.ending import EndReason
from games.rules.azul.engine import NAME, to_move
from games.rules.azul.model import Counts, Phase, PlayerBoard, State


def ending(reason: EndReason | None) -> str:
    """Why the game ended (``GameEnded.reason``), in words."""
    match reason:
        case EndReason.ROW_COMPLETED:
            return gettext("the game is over: a horizontal row was completed")
        case EndReason.NO_TILES:
            return gettext("the game is over: no tile was left to draw for another round")
        case EndReason.DEAD_POSITION:
            return gettext("the game is over: no horizontal row can be completed any more")
        case EndReason.REPEATED_POSITION:
            return gettext("the game is over: the same position came round for the third time")
        case EndReason.ROUND_LIMIT:
            return gettext(
                "the game is over: it ended by the rules of its time, after round 20 or with "
                "no tile left to draw"
            )
    return gettext("the game is over")


def position_text(state: State) -> str:
    """The whole table: factory displays, centre, bag and lid, then every player board."""
    grey = state.wall_side == GREY
    side = pgettext("wall side", "grey wall") if grey else pgettext("wall side", "coloured wall")
    # Translators: the first line of an Azul position in an email, e.g. "Azul, round 2,
    # coloured wall: player 1 to take tiles". %(status)s says who is to do what.
    headline = gettext("Azul, round %(round)s, %(wall)s: %(status)s") % {
        "round": state.round,
        "wall": side,
        "status": _status(state),
    }
    lines = paragraph(headline)
    # F1, F2…: the factory displays as the notation writes them, in every language.
    displays = [
        f"F{number} {_tiles(factory) or '-'}" for number, factory in enumerate(state.factories, 1)
    ]
    lines.extend(listing(gettext("Factory displays:"), displays, "  "))
    lines.extend(
        paragraph(
            gettext("Centre: %(tiles)s")
            % {"tiles": _with_marker(_tiles(state.centre), state.marker_in_centre)}
        )
    )
    lines.extend(
        paragraph(
            gettext("Bag: %(bag)s; box lid: %(lid)s")
            % {"bag": tiles(sum(state.bag)), "lid": tiles(sum(state.lid))}
        )
    )
    for seat, board in enumerate(state.boards):
        lines.append("")
        lines.extend(_board(seat, board, grey))
    lines.append("")
    lines.extend(_legend())
    return "\n".join(lines) + "\n"


def _status(state: State) -> str:
    seat = to_move(state)
    match state.phase:
        case Phase.OFFER:
            return gettext("%(player)s to take tiles") % {"player": player(seat)}
        case Phase.TILING:
            return gettext("%(player)s to choose a wall column") % {"player": player(seat)}
        case Phase.OVER:
            return ending(state.end_reason)
    return gettext("between rounds")


def _board(seat: int, board: PlayerBoard, grey: bool) -> list[str]:
    # Translators: the heading of a player board, e.g. "Player 2: 14 points".
    lines = [
        gettext("Player %(number)s: %(points)s")
        % {"number": seat + 1, "points": points(board.score)}
    ]
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
    if occupied:
        # Translators: %(penalty)s is the points the floor line loses, e.g. "-3".
        said = gettext("Floor line: %(tiles)s (%(penalty)s)") % {
            "tiles": floor,
            "penalty": floor_penalty(occupied),
        }
    else:
        said = gettext("Floor line: %(tiles)s") % {"tiles": floor}
    lines.extend(paragraph(said, "  "))
    return lines


def _legend() -> list[str]:
    letters = separated(
        [f"{letter} {colour_name(NAME, colour)}" for colour, letter in enumerate(COLOUR_LETTERS)]
    )
    # Translators: the legend under an Azul position; %(letters)s pairs each tile letter
    # of the notation with its colour ("B blue, Y yellow, …"). Keep "." as it is.
    said = gettext(
        "Tiles: %(letters)s. On the wall a capital letter is a placed tile, a small letter "
        "the empty space of that colour; . is an empty space."
    ) % {"letters": letters}
    return paragraph(said)


def _tiles(counts: Counts) -> str:
    return "".join(COLOUR_LETTERS[colour] * count for colour, count in enumerate(counts))


def _with_marker(tiles_: str, marker: bool) -> str:
    shown = [part for part in (tiles_, gettext("first player marker") if marker else "") if part]
    return " + ".join(shown) or "-"
