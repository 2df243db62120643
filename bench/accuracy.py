"""Accuracy calibration (issue 30): whole two-player games in which one seat is played by a
uniformly random player, or the easy, medium or hard level, against a fixed opponent
(medium by default; seats alternated), every move of that seat judged as the post-game
analysis judges it (``games.bots.appraise`` at the site's simulations, seeded like
``analysis_seed``) and scored by ``games.bots.accuracy``. Prints, per game and player, the
mean accuracy per game with its 95% interval, the marks per game, and where the marks fall
(the opening, middle and end thirds of the game's moves).

    nice -n 10 .venv/bin/python bench/accuracy.py --games 100
    nice -n 10 .venv/bin/python bench/accuracy.py --game miyabi --games 20 --every 5 \\
        --jobs 2 --save var/accuracy.jsonl
    .venv/bin/python bench/accuracy.py --load var/accuracy.jsonl --severity 0.5

``--calibrate`` fits instead the win-probability model's ``STRETCH``: from every third
position of games between two players of one level (medium by default), valued as the
analysis values them, the stretch of the logistic that best predicts who won (maximum
likelihood), per game and over all.

Targets (issue 30): random far below hard (e.g. under 50% and over 85%), medium between,
and marks spread over the whole game, not the opening.
"""

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import LEVELS, appraise, knowledge_for, search  # noqa: E402
from games.bots.accuracy import (  # noqa: E402
    ACCURACY_STRETCH,
    CLEARLY_WORSE,
    DUBIOUS,
    EDGE,
    game_accuracy,
    judgement,
    stretch_of,
    win_drop,
)

RANDOM = "random"
GAMES = ("azul", "summer-pavilion", "miyabi")
THIRDS = ("opening", "middle", "end")


def seeded(*parts) -> int:
    """A seed from the bench's seed and the move (like the site's ``analysis_seed``)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(engine, state, level: str, rng: random.Random, hard_simulations: int):
    if level == RANDOM:
        return rng.choice(engine.legal_commands(state))
    seat = engine.to_move(state)
    return search(
        engine, state, seat, level, rng.randrange(1 << 30), simulations=hard_simulations
    ).command


def play(engine, levels, seed: int, hard_simulations: int):
    """One game, ``levels[s]`` playing seat ``s``: the positions (state, command) in order
    and the final state."""
    rng = random.Random(seed)
    state = engine.replay(engine.start(len(levels), {}, rng))
    moves = []
    while not engine.is_over(state):
        command = choose(engine, state, levels[engine.to_move(state)], rng, hard_simulations)
        moves.append((state, command))
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    return moves, state


@dataclass
class Judged:
    """One game's judged seat: its moves' values (best, played) and where each move fell
    (its index among the game's moves, of ``length``), and the CPU the judging took."""

    slug: str
    level: str
    values: list[tuple[float, float]]
    places: list[int]
    length: int
    cpu: float


def judged_game(slug, level, opponent, number, seed, simulations, hard_simulations) -> Judged:
    """Play one game with ``level`` in seat ``number % 2`` and judge that seat's moves."""
    engine = knowledge_for(slug).engine
    seat = number % 2
    levels = (level, opponent) if seat == 0 else (opponent, level)
    moves, _end = play(engine, levels, seed + number, hard_simulations)
    began = time.process_time()
    values, places = [], []
    for index, (state, command) in enumerate(moves):
        if engine.to_move(state) != seat or len(engine.legal_commands(state)) < 2:
            continue
        found = appraise(
            engine, state, command, seeded(seed, number, index), simulations=simulations
        )
        values.append((found.best_value, found.played_value))
        places.append(index)
    return Judged(slug, level, values, places, len(moves), time.process_time() - began)


def interval(values: list[float]) -> str:
    mean = statistics.mean(values)
    if len(values) < 2:
        return f"{mean:5.1f}%"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:5.1f}% ± {half:4.1f}"


