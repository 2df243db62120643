"""Computer players for every game of the site, standard library only (the purity
contract covers this package). See ``docs/bots.md``.

``choose(game, state, seat, level, seed)`` answers the command a bot of that level plays
for ``seat``. Three levels, named for players: ``easy`` (greedy, one ply), ``medium``
(heuristic lookahead) and ``hard`` (information-set Monte Carlo tree search within a CPU
time budget). A bot is fair by construction: it searches only worlds drawn from what its
seat may see, with its own RNG, never the game's. ``appraise`` judges a move played
against hard's own choice (the post-game analysis; marks and accuracy in ``accuracy``).
"""

import random
import time
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType

from games.bots.accuracy import judgement, stretch_of, win_drop
from games.bots.knowledge import Command, Knowledge, State
from games.bots.search import SearchResult, greedy, lookahead, tree_search
from games.registry import GAME_TYPES

EASY, MEDIUM, HARD = "easy", "medium", "hard"
LEVELS = (EASY, MEDIUM, HARD)
"""From weakest to strongest."""

DEFAULT_BUDGET_SECONDS = 2.0
"""Hard's CPU time per move unless told otherwise (the site's setting passes its own)."""
MEDIUM_WIDTH = 6
"""Medium looks further at this many of its best greedy commands."""
HARD_WIDTH = 10
"""Hard's tree tries at most this many of the best greedy commands per node (more when
other worlds allow other commands)."""


def knowledge_for(game: str | ModuleType) -> Knowledge:
    """The bots' knowledge of a registered game, by slug or by engine: the ``KNOWLEDGE`` of
    the module its registry entry names (``GameType.bot``); ``KeyError`` if unknown."""
    return _knowledge(game if isinstance(game, str) else game.NAME)


@cache
def _knowledge(slug: str) -> Knowledge:
    return import_module(GAME_TYPES[slug].bot).KNOWLEDGE


def choose(
    game: str | ModuleType, state: State, seat: int, level: str, seed: int, **limits
) -> Command:
    """The command a bot of ``level`` plays for ``seat``, who must be the seat to move;
    ``limits`` are ``search``'s ``budget_seconds`` or ``simulations`` for hard.

    Easy and medium are deterministic for a given ``seed``. Hard searches for
    ``simulations`` simulations when given (deterministic for a seed, for tests and
    replays), otherwise for ``budget_seconds`` of CPU time (default
    ``DEFAULT_BUDGET_SECONDS``), so how far it gets depends on the machine."""
    return search(game, state, seat, level, seed, **limits).command


def search(
    game: str | ModuleType,
    state: State,
    seat: int,
    level: str,
    seed: int,
    *,
    budget_seconds: float | None = None,
    simulations: int | None = None,
    include: Command | None = None,
) -> SearchResult:
    """``choose`` with what the search found: at hard, each root command's visits and
    value for the seat and the number of simulations (for analysis and the benchmark).
    ``include``: at hard, a legal command the search must value whatever its greedy rank."""
    started = time.process_time()
    knowledge = knowledge_for(game)
    engine = knowledge.engine
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    if engine.to_move(state) != seat:
        raise ValueError(f"seat {seat + 1} is not to move")
    rng = random.Random(seed)
    commands = knowledge.commands(state)
    if len(commands) == 1 and include is None:
        return SearchResult(commands[0], (), 0)
    if level == HARD:
        if simulations is None and budget_seconds is None:
            budget_seconds = DEFAULT_BUDGET_SECONDS
        if budget_seconds is not None:
            # The budget is the whole call's: listing the commands took some of it.
            budget_seconds -= time.process_time() - started
        return tree_search(
            knowledge,
            state,
            seat,
            rng,
            width=HARD_WIDTH,
            budget_seconds=budget_seconds,
            simulations=simulations,
            include=include,
        )
    world = knowledge.determinize(state, seat, rng)
    if level == EASY:
        return SearchResult(greedy(knowledge, world, rng), (), 1)
    players = len(engine.scores(world))
    command = lookahead(knowledge, world, rng, width=MEDIUM_WIDTH, plies=players)
    return SearchResult(command, (), 1)


@dataclass(frozen=True)
class Appraisal:
    """Hard's judgement of a move: the command it prefers, and the estimated value (its mean
    reward for the mover, from 0 for a sure loss to 1 for a sure win) of that command and
    of the one played."""

    best: Command
    best_value: float
    played_value: float
    stretch: float = 1.0

    @property
    def drop(self) -> float:
        """The winning chances in percent the played move gave away (``accuracy``, with
        the game's ``stretch``)."""
        return win_drop(self.best_value, self.played_value, self.stretch)

    @property
    def judgement(self) -> str:
        """``"??"``, ``"?"`` or ``""`` (``accuracy.judgement`` of the drop)."""
        return judgement(self.drop)


def appraise(
    game: str | ModuleType, state: State, played: Command, seed: int, *, simulations: int
) -> Appraisal:
    """Hard's search for the seat to move in ``state`` (``simulations`` of them, so the
    judgement repeats itself for a seed), valuing the ``played`` command beside its own
    choice. ``state`` must offer more than one legal command."""
    engine = knowledge_for(game).engine
    seat = engine.to_move(state)
    found = search(game, state, seat, HARD, seed, simulations=simulations, include=played)
    value = {command: mean for command, _, mean in found.values}
    return Appraisal(found.command, value[found.command], value[played], stretch_of(engine.NAME))
