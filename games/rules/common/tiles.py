"""Tiles as multisets: a tuple of counts indexed by colour. Tuples keep state immutable
and cheap to compare; every helper returns a new tuple. ``map`` over ``operator`` functions,
as these run several times for every event a bot folds."""

from operator import add, sub


def total(counts: tuple[int, ...]) -> int:
    """How many tiles the multiset holds."""
    return sum(counts)


def count_of(tiles: tuple[int, ...], colours: int) -> tuple[int, ...]:
    """The multiset of a sequence of colour indices."""
    counts = [0] * colours
    for colour in tiles:
        counts[colour] += 1
    return tuple(counts)


def add_counts(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The union of two multisets."""
    if len(a) != len(b):
        raise ValueError(f"cannot add multisets of different colours: {a} and {b}")
    return tuple(map(add, a, b))


def remove_counts(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``a`` without ``b``; refuses to create tiles from nothing."""
    result = tuple(map(sub, a, b))
    if len(a) != len(b) or min(result, default=0) < 0:
        raise ValueError(f"cannot remove {b} from {a}")
    return result
