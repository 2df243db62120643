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
more inflected forms and filler words so that a whole sentence reads."""

import re
import unicodedata
from dataclasses import dataclass

from games.rules.azul import notation as azul
from games.rules.summer_pavilion import notation as pavilion
from games.rules.summer_pavilion.board import COLOUR_LETTERS as PAVILION_LETTERS
from games.rules.summer_pavilion.board import COLOURS as PAVILION_COLOURS

LANGUAGES = ("es", "pt", "pl")
# Dropped: what a sentence puts around the notation's words.
DROP = ""


def _polish(stem: str, soft: bool = False) -> tuple[str, ...]:
    """The forms of a Polish adjective of colour (niebieski, niebieskie, niebieskich…)."""
    endings = (
        ("i", "a", "ie", "ich", "ą", "iej", "im", "imi", "iego")
        if soft
        else ("y", "a", "e", "ych", "ą", "ej", "ym", "ymi", "ego")
    )
    return tuple(stem + ending for ending in endings)


def _spanish(masculine: str) -> tuple[str, ...]:
    """amarillo, amarilla, amarillos, amarillas."""
    stem = masculine[:-1]
    return (masculine, stem + "a", masculine + "s", stem + "as")


_portuguese = _spanish  # amarelo, amarela, amarelos, amarelas


# --- Azul: the words are mapped onto the notation's English words (``azul.parse`` reads
# them), and a sentence in any order ("azul de la fábrica 2 a la línea 3") is put in the
# notation's order (source, colour, line) by ``_azul_order``.
AZUL_WORDS = {
    "es": {
        "blue": ("azul", "azules", "azu"),
        "yellow": (*_spanish("amarillo"), "ama"),
        "red": (*_spanish("rojo"), "roj"),
        "black": (*_spanish("negro"), "neg"),
        "white": (*_spanish("blanco"), "bla"),
        "factory": ("fábrica", "fábricas", "expositor", "expositores"),
        "centre": ("centro",),
        "line": ("línea", "líneas", "fila"),
        "floor": ("suelo",),
        "wall": ("muro", "pared"),
        "column": ("columna", "col"),
        DROP: ("de", "del", "la", "el", "los", "las", "a", "al", "en", "fichas", "azulejos"),
    },
    "pt": {
        "blue": ("azul", "azuis", "azu"),
        "yellow": (*_portuguese("amarelo"), "ama"),
        "red": (*_portuguese("vermelho"), "verm"),
        "black": (*_portuguese("preto"), "pre"),
        "white": (*_portuguese("branco"), "bra"),
        "factory": ("fábrica", "fábricas", "mostruário"),
        "centre": ("centro",),
        "line": ("linha", "linhas"),
        "floor": ("chão",),
        "wall": ("parede",),
        "column": ("coluna", "col"),
        DROP: (
            *("de", "da", "do", "das", "dos", "a", "o", "as", "os"),
            *("na", "no", "em", "para", "pra", "azulejos"),
        ),
    },
    "pl": {
        "blue": (*_polish("niebiesk", soft=True), "nieb"),
        "yellow": (*_polish("żółt"), "zol"),
        "red": (*_polish("czerwon"), "czer"),
        "black": (*_polish("czarn"), "czar"),
        "white": (*_polish("biał"), "bia"),
        "factory": (
            *("warsztat", "warsztatu", "warsztacie", "warsztaty", "warsztatów"),
            *("fabryka", "fabryki", "fabryce", "fabrykę"),
        ),
        "centre": ("środek", "środka", "środku"),
        "line": ("linia", "linii", "linię", "rząd", "rzędu", "rzędzie"),
        "floor": ("podłoga", "podłogi", "podłogę", "podłodze"),
        "wall": ("ściana", "ściany", "ścianę", "ścianie", "mur", "muru"),
        "column": ("kolumna", "kolumny", "kolumnę", "kolumnie", "kol"),
        # Not "w" (in): Azul reads "w" as white.
        DROP: ("z", "ze", "do", "na", "płytki", "płytek"),
    },
}
AZUL_EXAMPLES = {
    "es": "azul de la fábrica 2 a la línea 3",
    "pt": "vermelho do centro para o chão",
    "pl": "niebieskie z warsztatu 2 do linii 3",
}

# --- Summer Pavilion: the notation is letters ("y3", "bb6+2", "pass ggr"); a colour word
# becomes its letter and the centre "c", so "amarillo de la fábrica 3" reads "y3" and
# "azul en la estrella azul, espacio 6" reads "bb6".
_SP = {name: letter for name, letter in zip(PAVILION_COLOURS, PAVILION_LETTERS, strict=True)}
PAVILION_WORDS = {
    "es": {
        _SP["purple"]: ("púrpura", "púrpuras", *_spanish("morado"), "pur", "mor"),
        _SP["green"]: ("verde", "verdes", "ver"),
        _SP["orange"]: ("naranja", "naranjas", "nar"),
        _SP["yellow"]: (*_spanish("amarillo"), "ama"),
        _SP["blue"]: ("azul", "azules", "azu"),
        _SP["red"]: (*_spanish("rojo"), "roj"),
        pavilion.CENTRE_LETTER: ("centro",),
        "pass": ("paso", "pasar", "pasa"),
        "bonus": ("bonificación", "bonificaciones", "bono", "bonus"),
        # Not "y" (and): the notation reads "y" as yellow.
        DROP: (
            *("de", "del", "la", "el", "los", "las", "al", "en", "fábrica", "estrella"),
            *("espacio", "casilla", "comodín", "comodines", "fichas", "me", "quedo"),
        ),
    },
    "pt": {
        _SP["purple"]: (*_portuguese("roxo"), "púrpura", "rox"),
        _SP["green"]: ("verde", "verdes", "verd"),
        _SP["orange"]: ("laranja", "laranjas", "lar"),
        _SP["yellow"]: (*_portuguese("amarelo"), "ama"),
        _SP["blue"]: ("azul", "azuis", "azu"),
        _SP["red"]: (*_portuguese("vermelho"), "verm"),
        pavilion.CENTRE_LETTER: ("centro",),
        "pass": ("passo", "passar", "passa"),
        "bonus": ("bônus", "bónus", "bonificação"),
        # Not "o" (the): the notation reads "o" as orange.
        DROP: (
            *("de", "da", "do", "das", "dos", "a", "as", "os", "na", "no", "em", "para"),
            *("fábrica", "estrela", "espaço", "curinga", "curingas", "azulejos", "fico"),
            *("com", "guardo"),
        ),
    },
    "pl": {
        _SP["purple"]: (*_polish("fioletow"), "fiolet", "fio"),
        _SP["green"]: (*_polish("zielon"), "zie"),
        _SP["orange"]: (*_polish("pomarańczow"), "pom"),
        _SP["yellow"]: (*_polish("żółt"), "zol"),
        _SP["blue"]: (*_polish("niebiesk", soft=True), "nieb"),
        _SP["red"]: (*_polish("czerwon"), "czer"),
        pavilion.CENTRE_LETTER: ("środek", "środka", "środku"),
        "pass": ("pas", "pasuję", "spasuj", "spasować", "pasować"),
        "bonus": ("premia", "premię", "premii"),
        DROP: (
            *("z", "ze", "do", "na", "w", "warsztat", "warsztatu", "gwiazda", "gwiazdę"),
            *("gwiazdy", "gwiazdzie", "pole", "polu", "płytki", "płytek", "zostawiam"),
            *("zatrzymuję", "atutowe", "atutowych"),
        ),
    },
}
PAVILION_EXAMPLES = {
    "es": "amarillo de la fábrica 3",
    "pt": "passar verde verde",
    "pl": "żółte z warsztatu 3",
}

# --- Miyabi: the notation's only word is "pass"; tiles and squares are letters and digits
# ("LP3 b2 r90") that no language changes.
MIYABI_WORDS = {
    "es": {"pass": ("paso", "pasar")},
    "pt": {"pass": ("passo", "passar")},
    "pl": {"pass": ("pas", "pasuję", "spasuj", "spasować")},
}
MIYABI_EXAMPLES = {"es": "paso", "pt": "passo", "pl": "pasuję"}

# What the English notation reads already, per game: a word of a language that means
# something else there would be ambiguous.
ENGLISH = {
    "azul": {
        **{word: word for word in azul.COLOUR_WORDS},
        **{word: "factory" for word in azul.FACTORY_WORDS},
        **{word: "centre" for word in azul.CENTRE_WORDS},
        **{word: "line" for word in azul.LINE_WORDS},
        **{word: "floor" for word in azul.FLOOR_WORDS},
        **{word: "wall" for word in azul.WALL_WORDS},
    },
    "summer-pavilion": {
        **{letter: letter for letter in PAVILION_LETTERS},
        **_SP,
        pavilion.CENTRE_LETTER: pavilion.CENTRE_LETTER,
        "pass": "pass",
        "bonus": "bonus",
    },
    "miyabi": {"pass": "pass"},
}
# Azul reads colour letters and names alike: compare meanings, not spellings.
_AZUL_MEANING = {word: colour.name.lower() for word, colour in azul.COLOUR_WORDS.items()}
for _word, _colour in _AZUL_MEANING.items():
    ENGLISH["azul"][_word] = _colour
for _word in azul.WALL_WORDS:
    ENGLISH["azul"][_word] = "column" if _word != "wall" else "wall"

TABLES = {"azul": AZUL_WORDS, "summer-pavilion": PAVILION_WORDS, "miyabi": MIYABI_WORDS}
EXAMPLES = {"azul": AZUL_EXAMPLES, "summer-pavilion": PAVILION_EXAMPLES, "miyabi": MIYABI_EXAMPLES}
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
        table = TABLES[self.game][self.language]
        return [(spelled[0], target) for target, spelled in table.items() if target != DROP]


def _vocabulary(game: str, language: str) -> Vocabulary:
    english = ENGLISH[game]
    words: dict[str, str] = {}
    for target, spelled in TABLES[game][language].items():
        for word in spelled:
            key = plain(word).strip(".")
            if words.get(key, target) != target:
                raise AmbiguousWord(f"{game}/{language}: {word!r} is {words[key]!r} and {target!r}")
            meaning = _AZUL_MEANING.get(target, target) if game == "azul" else target
            if key in english and english[key] != meaning:
                raise AmbiguousWord(
                    f"{game}/{language}: {word!r} means {english[key]!r} in the notation"
                )
            words[key] = target
    return Vocabulary(game, language, words)


VOCABULARIES = {
    (game, language): _vocabulary(game, language)
    for game, tables in TABLES.items()
    for language in tables
}


def vocabulary(game: str, language: str) -> Vocabulary | None:
    """The words of ``language`` for ``game``, or None (English, or a game without words)."""
    return VOCABULARIES.get((game, (language or "")[:2]))


def example(game: str, language: str) -> str:
    return EXAMPLES.get(game, {}).get((language or "")[:2], "")


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
    if game == "azul":
        return _azul_order(translated)
    return translated


_AZUL_TOKENS = re.compile(r"[a-z]+|\d+|[^\s,]")


def _azul_order(text: str) -> str:
    """An Azul take written in any order ("blue factory 2 line 3") in the notation's order
    ("factory 2 blue line 3"); "line floor" (the floor line) is "floor". Anything else is
    left for ``parse`` to say what it expected."""
    tokens = _AZUL_TOKENS.findall(text.lower())
    if not tokens or tokens[0] in azul.WALL_WORDS:
        return text
    source, colour, line, other = [], [], [], []
    at = 0
    while at < len(tokens):
        token = tokens[at]
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        if token in azul.FACTORY_WORDS and following.isdigit():
            source.append(f"factory {following}")
            at += 2
            continue
        if token in azul.CENTRE_WORDS:
            source.append("centre")
        elif token in azul.COLOUR_WORDS:
            colour.append(token)
        elif token in azul.FLOOR_WORDS:
            if line == ["line"]:
                line.clear()
            line.append("floor")
        elif token in azul.LINE_WORDS and following.isdigit():
            line.append(f"line {following}")
            at += 2
            continue
        elif token in azul.LINE_WORDS:
            line.append("line")
        elif token.isdigit() and not line:
            line.append(f"line {token}")
        else:
            other.append(token)
        at += 1
    if len(source) == len(colour) == len(line) == 1 and not other and line != ["line"]:
        return f"{source[0]} {colour[0]} {line[0]}"
    return text
