"""Miyabi's numbers.

Two kinds of data live here and nowhere else:

- fixed data that our sources give (the rows, the shapes, the phases per player count,
  the tile mix of every player count, the level of the bonus tiles);
- ``PROVISIONAL``: the ONE table of every number our sources do not give. Each entry holds
  the value chosen, why, and where the true value would be read to correct it. The engine
  reads these values and never repeats them, so a correction is an edit of this table only.
  ``docs/miyabi-provisional.md`` lists the same entries for players.

Sources: the rulebook pages 4–5 (Spanish) and the rules reference ``docs/rules/miyabi.md``
(facts marked [seed], [public] or [unknown], and its "Facts from the full rulebook": the
HABA manuals and reviews).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games.rules.miyabi.model import GardenObject, Shape, Tile

M, P, F, A, B, S = GardenObject
ONE, TWO, THREE, ANGLE = Shape


@dataclass(frozen=True)
class Provisional:
    """A value our sources do not give: what we chose, why, and where to correct it."""

    value: object
    why: str
    correct_at: str


PROVISIONAL: Mapping[str, Provisional] = MappingProxyType(
    {
        "bonus_tiles": Provisional(
            value=MappingProxyType({M: 10, P: 9, F: 8, A: 7, B: 6, S: 5}),
            why=(
                "Public descriptions say the maple bonus tile is worth 10 and the values "
                "decrease object by object down the rows; a step of 1 is assumed."
            ),
            correct_at="the six level-5 bonus tiles in the box (the value printed on each)",
        ),
        "majority_values": Provisional(
            value=MappingProxyType(
                {M: (10, 5), P: (9, 4), F: (8, 4), A: (7, 3), B: (6, 3), S: (5, 2)}
            ),
            why=(
                "Public descriptions say each object row has two printed values, the higher "
                "for the most visible objects and the lower for the second most, but give no "
                "numbers; we follow the bonus tiles' order (maple highest) and halve "
                "(rounding down) for second place."
            ),
            correct_at="the garden board's row printing and the rulebook's end-of-game page",
        ),
        "majority_ties": Provisional(
            value="competition",
            why=(
                "Tie handling is not in our sources. 'competition' ranking: tied players each "
                "score the value of the rank they share and use up the ranks below, so two "
                "players tied for most both score the higher value and nobody the lower "
                "('dense' would give the lower value to the next count)."
            ),
            correct_at="the rulebook's end-of-game page (not among the seed's pages 4–5)",
        ),
        "majority_minimum": Provisional(
            value=1,
            why=(
                "A player needs at least this many visible objects in a row to score its "
                "majority: a player with none is not 'second most' by default."
            ),
            correct_at="the rulebook's end-of-game page",
        ),
        "final_tie_breaks": Provisional(
            value=(),
            why=(
                "The final tie-break is not in our sources; with no tie-break, players with "
                "the most points share the victory (the house default). Names that the "
                "engine understands: 'bonus_tiles', 'visible_objects' (more is better)."
            ),
            correct_at="the rulebook's end-of-game page",
        ),
        "inventory": Provisional(
            value=MappingProxyType(
                {
                    ONE: MappingProxyType({M: 5, P: 5, F: 6, A: 6, B: 5, S: 5}),
                    TWO: MappingProxyType({M: 6, P: 6, F: 5, A: 5, B: 5, S: 5}),
                    THREE: MappingProxyType({M: 3, P: 2, F: 3, A: 2, B: 3, S: 3}),
                    ANGLE: MappingProxyType({M: 2, P: 3, F: 2, A: 3, B: 3, S: 3}),
                }
            ),
            why=(
                "How many tiles of each shape show each object. The box holds 96 tiles "
                "(public); 32/32/16/16 by shape follows from the 4-player mix using the whole "
                "box; each object appears on 16 tiles, spread as evenly as the shapes allow. "
                "Each tile shows as many objects as it has squares (public), fish included."
            ),
            correct_at="a count of the garden tiles in the box",
        ),
        "object_square": Provisional(
            value=MappingProxyType({ONE: 0, TWO: 0, THREE: 0, ANGLE: 0}),
            why=(
                "Which square of each shape (an index into SHAPE_SQUARES) shows the objects: "
                "an end of the straight tiles and the corner of the angle. Not in our "
                "sources; if real tiles of one shape differ, Tile needs the square as a field."
            ),
            correct_at="the garden tiles themselves",
        ),
    }
)

# Fixed data from our sources.

PHASES: Mapping[int, int] = MappingProxyType({2: 6, 3: 5, 4: 4})
"""[public] Building phases: 6 with 2 players, 5 with 3, 4 with 4."""

TILES_PER_PLAYER = 6
"""[public] Each phase lays out 6 × players tiles."""

SHAPE_SQUARES: Mapping[Shape, tuple[tuple[int, int], ...]] = MappingProxyType(
    {
        ONE: ((0, 0),),
        TWO: ((0, 0), (0, 1)),
        THREE: ((0, 0), (0, 1), (0, 2)),
        ANGLE: ((0, 0), (0, 1), (1, 0)),
    }
)
"""[seed] The shapes as (row, column) squares: straight 1, 2 and 3 and the angle of 3."""

SHAPES = tuple(Shape)
"""The order of a phase mix: singles, straight-2, straight-3, angles."""

PHASE_MIX: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {2: (4, 4, 2, 2), 3: (6, 6, 3, 3), 4: (8, 8, 4, 4)}
)
"""[public] Singles, straight-2, straight-3 and angled tiles laid out per phase: the info
card's counts, 2 of each small shape and 1 of each large shape per player (the vanillajoy
review; 4/4/2/2 with 2 players also in ludolegars). With 4 players, 4 phases of 8/8/4/4
use exactly the 96-tile box."""

BONUS_LEVEL = 5
"""[seed] The bonus tile of an object goes to the first player to place it "en el quinto
nivel" — on the fifth level exactly."""

BONUS_POINTS: Mapping[GardenObject, int] = PROVISIONAL["bonus_tiles"].value
MAJORITY_POINTS: Mapping[GardenObject, tuple[int, int]] = PROVISIONAL["majority_values"].value

KINDS: tuple[Tile, ...] = tuple(
    sorted(
        Tile(shape, garden_object, len(SHAPE_SQUARES[shape]))
        for shape, by_object in PROVISIONAL["inventory"].value.items()
        for garden_object in by_object
    )
)
"""Every kind of tile in the box, in a fixed order: the index of counts tuples."""

KIND_INDEX: Mapping[Tile, int] = MappingProxyType({tile: i for i, tile in enumerate(KINDS)})

INVENTORY: tuple[int, ...] = tuple(
    PROVISIONAL["inventory"].value[tile.shape][tile.object] for tile in KINDS
)
"""How many tiles of each kind the box holds at the start (aligned with ``KINDS``)."""
