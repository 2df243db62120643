"""Azul engine speed: random playouts of 2 and 4 players on both wall sides.

A move is one command: ``legal_commands``, a random choice, ``decide`` and ``evolve`` of
every event it causes. Prints moves per second, games per second and how long ``replay``
of one finished game's events takes.

    .venv/bin/python bench/engine_azul.py [--games 300] [--seed 7]
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import azul  # noqa: E402


def random_game(players: int, wall: str, rng: random.Random) -> tuple[list, int]:
    """The event log of one game of random legal commands, and its number of commands."""
    log = azul.start(players, {"wall": wall}, rng)
    state = azul.replay(log)
    commands = 0
    while not azul.is_over(state):
        command = rng.choice(azul.legal_commands(state))
        for event in azul.decide(state, command, rng):
            state = azul.evolve(state, event)
            log.append(event)
        commands += 1
    return log, commands


def report(players: int, wall: str, games: int, seed: int) -> None:
    """Play ``games`` games, then replay each finished log and print the figures."""
    rng = random.Random(seed)
    began = time.perf_counter()
    played = [random_game(players, wall, rng) for _ in range(games)]
    playing = time.perf_counter() - began
    replays = []
    for log, _ in played:
        began = time.perf_counter()
        azul.replay(log)
        replays.append(time.perf_counter() - began)
    commands = sum(count for _, count in played)
    events = sum(len(log) for log, _ in played) / games
    print(
        f"{players} players, {wall:7} wall: {commands / playing:8.0f} moves/s "
        f"{games / playing:6.1f} games/s   replay {statistics.mean(replays) * 1e3:5.2f} ms "
        f"per finished game ({commands / games:.0f} moves, {events:.0f} events)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Azul engine random playouts")
    parser.add_argument("--games", type=int, default=300, help="games per configuration")
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    for players in (2, 4):
        for wall in azul.OPTIONS["wall"]:
            report(players, wall, options.games, options.seed)


if __name__ == "__main__":
    main()
