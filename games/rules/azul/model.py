"""Azul's values: the state of the table, the commands players give and the events that
record what happened. All immutable: frozen dataclasses whose collections are tuples."""

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from games.rules.azul.board import Colour, Wall
from games.rules.azul.ending import EndReason
from games.rules.common import Codec

CENTRE = -1
"""``TakeTiles.source`` for the centre of the table; factory displays count from 0."""
FLOOR = -1
"""``TakeTiles.line`` for putting every taken tile on the floor line; pattern lines count
from 0 (the line with 1 space) to 4 (the line with 5 spaces)."""

Counts = tuple[int, ...]
"""Tiles as a multiset: how many of each colour, indexed by ``Colour``."""


class Phase(StrEnum):
    """Where the round is. ``REFILL`` is the instant after the last floor line is cleared
    and before the next round's factories are filled (or the game ends); ``decide`` never
    leaves a game there."""

    OFFER = "offer"
    TILING = "tiling"
    REFILL = "refill"
    OVER = "over"


class PatternLine(NamedTuple):
    """One pattern line: its colour (``None`` while empty) and how many tiles it holds."""

    colour: int | None
    count: int


EMPTY_LINE = PatternLine(None, 0)


@dataclass(frozen=True, slots=True)
class PlayerBoard:
    """A player's board: score track, pattern lines, wall and floor line (the tiles on it,
    left to right, and whether the first player marker lies there too)."""

    score: int
    lines: tuple[PatternLine, ...]
    wall: Wall
    floor: tuple[int, ...]
    marker: bool


Position = tuple
"""What the repeated-position ruling compares after a wall-tiling phase: every wall,
pattern line and score, the next start player, and the bag and lid counted per colour."""


@dataclass(frozen=True, slots=True)
class State:
    """The whole table. ``turn`` is the seat taking tiles (offer phase) or choosing a grey
    wall column (tiling phase); ``start_seat`` began this round; ``marker_holder`` took the
    first player marker from the centre this round, if anyone did; ``positions`` holds the
    position after each wall-tiling phase so far (the repeated-position ruling);
    ``end_reason`` says why the game ended, once it has."""

    players: int
    wall_side: str
    round: int
    phase: Phase
    turn: int
    start_seat: int
    marker_holder: int | None
    bag: Counts
    lid: Counts
    factories: tuple[Counts, ...]
    centre: Counts
    marker_in_centre: bool
    boards: tuple[PlayerBoard, ...]
    positions: tuple[Position, ...]
    end_reason: EndReason | None


@dataclass(frozen=True)
class TakeTiles:
    """Factory offer: take every tile of ``colour`` from a factory display (or the centre,
    ``CENTRE``) and put them on pattern line ``line`` (or all on the floor line, ``FLOOR``)."""

    source: int
    colour: Colour
    line: int


@dataclass(frozen=True)
class PlaceOnWall:
    """Grey wall: move the topmost complete pattern line's tile to this wall column."""

    column: int


Command = TakeTiles | PlaceOnWall


@dataclass(frozen=True)
class GameStarted:
    """The table is set: players, the wall side everyone uses, the first start player."""

    players: int
    wall: str
    start_seat: int


@dataclass(frozen=True)
class FactoriesRefilled:
    """Setup / phase C: the tiles drawn onto each factory display in order (a display may
    get fewer, or none, when bag and lid run out); ``refilled_after`` tiles had been drawn
    when the bag was refilled from the lid. The first player marker returns to the centre
    and ``first_player`` starts the round."""

    first_player: int
    factories: tuple[tuple[int, ...], ...]
    refilled_after: int | None


@dataclass(frozen=True, slots=True)
class TilesTaken:
    """Phase A: ``count`` tiles of ``colour`` taken from ``source``; ``placed`` of them went
    onto pattern line ``line``, ``floored`` onto the floor line and ``lidded`` (no floor
    space left) into the box lid; a factory's other tiles (``to_centre``) went to the
    centre; ``marker``: the taker also took the first player marker."""

    seat: int
    source: int
    colour: Colour
    count: int
    line: int
    placed: int
    floored: int
    lidded: int
    to_centre: Counts
    marker: bool


@dataclass(frozen=True, slots=True)
class WallTiled:
    """Phase B: the rightmost tile of complete pattern line ``row`` moved to the wall and
    scored ``points``; the line's other ``to_lid`` tiles went into the box lid."""

    seat: int
    row: int
    column: int
    colour: Colour
    points: int
    to_lid: int


@dataclass(frozen=True)
class LineDropped:
    """Grey wall ruling: complete pattern line ``row`` had no legal wall space, so its tiles
    went onto the floor line (``floored``) and, beyond its last space, the lid (``lidded``)."""

    seat: int
    row: int
    colour: Colour
    floored: int
    lidded: int


@dataclass(frozen=True, slots=True)
class FloorLineCleared:
    """Phase B: the floor line scored ``points`` (never below a score of 0); its tiles went
    into the lid and the first player marker, if there, stays with its holder."""

    seat: int
    tiles: tuple[int, ...]
    marker: bool
    points: int


@dataclass(frozen=True)
class Bonus:
    """End of the game bonuses of one seat."""

    rows: int
    columns: int
    colours: int
    points: int


@dataclass(frozen=True)
class GameEnded:
    """End of the game: every seat's bonuses, in seat order, and why the game ended.
    Version 2 added ``reason`` (``upcast_game_ended_v1`` reads version 1)."""

    bonuses: tuple[Bonus, ...]
    reason: EndReason


def upcast_game_ended_v1(data: dict) -> dict:
    """``GameEnded`` version 1 to 2: the reason, which version 1 did not record. A game with
    a complete row ended by the rulebook; one without ended by the rulings of the time, the
    former 20-round limit or no tile left to draw (``EndReason.ROUND_LIMIT``)."""
    completed = any(bonus["rows"] for bonus in data["bonuses"])
    reason = EndReason.ROW_COMPLETED if completed else EndReason.ROUND_LIMIT
    return {**data, "reason": reason.value}


Event = (
    GameStarted
    | FactoriesRefilled
    | TilesTaken
    | WallTiled
    | LineDropped
    | FloorLineCleared
    | GameEnded
)

CODEC = Codec(
    GameStarted,
    FactoriesRefilled,
    TilesTaken,
    WallTiled,
    LineDropped,
    FloorLineCleared,
    GameEnded,
    TakeTiles,
    PlaceOnWall,
    versions={GameEnded: 2},
    upcasters={("GameEnded", 1): upcast_game_ended_v1},
)
