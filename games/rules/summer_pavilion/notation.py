"""The text form of commands: what a player types in an email reply, what the move list
shows. Case-insensitive; see docs/notation.md (Summer Pavilion).

    y3        take yellow from factory 3 (factories are numbered from 1)
    yc        take yellow from the centre
    bb6       place a blue tile on the blue star, space 6
    bb6+2     ... spending 2 wild tiles towards the cost
    gc3       place a green tile on the centre star, space 3
    pass      pass, keeping nothing
    pass ggr  pass, keeping two green tiles and a red one on the corners
    bonus pb  take a purple and a blue tile from the supply
"""

import re

from games.rules.common import InvalidNotation
from games.rules.summer_pavilion.board import (
    COLOUR_LETTERS,
    COLOURS,
    CORNER_SPACES,
    STAR_LETTERS,
)
from games.rules.summer_pavilion.model import (
    ChooseBonusTiles,
    Command,
    Pass,
    PlaceTile,
    TakeTiles,
)

CENTRE_LETTER = "c"
# The codes of ``InvalidNotation`` (the door says them in the reader's language,
# ``games.refusals``): what was expected where reading stopped.
EXPECTED_COMMAND = "pavilion_expected_command"
EXPECTED_TAKE = "pavilion_expected_take"
EXPECTED_PLACE = "pavilion_expected_place"
EXPECTED_KEPT = "pavilion_expected_kept"
EXPECTED_BONUS = "pavilion_expected_bonus"

_TAKE = re.compile(rf"([{COLOUR_LETTERS}])([1-9]|{CENTRE_LETTER})")
_PLACE = re.compile(rf"([{COLOUR_LETTERS}])([{STAR_LETTERS}0-6])([1-6])(?:\+([0-9]))?")


def format(command: Command) -> str:
    """The canonical text of a command; ``parse(format(c)) == c``; anything else raises
    ``InvalidNotation``."""
    match command:
        case TakeTiles(source, colour):
            where = CENTRE_LETTER if source is None else str(source + 1)
            return f"{COLOUR_LETTERS[colour]}{where}"
        case PlaceTile(star, space, colour, wilds):
            paid = f"+{wilds}" if wilds else ""
            return f"{COLOUR_LETTERS[colour]}{STAR_LETTERS[star]}{space}{paid}"
        case Pass(keep):
            return " ".join(["pass", _letters(keep)]).strip()
        case ChooseBonusTiles(colours):
            return f"bonus {_letters(colours)}"
    raise InvalidNotation(repr(command), "not_a_command", game="summer-pavilion")


def _letters(colours: tuple[int, ...]) -> str:
    return "".join(COLOUR_LETTERS[c] for c in colours)


def parse(text: str) -> Command:
    """The command a player typed; raises ``InvalidNotation`` saying what was expected."""
    words = text.strip().lower().split(maxsplit=1)
    if not words:
        raise InvalidNotation(text, EXPECTED_COMMAND)
    verb, rest = words[0], words[1] if len(words) > 1 else ""
    if verb == "pass":
        keep = _tiles(text, rest, EXPECTED_KEPT, most=CORNER_SPACES)
        if len(keep) > CORNER_SPACES:
            raise InvalidNotation(text, "pavilion_keep_too_many", most=CORNER_SPACES)
        return Pass(keep)
    if verb == "bonus":
        colours = _tiles(text, rest, EXPECTED_BONUS)
        if not colours:
            raise InvalidNotation(text, EXPECTED_BONUS)
        return ChooseBonusTiles(colours)
    compact = "".join(text.lower().split())
    if compact[0] not in COLOUR_LETTERS:
        raise InvalidNotation(text, EXPECTED_COMMAND)
    if len(compact) == 2:
        return _take(text, compact)
    return _place(text, compact)


def _take(text: str, compact: str) -> TakeTiles:
    match = _TAKE.fullmatch(compact)
    if match is None:
        raise InvalidNotation(text, EXPECTED_TAKE)
    colour, where = match.groups()
    source = None if where == CENTRE_LETTER else int(where) - 1
    return TakeTiles(source, COLOUR_LETTERS.index(colour))


def _place(text: str, compact: str) -> PlaceTile:
    match = _PLACE.fullmatch(compact)
    if match is None:
        raise InvalidNotation(text, EXPECTED_PLACE)
    colour, star, space, wilds = match.groups()
    return PlaceTile(
        star=int(star) if star.isdigit() else STAR_LETTERS.index(star),
        space=int(space),
        colour=COLOUR_LETTERS.index(colour),
        wilds=int(wilds or 0),
    )


def _tiles(text: str, rest: str, expected: str, **params: int) -> tuple[int, ...]:
    """Colours written as letters ('ggr'), names ('green green red') or both, in any
    order; returned in ascending colour order."""
    colours: list[int] = []
    for word in re.split(r"[\s,]+", rest.strip()):
        if not word:
            continue
        if word in COLOURS:
            colours.append(COLOURS.index(word))
        elif all(letter in COLOUR_LETTERS for letter in word):
            colours.extend(COLOUR_LETTERS.index(letter) for letter in word)
        else:
            raise InvalidNotation(text, expected, **params)
    return tuple(sorted(colours))
