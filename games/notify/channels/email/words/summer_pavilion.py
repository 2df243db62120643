"""Azul: Summer Pavilion's words in an emailed reply: the notation is letters ("y3",
"bb6+2", "pass ggr"); a colour word becomes its letter and the centre "c", so "amarillo de
la fábrica 3" reads "y3" and "azul en la estrella azul, espacio 6" reads "bb6"."""

from django.utils.translation import pgettext_lazy

from games.notify.channels.email.words.inflection import DROP, polish, portuguese, spanish
from games.rules.summer_pavilion import notation
from games.rules.summer_pavilion.board import COLOUR_LETTERS, COLOURS

# The game's name in its emails, as the publishers' books in each language call it.
NAME = pgettext_lazy("game name", "Azul: Summer Pavilion")

_SP = {name: letter for name, letter in zip(COLOURS, COLOUR_LETTERS, strict=True)}
WORDS = {
    "es": {
        _SP["purple"]: ("púrpura", "púrpuras", *spanish("morado"), "pur", "mor"),
        _SP["green"]: ("verde", "verdes", "ver"),
        _SP["orange"]: ("naranja", "naranjas", "nar"),
        _SP["yellow"]: (*spanish("amarillo"), "ama"),
        _SP["blue"]: ("azul", "azules", "azu"),
        _SP["red"]: (*spanish("rojo"), "roj"),
        notation.CENTRE_LETTER: ("centro",),
        "pass": ("paso", "pasar", "pasa"),
        "bonus": ("bonificación", "bonificaciones", "bono", "bonus"),
        # Not "y" (and): the notation reads "y" as yellow.
        DROP: (
            *("de", "del", "la", "el", "los", "las", "al", "en", "fábrica", "estrella"),
            *("espacio", "casilla", "comodín", "comodines", "fichas", "me", "quedo"),
        ),
    },
    "pt": {
        _SP["purple"]: (*portuguese("roxo"), "púrpura", "rox"),
        _SP["green"]: ("verde", "verdes", "verd"),
        _SP["orange"]: ("laranja", "laranjas", "lar"),
        _SP["yellow"]: (*portuguese("amarelo"), "ama"),
        _SP["blue"]: ("azul", "azuis", "azu"),
        _SP["red"]: (*portuguese("vermelho"), "verm"),
        notation.CENTRE_LETTER: ("centro",),
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
        _SP["purple"]: (*polish("fioletow"), "fiolet", "fio"),
        _SP["green"]: (*polish("zielon"), "zie"),
        _SP["orange"]: (*polish("pomarańczow"), "pom"),
        _SP["yellow"]: (*polish("żółt"), "zol"),
        _SP["blue"]: (*polish("niebiesk", soft=True), "nieb"),
        _SP["red"]: (*polish("czerwon"), "czer"),
        notation.CENTRE_LETTER: ("środek", "środka", "środku"),
        "pass": ("pas", "pasuję", "spasuj", "spasować", "pasować"),
        "bonus": ("premia", "premię", "premii"),
        DROP: (
            *("z", "ze", "do", "na", "w", "warsztat", "warsztatu", "gwiazda", "gwiazdę"),
            *("gwiazdy", "gwiazdzie", "pole", "polu", "płytki", "płytek", "zostawiam"),
            *("zatrzymuję", "atutowe", "atutowych"),
        ),
    },
}
EXAMPLES = {
    "es": "amarillo de la fábrica 3",
    "pt": "passar verde verde",
    "pl": "żółte z warsztatu 3",
}

# What the English notation reads already: a word of a language that means something else
# there would be ambiguous.
ENGLISH = {
    **{letter: letter for letter in COLOUR_LETTERS},
    **_SP,
    notation.CENTRE_LETTER: notation.CENTRE_LETTER,
    "pass": "pass",
    "bonus": "bonus",
}


def in_order(text: str) -> str:
    """The notation reads the words in the order players write them."""
    return text
