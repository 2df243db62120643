"""The games the site offers, each registered once: one ``GameType`` names every part of a
game, like python-chess's ``variant.py`` gives each variant one class naming all it is.

A game is its engine package under ``games/rules/`` plus a few modules in the layers that
speak to people or play it (the board, its position in words, its words in an email reply,
its computer player, its refusals' sentences). The registry names those modules by dotted
path, as healthchecks registers its transports, because it must stay pure (standard library
only: the import-linter purity contract) while most of them use Django. Each layer finds a
game's module through its entry here (``importlib``, cached) and keeps its own lookup:
``games.boards.board_of``, ``games.notify.channels.email.positions.position_text``,
``games.notify.channels.email.words.words_of``, ``games.bots.knowledge_for``,
``games.refusals.refusals_of``.

Every part follows one small protocol below (``Engine``: the decider contract of
``docs/engines.md``; ``Board``, ``PositionText``, ``ReplyWords``, ``BotKnowledge``,
``Refusals``), and ``PARTS`` maps each ``GameType`` field to its protocol. ``manage.py
check`` and ``tests/games/test_game_registration.py`` name any piece a registered game
lacks."""

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from games.rules import azul, miyabi, summer_pavilion


@dataclass(frozen=True)
class GameType:
    """A game the site offers: how people call it, its engine, and where its parts live."""

    slug: str
    title: str
    engine: ModuleType
    # Its events are stored as ``<namespace>.<EventName>`` (``azul.TilesTaken``).
    namespace: str
    board: str
    """The pages' and the HTML email's SVG board: a ``Board`` module."""
    position: str
    """The turn email's position as plain text: a ``PositionText`` module."""
    words: str
    """Its words in the players' languages for an emailed move: a ``ReplyWords`` module."""
    bot: str
    """What the computer players know of it: a ``BotKnowledge`` module."""
    refusals: str
    """Its engine's refusals as sentences: a ``Refusals`` module."""


class Engine(Protocol):
    """``games.rules.<game>``: the decider contract, standard library only; each name is
    described in ``docs/engines.md`` and checked by ``tests/rules/test_contract.py``."""

    NAME: str
    """The game's slug, the registry's ``slug``."""
    PLAYERS: range
    OPTIONS: dict[str, tuple]

    def start(self, players: int, options: dict, rng: Any) -> list: ...
    def evolve(self, state: Any, event: Any) -> Any: ...
    def replay(self, events: list) -> Any: ...
    def decide(self, state: Any, command: Any, rng: Any) -> list: ...
    def decide_and_evolve(self, state: Any, command: Any, rng: Any) -> tuple: ...
    def legal_commands(self, state: Any) -> list: ...
    def to_move(self, state: Any) -> int | None: ...
    def is_over(self, state: Any) -> bool: ...
    def outcome(self, state: Any, seats: Any = None) -> Any: ...
    def scores(self, state: Any) -> tuple[int, ...]: ...
    def parse(self, text: str) -> Any: ...
    def format(self, command: Any) -> str: ...
    def encode(self, event: Any) -> dict: ...
    def decode(self, data: dict) -> Any: ...
    def encode_command(self, command: Any) -> dict: ...
    def decode_command(self, data: dict) -> Any: ...
    def is_barrier(self, event: Any) -> bool: ...
    def default_command(self, state: Any) -> Any: ...
    def view(self, state: Any, seat: int | None = None) -> dict: ...


class Board(Protocol):
    """``games.boards.<game>``: the game drawn as SVG and the clicks that make a move
    (``games.boards``'s docstring says how picks work)."""

    TITLE: Any
    """The game's name on the pages, lazily translated (``pgettext_lazy("game title", …)``)."""

    def table_svg(self, view: dict, *, picks: bool) -> str:
        """What lies between the players (factories, centre, supply, displayed tiles)."""

    def player_svg(self, view: dict, seat: int, *, picks: bool) -> str:
        """One seat's board."""

    def facts(self, view: dict, names: list[str]) -> list[tuple[str, str]]:
        """(label, value) pairs for the page's header (round, wild colour…)."""

    def steps(self, command: dict, view: dict) -> tuple[list[tuple[str, str]], list[str]]:
        """A legal command (its ``encode_command`` form) as the clicks that choose it, and
        the picks to preview once it is chosen."""

    def notes(self, view: dict) -> tuple[str, dict] | None:
        """``(template, context)`` shown under the boards, or ``None``."""

    def describe(self, events: list, player: str) -> str:
        """A move's events as a sentence of the move list ("Alice took 3 blue tiles…")."""

    def breakdown(self, events: list, seats: int) -> list[tuple[str, list[int]]]:
        """The final score's parts, each a label and every seat's points."""


