"""Bot strength and speed: for each game (2 players, every board side), whole games
between two levels with the seats alternated, printing the first level's win rate (a
shared victory counts half), both levels' mean scores, CPU time per move (median and p95)
and, for hard, simulations per second. ``random`` is a uniformly random legal player.

    .venv/bin/python bench/bots.py --games 200 --hard-budget 0.075 --every 20
    .venv/bin/python bench/bots.py --game azul --side grey --pairing hard-medium

Targets (issue 15): hard beats easy in >= 75% of games, medium beats random in >= 95%, hard
stays within its budget at p95.
"""

import argparse
import itertools
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import HARD, LEVELS, knowledge_for, search  # noqa: E402
from games.registry import GAME_TYPES  # noqa: E402

RANDOM = "random"
PAIRINGS = (("hard", "easy"), ("medium", "random"), ("medium", "easy"), ("easy", "random"))


@dataclass
class Tally:
    """One level's record over a pairing's games."""

    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    simulations: int = 0


def play(engine, options, levels, seed, budget, simulations, tallies) -> None:
    """One game; ``levels[s]`` plays seat ``s``."""
    rng = random.Random(seed)
    state = engine.replay(engine.start(len(levels), options, rng))
    bot_seed = itertools.count(seed * 1000)
    while not engine.is_over(state):
        seat = engine.to_move(state)
        level = levels[seat]
        began = time.process_time()
        if level == RANDOM:
            command = rng.choice(engine.legal_commands(state))
            spent = 0
        else:
            found = search(
                engine,
                state,
                seat,
                level,
                next(bot_seed),
                budget_seconds=budget,
                simulations=simulations,
            )
            command, spent = found.command, found.simulations
        tallies[seat].cpu.append(time.process_time() - began)
        if level == HARD:
            tallies[seat].simulations += spent
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    result = engine.outcome(state)
    for seat, tally in enumerate(tallies):
        tally.scores.append(result.scores[seat])
        if seat in result.winners:
            tally.wins += 1 / len(result.winners)


def pairing(engine, options, first, second, games, seed, budget, simulations, every):
    """Yield the pairing's line after every ``every`` games (0: only at the end)."""
    mine, theirs = Tally(), Tally()
    for number in range(games):
        if number % 2:
            play(
                engine, options, (second, first), seed + number, budget, simulations, (theirs, mine)
            )
        else:
            play(
                engine, options, (first, second), seed + number, budget, simulations, (mine, theirs)
            )
        played = number + 1
        if played == games or (every and played % every == 0):
            yield played, _line(first, second, mine, theirs)


def _line(first: str, second: str, mine: Tally, theirs: Tally) -> str:
    return (
        f"{first:>6} vs {second:<6} {100 * mine.wins / len(mine.scores):6.1f}%  "
        f"scores {statistics.mean(mine.scores):6.1f} {statistics.mean(theirs.scores):6.1f}  "
        f"{_cpu(first, mine)}  {_cpu(second, theirs)}"
    )


def _cpu(level: str, tally: Tally) -> str:
    if level == RANDOM:
        return f"{level:>6}: -"
    moves = sorted(tally.cpu)
    p95 = moves[min(len(moves) - 1, int(0.95 * len(moves)))]
    text = f"{level:>6}: {1000 * statistics.median(moves):7.1f} / {1000 * p95:7.1f} ms"
    if level == HARD:
        searched = sum(moves)
        text += f" {tally.simulations / searched if searched else 0:6.0f} sim/s"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--hard-budget", type=float, default=2.0, help="hard's CPU seconds per move"
    )
    parser.add_argument(
        "--hard-simulations", type=int, default=None, help="hard's simulations per move instead"
    )
    parser.add_argument("--game", choices=sorted(GAME_TYPES), action="append")
    parser.add_argument("--side", help="only this option value, e.g. grey")
    parser.add_argument(
        "--every", type=int, default=0, help="also print the running figures every N games"
    )
    parser.add_argument(
        "--pairing",
        action="append",
        help="FIRST-SECOND among "
        + ", ".join((*LEVELS, RANDOM))
        + "; default: "
        + ", ".join(f"{a}-{b}" for a, b in PAIRINGS),
    )
    arguments = parser.parse_args()
    pairings = [tuple(text.split("-")) for text in arguments.pairing or ()] or PAIRINGS
    budget = None if arguments.hard_simulations else arguments.hard_budget
    print(
        f"{arguments.games} games per pairing, seats alternated; hard: "
        + (
            f"{arguments.hard_simulations} simulations"
            if arguments.hard_simulations
            else f"{arguments.hard_budget} s CPU"
        )
        + " per move. Win rate of the first level; CPU per move median / p95."
    )
    for slug in arguments.game or GAME_TYPES:
        engine = knowledge_for(slug).engine
        names = list(engine.OPTIONS)
        for values in itertools.product(*engine.OPTIONS.values()):
            options = dict(zip(names, values, strict=True))
            described = " ".join(map(str, values)) or "-"
            if arguments.side and arguments.side not in values:
                continue
            for first, second in pairings:
                for played, line in pairing(
                    engine,
                    options,
                    first,
                    second,
                    arguments.games,
                    arguments.seed,
                    budget,
                    arguments.hard_simulations,
                    arguments.every,
                ):
                    print(f"{slug:15} {described:8} {played:4} games {line}", flush=True)


if __name__ == "__main__":
    main()
