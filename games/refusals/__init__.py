"""The rules engines' refusals in the reader's language.

Engines speak no language (``docs/engines.md``): an ``IllegalMove`` or ``InvalidNotation``
carries a stable ``code`` and its facts as ``params`` (numbers, colour indexes, source
indexes, the accepted range…). This module is the one table from code to sentence; the
doors (services, API, pages, emails) call ``rules_error_text`` inside the reader's
activated language. Params that are game objects are said in words first, with the
rulebooks' terms: a colour index becomes "blue", a source "factory display 3" or "the
centre", a star "the purple star"…"""

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy, pgettext

from games.registry import GAME_TYPES
from games.rules.common import InvalidNotation, RulesError

AZUL = "azul"
SUMMER_PAVILION = "summer-pavilion"
MIYABI = "miyabi"

# The colour names of each game, by the engine's colour index (the engines' own orders:
# ``games.rules.azul.board.Colour``, ``games.rules.summer_pavilion.board.COLOURS``).
_AZUL_COLOURS = ("blue", "yellow", "red", "black", "white")
_PAVILION_COLOURS = ("purple", "green", "orange", "yellow", "blue", "red")


def _colour_words() -> dict[str, str]:
    # Translators: a colour of tiles, as in "factory display 3 holds no blue tiles";
    # use the form that fits before "tiles" in your language.
    return {
        "blue": pgettext("tile colour", "blue"),
        "yellow": pgettext("tile colour", "yellow"),
        "red": pgettext("tile colour", "red"),
        "black": pgettext("tile colour", "black"),
        "white": pgettext("tile colour", "white"),
        "purple": pgettext("tile colour", "purple"),
        "green": pgettext("tile colour", "green"),
        "orange": pgettext("tile colour", "orange"),
    }


def colour_name(game: str | None, colour: object) -> str:
    """A colour index of ``game`` in words; anything else as it was given."""
    names = _PAVILION_COLOURS if game == SUMMER_PAVILION else _AZUL_COLOURS
    if type(colour) is int and 0 <= colour < len(names):
        return _colour_words()[names[colour]]
    return str(colour)


def source_name(source: object) -> str:
    """A source of tiles: ``None`` is the centre, a number a factory display (from 0)."""
    if source is None:
        return gettext("the centre")
    if type(source) is int:
        return gettext("factory display %(number)s") % {"number": source + 1}
    return str(source)


def star_name(star: object) -> str:
    """A Summer Pavilion star, by the engine's index (0 the centre star, then the stars
    named after their colour on the coloured side)."""
    names = {
        0: gettext("the centre star"),
        1: gettext("the purple star"),
        2: gettext("the orange star"),
        3: gettext("the red star"),
        4: gettext("the blue star"),
        5: gettext("the yellow star"),
        6: gettext("the green star"),
    }
    return names.get(star, str(star)) if type(star) is int else str(star)


def garden_objects_name(garden_object: object) -> str:
    """A Miyabi garden object (the engine's ``GardenObject`` value), in the plural."""
    names = {
        0: gettext("maples"),
        1: gettext("pagodas"),
        2: gettext("koi ponds"),
        3: gettext("azaleas"),
        4: gettext("boxwoods"),
        5: gettext("stones"),
    }
    return names.get(garden_object, str(garden_object))


def miyabi_tile_name(shape: object, garden_object: object, count: object) -> str:
    """A Miyabi tile in words: "an angled tile with 3 pagodas"."""
    shapes = {
        "1": gettext("a single-square tile"),
        "2": gettext("a straight two-square tile"),
        "3": gettext("a straight three-square tile"),
        "L": gettext("an angled tile"),
    }
    # Translators: a Miyabi tile, e.g. "an angled tile with 3 pagodas".
    return gettext("%(shape)s with %(count)s %(objects)s") % {
        "shape": shapes.get(shape, str(shape)),
        "count": count,
        "objects": garden_objects_name(garden_object),
    }


ORIENTATION_NAMES = ("r0", "r90", "r180", "r270", "m0", "m90", "m180", "m270")
"""Miyabi's orientations as the notation writes them (never translated)."""


def _orientation(value: object) -> str:
    if type(value) is int and 0 <= value < len(ORIENTATION_NAMES):
        return ORIENTATION_NAMES[value]
    return str(value)


def _game_title(slug: object) -> str:
    """A game's name (a proper name, the same in every language) from its registry slug."""
    game = GAME_TYPES.get(slug) if isinstance(slug, str) else None
    return game.title if game else str(slug)


def _counted_from_one(value: object) -> object:
    """An index from 0 as people count, from 1."""
    return value + 1 if type(value) is int else value


