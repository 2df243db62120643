"""Engine speed: whole games of random legal commands, ours against the fastest public Python
engine of the same game, interleaved in one run (issue 19: at least 1.5 times their games/s).

    .venv/bin/python bench/engines.py [--games 20] [--reps 5] [--detail]

For every game and player count, each repetition plays ``--games`` games with our engine
(``legal_commands``, a uniformly random choice, then ``decide_and_evolve`` where the engine
has it, else ``decide`` and ``evolve`` for every event; the events are kept, as a service
keeps them) and the same number with the public engine, whose driver runs as a subprocess
in the peers' own Python (they need numpy). Every repetition plays new games (both engines
the same seeds), so that no cache meets a position twice. Printed: games per CPU second of
the playing process (on a machine shared with other work, wall time says more about the
others than about the engines), median (min–max) over the repetitions, and the ratio of
each repetition's pair.

The public engines (``../shared/peers/README.md``): Azul, michelleblom/AZUL played by
``bench_mb.py``; Summer Pavilion, stephenjayakar/azul-summer-pavilion-ai played by
``bench_sj.py``, whose source is kept outside the repository under ``../peer-src/sj/src``
(or where ``SJ_SRC`` points). Miyabi has no public engine: ours alone.

``--detail`` adds, for our engines alone, every option value and two policies (random and
the default command bots play), with moves/s and the time to ``replay`` a finished game.
"""

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.registry import GAME_TYPES  # noqa: E402

PEER_DRIVERS = {"summer-pavilion": "bench_sj.py", "azul": "bench_mb.py"}


# Our engines ---------------------------------------------------------------------------------


def random_move(engine: ModuleType, state, rng: random.Random):
    return rng.choice(engine.legal_commands(state))


def bot_move(engine: ModuleType, state, rng: random.Random):
    # A bot also lists the legal moves (to show or check them), so count that work too.
    engine.legal_commands(state)
    return engine.default_command(state)


POLICIES = {"random": random_move, "bot": bot_move}


def decide_then_evolve(engine: ModuleType):
    """The engine's one-step entry if it has one, else ``decide`` then ``evolve``."""
    if hasattr(engine, "decide_and_evolve"):
        return engine.decide_and_evolve

    def step(state, command, rng):
        events = engine.decide(state, command, rng)
        for event in events:
            state = engine.evolve(state, event)
        return events, state

    return step


def playout(engine: ModuleType, players: int, options: dict, policy, rng) -> tuple[int, list]:
    """One whole game; the number of moves and the event log."""
    step = decide_then_evolve(engine)
    log = engine.start(players, options, rng)
    state = engine.replay(log)
    moves = 0
    while not engine.is_over(state):
        events, state = step(state, policy(engine, state, rng), rng)
        log.extend(events)
        moves += 1
    return moves, log


def our_games(engine: ModuleType, players: int, games: int, first_seed: int) -> float:
    """Seconds to play ``games`` random games with the default options."""
    began = time.process_time()
    for seed in range(first_seed, first_seed + games):
        playout(engine, players, {}, random_move, random.Random(seed))
    return time.process_time() - began


# The public engines ------------------------------------------------------------------------


class Peer:
    """A public engine's driver, kept running in its own Python between repetitions."""

    def __init__(self, driver: Path, python: Path) -> None:
        env = dict(os.environ)
        env.setdefault("SJ_SRC", str(ROOT.parent / "peer-src" / "sj" / "src"))
        self.process = subprocess.Popen(
            [str(python), str(ROOT / "bench" / "peer_playouts.py"), str(driver)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )

    def games(self, players: int, games: int, first_seed: int) -> float:
        """Seconds to play ``games`` random games."""
        self.process.stdin.write(f"{players} {games} {first_seed}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError("the peer driver stopped; run it alone to see why")
        return float(answer.split()[0])

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def open_peer(slug: str, peers: Path, python: Path) -> tuple[Peer | None, str]:
    """The running peer of a game, or ``None`` and why there is none."""
    if slug not in PEER_DRIVERS:
        return None, "no public engine"
    driver = peers / PEER_DRIVERS[slug]
    if not driver.exists():
        return None, f"no driver at {driver}"
    if not python.exists():
        return None, f"no peer Python at {python} (a venv with numpy)"
    if slug == "summer-pavilion":
        source = Path(os.environ.get("SJ_SRC", ROOT.parent / "peer-src" / "sj" / "src"))
        if not (source / "azul" / "game.py").exists():
            return None, f"no peer source at {source} (see {peers / 'README.md'})"
    return Peer(driver, python), PEER_DRIVERS[slug]


# The race ---------------------------------------------------------------------------------


@dataclass
class Race:
    slug: str
    players: int
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)


def spread(values: list[float], digits: int) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}–{max(values):.{digits}f})"
    )