def line(games: list[Judged], severity: float | None = None) -> str:
    """One player's figures over its games, with ``games.bots.accuracy`` as it is now (and
    its ``ACCURACY_STRETCH`` unless ``severity`` is given)."""
    stretch = stretch_of(games[0].slug)
    severity = severity or ACCURACY_STRETCH
    accuracies = [game_accuracy(game.values, stretch, severity) for game in games if game.values]
    counts = {DUBIOUS: 0, CLEARLY_WORSE: 0}
    thirds = [0, 0, 0]
    for game in games:
        for (best, played), place in zip(game.values, game.places, strict=True):
            mark = judgement(win_drop(best, played, stretch))
            if mark:
                counts[mark] += 1
                thirds[min(2, 3 * place // game.length)] += 1
    marks = sum(thirds) or 1
    spread = " ".join(
        f"{name} {100 * count / marks:3.0f}%" for name, count in zip(THIRDS, thirds, strict=True)
    )
    judged = sum(len(game.values) for game in games) or 1
    return (
        f"{games[0].slug:15} {games[0].level:>6} {len(games):4} games  accuracy "
        f"{interval(accuracies)} (min {min(accuracies):5.1f} max {max(accuracies):5.1f})"
        f"  per game ? {counts[DUBIOUS] / len(games):4.1f} ?? "
        f"{counts[CLEARLY_WORSE] / len(games):4.1f}  marks: {spread}"
        f"  judging {1000 * sum(game.cpu for game in games) / judged:5.0f} ms/move"
    )


def accuracy_table(arguments) -> None:
    print(
        f"{arguments.games} games per player against {arguments.opponent}, seats alternated; "
        f"{arguments.simulations} simulations per judged move; hard plays at "
        f"{arguments.hard_simulations} simulations."
    )
    with multiprocessing.Pool(arguments.jobs) as pool:
        for slug in arguments.game or GAMES:
            players = {level: [] for level in arguments.player or (RANDOM, *LEVELS)}
            # The players take turns game by game, so a run cut short has figures for each.
            work = [
                (
                    slug,
                    level,
                    arguments.opponent,
                    number,
                    arguments.seed,
                    arguments.simulations,
                    arguments.hard_simulations,
                )
                for number in range(arguments.games)
                for level in players
            ]
            for judged in pool.imap(_judged_game, work):
                players[judged.level].append(judged)
                if arguments.save:
                    with open(arguments.save, "a") as saved:
                        saved.write(json.dumps(asdict(judged)) + "\n")
                # In order: the last player's game closes a round of games.
                if judged.level != list(players)[-1]:
                    continue
                done = len(players[judged.level])
                if done == arguments.games or (arguments.every and done % arguments.every == 0):
                    for games in players.values():
                        print(line(games, arguments.severity), flush=True)


def _judged_game(work: tuple) -> Judged:
    """``judged_game`` of one work item, in a worker process: each game is dealt and judged
    from its own seeds, so the figures do not depend on ``--jobs``."""
    return judged_game(*work)


def saved_table(path: str, severity: float | None) -> None:
    """The table again from the games a run saved (``--save``), with the accuracy's
    constants as they are now (or another ``severity``): the judging is the costly part."""
    players: dict[tuple[str, str], list[Judged]] = {}
    for text in Path(path).read_text().splitlines():
        judged = Judged(**json.loads(text))
        judged.values = [tuple(pair) for pair in judged.values]
        players.setdefault((judged.slug, judged.level), []).append(judged)
    print(f"{path}:" if severity is None else f"{path}, accuracy at drop stretch {severity}:")
    for games in players.values():
        print(line(games, severity))


def calibration_points(slug: str, arguments):
    """(logit of the search's value, result) for the seat to move at every ``--sample``-th
    position of games between two players of ``--opponent``'s level: the value as the
    analysis finds it (``appraise`` of the move played), the result 1 for a win, 1/k for a
    shared one, 0 for a loss."""
    engine = knowledge_for(slug).engine
    points = []
    for number in range(arguments.games):
        level = arguments.opponent
        moves, end = play(
            engine, (level, level), arguments.seed + number, arguments.hard_simulations
        )
        winners = engine.outcome(end).winners
        for index, (state, command) in enumerate(moves):
            if index % arguments.sample or len(engine.legal_commands(state)) < 2:
                continue
            seat = engine.to_move(state)
            found = appraise(
                engine,
                state,
                command,
                seeded(arguments.seed, number, index),
                simulations=arguments.simulations,
            )
            points.append((logit(found.best_value), (seat in winners) / len(winners)))
    return points


def logit(value: float) -> float:
    value = min(max(value, EDGE), 1 - EDGE)
    return math.log(value / (1 - value))


def log_loss(points, stretch: float) -> float:
    total = 0.0
    for lead, result in points:
        chance = 1 / (1 + math.exp(-max(-30.0, min(30.0, lead / stretch))))
        chance = min(max(chance, 1e-9), 1 - 1e-9)
        total -= result * math.log(chance) + (1 - result) * math.log(1 - chance)
    return total / len(points)


def fitted(points) -> float:
    """The stretch with the least log loss, to a hundredth, between 0.25 and 8."""
    return min((step / 100 for step in range(25, 801)), key=lambda s: log_loss(points, s))


def calibrate(arguments) -> None:
    print(
        f"{arguments.games} games per game between two {arguments.opponent} players, every "
        f"{arguments.sample}th position valued at {arguments.simulations} simulations."
    )
    everything = []
    for slug in arguments.game or GAMES:
        points = calibration_points(slug, arguments)
        everything += points
        best = fitted(points)
        print(
            f"{slug:15} {len(points):6} positions  fitted stretch {best:4.2f}  log loss "
            f"{log_loss(points, best):.4f} (the search's value as it is, stretch 1: "
            f"{log_loss(points, 1.0):.4f}; now: {log_loss(points, stretch_of(slug)):.4f})",
            flush=True,
        )
    print(f"{'all':15} {len(everything):6} positions  fitted stretch {fitted(everything):4.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game and player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument(
        "--player", choices=(RANDOM, *LEVELS), action="append", help="default: all four"
    )
    parser.add_argument("--opponent", choices=(RANDOM, *LEVELS), default="medium")
    parser.add_argument(
        "--simulations", type=int, default=300, help="per judged move (the site's default)"
    )
    parser.add_argument(
        "--hard-simulations", type=int, default=300, help="per move of a hard player"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="games judged side by side in this many processes"
    )
    parser.add_argument("--every", type=int, default=0, help="print the running figures")
    parser.add_argument(
        "--severity", type=float, help="accuracy from drops at this stretch, not ACCURACY_STRETCH"
    )
    parser.add_argument("--calibrate", action="store_true", help="fit STRETCH instead")
    parser.add_argument("--save", help="append each judged game to this file (JSON lines)")
    parser.add_argument("--load", help="print the table of the games saved in this file")
    parser.add_argument(
        "--sample", type=int, default=3, help="calibrate on every Nth position of a game"
    )
    arguments = parser.parse_args()
    if arguments.load:
        saved_table(arguments.load, arguments.severity)
    elif arguments.calibrate:
        calibrate(arguments)
    else:
        accuracy_table(arguments)


if __name__ == "__main__":
    main()
