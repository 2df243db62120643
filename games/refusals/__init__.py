"""The rules engines' refusals in the reader's language.

Engines speak no language (``docs/engines.md``): an ``IllegalMove`` or ``InvalidNotation``
carries a stable ``code`` and its facts as ``params`` (numbers, colour indexes, source
indexes, the accepted range…). This module is the one table from code to sentence; the
doors (services, API, pages, emails) call ``rules_error_text`` inside the reader's
activated language. Params that are game objects are said in words first, with the
rulebooks' terms: a colour index becomes "blue", a source "factory display 3" or "the
centre", a star "the purple star"…"""

from collections.abc import Callable, Iterable
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy, pgettext

from games.registry import GAME_TYPES
from games.rules.common import InvalidNotation, RulesError


@cache
def refusals_of(slug: str) -> ModuleType:
    """The refusals module of the registered game ``slug`` (``GameType.refusals``, the
    registry's ``Refusals`` protocol); ``KeyError`` for an unknown one."""
    return import_module(GAME_TYPES[slug].refusals)


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
    """A colour index of ``game`` in words (by its refusals module's ``COLOURS``);
    anything else as it was given."""
    names = refusals_of(game).COLOURS if game in GAME_TYPES else ()
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
    language (the game's own, such as stars and garden objects, by its refusals module's
    ``said``), indexes counted from 1, numbers kept as numbers (plurals choose by them)."""
    said = dict(params)
    for name, value in params.items():
        match name:
            case "colour" | "wild" | "held_colour":
                said[name] = colour_name(game, value)
            case "accepted":
                said[name] = _listed(value, lambda c: colour_name(game, c))
            case "source":
                said[name] = source_name(value)
            case "factory" | "line" | "row" | "column" | "own_row" | "seat":
                said[name] = _counted_from_one(value)
            case "levels":
                said[name] = _listed(value, last="and")
            case "unknown" | "known" | "values":
                said[name] = _listed(value, last="and" if name != "values" else "or")
            case "game":
                said[name] = _game_title(value)
            case "value" | "players" if not isinstance(value, int):
                said[name] = repr(value)
    if game in GAME_TYPES:
        said.update(refusals_of(game).said(params))
    return said


# The codes every engine may raise, with their sentences; each game's own are its refusals
# module's ``SENTENCES``. Sentences name their params (``%(name)s``); a plural sentence
# chooses its form by the param named in ``ngettext_lazy``'s third argument. The notation's
# own words ("F3 blue 4", "pass", "wall 2"…) are quoted as typed and stay as they are in
# every language.
SHARED_ERRORS: dict[str, Promise] = {
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
}


def _every_sentence() -> dict[str, Promise]:
    """The shared sentences and every registered game's; a code has one sentence only."""
    sentences = dict(SHARED_ERRORS)
    for slug in GAME_TYPES:
        for code, sentence in refusals_of(slug).SENTENCES.items():
            if code in sentences:
                raise ValueError(f"{slug}: the refusal {code!r} already has a sentence")
            sentences[code] = sentence
    return sentences


RULES_ERRORS = _every_sentence()
"""Every code an engine raises, with its sentence."""


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