def _listed(values: object, say: Callable[[Any], str] = str, *, last: str = "or") -> str:
    items = [say(value) for value in values] if isinstance(values, Iterable) else [str(values)]
    if not items:
        return gettext("none")
    return get_text_list(items, gettext("or") if last == "or" else gettext("and"))


def words(params: dict[str, Any], game: str | None = None) -> dict[str, Any]:
    """The params of a refusal ready for its sentence: game objects in words in the active
    language, indexes counted from 1, numbers kept as numbers (plurals choose by them)."""
    said = dict(params)
    for name, value in params.items():
        match name:
            case "colour" | "wild" | "held_colour":
                said[name] = colour_name(game, value)
            case "accepted":
                said[name] = _listed(value, lambda c: colour_name(game, c))
            case "source":
                said[name] = source_name(value)
            case "star":
                said[name] = star_name(value)
            case "factory" | "line" | "row" | "column" | "own_row" | "seat":
                said[name] = _counted_from_one(value)
            case "object":
                said[name] = garden_objects_name(value)
            case "orientation" | "canonical":
                said[name] = _orientation(value)
            case "levels":
                said[name] = _listed(value, last="and")
            case "unknown" | "known" | "values":
                said[name] = _listed(value, last="and" if name != "values" else "or")
            case "game":
                said[name] = _game_title(value)
            case "value" | "players" if not isinstance(value, int):
                said[name] = repr(value)
    if {"shape", "object", "count"} <= params.keys():
        said["tile"] = miyabi_tile_name(params["shape"], params["object"], params["count"])
    return said


