"""Two-player Azul duel: our hard level against jhgravelle's ``AlphaBetaAgent``, the
strongest public Python Azul AI we can run (MIT, commit ceb6c64e, kept outside the product
in ``../shared/peers/jh/``, put on ``sys.path`` at run time and never copied here).

    nice -n 10 .venv/bin/python bench/duel.py --games 100 --depth 3 --threshold 8
    nice -n 10 .venv/bin/python bench/duel.py --games 30 --softmax
    nice -n 10 .venv/bin/python bench/duel.py --games 3 --depth 4 --threshold 10

Our engine deals and judges every game (the coloured wall, seats alternated: hard sits
first in the odd games). At each of the peer's turns an adapter builds the peer's ``Game``
from our state, checks that the peer's legal moves are exactly ours (it stops the run
otherwise) and maps the move the peer chose to our command. Scores are our engine's: the
peer's own scoring undercounts some vertical links (``Player._adjacency_count`` compares a
pattern line above with the capacity of the wrong row), which only its search sees.

The peer plays at temperature 0, its best-scored root move every time
(``exploration_temperature=0``, the agent's own switch for the choice; its search is
untouched), unless ``--softmax``: then it samples as shipped (a softmax at temperature 0.3,
1.0 when two sources or fewer are left). Its "Hard Bot" is depth 3, threshold 8; "Extreme
Bot" depth 4, threshold 10.

Printed: games, hard's win rate (a shared victory counts half) with a 95% Wilson interval,
the mean margin (hard's points minus the peer's), and CPU time per move for both sides
(mean, median, p95; moves with a single legal command included, as both sides face them).

Target (issue 30): hard wins >= 90% of 100 games against depth 3 at temperature 0 and
spends no more mean CPU per move than the peer.
"""

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.bots import HARD, search  # noqa: E402
from games.rules import azul  # noqa: E402
from games.rules.azul.board import COLOURED, coloured_wall_column  # noqa: E402

PEER = next(
    (
        folder / "shared" / "peers" / "jh"
        for folder in (ROOT.parent, ROOT.parent.parent)
        if (folder / "shared" / "peers" / "jh").is_dir()
    ),
    ROOT.parent / "shared" / "peers" / "jh",
)
"""The peer's folder beside the checkout (``../shared/peers/jh``) or beside a worktree's
folder; ``--peer`` points elsewhere."""
Z95 = 1.959964


@dataclass
class Side:
    """One side's record over the duel."""

    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


