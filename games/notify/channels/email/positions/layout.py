"""What the three positions share: lines of at most 78 columns (the text part of an email,
RFC 5322 2.1.1), however long the reader's language makes a label or a sentence."""

import textwrap

from django.utils.translation import gettext, pgettext

WIDTH = 78
"""The widest line of a text email."""
HANGING = 24
"""A label wider than this does not indent the lines that continue its list (2 columns do)."""


def paragraph(text: str, indent: str = "") -> list[str]:
    """A sentence (or a few) wrapped at ``WIDTH``; words are never split, so the notation
    inside (``2P3``, ``F1``) stays whole."""
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def listing(label: str, items: list[str], separator: str) -> list[str]:
    """``label`` then ``items`` joined by ``separator``, continued on further lines (under
    the first item) where a line would pass ``WIDTH``; an item is never split."""
    indent = " " * (len(label) + 1) if len(label) < HANGING else "  "
    lines = [label]
    for number, item in enumerate(items):
        candidate = f"{lines[-1]}{separator if number else ' '}{item}"
        if number == 0 or len(candidate) + len(separator.rstrip()) <= WIDTH:
            lines[-1] = candidate
        else:
            lines[-1] += separator.rstrip()
            lines.append(indent + item)
    return [line.rstrip() for line in lines]


def separated(parts: list[str]) -> str:
    """Parts of one line, "a, b, c" (the separator of the reader's language)."""
    # The board pictures' list separator (games/boards/words.py): one msgid for both.
    return pgettext("list separator", ", ").join(parts)


def player(seat: int) -> str:
    """A seat (from 0) as people count: "player 2"."""
    # Translators: a player by seat number, in running text ("to move: player 2").
    return gettext("player %(number)s") % {"number": seat + 1}