class PositionText(Protocol):
    """``games.notify.channels.email.positions.<game>``: the turn email's plain-text position."""

    def position_text(self, state: Any) -> str:
        """The state in lines of at most 78 columns, labels in the active language."""


class ReplyWords(Protocol):
    """``games.notify.channels.email.words.<game>``: how an emailed reply in the players'
    languages reads as the notation (``games.notify.channels.email.words``'s docstring)."""

    NAME: Any
    """The game's name in its emails, lazily translated (``pgettext_lazy("game name", …)``)."""
    WORDS: dict[str, dict[str, tuple[str, ...]]]
    """By language: the notation's word -> the language's words for it ("" drops them)."""
    EXAMPLES: dict[str, str]
    """By language: a move written in its words, which ``neutral`` makes legal notation."""
    ENGLISH: dict[str, str]
    """The words the notation reads already, and what each means (a ``WORDS`` target)."""

    def in_order(self, text: str) -> str:
        """The translated words in the notation's order."""


class BotKnowledge(Protocol):
    """``games.bots.<game>``: the search's knowledge of the game (``games.bots.knowledge``)."""

    KNOWLEDGE: Any
    """A ``games.bots.knowledge.Knowledge`` with the game's engine."""


class Refusals(Protocol):
    """``games.refusals.<game>``: the sentences of the codes only this engine raises."""

    COLOURS: tuple[str, ...]
    """The colour names (``games.refusals.colour_name``'s) by the engine's colour index."""
    SENTENCES: dict[str, Any]
    """Code -> ``gettext_lazy`` sentence with named placeholders."""

    def said(self, params: dict[str, Any]) -> dict[str, Any]:
        """The params only this game has (stars, garden objects…) in words, in the active
        language; ``{}`` when it has none."""


PARTS: dict[str, type] = {
    "engine": Engine,
    "board": Board,
    "position": PositionText,
    "words": ReplyWords,
    "bot": BotKnowledge,
    "refusals": Refusals,
}
"""Each ``GameType`` field that is or names a module, and the protocol that module
follows."""


def required_names(protocol: type) -> tuple[str, ...]:
    """The names a module following ``protocol`` must define, in the protocol's order."""
    names = list(vars(protocol).get("__annotations__", {}))
    names += [name for name, value in vars(protocol).items() if callable(value)]
    return tuple(name for name in names if not name.startswith("_"))


GAME_TYPES = {
    game.slug: game
    for game in (
        GameType(
            slug="summer-pavilion",
            title="Azul: Summer Pavilion",
            engine=summer_pavilion,
            namespace="summer_pavilion",
            board="games.boards.summer_pavilion",
            position="games.notify.channels.email.positions.summer_pavilion",
            words="games.notify.channels.email.words.summer_pavilion",
            bot="games.bots.summer_pavilion",
            refusals="games.refusals.summer_pavilion",
        ),
        GameType(
            slug="azul",
            title="Azul",
            engine=azul,
            namespace="azul",
            board="games.boards.azul",
            position="games.notify.channels.email.positions.azul",
            words="games.notify.channels.email.words.azul",
            bot="games.bots.azul",
            refusals="games.refusals.azul",
        ),
        GameType(
            slug="miyabi",
            title="Miyabi",
            engine=miyabi,
            namespace="miyabi",
            board="games.boards.miyabi",
            position="games.notify.channels.email.positions.miyabi",
            words="games.notify.channels.email.words.miyabi",
            bot="games.bots.miyabi",
            refusals="games.refusals.miyabi",
        ),
    )
}


def game_type(slug: str) -> GameType:
    """The registered game called ``slug``; ``KeyError`` for an unknown one."""
    return GAME_TYPES[slug]
