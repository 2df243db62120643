"""Boards drawn as SVG on the server, and the clicks that make a move.

Each game has one module here named after its registry slug (``summer-pavilion`` ->
``games.boards.summer_pavilion``), exposing:

- ``table_svg(view, *, picks)``: what lies between the players (factories, centre, supply,
  displayed tiles);
- ``player_svg(view, seat, *, picks)``: one seat's board;
- ``facts(view)``: (label, value) pairs for the page's header (round, wild colour…);
- ``steps(command, view)``: a legal command (its ``encode_command`` form) as the clicks
  that choose it, ``[(pick, label), …]``, and the picks to preview once it is chosen;
- ``notes(view)``: ``(template, context)`` shown under the boards, or ``None``.

A click path is a list of picks; a board element carries ``data-pick`` with the pick(s)
it makes (several in a row separated by spaces, alternatives by ``|``). The page's script
offers only the picks that lead to a legal command, so a new game plugs in with a registry
entry plus its module here.
"""

from importlib import import_module
from types import ModuleType

from django.utils.translation import pgettext_lazy

from games.registry import game_type

# The games' names as players read them (the registry stays free of Django): the
# published editions have their own names in each language.
TITLES = {
    "summer-pavilion": pgettext_lazy("game title", "Azul: Summer Pavilion"),
    "azul": pgettext_lazy("game title", "Azul"),
    "miyabi": pgettext_lazy("game title", "Miyabi"),
}
# The board and wall sides of the games' options, as players read them (the rules
# reference spells "colored").
SIDES = {
    "colored": pgettext_lazy("board side", "coloured"),
    "coloured": pgettext_lazy("board side", "coloured"),
    "grey": pgettext_lazy("board side", "grey"),
}


def title_of(slug: str) -> str:
    """A game's name in the reader's language."""
    return str(TITLES.get(slug) or game_type(slug).title)


def side_name(value: str) -> str:
    """A board or wall side in the reader's language."""
    return str(SIDES.get(value, value))


def board_of(slug: str) -> ModuleType:
    """The board module of the registered game ``slug``."""
    return import_module(f"{__name__}.{game_type(slug).slug.replace('-', '_')}")


def clickable_moves(slug: str, legal_moves: list[dict], view: dict) -> list[dict]:
    """The legal moves (``selectors.legal_moves_of``) with the clicks that choose them."""
    board = board_of(slug)
    moves = []
    for legal in legal_moves:
        steps, preview = board.steps(legal["command"], view)
        moves.append(
            {
                "move": legal["move"],
                "steps": [[pick, label] for pick, label in steps],
                "preview": list(preview),
            }
        )
    return moves


def for_the_page(moves: list[dict]) -> dict:
    """``clickable_moves`` as the game page's script reads them: every step's words once,
    in ``labels``, and each step as its pick and the index of its words there. A
    position's moves share most of their steps, so each sentence would otherwise be sent
    once per move (half the weight of a Summer Pavilion page's list)."""
    labels: dict[str, int] = {}
    packed = []
    for move in moves:
        steps = [[pick, labels.setdefault(label, len(labels))] for pick, label in move["steps"]]
        packed.append({"move": move["move"], "steps": steps, "preview": move["preview"]})
    return {"labels": list(labels), "moves": packed}
