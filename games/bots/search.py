"""The search, the same for every game: it reaches a game only through the decider
contract (``legal_commands``, ``decide_and_evolve``, ``default_command``, ``to_move``,
``is_over``, ``outcome``) and the game's ``Knowledge`` (evaluation, worlds, candidates).

Every search runs in worlds drawn by ``Knowledge.determinize`` with the bot's own RNG: the
engine's ``decide`` draws the future tiles from the world's unseen tiles with that RNG, so
the game's RNG and the real hidden parts of the state never take part.

- ``greedy``: one ply, the command whose position evaluates best for the mover;
- ``lookahead``: the best few greedy commands, each followed by every player's reply (the
  engine's ``default_command``, which wastes least) until the mover has moved once more;
- ``tree_search``: information-set Monte Carlo tree search (single observer, open loop): each
  simulation draws a new world, walks the tree of commands by UCB (max^n: each seat chooses
  for itself), skipping commands that world does not allow, and values a new leaf by its
  best greedy command played on with default commands to the end of the round (a few plies
  at most).
"""

import math
import random
import time
from dataclasses import dataclass, field

from games.bots.knowledge import Command, Knowledge, State
from games.rules.common import IllegalMove

EXPLORATION = 0.15
"""UCB's exploration constant for rewards between 0 and 1. The commands worth comparing
differ by a few hundredths of reward (a point is 1/(4 × scale) near an even game), so a
larger constant spreads the visits evenly and leaves the choice to chance (``bench/bots.py``
compares constants by their win rates; the figures are in docs/bots.md, "How hard
searches")."""
BUDGET_MARGIN = 0.04
"""Hard stops this share of its time budget early: a simulation can take longer than the
longest before it (the machine's load, a costlier line, above all a full garbage collection
of the tree and the evaluation caches), and the budget is a promise (``bench/bots.py``
prints the CPU per move against the budget at p95; the figures that chose this margin are
in docs/bots.md, "Levels")."""
PLAYOUT_PLIES = 8
"""A leaf is played on for at most this many default commands (fewer when the round or
the game ends first) before it is evaluated. Longer playouts follow the default command's
habits too far, and shorter ones stop before the round's last tiles show what they do
(``bench/bots.py``'s win rates; the figures are in docs/bots.md, "How hard searches")."""
WIN_WEIGHT = 0.8
"""At the end of a game the reward is mostly the result (win 1, shared 1/k, loss 0); the
rest rewards the margin, so a search still prefers the bigger win or the smaller loss."""


def advance(knowledge: Knowledge, state: State, command: Command, rng: random.Random) -> State:
    """The state after a command and its automatic events, the engine drawing with ``rng``
    (``decide_and_evolve``: the state ``decide`` works out anyway, no event folded twice)."""
    return knowledge.engine.decide_and_evolve(state, command, rng)[1]


def margin(values: tuple[float, ...], seat: int) -> float:
    """How far ``seat`` leads the best of the others (negative: trails)."""
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


def rewards(knowledge: Knowledge, state: State, values: tuple[float, ...]) -> tuple[float, ...]:
    """Every seat's reward between 0 and 1 for reaching ``state`` (evaluated as ``values``)."""
    close = tuple(_logistic(margin(values, seat) / knowledge.scale) for seat in range(len(values)))
    if not knowledge.engine.is_over(state):
        return close
    winners = knowledge.engine.outcome(state).winners
    return tuple(
        WIN_WEIGHT * (seat in winners) / len(winners) + (1 - WIN_WEIGHT) * close[seat]
        for seat in range(len(values))
    )


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


@dataclass(frozen=True)
class Option:
    """A command tried in one world: the position it leads to and that position's values."""

    command: Command
    state: State
    values: tuple[float, ...]
    merit: float


def ranked(knowledge: Knowledge, state: State, rng: random.Random) -> list[Option]:
    """Every candidate command of the seat to move, best first by the margin its position
    promises that seat; equal margins keep the engine's order."""
    seat = knowledge.engine.to_move(state)
    options = []
    for command in knowledge.commands(state):
        after = advance(knowledge, state, command, rng)
        values = knowledge.evaluate(after)
        merit = margin(values, seat)
        if knowledge.engine.is_over(after):
            merit += knowledge.scale * rewards(knowledge, after, values)[seat]
        options.append(Option(command, after, values, merit))
    options.sort(key=lambda option: -option.merit)
    return options


def greedy(knowledge: Knowledge, world: State, rng: random.Random) -> Command:
    """Easy: the command whose position looks best one ply ahead."""
    return ranked(knowledge, world, rng)[0].command


def lookahead(
    knowledge: Knowledge, world: State, rng: random.Random, *, width: int, plies: int
) -> Command:
    """Medium: the ``width`` best greedy commands, each followed by ``plies`` default
    commands of whoever moves next (cheap and sensible replies); the command leading to the
    best margin wins."""
    engine = knowledge.engine
    seat = engine.to_move(world)
    best, best_margin = None, -math.inf
    for option in ranked(knowledge, world, rng)[:width]:
        state = option.state
        for _ in range(plies):
            if engine.is_over(state):
                break
            state = advance(knowledge, state, engine.default_command(state), rng)
        values = knowledge.evaluate(state)
        reached = margin(values, seat)
        if engine.is_over(state):
            reached += knowledge.scale * rewards(knowledge, state, values)[seat]
        if reached > best_margin:
            best, best_margin = option.command, reached
    return best