# Every code an engine raises, with its sentence. Sentences name their params
# (``%(name)s``); a plural sentence chooses its form by the param named in
# ``ngettext_lazy``'s third argument. The notation's own words ("F3 blue 4", "pass",
# "wall 2"…) are quoted as typed and stay as they are in every language.
RULES_ERRORS: dict[str, Promise] = {
    # -- every game --------------------------------------------------------------------
    "not_a_command": gettext_lazy("this is not a command of this game"),
    "game_over": gettext_lazy("the game is over"),
    "between_rounds": gettext_lazy("not now: the next round is being prepared"),
    # Translators: %(game)s is the game's name (Azul, Azul: Summer Pavilion, Miyabi).
    "player_count": ngettext_lazy(
        "%(game)s is played by %(fewest)s to %(most)s player, not %(players)s",
        "%(game)s is played by %(fewest)s to %(most)s players, not %(players)s",
        "most",
    ),
    "options_not_mapping": gettext_lazy(
        "the options of %(game)s are a mapping of option names to values"
    ),
    # Translators: %(unknown)s and %(known)s are option names, as the API writes them.
    "unknown_option": gettext_lazy("%(game)s has no option %(unknown)s (its options: %(known)s)"),
    # Translators: %(option)s, %(values)s and %(value)s are written as the API writes them.
    "option_value": gettext_lazy(
        "the option %(option)s of %(game)s is one of %(values)s, not %(value)s"
    ),
    "no_such_colour": gettext_lazy("there is no tile colour %(colour)s"),
    "source_lacks_colour": gettext_lazy("%(source)s holds no %(colour)s tiles"),
    # -- Azul ----------------------------------------------------------------------------
    "no_such_factory": ngettext_lazy(
        "there is no factory display %(factory)s: this game has %(factories)s",
        "there is no factory display %(factory)s: this game has %(factories)s",
        "factories",
    ),
    "no_such_pattern_line": gettext_lazy(
        "there is no pattern line %(line)s: the pattern lines are 1 to %(lines)s"
    ),
    "pattern_line_other_colour": gettext_lazy(
        "pattern line %(line)s already holds %(held_colour)s tiles"
    ),
    "pattern_line_complete": gettext_lazy("pattern line %(line)s is already complete"),
    "wall_row_has_colour": gettext_lazy("row %(row)s of the wall already has a %(colour)s tile"),
    "no_such_wall_column": gettext_lazy(
        "there is no wall column %(column)s: the columns are 1 to %(columns)s"
    ),
    "wall_space_taken": gettext_lazy(
        "row %(row)s, column %(column)s of the wall already holds a tile"
    ),
    "wall_column_has_colour": gettext_lazy(
        "column %(column)s of the wall already has a %(colour)s tile"
    ),
    # Translators: %(seat)s is the number of the player's seat (1 to 4).
    "wall_column_due": gettext_lazy(
        "not now: player %(seat)s must first choose a column of the grey wall"
    ),
    "during_factory_offer": gettext_lazy(
        "a column of the grey wall is chosen during the wall-tiling, not during the factory offer"
    ),
    "azul_expected_source": gettext_lazy(
        'expected a factory display F1 to F%(last)s or the centre C, as in "F3 blue 4", '
        '"C red floor" or, on the grey wall, "wall 2"'
    ),
    "azul_expected_colour": gettext_lazy(
        "expected a colour: blue, yellow, red, black or white (b, y, r, k, w)"
    ),
    "azul_expected_line": gettext_lazy('expected a pattern line 1 to %(last)s or "floor"'),
    "azul_expected_column": gettext_lazy('expected a wall column 1 to %(last)s, as in "wall 2"'),
    "azul_expected_end": gettext_lazy(
        'expected nothing after the command, as in "F3 blue 4", "C red floor" or, on the '
        'grey wall, "wall 2"'
    ),
    # -- Azul: Summer Pavilion -----------------------------------------------------------
    "bonus_due": ngettext_lazy(
        "first choose %(count)s bonus tile from the supply",
        "first choose %(count)s bonus tiles from the supply",
        "count",
    ),
    "not_acquire_phase": gettext_lazy('tiles are taken only in phase 1, "acquire tiles"'),
    "not_play_phase": gettext_lazy(
        'tiles are placed, and players pass, only in phase 2, "play tiles"'
    ),
    "wild_taken_alone": gettext_lazy(
        "%(wild)s is the wild colour this round: take it with another colour, or alone only "
        "from a factory display or the centre that holds nothing else"
    ),
    "no_such_star": gettext_lazy("there is no such star: the stars are 0 (the centre) to 6"),
    "no_such_space": gettext_lazy(
        "there is no space %(space)s on a star: the spaces are 1 to %(spaces)s"
    ),
    "wilds_not_a_number": gettext_lazy("the wild tiles spent are a number of tiles"),
    # Translators: %(star)s is a star of the board, e.g. "the purple star".
    "space_covered": gettext_lazy("space %(space)s of %(star)s is already covered"),
    # Translators: %(accepted)s lists tile colours, e.g. "blue or red".
    "star_refuses_colour": gettext_lazy("%(star)s accepts %(accepted)s, not %(colour)s"),
    "wild_paid_with_wilds": gettext_lazy(
        "a tile of the wild colour placed as itself is paid with tiles of that colour only"
    ),
    "wilds_out_of_range": ngettext_lazy(
        "this space costs %(cost)s: spend 0 to %(most)s wild tile",
        "this space costs %(cost)s: spend 0 to %(most)s wild tiles",
        "most",
    ),
    "too_few_of_colour": ngettext_lazy(
        "placing this tile needs %(needed)s %(colour)s tile beside your board",
        "placing this tile needs %(needed)s %(colour)s tiles beside your board",
        "needed",
    ),
    "too_few_wilds": ngettext_lazy(
        "only %(have)s wild tile lies beside your board",
        "only %(have)s wild tiles lie beside your board",
        "have",
    ),
    "no_bonus_due": gettext_lazy("no bonus tiles are due"),
    "bonus_not_colours": gettext_lazy("the bonus tiles are a list of colours"),
    "bonus_count": ngettext_lazy(
        "choose exactly %(count)s tile from the supply",
        "choose exactly %(count)s tiles from the supply",
        "count",
    ),
    "bonus_not_sorted": gettext_lazy("list the chosen colours in ascending order"),
    "supply_lacks_colour": gettext_lazy("the supply holds too few %(colour)s tiles"),
    "kept_not_colours": gettext_lazy("the tiles kept are a list of colours"),
    "keep_too_many": ngettext_lazy(
        "keep at most %(most)s tile on the corner spaces",
        "keep at most %(most)s tiles on the corner spaces",
        "most",
    ),
    "kept_not_sorted": gettext_lazy("list the kept colours in ascending order"),
    "kept_not_beside": gettext_lazy("keep only tiles that lie beside your board"),
    "pavilion_expected_command": gettext_lazy(
        'expected a take such as "y3" (yellow from factory display 3) or "yc" (from the '
        'centre), a placement such as "bb6" or "bb6+2" (a blue tile on the blue star, space '
        '6, with 2 wild tiles), "pass" or "pass gg" (the tiles to keep), or "bonus pr" (tiles '
        "from the supply)"
    ),
    "pavilion_expected_take": gettext_lazy(
        'expected a colour then a factory display 1-9 or "c" for the centre, as in "y3" or "yc"'
    ),
    "pavilion_expected_place": gettext_lazy(
        "expected a colour, a star (c p o r b y g or 0-6), a space 1-6 and, if you spend "
        'wild tiles, "+" with their number, as in "bb6+2"'
    ),
    "pavilion_expected_kept": ngettext_lazy(
        'expected up to %(most)s tile colours (p g o y b r or colour names) after "pass"',
        'expected up to %(most)s tile colours (p g o y b r or colour names) after "pass"',
        "most",
    ),
    "pavilion_expected_bonus": gettext_lazy(
        'expected tile colours (p g o y b r or colour names) after "bonus"'
    ),
    "pavilion_keep_too_many": ngettext_lazy(
        "expected at most %(most)s tile to keep",
        "expected at most %(most)s tiles to keep",
        "most",
    ),
    # -- Miyabi --------------------------------------------------------------------------
    # Translators: %(tile)s is a tile in words, e.g. "an angled tile with 3 pagodas".
    "tile_not_displayed": gettext_lazy("there is no %(tile)s in the centre"),
    "no_such_square": gettext_lazy(
        "there is no square at row %(row)s, column %(column)s: the garden has %(rows)s "
        "rows and columns"
    ),
    "no_such_orientation": gettext_lazy(
        "an orientation is one of 0 to %(last)s, not %(orientation)s"
    ),
    # Translators: the orientations are written as the notation writes them (r90, m180…).
    "orientation_not_canonical": gettext_lazy(
        "orientation %(orientation)s lays this tile as orientation %(canonical)s does"
    ),
    # Translators: %(object)s is a garden object in the plural, e.g. "pagodas".
    "object_wrong_row": gettext_lazy("%(object)s belong in row %(own_row)s, not row %(row)s"),
    "column_has_lantern": gettext_lazy("column %(column)s already has a lantern"),
    "tile_off_grid": gettext_lazy(
        "the tile would stick out of the garden (%(rows)s × %(rows)s squares)"
    ),
    # Translators: %(levels)s lists level numbers, e.g. "0 and 1".
    "uneven_levels": gettext_lazy(
        "a tile must rest completely on squares of one level (below it: levels %(levels)s)"
    ),
    "miyabi_expected_command": gettext_lazy(
        'expected "pass", or a tile, a square and an orientation such as "LP3 b2 r90" '
        "(tile: shape 1/2/3/L, object M/P/F/A/B/S, count 1-3; square: column a-f, row 1-6; "
        "orientation: r0/r90/r180/r270 or m0/m90/m180/m270, r0 if left out)"
    ),
    # Translators: %(word)s is what the player wrote, quoted as it was.
    "miyabi_expected_tile": gettext_lazy(
        'expected a tile such as "LP3" (shape 1/2/3/L, object M/P/F/A/B/S, count 1-3), '
        'not "%(word)s"'
    ),
    "miyabi_expected_square": gettext_lazy(
        'expected a square such as "b2" (column a-f, row 1-%(rows)s), not "%(word)s"'
    ),
    "miyabi_expected_orientation": gettext_lazy(
        'expected an orientation r0/r90/r180/r270 or m0/m90/m180/m270, not "%(word)s"'
    ),
}


