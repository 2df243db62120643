"""Engine speed, for any game of the decider contract: whole games played with random
legal commands (and with the engine's default command, the bots' choice), every option
value, 2 and 4 players. Prints moves per second (legal_commands + decide + evolve for each
move), games per second and the time to ``replay`` a finished game's events.

Used by ``bench/engine_sp.py``, ``bench/engine_azul.py`` and ``bench/engine_miyabi.py``.
"""

import argparse
import itertools
import random
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def random_move(engine: ModuleType, state, rng: random.Random):
    return rng.choice(engine.legal_commands(state))


def bot_move(engine: ModuleType, state, rng: random.Random):
    # A bot also lists the legal moves (to show or check them), so count that work too.
    engine.legal_commands(state)
    return engine.default_command(state)


POLICIES = {"random": random_move, "bot": bot_move}


def playout(engine: ModuleType, players: int, options: dict, policy, rng) -> tuple[int, list]:
    """One whole game; the number of moves and the event log."""
    log = engine.start(players, options, rng)
    state = engine.replay(log)
    moves = 0
    while not engine.is_over(state):
        events = engine.decide(state, policy(engine, state, rng), rng)
        for event in events:
            state = engine.evolve(state, event)
        log.extend(events)
        moves += 1
    return moves, log


def measure(
    engine: ModuleType, players: int, options: dict, policy: str, games: int, seed: int
) -> None:
    rng = random.Random(seed)
    moves, logs = 0, []
    began = time.perf_counter()
    for _ in range(games):
        played, log = playout(engine, players, options, POLICIES[policy], rng)
        moves += played
        logs.append(log)
    elapsed = time.perf_counter() - began
    began = time.perf_counter()
    for log in logs:
        engine.replay(log)
    replayed = (time.perf_counter() - began) / len(logs)
    events = sum(map(len, logs)) / len(logs)
    described = " ".join(str(value) for value in options.values()) or "-"
    print(
        f"{players} players {described:8} {policy:6}: {moves / elapsed:8.0f} moves/s "
        f"{games / elapsed:7.1f} games/s  replay {replayed * 1000:5.2f} ms/game "
        f"({events:.0f} events, {moves / games:.0f} moves)"
    )


def main(engine: ModuleType) -> None:
    parser = argparse.ArgumentParser(description=f"{engine.NAME} engine: playouts")
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    names = list(engine.OPTIONS)
    for players in (2, 4):
        for values in itertools.product(*engine.OPTIONS.values()):
            for policy in POLICIES:
                measure(
                    engine,
                    players,
                    dict(zip(names, values, strict=True)),
                    policy,
                    arguments.games,
                    arguments.seed,
                )