@dataclass(slots=True)
class Edge:
    """A command from a tree node: how often the search took it and the rewards it brought
    back to every seat (seeded with one visit of its greedy value)."""

    command: Command
    visits: int
    totals: list[float]
    child: "Node" = field(default_factory=lambda: Node())

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits


@dataclass(slots=True)
class Node:
    """A tree node, reached by a sequence of commands (open loop: worlds differ below it)."""

    edges: list[Edge] | None = None


@dataclass(frozen=True)
class SearchResult:
    """What the tree search found: the command to play, each root command's visits and
    mean reward for the searching seat, and how many simulations it ran."""

    command: Command
    values: tuple[tuple[Command, int, float], ...]
    simulations: int


def tree_search(
    knowledge: Knowledge,
    state: State,
    seat: int,
    rng: random.Random,
    *,
    width: int,
    budget_seconds: float | None,
    simulations: int | None,
    include: Command | None = None,
) -> SearchResult:
    """Hard: information-set MCTS for ``simulations`` simulations, or within
    ``budget_seconds`` of CPU time (at least one simulation either way): no simulation
    starts unless the longest so far still fits. ``include``: a legal command the root
    must search even if it is not among the best greedy ones (the move an analysis
    judges), seeded like the others with one visit of its greedy value."""
    root = Node()
    clock = began = time.process_time()
    deadline = None if budget_seconds is None else clock + budget_seconds * (1 - BUDGET_MARGIN)
    done, longest = 0, 0.0
    while True:
        world = knowledge.determinize(state, seat, rng)
        _simulate(knowledge, root, world, rng, width)
        if include is not None and all(edge.command != include for edge in root.edges):
            after = advance(knowledge, world, include, rng)
            prior = rewards(knowledge, after, knowledge.evaluate(after))
            root.edges.append(Edge(include, 1, list(prior)))
        done += 1
        if simulations is not None and done >= simulations:
            break
        started, clock = clock, time.process_time()
        longest = max(longest, clock - started)
        elapsed = max(clock - began, 1e-9)
        if deadline is not None and (
            clock + longest >= deadline or _settled(root, (deadline - clock) * done / elapsed)
        ):
            break
    assert root.edges, "a position with a seat to move has a command"
    best = max(root.edges, key=lambda edge: (edge.visits, edge.mean(seat)))
    values = tuple((edge.command, edge.visits, edge.mean(seat)) for edge in root.edges)
    return SearchResult(best.command, values, done)


def _settled(root: Node, remaining: float) -> bool:
    """Whether the most visited root command keeps its place whatever the ``remaining``
    simulations do (each adds one visit to one root command): a time-budgeted search then
    stops early, and the same command is played sooner."""
    visits = sorted((edge.visits for edge in root.edges), reverse=True)
    return len(visits) == 1 or visits[0] - visits[1] > remaining


def _simulate(
    knowledge: Knowledge, node: Node, state: State, rng: random.Random, width: int
) -> None:
    engine = knowledge.engine
    path: list[Edge] = []
    while True:
        if engine.is_over(state):
            reward = rewards(knowledge, state, knowledge.evaluate(state))
            break
        if node.edges is None:
            reward = _expand(knowledge, node, state, rng, width)
            break
        step = _select(knowledge, node, state, rng)
        if step is None:
            reward = _expand(knowledge, node, state, rng, width)
            break
        edge, state = step
        path.append(edge)
        node = edge.child
    for edge in path:
        edge.visits += 1
        for player, value in enumerate(reward):
            edge.totals[player] += value


def _expand(
    knowledge: Knowledge, node: Node, state: State, rng: random.Random, width: int
) -> tuple[float, ...]:
    """Give a leaf the ``width`` best greedy commands of this world (adding to those other
    worlds found) and return the reward of the best one, played on by ``_playout``."""
    options = ranked(knowledge, state, rng)
    known = [] if node.edges is None else node.edges
    present = [edge.command for edge in known]
    fresh = [option for option in options if option.command not in present][:width]
    node.edges = known + [
        Edge(option.command, 1, list(rewards(knowledge, option.state, option.values)))
        for option in fresh
    ]
    end = _playout(knowledge, options[0].state, rng)
    return rewards(knowledge, end, knowledge.evaluate(end))


def _playout(knowledge: Knowledge, state: State, rng: random.Random) -> State:
    """The state after every seat plays the engine's default command (it wastes least) up
    to ``PLAYOUT_PLIES`` times or to the end of the round: what the round's remaining tiles
    do to the lines, the floor and the hands shows only when they are placed."""
    engine = knowledge.engine
    current = knowledge.round_of(state)
    for _ in range(PLAYOUT_PLIES):
        if engine.is_over(state) or knowledge.round_of(state) != current:
            break
        state = advance(knowledge, state, engine.default_command(state), rng)
    return state


def _select(
    knowledge: Knowledge, node: Node, state: State, rng: random.Random
) -> tuple[Edge, State] | None:
    """The UCB-best edge this world allows, with the state it leads to; ``None`` when the
    world allows none of the node's commands."""
    seat = knowledge.engine.to_move(state)
    edges = node.edges
    log_total = math.log(sum(edge.visits for edge in edges))
    order = sorted(
        edges,
        key=lambda edge: -(edge.mean(seat) + EXPLORATION * math.sqrt(log_total / edge.visits)),
    )
    for edge in order:
        try:
            return edge, advance(knowledge, state, edge.command, rng)
        except IllegalMove:
            continue
    return None
