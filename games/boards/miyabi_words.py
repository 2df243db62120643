"""Miyabi's garden objects, tiles, turns and provisional values in words, in the active
language: for its boards' labels, its move list, its final score and the note on the values
our sources do not give (``games.rules.miyabi.PROVISIONAL``)."""

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.boards.words import gettext, ngettext
from games.rules.miyabi import PROVISIONAL
from games.rules.miyabi.model import GardenObject, Shape

OBJECT_NAMES = {
    GardenObject.MAPLE: pgettext_lazy("garden object", "maple"),
    GardenObject.PAGODA: pgettext_lazy("garden object", "pagoda"),
    GardenObject.POND: pgettext_lazy("garden object", "koi pond"),
    GardenObject.AZALEA: pgettext_lazy("garden object", "azalea"),
    GardenObject.BOXWOOD: pgettext_lazy("garden object", "boxwood"),
    GardenObject.STONE: pgettext_lazy("garden object", "stone"),
}
"""Each object's name, as the rows of a garden and the bonus tiles are labelled."""


def object_name(garden_object: GardenObject, count: int) -> str:
    """An object in words, as many as ``count``: "2 pagodas", "1 koi"."""
    words = {
        GardenObject.MAPLE: ngettext("%(count)s maple", "%(count)s maples", count),
        GardenObject.PAGODA: ngettext("%(count)s pagoda", "%(count)s pagodas", count),
        GardenObject.POND: ngettext("%(count)s koi", "%(count)s koi", count),
        GardenObject.AZALEA: ngettext("%(count)s azalea", "%(count)s azaleas", count),
        GardenObject.BOXWOOD: ngettext("%(count)s boxwood", "%(count)s boxwoods", count),
        GardenObject.STONE: ngettext("%(count)s stone", "%(count)s stones", count),
    }
    return words[garden_object] % {"count": count}


def shape_words(shape: str, garden_object: GardenObject, count: int) -> str:
    """A tile in words from its shape, object and number of objects."""
    objects = object_name(garden_object, count)
    match shape:
        case Shape.SINGLE:
            return gettext("single tile with %(objects)s") % {"objects": objects}
        case Shape.STRAIGHT_2:
            return gettext("straight tile of 2 squares with %(objects)s") % {"objects": objects}
        case Shape.STRAIGHT_3:
            return gettext("straight tile of 3 squares with %(objects)s") % {"objects": objects}
    return gettext("angled tile with %(objects)s") % {"objects": objects}


OBJECT_WORDS = {
    GardenObject.MAPLE: gettext_lazy("maples"),
    GardenObject.PAGODA: gettext_lazy("pagodas"),
    GardenObject.POND: gettext_lazy("koi ponds"),
    GardenObject.AZALEA: gettext_lazy("azaleas"),
    GardenObject.BOXWOOD: gettext_lazy("boxwoods"),
    GardenObject.STONE: gettext_lazy("stones"),
}
"""Each object's row as the final score's majorities name it: "Majority: maples"."""

TURN_WORDS = (
    gettext_lazy("as shown"),
    gettext_lazy("turned a quarter clockwise"),
    gettext_lazy("turned half round"),
    gettext_lazy("turned a quarter anticlockwise"),
    gettext_lazy("flipped over"),
    gettext_lazy("flipped over, turned a quarter clockwise"),
    gettext_lazy("flipped over, turned half round"),
    gettext_lazy("flipped over, turned a quarter anticlockwise"),
)
"""How a tile lies compared with the display, by orientation (the notation's r0, r90, r180,
r270, m0…m270: ``games.rules.miyabi.placement.ORIENTATIONS``)."""


def provisional_entries(view: dict) -> list[dict]:
    """Each provisional value the view names (``docs/miyabi-provisional.md``): its label,
    its value in words, why it is provisional and where it may be corrected."""
    return [
        {
            "label": PROVISIONAL_LABELS.get(key) or key.replace("_", " ").capitalize(),
            "value": _plain(PROVISIONAL[key].value),
            "why": PROVISIONAL[key].why,
            "correct_at": PROVISIONAL[key].correct_at,
        }
        for key in view["provisional"]
    ]


def _plain(value) -> str:
    """A provisional value in words: objects by name, tuples as a/b, tables as pairs."""
    if hasattr(value, "items"):
        nested = any(hasattr(item, "items") for item in value.values())
        return ("; " if nested else ", ").join(
            f"{_plain(key)}{': ' if nested else ' '}{_plain(item)}" for key, item in value.items()
        )
    if isinstance(value, tuple | list):
        return "/".join(_plain(item) for item in value) if value else gettext("none")
    if isinstance(value, GardenObject):
        return str(OBJECT_NAMES[value])
    if value in PROVISIONAL_WORDS:
        return str(PROVISIONAL_WORDS[value])
    return str(value)


PROVISIONAL_LABELS = {
    "bonus_tiles": gettext_lazy("Bonus tiles"),
    "majority_values": gettext_lazy("Majority values"),
    "majority_ties": gettext_lazy("Majority ties"),
    "majority_minimum": gettext_lazy("Majority minimum"),
    "final_tie_breaks": gettext_lazy("Final tie breaks"),
    "inventory": gettext_lazy("Inventory"),
    "object_square": gettext_lazy("Object square"),
}
PROVISIONAL_WORDS = {
    # Translators: how tied players score a majority: each scores the value of the rank
    # they share and the ranks below are used up.
    "competition": gettext_lazy("competition ranking"),
}
