"""State, commands and events of Azul: Summer Pavilion. All immutable; tiles held as
multisets (a tuple of six counts indexed by colour, see ``board.COLOURS``)."""

from dataclasses import dataclass
from enum import Enum

from games.rules.summer_pavilion.board import Side

Counts = tuple[int, ...]


class Phase(Enum):
    """Rulebook "Gameplay": the phases of a round, plus the moments between them."""

    ACQUIRE = "acquire tiles"
    PLAY = "play tiles"
    ROUND_OVER = "prepare the next round"
    GAME_OVER = "game over"


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's board and scoring marker, the tiles beside the board and on its corners."""

    score: int
    board: tuple[int | None, ...]
    beside: Counts
    corners: Counts
    passed: bool = False


@dataclass(frozen=True, slots=True)
class State:
    """The whole table. ``current`` is the seat to act; ``token_taker`` the seat that took
    the start player token this round (``None`` while it lies in the centre)."""

    side: Side
    round: int
    phase: Phase
    players: tuple[Player, ...]
    bag: Counts
    tower: Counts
    factories: tuple[Counts, ...]
    centre: Counts
    supply: tuple[int | None, ...]
    start_player: int
    token_taker: int | None
    current: int
    bonus_due: int = 0

    @property
    def wild(self) -> int:
        """Rulebook "The wild color": round r's wild colour is colour r."""
        return self.round - 1


# Commands ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeTiles:
    """Phase 1: take every tile of ``colour`` from a factory (``source`` = its index from 0)
    or from the centre (``source`` = ``None``), plus one wild tile if there is one."""

    source: int | None
    colour: int


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Phase 2: place one ``colour`` tile on ``space`` (1-6) of ``star`` (0 = centre),
    spending ``wilds`` tiles of the round's wild colour towards the cost."""

    star: int
    space: int
    colour: int
    wilds: int = 0


@dataclass(frozen=True, slots=True)
class ChooseBonusTiles:
    """After surrounding a pillar, statue or window: the supply tiles chosen (colours in
    ascending order)."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Phase 2: stop placing this round, keeping up to 4 tiles (colours in ascending order)
    on the corner spaces."""

    keep: tuple[int, ...] = ()


Command = TakeTiles | PlaceTile | ChooseBonusTiles | Pass


# Events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Setup: the board side, the 10 supply tiles and the 4 tiles on each factory display,
    all drawn from the full bag."""

    players: int
    side: Side
    supply: tuple[int, ...]
    displays: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class TilesTaken:
    """Phase 1: the tiles a seat took, what moved from the factory to the centre, and the
    start player token with the points it actually cost."""

    seat: int
    source: int | None
    colour: int
    taken: Counts
    to_centre: Counts
    start_token: bool
    points_lost: int


@dataclass(frozen=True, slots=True)
class TilePlaced:
    """Phase 2: a tile placed, the tiles spent (the placed one included; the rest went to
    the tower), the points scored, the structures surrounded and how many supply tiles the
    player now chooses."""

    seat: int
    star: int
    space: int
    colour: int
    spent: Counts
    points: int
    structures: tuple[str, ...]
    bonus_tiles: int


@dataclass(frozen=True, slots=True)
class BonusTilesTaken:
    """The supply spaces a seat took its bonus tiles from, and their colours."""

    seat: int
    spaces: tuple[int, ...]
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SupplyRefilled:
    """Empty supply spaces filled from the bag; ``bag_refilled_after`` tiles had been drawn
    when the bag ran out and was refilled from the tower (``None``: it never ran out)."""

    spaces: tuple[int, ...]
    tiles: tuple[int, ...]
    bag_refilled_after: int | None


@dataclass(frozen=True, slots=True)
class Passed:
    """Phase 2: a seat passed, keeping tiles on its corners and discarding the rest."""

    seat: int
    kept: Counts
    discarded: Counts
    points_lost: int


@dataclass(frozen=True, slots=True)
class NextRoundPrepared:
    """Phase 3: the new round and its start player, the tiles drawn onto each display
    (in draw order, fewer when bag and tower ran dry) and when the bag was refilled."""

    round: int
    start_player: int
    displays: tuple[tuple[int, ...], ...]
    bag_refilled_after: int | None


@dataclass(frozen=True, slots=True)
class GameEnded:
    """End of the game: star and number bonuses, points lost for corner tiles, final scores."""

    star_points: tuple[int, ...]
    number_points: tuple[int, ...]
    corner_points_lost: tuple[int, ...]
    scores: tuple[int, ...]


Event = (
    GameStarted
    | TilesTaken
    | TilePlaced
    | BonusTilesTaken
    | SupplyRefilled
    | Passed
    | NextRoundPrepared
    | GameEnded
)
