"""Miyabi's refusals in the reader's language: the sentences of the codes only its engine
raises (``games.refusals`` holds the ones every game shares)."""

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.rules.miyabi.notation import ORIENTATION_NAMES

COLOURS: tuple[str, ...] = ()
"""Miyabi's tiles have no colours: they show garden objects."""

SENTENCES = {
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
"""Code -> sentence, with named placeholders (``games.refusals.RULES_ERRORS``)."""


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


def tile_name(shape: object, garden_object: object, count: object) -> str:
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


def orientation_name(value: object) -> str:
    """An orientation by the engine's index, as the notation writes it (never translated)."""
    if type(value) is int and 0 <= value < len(ORIENTATION_NAMES):
        return ORIENTATION_NAMES[value]
    return str(value)


def said(params: dict[str, Any]) -> dict[str, Any]:
    """The params only this game has, in words: garden objects, orientations, and a tile
    (its shape, object and count together)."""
    words: dict[str, Any] = {}
    for name, value in params.items():
        match name:
            case "object":
                words[name] = garden_objects_name(value)
            case "orientation" | "canonical":
                words[name] = orientation_name(value)
    if {"shape", "object", "count"} <= params.keys():
        words["tile"] = tile_name(params["shape"], params["object"], params["count"])
    return words