class Peer:
    """The peer's agent behind our state and commands (the bench's adapter)."""

    def __init__(self, folder: Path, depth: int, threshold: int, softmax: bool, seed: int):
        sys.path.insert(0, str(folder))
        from agents.alphabeta import AlphaBetaAgent
        from engine import constants, game, player

        self.constants, self.game, self.player = constants, game, player
        self.tiles = constants.COLOR_TILES  # in our Colour order: blue yellow red black white
        options = {} if softmax else {"exploration_temperature": 0.0}
        self.agent = AlphaBetaAgent(depth=depth, threshold=threshold, **options)
        self.agent._rng.seed(seed)
        self.checked = 0

    def choose(self, state: azul.State) -> tuple[azul.TakeTiles, float]:
        """The peer's command for the seat to move and the CPU time its agent spent
        choosing it (the adapter's own work left out); stops the run if the two engines
        disagree on the legal moves."""
        table = self._game(state)
        ours = {self._key(command) for command in azul.legal_commands(state)}
        theirs = {(move.source, move.tile, move.destination) for move in table.legal_moves()}
        if ours != theirs:
            raise SystemExit(
                f"legal moves differ (round {state.round}, seat {state.turn + 1}):\n"
                f"  only ours:   {sorted(map(str, ours - theirs))}\n"
                f"  only peer's: {sorted(map(str, theirs - ours))}\n{table}"
            )
        self.checked += 1
        began = time.process_time()
        move = self.agent.choose_move(table)
        spent = time.process_time() - began
        line = azul.FLOOR if move.destination == self.constants.FLOOR else move.destination
        source = azul.CENTRE if move.source == self.constants.CENTER else move.source
        return azul.TakeTiles(source, azul.Colour(self.tiles.index(move.tile)), line), spent

    def _key(self, command: azul.TakeTiles) -> tuple:
        source = self.constants.CENTER if command.source == azul.CENTRE else command.source
        line = self.constants.FLOOR if command.line == azul.FLOOR else command.line
        return source, self.tiles[command.colour], line

    def _game(self, state: azul.State):
        """The peer's ``Game`` for our offer-phase state: boards with their cached score
        parts recomputed, displays and centre as tile lists, bag and discard as counts
        (its search never draws: it stops at the end of the round)."""
        table = self.game.Game(seed=1)
        table.players = [self._player(seat, board) for seat, board in enumerate(state.boards)]
        table.current_player_index = state.turn
        table.round = state.round
        table.factories = [self._tiles(counts) for counts in state.factories]
        table.center = self._tiles(state.centre)
        if state.marker_in_centre:
            table.center.append(self.constants.Tile.FIRST_PLAYER)
        table.bag = self._tiles(state.bag)
        table.discard = self._tiles(state.lid)
        return table

    def _player(self, seat: int, board) -> object:
        held = self.player.Player(name=f"Seat {seat + 1}", score=board.score)
        for row, line in enumerate(board.lines):
            if line.count:
                held.pattern_grid[row][coloured_wall_column(row, line.colour)] = line.count
        held.wall = [[int(space is not None) for space in row] for row in board.wall]
        held.floor_line = [self.tiles[colour] for colour in board.floor]
        if board.marker:
            held.floor_line.append(self.constants.Tile.FIRST_PLAYER)
        held._update_pending()
        held._update_bonus()
        held._update_penalty()
        return held

    def _tiles(self, counts) -> list:
        return [self.tiles[colour] for colour, count in enumerate(counts) for _ in range(count)]


@dataclass(frozen=True)
class Game:
    """One game's record: both final scores and winners' shares, and each side's CPU
    seconds per move (hard's first)."""

    number: int
    hard_seat: int
    scores: tuple[int, int]
    shares: tuple[float, float]
    cpu: tuple[list[float], list[float]]
    checked: int


def play(peer: Peer, number: int, seed: int, budget, simulations) -> Game:
    """Game ``number`` of the duel, dealt from ``seed``; hard sits first in the odd games."""
    hard_seat = number % 2
    rng = random.Random(seed)
    state = azul.replay(azul.start(2, {"wall": COLOURED}, rng))
    bot_seed = seed * 1000
    cpu: tuple[list[float], list[float]] = ([], [])
    checked = peer.checked
    while not azul.is_over(state):
        seat = azul.to_move(state)
        if seat == hard_seat:
            bot_seed += 1
            began = time.process_time()
            command = search(
                azul,
                state,
                seat,
                HARD,
                bot_seed,
                budget_seconds=budget,
                simulations=simulations,
            ).command
            cpu[0].append(time.process_time() - began)
        else:
            command, spent = peer.choose(state)
            cpu[1].append(spent)
        for event in azul.decide(state, command, rng):
            state = azul.evolve(state, event)
    result = azul.outcome(state)
    seats = (hard_seat, 1 - hard_seat)
    return Game(
        number,
        hard_seat,
        tuple(result.scores[seat] for seat in seats),
        tuple((1 / len(result.winners) if seat in result.winners else 0.0) for seat in seats),
        cpu,
        peer.checked - checked,
    )


_peer: Peer | None = None


def _start_worker(arguments: argparse.Namespace) -> None:
    global _peer
    _peer = Peer(
        arguments.peer, arguments.depth, arguments.threshold, arguments.softmax, arguments.seed
    )


