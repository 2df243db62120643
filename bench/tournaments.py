"""Tournaments at scale (issue 31): how long pairing one round of a 1,000-player Swiss
takes (target: under 2 s).

Runs the pure decider (no database): 1,000 players registered with random ratings, a
Swiss of 2 players per game started, then each round's games given random results
(places from random scores) and the pairing of the next round timed, as the services
run it when a round's last game ends. Prints each round's pairing time and the worst.

    .venv/bin/python bench/tournaments.py [--players 1000] [--rounds 5] [--per-game 2]
"""

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.tournaments import core  # noqa: E402
from games.tournaments.standings import competition_places  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-game", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(31)
    settings = core.Settings(
        format=core.SWISS,
        per_game=args.per_game,
        game="azul",
        rounds=args.rounds,
        max_players=args.players,
    )
    state = core.fold(core.decide(core.Tournament(), core.CreateTournament("Bench", 1, settings)))
    for player in range(1, args.players + 1):
        state = core.fold(core.decide(state, core.Register(player, rng.gauss(1500, 200))), state)
    timings = []
    started = time.perf_counter()
    state = core.fold(core.decide(state, core.Start()), state)
    timings.append(time.perf_counter() - started)
    game = 0
    while state.status == core.RUNNING:
        tables = state.round_tables()
        games = tuple(range(game + 1, game + 1 + len(tables)))
        game += len(tables)
        state = core.fold(core.decide(state, core.StartRound(state.round, games)), state)
        for table in tables[:-1]:
            scores = tuple(rng.randint(30, 90) for _ in table.players)
            command = core.RecordResult(
                games[tables.index(table)], competition_places(scores), scores
            )
            state = core.fold(core.decide(state, command), state)
        scores = tuple(rng.randint(30, 90) for _ in tables[-1].players)
        last = core.RecordResult(games[-1], competition_places(scores), scores)
        started = time.perf_counter()
        state = core.fold(core.decide(state, last), state)
        timings.append(time.perf_counter() - started)
    for number, seconds in enumerate(timings, start=1):
        print(f"round {number}: paired in {seconds:.2f} s")
    print(f"worst: {max(timings):.2f} s for {args.players} players ({args.per_game} a game)")


if __name__ == "__main__":
    main()
