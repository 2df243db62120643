"""A plain-text picture of an Azul: Summer Pavilion table, for turn emails, in the reader's
language. Tiles in the supply and on the boards are the notation's colour letters in
capitals (P G O Y B R), the stars their notation letters (c p o r b y g); a legend line
says the colours in words."""

from django.utils.translation import gettext, ngettext, pgettext

from games.boards.words import colour as colour_by_number
from games.boards.words import points, tiles
from games.notify.channels.email.positions.layout import listing, paragraph, separated
from games.refusals import colour_name
from games.rules.summer_pavilion.board import (
    COLOUR_LETTERS,
    COLOURS,
    COSTS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_COLOUR,
    STAR_LETTERS,
    STARS,
    Side,
)
from games.rules.summer_pavilion.engine import NAME
from games.rules.summer_pavilion.model import Counts, Phase, Player, State


def position_text(state: State) -> str:
    """The round, wild colour, sources, supply and every player's board as plain text."""
    side = gettext("grey side") if state.side is Side.GREY else gettext("coloured side")
    # Translators: the first line of a Summer Pavilion position in an email, e.g. "Azul:
    # Summer Pavilion (coloured side), round 2 of 6, wild colour green, phase: taking tiles".
    headline = gettext(
        "Azul: Summer Pavilion (%(side)s), round %(round)s of %(rounds)s, wild colour "
        "%(colour)s, phase: %(phase)s"
    ) % {
        "side": side,
        "round": state.round,
        "rounds": ROUNDS,
        "colour": colour_name(NAME, state.wild),
        "phase": _phase(state.phase),
    }
    lines = paragraph(headline)
    lines.extend(paragraph(_to_move_line(state)))
    displays = [
        f"{number}: {_tile_list(factory)}" for number, factory in enumerate(state.factories, 1)
    ]
    lines.extend(listing(gettext("Factory displays:"), displays, " | "))
    centre = {"tiles": _tile_list(state.centre)}
    if state.token_taker is None:
        lines.extend(paragraph(gettext("Centre: %(tiles)s; start player token") % centre))
    else:
        lines.extend(paragraph(gettext("Centre: %(tiles)s") % centre))
    lines.extend(paragraph(gettext("Supply: %(tiles)s") % {"tiles": _cells(state.supply)}))
    lines.extend(
        paragraph(
            gettext("Bag: %(bag)s; tower: %(tower)s")
            % {"bag": tiles(sum(state.bag)), "tower": tiles(sum(state.tower))}
        )
    )
    lines.extend(paragraph(_costs(state.side)))
    names = [_star_name(state.side, star) for star in range(STARS)]
    for seat, player in enumerate(state.players):
        lines.append("")
        lines.extend(_player_lines(state, seat, player, names))
    lines.append("")
    lines.extend(_legend())
    return "\n".join(lines)


def _phase(phase: Phase) -> str:
    # The board pictures' names of the phases (games/boards/summer_pavilion.py).
    match phase:
        case Phase.ACQUIRE:
            return gettext("taking tiles")
        case Phase.PLAY:
            return gettext("placing tiles")
        case Phase.ROUND_OVER:
            return gettext("preparing the next round")
    return gettext("game over")


def _to_move_line(state: State) -> str:
    if state.phase is Phase.GAME_OVER:
        return gettext("The game is over.")
    if state.bonus_due:
        return ngettext(
            "Player %(number)s chooses %(count)s bonus tile from the supply.",
            "Player %(number)s chooses %(count)s bonus tiles from the supply.",
            state.bonus_due,
        ) % {"number": state.current + 1, "count": state.bonus_due}
    if state.phase is Phase.ROUND_OVER:
        return gettext("The next round is being prepared.")
    return gettext("Player %(number)s to move.") % {"number": state.current + 1}


