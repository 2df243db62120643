"""The end of a game as a value, never a string to parse."""

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """Final scores by seat and the seats that share the victory."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


def shared_winners(keys: list[tuple], seats: Collection[int] | None = None) -> tuple[int, ...]:
    """Seats whose ranking key is the highest among ``seats`` (every seat when ``None``,
    e.g. only those still playing after resignations); equal keys share the victory.

    Each game builds the key from its own tie-breaks, e.g. ``(score, complete_rows)``.
    Raises ``ValueError`` when ``seats`` is empty or names a seat the game does not have.
    """
    ranked = range(len(keys)) if seats is None else sorted(set(seats))
    if not ranked:
        raise ValueError("an outcome needs at least one seat still playing")
    if ranked[0] < 0 or ranked[-1] >= len(keys):
        raise ValueError(f"seats are numbered 0 to {len(keys) - 1}, not {list(ranked)}")
    best = max(keys[seat] for seat in ranked)
    return tuple(seat for seat in ranked if keys[seat] == best)