def one_round(entry: Race, peer: Peer | None, arguments: argparse.Namespace, repetition: int):
    """One repetition of a race: our games and the peer's, in the order given."""
    engine, games = GAME_TYPES[entry.slug].engine, arguments.games
    # New games every repetition, so that no cache meets the same positions again.
    seed = arguments.seed + repetition * games

    def ours() -> None:
        entry.ours.append(games / our_games(engine, entry.players, games, seed))

    def theirs() -> None:
        entry.theirs.append(games / peer.games(entry.players, games, seed))

    turns = [ours, theirs] if peer is not None else [ours]
    # Alternate who goes first, so neither always meets a warmer or busier machine.
    for turn in turns if repetition % 2 == 0 else turns[::-1]:
        turn()


def race(arguments: argparse.Namespace) -> None:
    peers: dict[str, Peer] = {}
    for slug in arguments.game:
        peer, about = open_peer(slug, arguments.peers, arguments.peer_python)
        print(f"{slug}: peer {about}")
        if peer is not None:
            peers[slug] = peer
    races = [Race(slug, players) for slug in arguments.game for players in arguments.players]
    warm_up = arguments.seed + arguments.reps * arguments.games  # a game no repetition plays
    for entry in races:
        our_games(GAME_TYPES[entry.slug].engine, entry.players, 1, warm_up)
        if entry.slug in peers:
            peers[entry.slug].games(entry.players, 1, warm_up)
    for repetition in range(arguments.reps):
        for entry in races:
            one_round(entry, peers.get(entry.slug), arguments, repetition)
    for peer in peers.values():
        peer.close()
    print(
        f"\nRandom playouts, games/s: median (min–max) over {arguments.reps} repetitions "
        f"of {arguments.games} new games (seeds from {arguments.seed}), CPU time"
    )
    print(f"{'game':16} {'players':>7}  {'us':22} {'peer':22} {'us / peer':18}")
    for entry in races:
        theirs = spread(entry.theirs, 1) if entry.theirs else "-"
        ratios = [ours / peer for ours, peer in zip(entry.ours, entry.theirs, strict=False)]
        ratio = spread(ratios, 2) if ratios else "-"
        print(f"{entry.slug:16} {entry.players:>7}  {spread(entry.ours, 1):22} {theirs:22} {ratio}")


# Detail: every option and policy, ours alone ---------------------------------------------


def detail(arguments: argparse.Namespace) -> None:
    print("\nOur engines alone: every option value, random and default-command (bot) play")
    for slug in arguments.game:
        engine = GAME_TYPES[slug].engine
        names = list(engine.OPTIONS)
        for players in arguments.players:
            for values in itertools.product(*engine.OPTIONS.values()):
                options = dict(zip(names, values, strict=True))
                for policy in POLICIES:
                    measure(engine, players, options, policy, arguments.games, arguments.seed)


def measure(
    engine: ModuleType, players: int, options: dict, policy: str, games: int, seed: int
) -> None:
    rng = random.Random(seed)
    moves, logs = 0, []
    began = time.process_time()
    for _ in range(games):
        played, log = playout(engine, players, options, POLICIES[policy], rng)
        moves += played
        logs.append(log)
    elapsed = time.process_time() - began
    began = time.process_time()
    for log in logs:
        engine.replay(log)
    replayed = (time.process_time() - began) / len(logs)
    events = sum(map(len, logs)) / len(logs)
    described = " ".join(str(value) for value in options.values()) or "-"
    print(
        f"{engine.NAME:16} {players}p {described:8} {policy:6}: {moves / elapsed:8.0f} moves/s "
        f"{games / elapsed:7.1f} games/s  replay {replayed * 1000:5.2f} ms/game "
        f"({events:.0f} events, {moves / games:.0f} moves)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", nargs="+", choices=list(GAME_TYPES), default=list(GAME_TYPES))
    parser.add_argument("--players", nargs="+", type=int, default=[2, 4])
    parser.add_argument("--games", type=int, default=20, help="games per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--peers", type=Path, default=ROOT.parent / "shared" / "peers")
    parser.add_argument(
        "--peer-python", type=Path, default=ROOT.parent / "peer-venv" / "bin" / "python"
    )
    parser.add_argument("--detail", action="store_true", help="also every option and policy")
    arguments = parser.parse_args()
    race(arguments)
    if arguments.detail:
        detail(arguments)


if __name__ == "__main__":
    main()
