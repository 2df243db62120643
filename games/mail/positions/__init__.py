"""The plain-text picture of a position in the emails, in the reader's language.

The engines speak no language (``docs/engines.md``): this door turns a game's state into
lines of at most 78 columns, every label and sentence through gettext, the tile letters
and the notation as players type them. Call it inside the reader's activated language
(``games.i18n.speaking_to``)."""

from collections.abc import Callable
from typing import Any

from games.mail.positions import azul, miyabi, summer_pavilion

RENDERERS: dict[str, Callable[[Any], str]] = {
    "azul": azul.position_text,
    "summer-pavilion": summer_pavilion.position_text,
    "miyabi": miyabi.position_text,
}
"""Each game's picture, by its registry slug (``games.registry.GAME_TYPES``)."""


def position_text(game_type: str, state: Any) -> str:
    """The position of a game of ``game_type`` (a registry slug) as plain text in the
    active language; ``KeyError`` for a game without a picture."""
    return RENDERERS[game_type](state)


__all__ = ["RENDERERS", "position_text"]
