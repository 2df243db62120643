"""Azul: Summer Pavilion engine speed: playouts with 2 and 4 players on both board sides.

Each move is ``legal_commands`` + choosing + ``decide`` + ``evolve`` of its events. Random
playouts pick any legal command (they pass early and often); bot playouts always use
``default_command`` (they place many more tiles). Also reports the time to ``replay`` a
finished game's events.

    .venv/bin/python bench/engine_sp.py [--games 200] [--seed 1]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import summer_pavilion as sp  # noqa: E402


def random_move(state, rng):
    return rng.choice(sp.legal_commands(state))


def bot_move(state, rng):
    sp.legal_commands(state)
    return sp.default_command(state)


POLICIES = {"random": random_move, "bot": bot_move}


def playout(players: int, board: str, policy, rng: random.Random) -> tuple[int, list]:
    """One whole game; the number of moves and the event log."""
    log = sp.start(players, {"board": board}, rng)
    state = sp.replay(log)
    moves = 0
    while not sp.is_over(state):
        events = sp.decide(state, policy(state, rng), rng)
        for event in events:
            state = sp.evolve(state, event)
        log.extend(events)
        moves += 1
    return moves, log


def measure(players: int, board: str, name: str, games: int, seed: int) -> None:
    rng = random.Random(seed)
    moves, logs = 0, []
    began = time.perf_counter()
    for _ in range(games):
        played, log = playout(players, board, POLICIES[name], rng)
        moves += played
        logs.append(log)
    elapsed = time.perf_counter() - began
    began = time.perf_counter()
    for log in logs:
        sp.replay(log)
    replayed = (time.perf_counter() - began) / len(logs)
    events = sum(map(len, logs)) / len(logs)
    print(
        f"{players} players, {board:7} {name:6}: {moves / elapsed:8.0f} moves/s "
        f"{games / elapsed:7.1f} games/s  replay {replayed * 1000:5.2f} ms/game "
        f"({events:.0f} events, {moves / games:.0f} moves)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    for players in (2, 4):
        for board in sp.OPTIONS["board"]:
            for name in POLICIES:
                measure(players, board, name, arguments.games, arguments.seed)


if __name__ == "__main__":
    main()
