"""The end of a game as a value, never a string to parse."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """Final scores by seat and the seats that share the victory."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


def shared_winners(keys: list[tuple]) -> tuple[int, ...]:
    """Seats whose ranking key is the highest; equal keys share the victory.

    Each game builds the key from its own tie-breaks, e.g. ``(score, complete_rows)``.
    """
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)
