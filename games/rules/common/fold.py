"""Replay: a game's state is the fold of its events, from nothing."""

from collections.abc import Callable, Iterable
from typing import Any


def fold(evolve: Callable[[Any, Any], Any], events: Iterable[Any]) -> Any:
    """``evolve`` applied to every event in order, starting from ``None``; never draws.
    A game without its opening event has no state: ``ValueError``."""
    state = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("there are no events to replay: a game starts with its opening event")
    return state
