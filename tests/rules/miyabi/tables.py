"""Tables for the Miyabi tests: a phase laid out with chosen tiles, gardens drawn from
rows of digits, and commands played in notation."""

import random
from dataclasses import replace

from games.rules.miyabi import (
    Event,
    GameStarted,
    PhaseBegan,
    State,
    Tile,
    decide,
    evolve,
    parse,
    replay,
)
from games.rules.miyabi.model import EMPTY_GARDEN, Garden


def tile(text: str) -> Tile:
    """A tile from its notation: ``"LP3"``."""
    return parse(f"{text} a1").tile


def table(*tiles: str, players: int = 2, phase: int = 1, bonsai: int = 0) -> State:
    """A game whose current phase laid out exactly these tiles."""
    laid_out = tuple(sorted(tile(text) for text in tiles))
    return replay([GameStarted(players, 0), PhaseBegan(phase, bonsai, laid_out)])


def garden(*rows: str, lanterns: str = "......") -> Garden:
    """A garden from six rows of heights (``"110000"``) and the lantern spaces (``L``)."""
    heights = tuple(int(digit) for row in rows for digit in row)
    assert len(heights) == 36
    return replace(
        EMPTY_GARDEN,
        heights=heights,
        lanterns=tuple(space == "L" for space in lanterns),
    )


def with_garden(state: State, seat: int, built: Garden) -> State:
    """The state with one seat's garden replaced by a built one (rule set-ups)."""
    gardens = state.gardens[:seat] + (built,) + state.gardens[seat + 1 :]
    return replace(state, gardens=gardens)


def play(state: State, *moves: str, seed: int = 0) -> tuple[State, list[Event]]:
    """Play moves in notation; the state after them and every event they caused."""
    rng = random.Random(seed)
    events: list[Event] = []
    for move in moves:
        caused = decide(state, parse(move), rng)
        for event in caused:
            state = evolve(state, event)
        events.extend(caused)
    return state, events