def _costs(side: Side) -> str:
    if side is Side.COLOURED:
        return gettext("Costs: each space costs its number")
    outer = " ".join(map(str, COSTS[side][SPACES_PER_STAR : 2 * SPACES_PER_STAR]))
    # Translators: the costs of the spaces on the grey side; %(costs)s are six numbers,
    # the costs of spaces 1 to 6 of every outer star ("3 2 1 4 5 6").
    return gettext("Costs: centre star 3 each; outer stars, spaces 1-6: %(costs)s") % {
        "costs": outer
    }


def _tile_list(counts: Counts) -> str:
    """ "2 blue, 1 red", or "-" for none."""
    listed = [
        # Translators: a number of tiles of one colour, short, as in "2 blue, 1 red" (a
        # factory display's tiles); %(colour)s already agrees with the number.
        pgettext("tiles of a colour", "%(count)s %(colour)s")
        % {"count": count, "colour": colour_by_number(COLOURS[colour], count)}
        for colour, count in enumerate(counts)
        if count
    ]
    return separated(listed) or "-"


def _cells(spaces: tuple[int | None, ...]) -> str:
    """Tile letters in capitals, "." for an empty space."""
    return " ".join("." if t is None else COLOUR_LETTERS[t].upper() for t in spaces)


def _player_lines(state: State, seat: int, player: Player, names: list[str]) -> list[str]:
    status = []
    if state.token_taker == seat:
        status.append(gettext("start player token"))
    if player.passed:
        status.append(pgettext("player", "passed"))
    said = {"number": seat + 1, "points": points(player.score), "status": separated(status)}
    if status:
        # Translators: a player's heading, e.g. "Player 2: 5 points (start player token)".
        heading = gettext("Player %(number)s: %(points)s (%(status)s)") % said
    else:
        heading = gettext("Player %(number)s: %(points)s") % said
    lines = paragraph(heading)
    lines.extend(
        paragraph(
            gettext("beside the board: %(beside)s; corner spaces: %(corners)s")
            % {"beside": _tile_list(player.beside), "corners": _tile_list(player.corners)},
            "  ",
        )
    )
    # The star column is as wide as the longest name in the reader's language.
    header = pgettext("star label", "star")
    width = max(len(header) - 2, *(len(name) for name in names))
    spaces = " ".join(str(space) for space in range(1, SPACES_PER_STAR + 1))
    lines.append(f"  {header.ljust(width + 2)} {spaces}")
    for star in range(STARS):
        cells = _cells(player.board[star * SPACES_PER_STAR : (star + 1) * SPACES_PER_STAR])
        lines.append(f"  {STAR_LETTERS[star]} {names[star].ljust(width)} {cells}")
    return lines


def _star_name(side: Side, star: int) -> str:
    """A star's short name in the board's table: "centre", "purple", or "star 3"."""
    if star == 0:
        # Translators: the short names of Summer Pavilion's stars, labels of a table
        # ("centre" is the centre star, "purple" the purple star…).
        return pgettext("star label", "centre")
    if side is Side.COLOURED:
        return _coloured_star(COLOURS[STAR_COLOUR[star]])
    return pgettext("star label", "star %(number)s") % {"number": star}


def _coloured_star(name: str) -> str:
    match name:
        case "purple":
            return pgettext("star label", "purple")
        case "orange":
            return pgettext("star label", "orange")
        case "red":
            return pgettext("star label", "red")
        case "blue":
            return pgettext("star label", "blue")
        case "yellow":
            return pgettext("star label", "yellow")
    return pgettext("star label", "green")


def _legend() -> list[str]:
    letters = separated(
        [
            f"{letter.upper()} {colour_name(NAME, colour)}"
            for colour, letter in enumerate(COLOUR_LETTERS)
        ]
    )
    # Translators: the legend under a Summer Pavilion position; %(letters)s pairs each
    # tile letter of the notation with its colour ("P purple, G green, …"). Keep ".".
    said = gettext("Tiles: %(letters)s; . is an empty space.") % {"letters": letters}
    return paragraph(said)
