"""Miyabi for the bots: a position is worth the points so far plus the majorities the
visible objects would score now.

Nothing in the state is hidden: the box is held as counts, which anyone at the table
deduces (the tiles laid out face up each phase, placed, or left unused and removed face up
are all public); which tiles come out next is decided by the game's RNG, never given to a
bot."""

from functools import lru_cache

from games.bots.knowledge import Knowledge, nothing_hidden
from games.rules import miyabi
from games.rules.miyabi.engine import majority_points, visible_objects
from games.rules.miyabi.model import GardenObject, State

MAJORITY_CERTAINTY = 0.7
"""Majorities are scored only at the end of the game: the standing ones count at this
share while building goes on."""


def evaluate(state: State) -> tuple[float, ...]:
    """Every seat's expected final points (p.4 scoring, p.5 majorities)."""
    values = [float(points) for points in miyabi.scores(state)]
    if miyabi.is_over(state):
        return tuple(values)
    counts = tuple(
        tuple(visible_objects(garden, garden_object) for garden in state.gardens)
        for garden_object in GardenObject
    )
    promises = _majorities(counts)
    return tuple(value + promise for value, promise in zip(values, promises, strict=True))


# The same standings recur in most positions a search values: placing one tile changes a
# row or two of one garden. The cache stays small: every entry lengthens a full garbage
# collection, which hard must fit in its time budget.
@lru_cache(maxsize=1 << 13)
def _majorities(counts: tuple[tuple[int, ...], ...]) -> tuple[float, ...]:
    """Every seat's share of the majorities standing now, given each object's visible
    counts by seat."""
    promise = [0.0] * len(counts[0])
    for garden_object, by_seat in zip(GardenObject, counts, strict=True):
        for seat, points in enumerate(majority_points(by_seat, garden_object)):
            promise[seat] += MAJORITY_CERTAINTY * points
    return tuple(promise)


KNOWLEDGE = Knowledge(
    engine=miyabi,
    evaluate=evaluate,
    determinize=nothing_hidden,
    scale=10.0,
    round_of=lambda state: state.phase,
)