def _play_one(arguments: argparse.Namespace, number: int) -> Game:
    if arguments.softmax:
        # Each game's own sampling, whichever process plays it.
        _peer.agent._rng.seed(arguments.seed + number)
    return play(
        _peer,
        number,
        arguments.seed + number,
        arguments.hard_budget if not arguments.hard_simulations else None,
        arguments.hard_simulations,
    )


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    rate = wins / games
    spread = Z95 * math.sqrt(rate * (1 - rate) / games + Z95**2 / (4 * games**2))
    centre = rate + Z95**2 / (2 * games)
    scale = 1 + Z95**2 / games
    return (centre - spread) / scale, (centre + spread) / scale


def cpu_line(name: str, side: Side) -> str:
    moves = sorted(side.cpu)
    p95 = moves[min(len(moves) - 1, int(0.95 * len(moves)))]
    return (
        f"  {name:<5} CPU per move: mean {statistics.mean(moves):6.3f} s, "
        f"median {statistics.median(moves):6.3f} s, p95 {p95:6.3f} s ({len(moves)} moves)"
    )


def report(label: str, hard: Side, peer: Side, checked: int) -> str:
    games = len(hard.scores)
    low, high = wilson(hard.wins, games)
    margins = [mine - theirs for mine, theirs in zip(hard.scores, peer.scores, strict=True)]
    return "\n".join(
        (
            f"{label}: {games} games, hard won {hard.wins:g} "
            f"({100 * hard.wins / games:.1f}%, 95% interval {100 * low:.0f}–{100 * high:.0f}%)",
            f"  mean score hard {statistics.mean(hard.scores):.1f}, "
            f"peer {statistics.mean(peer.scores):.1f}; mean margin {statistics.mean(margins):+.1f}",
            cpu_line("hard", hard),
            cpu_line("peer", peer),
            f"  {checked} peer positions: legal moves identical in both engines",
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="game i is dealt from seed + i")
    parser.add_argument("--depth", type=int, default=3, help="the peer's search depth")
    parser.add_argument("--threshold", type=int, default=8, help="the peer's threshold")
    parser.add_argument(
        "--softmax", action="store_true", help="the peer samples as shipped (temperature 0.3)"
    )
    parser.add_argument(
        "--hard-budget", type=float, default=None, help="hard's CPU seconds per move"
    )
    parser.add_argument(
        "--hard-simulations", type=int, default=None, help="hard's simulations per move"
    )
    parser.add_argument("--peer", type=Path, default=PEER, help="the peer's folder")
    parser.add_argument("--every", type=int, default=10, help="running figures every N games")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    arguments = parser.parse_args()
    if arguments.hard_budget is None and arguments.hard_simulations is None:
        arguments.hard_budget = 2.0
    label = (
        f"hard ({arguments.hard_simulations} simulations"
        if arguments.hard_simulations
        else f"hard ({arguments.hard_budget} s CPU"
    ) + (
        f" a move) vs AlphaBeta depth {arguments.depth} threshold {arguments.threshold} "
        + ("softmax as shipped" if arguments.softmax else "temperature 0")
    )
    print(f"{label}; {arguments.jobs} process(es)", flush=True)
    hard, theirs = Side(), Side()
    checked = 0
    with ProcessPoolExecutor(
        arguments.jobs, initializer=_start_worker, initargs=(arguments,)
    ) as pool:
        games = [pool.submit(_play_one, arguments, number) for number in range(arguments.games)]
        for played, done in enumerate(as_completed(games), start=1):
            game = done.result()
            for side, score, share, cpu in zip(
                (hard, theirs), game.scores, game.shares, game.cpu, strict=True
            ):
                side.scores.append(score)
                side.wins += share
                side.cpu.extend(cpu)
            checked += game.checked
            mine, their = game.scores
            print(
                f"game {game.number + 1:3}: hard seat {game.hard_seat + 1}, {mine}–{their}",
                flush=True,
            )
            if played == arguments.games or (arguments.every and played % arguments.every == 0):
                print(report(label, hard, theirs, checked), flush=True)


if __name__ == "__main__":
    main()
