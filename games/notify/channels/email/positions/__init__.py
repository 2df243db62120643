"""The plain-text picture of a position in the emails, in the reader's language.

The engines speak no language (``docs/engines.md``): this door turns a game's state into
lines of at most 78 columns, every label and sentence through gettext, the tile letters and
the notation as players type them. Call it inside the reader's activated language
(``games.i18n.speaking_to``). Each game's picture is the module its registry entry names
(``GameType.position``, e.g. ``games.notify.channels.email.positions.azul``), with
``position_text(state)`` (the registry's ``PositionText`` protocol)."""

from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from games import registry


@cache
def picture_of(slug: str) -> ModuleType:
    """The position module of the registered game ``slug``; ``KeyError`` for an unknown one."""
    return import_module(registry.game_type(slug).position)


def position_text(game_type: str, state: Any) -> str:
    """The position of a game of ``game_type`` (a registry slug) as plain text in the
    active language; ``KeyError`` for an unregistered game."""
    return picture_of(game_type).position_text(state)


__all__ = ["picture_of", "position_text"]
