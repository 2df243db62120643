"""The inflected forms of the colour words that the games' tables share (Spanish and
Portuguese adjectives agree in gender and number, Polish ones in case too)."""

DROP = ""
"""The target of the words a sentence puts around the notation's words: they are dropped."""


def polish(stem: str, soft: bool = False) -> tuple[str, ...]:
    """The forms of a Polish adjective of colour (niebieski, niebieskie, niebieskich…)."""
    endings = (
        ("i", "a", "ie", "ich", "ą", "iej", "im", "imi", "iego")
        if soft
        else ("y", "a", "e", "ych", "ą", "ej", "ym", "ymi", "ego")
    )
    return tuple(stem + ending for ending in endings)


def spanish(masculine: str) -> tuple[str, ...]:
    """amarillo, amarilla, amarillos, amarillas."""
    stem = masculine[:-1]
    return (masculine, stem + "a", masculine + "s", stem + "as")


portuguese = spanish  # amarelo, amarela, amarelos, amarelas
