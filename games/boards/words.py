"""Words the boards share, written for translators: tile colours as adjectives that agree
with "tile"/"tiles" (Spanish, Portuguese and Polish adjectives agree in gender and number),
counts of tiles, points, and lists ("2 orange tiles and 1 purple tile")."""

from functools import lru_cache

from django.utils import translation
from django.utils.translation import get_language


@lru_cache(maxsize=8192)
def _said(language: str | None, say, *arguments) -> str:
    return say(*arguments)


# Django's translation functions, kept per process and language: the boards say the same
# labels, titles and numbers of tiles position after position (a 4-player turn email's
# pictures asked for 350–430 translations, issue 33), and a kept one costs half as much.
def gettext(message: str) -> str:
    return _said(get_language(), translation.gettext, message)


def ngettext(singular: str, plural: str, number: int) -> str:
    return _said(get_language(), translation.ngettext, singular, plural, number)


def pgettext(context: str, message: str) -> str:
    return _said(get_language(), translation.pgettext, context, message)


def npgettext(context: str, singular: str, plural: str, number: int) -> str:
    return _said(get_language(), translation.npgettext, context, singular, plural, number)


def colour(name: str, count: int = 1) -> str:
    """A tile colour said of ``count`` tiles: an adjective agreeing with "tile(s)"."""
    match name:
        case "blue":
            # Translators: a tile colour, an adjective said of "count" tiles ("2 blue
            # tiles"): the forms agreeing with your word for "tile", singular and plural.
            # Every "tile colour by number" is said the same way.
            return npgettext("tile colour by number", "blue", "blue", count)
        case "yellow":
            return npgettext("tile colour by number", "yellow", "yellow", count)
        case "red":
            return npgettext("tile colour by number", "red", "red", count)
        case "black":
            return npgettext("tile colour by number", "black", "black", count)
        case "white":
            return npgettext("tile colour by number", "white", "white", count)
        case "purple":
            return npgettext("tile colour by number", "purple", "purple", count)
        case "green":
            return npgettext("tile colour by number", "green", "green", count)
        case "orange":
            return npgettext("tile colour by number", "orange", "orange", count)
    return name


def star(name: str) -> str:
    """A star of the Summer Pavilion board by its colour (or the centre star): the whole
    noun phrase, "the orange star"."""
    match name:
        case "purple":
            return pgettext("star", "the purple star")
        case "green":
            return pgettext("star", "the green star")
        case "orange":
            return pgettext("star", "the orange star")
        case "yellow":
            return pgettext("star", "the yellow star")
        case "blue":
            return pgettext("star", "the blue star")
        case "red":
            return pgettext("star", "the red star")
    return pgettext("star", "the centre star")


def tiles(count: int, name: str | None = None) -> str:
    """ "3 tiles", or of one colour, "3 blue tiles"."""
    if name is None:
        return ngettext("%(count)s tile", "%(count)s tiles", count) % {"count": count}
    # Translators: a number of tiles of one colour; %(colour)s is a colour adjective
    # already agreeing with the number.
    return ngettext("%(count)s %(colour)s tile", "%(count)s %(colour)s tiles", count) % {
        "count": count,
        "colour": colour(name, count),
    }


def points(number: int) -> str:
    """ "3 points", "-2 points" (the plural form chosen by the number's size)."""
    return ngettext("%(points)s point", "%(points)s points", abs(number)) % {"points": number}


def listing(items: list[str]) -> str:
    """Items as a list in words: "a", "a and b", "a, b and c"."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    # Translators: the end of a list of things, "2 blue tiles and 1 red tile".
    last = gettext("%(items)s and %(last)s")
    # Translators: the separator between the first items of a list, "a, b and c".
    separator = pgettext("list separator", ", ")
    return last % {"items": separator.join(items[:-1]), "last": items[-1]}
