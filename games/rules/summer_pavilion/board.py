"""The printed components: colours, the two sides of the player board, the 18 structures
and the end-of-game bonuses (rules reference, "Player board" and "Grey side").

A player board is a tuple of 42 spaces, indexed ``star * 6 + space - 1``; star 0 is the
centre star and stars 1-6 go clockwise from the left (9 o'clock) star. Spaces 1-6 run
clockwise round each star and form a ring: nothing is adjacent across stars.
"""

from dataclasses import dataclass
from enum import Enum

COLOURS = ("purple", "green", "orange", "yellow", "blue", "red")
"""Colour indices 0-5, in wild-colour order: round r's wild colour is ``COLOURS[r - 1]``."""

PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)
COLOUR_COUNT = len(COLOURS)
TILES_PER_COLOUR = 22
TILE_TOTAL = TILES_PER_COLOUR * COLOUR_COUNT
ROUNDS = 6
SUPPLY_SPACES = 10
TILES_PER_FACTORY = 4
FACTORIES = {2: 5, 3: 7, 4: 9}
"""Rulebook setup 2: factory displays by player count."""
CORNER_SPACES = 4
START_SCORE = 5
"""Rulebook setup 5: every scoring marker starts on space 5."""
LOWEST_SCORE = 1
"""Ruling (rules reference): the scoring track has no space below 1, every loss stops there.
The rulebook says so for the start player token only and is silent about other losses."""

STARS = 7
SPACES_PER_STAR = 6
BOARD_SPACES = STARS * SPACES_PER_STAR
CENTRE_STAR = 0

STAR_COLOUR = (None, PURPLE, ORANGE, RED, BLUE, YELLOW, GREEN)
"""Coloured side: the colour of each star (the centre star takes any colour, all different)."""

STAR_BONUS = {PURPLE: 20, GREEN: 18, ORANGE: 17, YELLOW: 16, BLUE: 15, RED: 14}
"""End of the game: completed single-coloured stars, by colour."""
MULTICOLOUR_STAR_BONUS = 12
NUMBER_BONUS = {1: 4, 2: 8, 3: 12, 4: 16}
"""End of the game: covering every space printed with that number."""


class Side(Enum):
    """The side of the player board every player uses (the ``board`` option)."""

    COLOURED = "colored"
    GREY = "grey"


COSTS = {
    Side.COLOURED: tuple(space for _ in range(STARS) for space in range(1, 7)),
    Side.GREY: (3,) * SPACES_PER_STAR + (3, 2, 1, 4, 5, 6) * (STARS - 1),
}
"""The number printed on each space: how many tiles placing one tile there costs."""
MAX_COST = max(max(costs) for costs in COSTS.values())

NUMBER_SETS = {
    side: {
        number: tuple(i for i, cost in enumerate(costs) if cost == number)
        for number in NUMBER_BONUS
    }
    for side, costs in COSTS.items()
}


def index(star: int, space: int) -> int:
    """The board position of a space (star 0-6, space 1-6)."""
    return star * SPACES_PER_STAR + space - 1


def star_and_space(position: int) -> tuple[int, int]:
    """The (star, space) of a board position."""
    return position // SPACES_PER_STAR, position % SPACES_PER_STAR + 1


@dataclass(frozen=True)
class Structure:
    """A pillar, statue or window and the spaces bordering it."""

    kind: str
    star: int
    spaces: tuple[int, ...]
    bonus: int

    @property
    def name(self) -> str:
        return f"{self.kind} {self.star}"


def _next_star(star: int) -> int:
    return star % 6 + 1


STRUCTURES = (
    tuple(
        Structure(
            "pillar",
            s,
            (index(s, 2), index(s, 3), index(0, (s + 3) % 6 + 1), index(0, (s + 4) % 6 + 1)),
            1,
        )
        for s in range(1, 7)
    )
    + tuple(
        Structure(
            "statue",
            s,
            (index(s, 1), index(s, 2), index(_next_star(s), 3), index(_next_star(s), 4)),
            2,
        )
        for s in range(1, 7)
    )
    + tuple(Structure("window", s, (index(s, 5), index(s, 6)), 3) for s in range(1, 7))
)
"""Rulebook p.4: surrounding a pillar, statue or window earns 1, 2 or 3 supply tiles."""

STRUCTURES_AT = tuple(
    tuple(structure for structure in STRUCTURES if position in structure.spaces)
    for position in range(BOARD_SPACES)
)

STAR_LETTERS = "cporbyg"
"""Notation and text: each star position named after its colour on the coloured side."""
COLOUR_LETTERS = "pgoybr"
