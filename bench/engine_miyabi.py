"""Miyabi engine speed: random playouts with 2 and 4 players.

Reports moves per second (legal_commands + decide + evolve for each move), games per second
and the time to ``replay`` a finished game's events.

    .venv/bin/python bench/engine_miyabi.py [--games 200] [--seed 1]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import miyabi  # noqa: E402


def playout(players: int, rng: random.Random) -> tuple[int, list]:
    """One game of random legal commands; the number of moves and the event log."""
    log = miyabi.start(players, {}, rng)
    state = miyabi.replay(log)
    moves = 0
    while not miyabi.is_over(state):
        events = miyabi.decide(state, rng.choice(miyabi.legal_commands(state)), rng)
        for event in events:
            state = miyabi.evolve(state, event)
        log.extend(events)
        moves += 1
    return moves, log


def measure(players: int, games: int, seed: int) -> None:
    rng = random.Random(seed)
    moves = 0
    logs = []
    began = time.perf_counter()
    for _ in range(games):
        played, log = playout(players, rng)
        moves += played
        logs.append(log)
    elapsed = time.perf_counter() - began
    began = time.perf_counter()
    for log in logs:
        miyabi.replay(log)
    replayed = (time.perf_counter() - began) / len(logs)
    events = sum(len(log) for log in logs) / len(logs)
    print(
        f"{players} players: {moves / elapsed:9.0f} moves/s  {games / elapsed:7.1f} games/s  "
        f"replay {replayed * 1000:6.2f} ms/game ({events:.0f} events, {moves / games:.0f} moves)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    for players in (2, 4):
        measure(players, arguments.games, arguments.seed)


if __name__ == "__main__":
    main()
