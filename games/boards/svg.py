"""Small builders of SVG markup shared by the boards. Every text goes through ``escape``."""

import re
from collections.abc import Callable
from functools import cache, lru_cache, wraps
from html import escape

from django.utils.translation import get_language

from games.boards import words
from games.boards.words import gettext, ngettext

_UNSAFE = re.compile(r"[&<>\"']")


def kept(piece: Callable[..., str]) -> Callable[..., str]:
    """``piece``, a part of a board drawn from its (hashable) arguments in the active
    language, kept per process and language: a board repeats its parts from one position
    to the next (a star, a square of a garden, a wall space), and drawing them anew was
    most of a board's cost (issue 33: a turn email draws every board)."""

    @lru_cache(maxsize=4096)
    def in_language(language: str, *args):
        return piece(*args)

    @wraps(piece)
    def drawn(*args) -> str:
        return in_language(get_language(), *args)

    return drawn


def attrs(**values) -> str:
    """``key="value"`` pairs; underscores become dashes, ``None`` values are left out."""
    return "".join(
        f' {_attribute(key)}="{_escaped(str(value))}"'
        for key, value in values.items()
        if value is not None
    )


@cache
def _attribute(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _escaped(value: str) -> str:
    """``value`` escaped for an attribute; most values (numbers, colours) need nothing,
    and a search costs less than the escaping (a board writes thousands of them)."""
    return escape(value) if _UNSAFE.search(value) else value


def element(name: str, body: str = "", **values) -> str:
    if body:
        return f"<{name}{attrs(**values)}>{body}</{name}>"
    return f"<{name}{attrs(**values)}/>"


def text(x: float, y: float, content: str, **values) -> str:
    return element("text", escape(content), x=_n(x), y=_n(y), **values)


# A sans-serif letter's average width, as a share of the font's size (DejaVu Sans, the
# boards' font, is among the wider ones).
LETTER_WIDTH = 0.56


def wrapped_text(
    x: float, middle: float, content: str, width: float, size: float, lines: int = 3, **values
) -> str:
    """``content`` as text lines that fit ``width`` (an SVG text does not wrap): broken
    between words, at most ``lines`` lines centred on ``middle``, the font made smaller
    where a word or the last line would not fit (long words of some languages)."""
    letter = LETTER_WIDTH * (1.12 if values.get("font_weight") in ("700", "bold") else 1)
    found: list[str] = []
    for word in content.split():
        if found and len(found[-1]) + 1 + len(word) <= width / (size * letter):
            found[-1] += " " + word
        else:
            found.append(word)
    if len(found) > lines:
        found = [" ".join(found[: len(found) - lines + 1]), *found[len(found) - lines + 1 :]]
    size = min(size, width / (max(map(len, found)) * letter))
    top = middle - (len(found) - 1) * size * 0.55 + size * 0.35
    return "".join(
        text(x, top + index * size * 1.1, line, font_size=_n(size), **values)
        for index, line in enumerate(found)
    )


def group(*children: str, **values) -> str:
    return element("g", "".join(children), **values)


def document(width: float, height: float, *children: str, label: str, **values) -> str:
    """A whole picture that scales to its container (phones included)."""
    return element(
        "svg",
        element("title", escape(label)) + "".join(children),
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {_n(width)} {_n(height)}",
        role="img",
        aria_label=label,
        **values,
    )


def polygon(points, **values) -> str:
    return element("polygon", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in points), **values)


@lru_cache(maxsize=8192)
def tile(
    x, y, size, fill, letter, *, ink="#fff", pick=None, title=None, count=None, rx=None, hit=None
):
    """A square tile centred on (x, y): its colour, and its letter for colour-blind players;
    ``count`` writes a small number for a stack; ``hit`` makes it a target of that size (a
    square, transparent, centred on it) larger than its drawing. Kept per process (its
    words come in its arguments, already said in the reader's language)."""
    half = size / 2
    parts = [
        element(
            "rect",
            x=_n(x - half),
            y=_n(y - half),
            width=_n(size),
            height=_n(size),
            rx=_n(rx if rx is not None else size * 0.14),
            fill=fill,
            class_="tile-face",
        ),
        element(
            "rect",
            x=_n(x - half + size * 0.1),
            y=_n(y - half + size * 0.1),
            width=_n(size * 0.8),
            height=_n(size * 0.8),
            rx=_n(size * 0.1),
            fill="none",
            stroke="rgba(255,255,255,.45)",
            stroke_width=_n(size * 0.04),
        ),
        text(
            x,
            y + size * 0.17,
            letter,
            fill=ink,
            font_size=_n(size * 0.5),
            font_weight="700",
            text_anchor="middle",
        ),
    ]
    if count and count > 1:
        parts.append(badge(x + half * 0.85, y - half * 0.85, str(count), size * 0.26))
    if hit:
        parts.insert(0, hit_area(x - hit / 2, y - hit / 2, hit, hit))
    if title:
        parts.insert(0, element("title", escape(title)))
    return group(*parts, class_="tile", data_pick=pick)


def hit_area(x, y, width, height, **values) -> str:
    """A transparent rectangle that a tap or a click hits: a target larger than what is
    drawn in it (on a phone every target is at least 44 px on each side)."""
    return element(
        "rect",
        x=_n(x),
        y=_n(y),
        width=_n(width),
        height=_n(height),
        fill="transparent",
        class_="hit",
        **values,
    )


def badge(x, y, content: str, radius: float) -> str:
    return group(
        element("circle", cx=_n(x), cy=_n(y), r=_n(radius), fill="#1d1d1d", stroke="#fff"),
        text(
            x,
            y + radius * 0.38,
            content,
            fill="#fff",
            font_size=_n(radius * 1.1),
            font_weight="700",
            text_anchor="middle",
        ),
        class_="badge",
    )


