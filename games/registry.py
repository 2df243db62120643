"""The games the site offers. Adding a game is one entry here (plus its board templates):
the service, API, pages and emails reach a game only through the decider contract of
``docs/engines.md``."""

from dataclasses import dataclass
from types import ModuleType

from games.rules import azul, miyabi, summer_pavilion


@dataclass(frozen=True)
class GameType:
    """A game the site offers: its engine and how people call it."""

    slug: str
    title: str
    engine: ModuleType
    # Its events are stored as ``<namespace>.<EventName>`` (``azul.TilesTaken``).
    namespace: str


GAME_TYPES = {
    game.slug: game
    for game in (
        GameType("summer-pavilion", "Azul: Summer Pavilion", summer_pavilion, "summer_pavilion"),
        GameType("azul", "Azul", azul, "azul"),
        GameType("miyabi", "Miyabi", miyabi, "miyabi"),
    )
}


def game_type(slug: str) -> GameType:
    """The registered game called ``slug``; ``KeyError`` for an unknown one."""
    return GAME_TYPES[slug]
