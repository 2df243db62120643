"""``decide_and_evolve``, the one-step entry of the engines that have it (bots and playouts):
the same events as ``decide`` and the state ``evolve`` folds them to, move after move."""

import itertools
import random

import pytest

from games.registry import GAME_TYPES
from games.rules.common import IllegalMove

ENGINES = [game.engine for game in GAME_TYPES.values() if hasattr(game.engine, "decide_and_evolve")]


def settings(engine):
    names = list(engine.OPTIONS)
    for players in (2, 4):
        for values in itertools.product(*engine.OPTIONS.values()):
            yield players, dict(zip(names, values, strict=True))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.NAME)
def test_decide_and_evolve_gives_decides_events_and_their_fold(engine):
    for players, options in settings(engine):
        for seed in range(2):
            chooser, deciding, stepping = (random.Random(seed) for _ in range(3))
            state = engine.replay(engine.start(players, options, random.Random(seed)))
            while not engine.is_over(state):
                command = chooser.choice(engine.legal_commands(state))
                events = engine.decide(state, command, deciding)
                stepped_events, stepped = engine.decide_and_evolve(state, command, stepping)
                assert stepped_events == events
                for event in events:
                    state = engine.evolve(state, event)
                assert stepped == state


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.NAME)
def test_decide_and_evolve_refuses_what_decide_refuses(engine):
    state = engine.replay(engine.start(2, {}, random.Random(0)))
    with pytest.raises(IllegalMove):
        engine.decide_and_evolve(state, object(), random.Random(0))
