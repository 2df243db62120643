"""Miyabi's vocabulary: garden objects, tile shapes, tiles, gardens, the table, and the
commands and events of the decider. Everything is a frozen dataclass or an enum, and
every collection is a tuple, so a state can be shared and compared freely."""

from dataclasses import dataclass
from enum import IntEnum, StrEnum

GRID = 6
"""Rulebook p.4: the garden is a 6×6 grid ("la cuadrícula de 6x6")."""

LANTERNS = GRID
"""One lantern space above each column, so six lanterns per player."""


class GardenObject(IntEnum):
    """The six objects; the value is the garden row printed for it, top to bottom
    (rulebook p.4: "a la izquierda del tablero aparecen los objetos" of each row)."""

    MAPLE = 0
    PAGODA = 1
    POND = 2
    AZALEA = 3
    BOXWOOD = 4
    STONE = 5

    @property
    def row(self) -> int:
        """The one row where this object may lie."""
        return int(self)


class Shape(StrEnum):
    """Rulebook p.4: straight tiles of 1, 2 and 3 squares and angled tiles of 3 squares."""

    SINGLE = "1"
    STRAIGHT_2 = "2"
    STRAIGHT_3 = "3"
    ANGLE = "L"


@dataclass(frozen=True, order=True)
class Tile:
    """A garden tile: its shape and, on its object square, ``count`` identical objects
    (each fish of a pond is an object). The other squares are empty green."""

    shape: Shape
    object: GardenObject
    count: int


@dataclass(frozen=True)
class PlacedTile:
    """A tile as it lies in a garden: the object square at (row, column), turned by
    ``orientation``, resting on ``level`` (1 = on the board)."""

    tile: Tile
    row: int
    column: int
    orientation: int
    level: int


@dataclass(frozen=True)
class Garden:
    """One player's board. ``heights`` and ``visible`` are indexed ``row * 6 + column``:
    the number of tiles stacked on the square and how many objects show on top of it
    (0: bare board or green). ``tiles`` lists what was placed, oldest first."""

    heights: tuple[int, ...]
    visible: tuple[int, ...]
    lanterns: tuple[bool, ...]
    passed: bool
    tiles: tuple[PlacedTile, ...]

    @property
    def active(self) -> bool:
        """Still playing this phase: has not passed and has a lantern left."""
        return not self.passed and not all(self.lanterns)


EMPTY_GARDEN = Garden(
    heights=(0,) * (GRID * GRID),
    visible=(0,) * (GRID * GRID),
    lanterns=(False,) * LANTERNS,
    passed=False,
    tiles=(),
)


@dataclass(frozen=True)
class State:
    """The whole table. ``box`` and ``removed`` are counts per kind of tile (the order of
    ``data.KINDS``); ``bonus_takers`` holds, per object, the seat that took its level-5
    bonus tile or ``None``. ``turn`` is the seat to act while the game runs."""

    players: int
    phase: int
    bonsai: int
    turn: int
    box: tuple[int, ...]
    display: tuple[Tile, ...]
    removed: tuple[int, ...]
    gardens: tuple[Garden, ...]
    points: tuple[int, ...]
    bonus_takers: tuple[int | None, ...]
    over: bool


# Commands


@dataclass(frozen=True)
class PlaceTile:
    """Take ``tile`` from the centre and lay it with its object square on (row, column),
    turned by ``orientation`` (0–3: a quarter turn clockwise each; 4–7: flipped, then
    turned)."""

    tile: Tile
    row: int
    column: int
    orientation: int


@dataclass(frozen=True)
class Pass:
    """Take no tile: out of the building phase (rulebook p.4)."""


Command = PlaceTile | Pass


# Events


@dataclass(frozen=True)
class GameStarted:
    """A game for ``players`` seats; seat ``bonsai`` holds the bonsai first."""

    players: int
    bonsai: int


@dataclass(frozen=True)
class PhaseBegan:
    """A building phase began: lanterns off, and these tiles (drawn from the box) laid
    face up in the centre. A barrier: it reveals a draw."""

    phase: int
    bonsai: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class TilePlaced:
    """``seat`` took ``tile`` and placed it; the lantern went on ``column``; it scored
    ``points`` (objects × level)."""

    seat: int
    tile: Tile
    row: int
    column: int
    orientation: int
    level: int
    points: int


@dataclass(frozen=True)
class BonusTileTaken:
    """``seat`` was first to place ``object`` on level 5 and scored its bonus tile."""

    seat: int
    object: GardenObject
    points: int


@dataclass(frozen=True)
class Passed:
    """``seat`` passed and is out of this phase; ``forced`` when no tile fitted."""

    seat: int
    forced: bool


@dataclass(frozen=True)
class PhaseEnded:
    """Every player used all lanterns or passed: the ``removed`` tiles left the game and
    the lanterns came off the boards (p.5)."""

    phase: int
    removed: tuple[Tile, ...]


@dataclass(frozen=True)
class MajoritiesScored:
    """The end of the game: per object row (maple first), the visible objects each seat
    had there and the majority points each seat scored for it."""

    counts: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]


Event = (
    GameStarted | PhaseBegan | TilePlaced | BonusTileTaken | Passed | PhaseEnded | MajoritiesScored
)
