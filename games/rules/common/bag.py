"""Drawing tiles from the bag, refilling it from the discard pile when it runs out.

Both Azul (discards in the box lid) and Summer Pavilion (discards in the tower) draw
this way. Randomness is used only here, at decision time; the result is a ``Draw`` that
an event records, and ``apply_draw`` folds it during replay without drawing again.
"""

import random
from dataclasses import dataclass

from games.rules.common.tiles import add_counts, count_of, remove_counts, total


@dataclass(frozen=True)
class Draw:
    """Tiles drawn in order (colour indices) and, if the bag ran out part-way, how many
    had been drawn when it was refilled from the discard pile (``None``: no refill)."""

    tiles: tuple[int, ...]
    refilled_after: int | None = None


def draw_tiles(
    bag: tuple[int, ...], discard: tuple[int, ...], wanted: int, rng: random.Random
) -> Draw:
    """Draw up to ``wanted`` tiles. When the bag is empty, all discarded tiles go back
    into it; when both are empty, fewer tiles are drawn (partly filled displays)."""
    remaining, left = list(bag), sum(bag)
    drawn: list[int] = []
    refilled_after = None
    while len(drawn) < wanted:
        if not left:
            if refilled_after is not None or not any(discard):
                break
            refilled_after = len(drawn)
            remaining, left = list(discard), sum(discard)
        colour = _pick(remaining, rng.randrange(left))
        remaining[colour] -= 1
        left -= 1
        drawn.append(colour)
    return Draw(tuple(drawn), refilled_after)


def _pick(counts: list[int], index: int) -> int:
    """The colour of the ``index``-th tile when the multiset is laid out colour by colour."""
    for colour, count in enumerate(counts):
        if index < count:
            return colour
        index -= count
    raise IndexError(index)


def apply_draw(
    bag: tuple[int, ...], discard: tuple[int, ...], draw: Draw
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bag and discard pile after a recorded draw; replay never calls the RNG."""
    colours = len(bag)
    if draw.refilled_after is None:
        return remove_counts(bag, count_of(draw.tiles, colours)), discard
    before = count_of(draw.tiles[: draw.refilled_after], colours)
    after = count_of(draw.tiles[draw.refilled_after :], colours)
    emptied = remove_counts(bag, before)
    if total(emptied):
        raise ValueError("the bag was refilled while it still held tiles")
    refilled = add_counts(emptied, discard)
    return remove_counts(refilled, after), tuple(0 for _ in discard)
