"""Azul's words in an emailed reply: the words are mapped onto the notation's English words
(``azul.parse`` reads them), and a sentence in any order ("azul de la fábrica 2 a la línea
3") is put in the notation's order (source, colour, line) by ``in_order``."""

import re

from django.utils.translation import pgettext_lazy

from games.notify.channels.email.words.inflection import DROP, polish, portuguese, spanish
from games.rules.azul import notation

# The game's name in its emails, as the publishers' books in each language call it.
NAME = pgettext_lazy("game name", "Azul")

WORDS = {
    "es": {
        "blue": ("azul", "azules", "azu"),
        "yellow": (*spanish("amarillo"), "ama"),
        "red": (*spanish("rojo"), "roj"),
        "black": (*spanish("negro"), "neg"),
        "white": (*spanish("blanco"), "bla"),
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
        "yellow": (*portuguese("amarelo"), "ama"),
        "red": (*portuguese("vermelho"), "verm"),
        "black": (*portuguese("preto"), "pre"),
        "white": (*portuguese("branco"), "bra"),
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
        "blue": (*polish("niebiesk", soft=True), "nieb"),
        "yellow": (*polish("żółt"), "zol"),
        "red": (*polish("czerwon"), "czer"),
        "black": (*polish("czarn"), "czar"),
        "white": (*polish("biał"), "bia"),
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
EXAMPLES = {
    "es": "azul de la fábrica 2 a la línea 3",
    "pt": "vermelho do centro para o chão",
    "pl": "niebieskie z warsztatu 2 do linii 3",
}

# What the English notation reads already: a word of a language that means something else
# there would be ambiguous. Azul reads colour letters and names alike ("b", "blue"): each
# means its colour's name, which is what ``WORDS`` maps onto.
ENGLISH = {
    **{word: "factory" for word in notation.FACTORY_WORDS},
    **{word: "centre" for word in notation.CENTRE_WORDS},
    **{word: "line" for word in notation.LINE_WORDS},
    **{word: "floor" for word in notation.FLOOR_WORDS},
    **{word: colour.name.lower() for word, colour in notation.COLOUR_WORDS.items()},
    **{word: "wall" if word == "wall" else "column" for word in notation.WALL_WORDS},
}


_TOKENS = re.compile(r"[a-z]+|\d+|[^\s,]")


def in_order(text: str) -> str:
    """An Azul take written in any order ("blue factory 2 line 3") in the notation's order
    ("factory 2 blue line 3"); "line floor" (the floor line) is "floor". Anything else is
    left for ``parse`` to say what it expected."""
    tokens = _TOKENS.findall(text.lower())
    if not tokens or tokens[0] in notation.WALL_WORDS:
        return text
    source, colour, line, other = [], [], [], []
    at = 0
    while at < len(tokens):
        token = tokens[at]
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        if token in notation.FACTORY_WORDS and following.isdigit():
            source.append(f"factory {following}")
            at += 2
            continue
        if token in notation.CENTRE_WORDS:
            source.append("centre")
        elif token in notation.COLOUR_WORDS:
            colour.append(token)
        elif token in notation.FLOOR_WORDS:
            if line == ["line"]:
                line.clear()
            line.append("floor")
        elif token in notation.LINE_WORDS and following.isdigit():
            line.append(f"line {following}")
            at += 2
            continue
        elif token in notation.LINE_WORDS:
            line.append("line")
        elif token.isdigit() and not line:
            line.append(f"line {token}")
        else:
            other.append(token)
        at += 1
    if len(source) == len(colour) == len(line) == 1 and not other and line != ["line"]:
        return f"{source[0]} {colour[0]} {line[0]}"
    return text