def rules_error_text(error: RulesError, game: str | None = None) -> str:
    """What ``error`` means, in the active language: the sentence of its code with its
    params in words (``game``: the registry slug, which names colours by its indexes). A
    code without a sentence falls back to a general one, never to the engine's text."""
    sentence = RULES_ERRORS.get(error.code)
    if sentence is None:
        if isinstance(error, InvalidNotation):
            return gettext("this is not a move in this game's notation")
        return gettext("the rules do not allow this move now")
    try:
        return str(sentence % words(error.params, game))
    except (KeyError, TypeError, ValueError):
        # A raise site that lacks a param of its sentence (tests/games/test_refusals.py
        # guards against it): the general sentence rather than a crash at the door.
        pass
    if isinstance(error, InvalidNotation):
        return gettext("this is not a move in this game's notation")
    return gettext("the rules do not allow this move now")


def invalid_notation_text(error: InvalidNotation, game: str | None = None) -> str:
    """The whole sentence for text that cannot be read: what was written, what was
    expected."""
    # Translators: %(text)s is what the player wrote; %(expected)s says what would be read,
    # e.g. "expected a colour: blue, yellow, …".
    return gettext('cannot read "%(text)s": %(expected)s') % {
        "text": error.text,
        "expected": rules_error_text(error, game),
    }


def illegal_move_text(error: RulesError, game: str | None = None) -> str:
    """The whole sentence for a move the rules forbid."""
    # Translators: %(reason)s says why, e.g. "pattern line 2 is already complete".
    return gettext("illegal move: %(reason)s") % {"reason": rules_error_text(error, game)}


def plain_params(params: dict[str, Any]) -> dict[str, Any]:
    """The params as JSON for an API client: numbers, strings, lists and nulls as they are,
    anything else as its text."""

    def plain(value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, tuple | list):
            return [plain(item) for item in value]
        return str(value)

    return {name: plain(value) for name, value in params.items()}