def _n(value: float) -> str:
    """Numbers with at most one decimal: small, stable markup."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


class Palette:
    """A game's tile colours: fill, letter and ink of each colour name, in rulebook order."""

    def __init__(self, colours: dict[str, tuple[str, str, str]]) -> None:
        self.colours = colours

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.colours)

    def tile(self, name: str, x, y, size, **values) -> str:
        fill, letter, ink = self.colours[name]
        return tile(x, y, size, fill, letter, ink=ink, **values)

    def fill(self, name: str) -> str:
        return self.colours[name][0]

    def letter(self, name: str) -> str:
        return self.colours[name][1]

    def ink(self, name: str) -> str:
        return self.colours[name][2]


def factory(x, y, number: int, names: list[str], palette: Palette, *, picks: bool) -> str:
    """A factory display: a round plate with up to four tiles, numbered from 1."""
    source = f"src:f{number}"
    parts = [
        element("circle", cx=x, cy=y, r=46, fill="#f7ecd7", stroke="#b08a4f", stroke_width=3),
        element("circle", cx=x, cy=y, r=38, fill="none", stroke="#d9c29a", stroke_dasharray="4 3"),
        text(x, y + 64, str(number + 1), font_size=13, text_anchor="middle", fill="#5a4526"),
    ]
    for place, name in enumerate(names):
        dx, dy = (-17 if place % 2 == 0 else 17), (-17 if place < 2 else 17)
        parts.append(
            palette.tile(
                name,
                x + dx,
                y + dy,
                30,
                pick=f"{source} col:{name}" if picks else None,
                # The tiles' centres are 34 apart: a target of 34 meets its neighbours and
                # is 25.5 px where a factory is drawn 3/4 size (a 1280 px screen), at least
                # WCAG 2.2's 24 px.
                hit=34,
                # Translators: %(colour)s is a colour adjective (one tile).
                title=gettext("%(colour)s tile on factory display %(number)s")
                % {"colour": words.colour(name), "number": number + 1},
            )
        )
    return group(*parts, class_="factory", data_pick=source if picks else None, data_spot=source)


def factories(top: float, width: float, displays: list[list[str]], palette, *, picks) -> str:
    """Every factory display, five to a row; the picture's next free y is ``top`` plus
    ``factories_height(len(displays))``."""
    per_row = 5
    parts = []
    for number, names in enumerate(displays):
        row, column = divmod(number, per_row)
        in_row = min(per_row, len(displays) - row * per_row)
        x = width / 2 + (column - (in_row - 1) / 2) * 112
        parts.append(factory(x, top + 56 + row * 106, number, names, palette, picks=picks))
    return group(*parts, class_="factories")


def factories_height(count: int) -> float:
    return -(-count // 5) * 106 + 30


def centre(top, width, counts: dict[str, int], palette, *, token: bool, picks: bool) -> str:
    """The centre of the table: tiles grouped by colour with their number, and the start
    player token (first player marker) while it lies there."""
    parts = [
        element(
            "rect",
            x=20,
            y=top,
            width=width - 40,
            height=96,
            rx=48,
            fill="#efe2c9",
            stroke="#b08a4f",
            stroke_width=2,
        ),
        text(44, top + 20, gettext("Centre"), font_size=13, fill="#5a4526", font_weight="700"),
    ]
    parts += tile_groups(
        80,
        top + 54,
        counts,
        palette,
        size=36,
        step=56,
        pick="src:c col:{}" if picks else None,
        title=_in_the_centre,
    )
    if token:
        parts.append(start_token(width - 80, top + 50, 40))
    return group(*parts, class_="centre", data_pick="src:c" if picks else None, data_spot="src:c")


def _in_the_centre(name: str, count: int) -> str:
    return ngettext(
        # Translators: %(colour)s is a colour adjective agreeing with the number.
        "%(count)s %(colour)s tile in the centre",
        "%(count)s %(colour)s tiles in the centre",
        count,
    ) % {"count": count, "colour": words.colour(name, count)}


def start_token(x, y, size) -> str:
    half = size / 2
    return group(
        element("title", gettext("first player marker")),
        element(
            "rect",
            x=x - half,
            y=y - half,
            width=size,
            height=size,
            rx=6,
            fill="#fff",
            stroke="#333",
        ),
        text(
            x, y + size * 0.18, "1", font_size=size * 0.55, font_weight="700", text_anchor="middle"
        ),
        class_="start-token",
    )


def tile_groups(
    x,
    y,
    counts: dict,
    palette: Palette,
    *,
    size,
    step,
    pick,
    title: Callable[[str, int], str],
    hit=None,
) -> list[str]:
    """Tiles grouped by colour in a row from (x, y), each group one tile with its number;
    ``pick`` formats each group's ``data-pick`` with the colour name (``None``: no picks);
    ``title(name, count)`` says the group in words; ``hit`` is each group's target size."""
    parts = []
    for name in palette.names:
        count = counts.get(name, 0)
        if count:
            parts.append(
                palette.tile(
                    name,
                    x,
                    y,
                    size,
                    count=count,
                    pick=pick.format(name, name) if pick else None,
                    title=title(name, count),
                    hit=hit if pick else None,
                )
            )
            x += step
    return parts


def slot(x, y, size, fill, stroke, rx=4) -> str:
    """An empty printed space centred on (x, y), where a tile can lie."""
    half = size / 2
    return element(
        "rect", x=x - half, y=y - half, width=size, height=size, rx=rx, fill=fill, stroke=stroke
    )
