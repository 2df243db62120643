"""Azul (the original), a pure decider: the contract of ``docs/engines.md``.

Standard library only. Follows the Portuguese rulebook and the rules reference
(``rules/azul.md``); rulings where the rulebook is silent are listed in ``board.py``;
the notation is documented in ``docs/notation.md (Azul)``.
"""

from games.rules.azul.board import Colour
from games.rules.azul.ending import EndReason, is_dead_position
from games.rules.azul.engine import (
    NAME,
    OPTIONS,
    PLAYERS,
    decide,
    decide_and_evolve,
    decode,
    decode_command,
    encode,
    encode_command,
    evolve,
    is_barrier,
    is_over,
    outcome,
    replay,
    scores,
    start,
    to_move,
)
from games.rules.azul.model import (
    CENTRE,
    FLOOR,
    Bonus,
    Command,
    Event,
    FactoriesRefilled,
    FloorLineCleared,
    GameEnded,
    GameStarted,
    LineDropped,
    PlaceOnWall,
    State,
    TakeTiles,
    TilesTaken,
    WallTiled,
)
from games.rules.azul.moves import default_command, legal_commands
from games.rules.azul.notation import format, parse
from games.rules.azul.view import view
from games.rules.common import IllegalMove, InvalidNotation, Outcome

__all__ = [
    "CENTRE",
    "FLOOR",
    "NAME",
    "OPTIONS",
    "PLAYERS",
    "Bonus",
    "Colour",
    "Command",
    "EndReason",
    "Event",
    "FactoriesRefilled",
    "FloorLineCleared",
    "GameEnded",
    "GameStarted",
    "IllegalMove",
    "InvalidNotation",
    "LineDropped",
    "Outcome",
    "PlaceOnWall",
    "State",
    "TakeTiles",
    "TilesTaken",
    "WallTiled",
    "decide",
    "decide_and_evolve",
    "decode",
    "decode_command",
    "default_command",
    "encode",
    "encode_command",
    "evolve",
    "format",
    "is_barrier",
    "is_dead_position",
    "is_over",
    "legal_commands",
    "outcome",
    "parse",
    "replay",
    "scores",
    "start",
    "to_move",
    "view",
]
