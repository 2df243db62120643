"""What the search needs to know about one game besides its decider: how good a position
looks, which worlds agree with what a seat sees, and which commands are worth trying.

The search code (``games.bots.search``) is the same for every game; each game gives it one
``Knowledge`` value, built in its own small module (``games.bots.azul`` …)."""

import random
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

State = Any
Command = Any


@dataclass(frozen=True)
class Knowledge:
    """One game for the bots.

    - ``engine``: the game's decider (``docs/engines.md``);
    - ``evaluate(state)``: every seat's expected final points, as a tuple of floats: the
      score so far plus what the position promises (complete lines, majorities, bonuses);
    - ``determinize(state, seat, rng)``: a state that agrees with everything ``seat`` may
      see, its hidden parts drawn at random with ``rng`` from what the seat cannot see.
      It must read the hidden parts only through what the seat knows of them (their sizes,
      the union of the unseen tiles), so two states that differ only there give the same
      worlds: this is what makes a bot fair;
    - ``candidates(state)``: the legal commands worth searching (the engine's
      ``legal_commands`` unless a game prunes clearly wasteful ones);
    - ``scale``: how many points of lead make a game as good as won, for turning points
      into a search reward;
    - ``round_of(state)``: the round (Azul, Summer Pavilion) or building phase (Miyabi) the
      state is in: hard plays a leaf on with the engine's default commands until the round
      ends (a few commands at most), where the round's points are scored.
    """

    engine: ModuleType
    evaluate: Callable[[State], tuple[float, ...]]
    determinize: Callable[[State, int, random.Random], State]
    scale: float
    round_of: Callable[[State], int]
    candidates: Callable[[State], list[Command]] | None = None

    def commands(self, state: State) -> list[Command]:
        """The commands the search tries, in the engine's order."""
        if self.candidates is None:
            return self.engine.legal_commands(state)
        return self.candidates(state)


def nothing_hidden(state: State, seat: int, rng: random.Random) -> State:
    """For a game whose state holds nothing a seat cannot see (the bag as counts that the
    table deduces): the only world is the state itself."""
    return state


def split_unseen(
    pool: tuple[int, ...], sizes: tuple[int, ...], rng: random.Random
) -> tuple[tuple[int, ...], ...]:
    """Deal the multiset ``pool`` (counts by kind) at random into parts of the given sizes,
    e.g. the unseen tiles into a bag and a tower of known sizes."""
    tiles = [kind for kind, count in enumerate(pool) for _ in range(count)]
    rng.shuffle(tiles)
    parts = []
    start = 0
    for size in sizes:
        counts = [0] * len(pool)
        for kind in tiles[start : start + size]:
            counts[kind] += 1
        parts.append(tuple(counts))
        start += size
    return tuple(parts)
