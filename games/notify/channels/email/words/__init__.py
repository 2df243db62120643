"""The words of the players' languages in an email reply: a Spanish, Portuguese or Polish
player may write "azul de la fábrica 2 a la línea 3", "vermelho do centro para o chão" or
"pasuję" where the notation has words (colours, factory, centre, line, floor, wall, pass,
bonus…). Before the engine's ``parse``, ``neutral(game, language, text)`` turns those words
into the language-neutral notation: lower-case, accents ignored ("linea" is "línea",
"zolty" is "żółty"), whole words only, the English words of the notation always accepted
too. Filler words ("de", "la", "do", "z"…) are dropped.

These tables are input vocabulary of the mail door, not texts the site writes: they are
data, never gettext. ``docs/notation.md`` shows them, one table per game and language.
No word means two things in one game and language (checked when this module loads, and by
``tests/mail/test_words.py``): a word that the notation already reads (a colour letter such
as Azul's ``w`` for white, Summer Pavilion's ``o`` for orange, Spanish "y" = and = yellow) is
never a filler. The words follow the glossary's proposal (``docs/translation.md`` §6), with
more inflected forms and filler words so that a whole sentence reads.

Each game's words are the module its registry entry names (``GameType.words``, e.g.
``games.notify.channels.email.words.azul``), following the registry's ``ReplyWords``
protocol: ``NAME`` (the game's name in its emails, the one text of these modules said
through gettext), ``WORDS`` and ``EXAMPLES`` by language, ``ENGLISH`` (what the notation
reads already) and ``in_order`` (the notation's order of the words)."""

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType

from games.notify.channels.email.words.inflection import DROP
from games.registry import GAME_TYPES

LANGUAGES = ("es", "pt", "pl")


@cache
def words_of(slug: str) -> ModuleType:
    """The words module of the registered game ``slug``; ``KeyError`` for an unknown one."""
    return import_module(GAME_TYPES[slug].words)


def game_name(slug: str) -> str:
    """A game's name in its emails, in the active language."""
    return str(words_of(slug).NAME)


_WORD = re.compile(r"(?<![\w+])[^\W\d_]+(?![\w])")


def plain(word: str) -> str:
    """A word lower-cased and without accents: "Línea" -> "linea", "Żółty" -> "zolty"."""
    decomposed = unicodedata.normalize("NFKD", word.lower().replace("ł", "l"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class AmbiguousWord(ValueError):
    """A table in which one word means two things: a programming error."""


@dataclass(frozen=True)
class Vocabulary:
    """One game's words in one language: plain word -> the notation's word ("" = drop)."""

    game: str
    language: str
    words: dict[str, str]

    def pairs(self) -> list[tuple[str, str]]:
        """The main word of each meaning and the notation's word, for a refusal's hint."""
        table = words_of(self.game).WORDS[self.language]
        return [(spelled[0], target) for target, spelled in table.items() if target != DROP]


def _vocabulary(game: str, language: str) -> Vocabulary:
    english = words_of(game).ENGLISH
    words: dict[str, str] = {}
    for target, spelled in words_of(game).WORDS[language].items():
        for word in spelled:
            key = plain(word).strip(".")
            if words.get(key, target) != target:
                raise AmbiguousWord(f"{game}/{language}: {word!r} is {words[key]!r} and {target!r}")
            if key in english and english[key] != target:
                raise AmbiguousWord(
                    f"{game}/{language}: {word!r} means {english[key]!r} in the notation"
                )
            words[key] = target
    return Vocabulary(game, language, words)


VOCABULARIES = {
    (game, language): _vocabulary(game, language)
    for game in GAME_TYPES
    for language in words_of(game).WORDS
}


def vocabulary(game: str, language: str) -> Vocabulary | None:
    """The words of ``language`` for ``game``, or None (English, or a game without words)."""
    return VOCABULARIES.get((game, (language or "")[:2]))


def example(game: str, language: str) -> str:
    """A move written in the words of ``language`` for ``game``, or "" (none)."""
    if game not in GAME_TYPES:
        return ""
    return words_of(game).EXAMPLES.get((language or "")[:2], "")


def neutral(game: str, language: str, text: str) -> str:
    """``text`` in the notation: the words of ``language`` replaced by the notation's (whole
    words, case and accents ignored), filler words dropped. Text with no word of the
    language comes back unchanged, so the notation and its English words read as ever."""
    found = vocabulary(game, language)
    if found is None:
        return text
    changed = False

    def replace(match: re.Match) -> str:
        nonlocal changed
        word = match.group(0)
        target = found.words.get(plain(word))
        if target is None:
            return word
        changed = True
        return target

    translated = _WORD.sub(replace, text)
    if not changed:
        return text
    # A comma between words ("azul, espacio 6") separates like a space.
    translated = " ".join(translated.replace(",", " ").split())
    return words_of(game).in_order(translated)
