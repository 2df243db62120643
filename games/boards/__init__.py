"""Boards drawn as SVG on the server, and the clicks that make a move.

Each game's board is the module its registry entry names (``GameType.board``, e.g.
``games.boards.summer_pavilion``), following the registry's ``Board`` protocol: its
``TITLE``, ``table_svg``, ``player_svg``, ``facts``, ``steps``, ``notes``, ``describe`` and
``breakdown``.

A click path is a list of picks; a board element carries ``data-pick`` with the pick(s)
it makes (several in a row separated by spaces, alternatives by ``|``). The page's script
offers only the picks that lead to a legal command, so a new game plugs in with its
registry entry naming its module here.

On a phone every board target is at least 44×44 px (issue 29): a piece drawn smaller gets a
transparent hit area (``svg.hit_area``), or its group is the target (a factory, a star) and
the piece is then a button in the move bar. A group with ``data-zoom`` (a viewBox) fills
its picture on a phone once picked, so that the pieces in it are large enough to tap. A
step whose picks start with ``turn:`` turns the piece just placed: the page shows the first
way at once, and a tap again on the piece (or the Turn button) goes to the next.
"""

from functools import cache
from importlib import import_module
from types import ModuleType

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.registry import game_type

# The board and wall sides of the games' options, as players read them (the rules
# reference spells "colored").
SIDES = {
    "colored": pgettext_lazy("board side", "coloured"),
    "coloured": pgettext_lazy("board side", "coloured"),
    "grey": pgettext_lazy("board side", "grey"),
}


def title_of(slug: str) -> str:
    """A game's name in the reader's language."""
    return str(board_of(slug).TITLE)


def lazy_title(slug: str) -> Promise:
    """A game's name, said in the language active when it is read (form choices)."""
    return board_of(slug).TITLE


def side_name(value: str) -> str:
    """A board or wall side in the reader's language."""
    return str(SIDES.get(value, value))


@cache
def board_of(slug: str) -> ModuleType:
    """The board module of the registered game ``slug`` (``KeyError`` for an unknown one)."""
    return import_module(game_type(slug).board)


def clickable_moves(slug: str, legal_moves: list[dict], view: dict) -> list[dict]:
    """The legal moves (``selectors.moves.legal_moves_of``) with the clicks that choose them."""
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
    """``clickable_moves`` as the game page's script reads them: every pick (a place on
    the boards) once, in ``picks``, every step's words once, in ``labels``, and each move
    as ``[move, steps, preview]``: a step as the index of its pick and of its words, the
    preview as indices of picks. A position's moves share most of their steps, so each
    sentence would otherwise be sent once per move (half the weight of a Summer Pavilion
    page's list); the moves are lists, not objects, as their three names would be sent
    once per move too (a Miyabi page lists 100 moves and more, within 80 KB of HTML)."""
    picks: dict[str, int] = {}
    labels: dict[str, int] = {}
    packed = []
    for move in moves:
        steps = [
            [picks.setdefault(pick, len(picks)), labels.setdefault(label, len(labels))]
            for pick, label in move["steps"]
        ]
        preview = [picks.setdefault(pick, len(picks)) for pick in move["preview"]]
        packed.append([move["move"], steps, preview])
    return {"picks": list(picks), "labels": list(labels), "moves": packed}
