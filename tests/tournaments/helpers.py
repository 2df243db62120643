"""Running a tournament's pure decider to the end with made-up games: no database."""

from collections.abc import Callable
from itertools import count

from games.tournaments import core, decider

Results = Callable[[core.Table], tuple[tuple[int, ...], tuple[int, ...]]]


def by_rating(ratings: dict[int, float]) -> Results:
    """Places and scores where the better-rated player always wins (scores 10 a rating)."""

    def result(table: core.Table) -> tuple[tuple[int, ...], tuple[int, ...]]:
        order = sorted(table.players, key=lambda p: -ratings[p])
        places = tuple(order.index(player) + 1 for player in table.players)
        return places, tuple(int(ratings[player] // 10) for player in table.players)

    return result


def apply(state: core.Tournament, command) -> tuple[core.Tournament, list]:
    events = decider.decide(state, command)
    for event in events:
        state = core.evolve(state, event)
    return state, events


def opened(players: dict[int, float], **settings) -> tuple[core.Tournament, list]:
    """A tournament in registration with ``players`` (id → rating) registered."""
    log: list = []
    state, events = apply(
        core.Tournament(), decider.CreateTournament("Spring cup", 1, core.Settings(**settings))
    )
    log += events
    for player, rating in players.items():
        state, events = apply(state, decider.Register(player, rating))
        log += events
    return state, log


def run(
    state: core.Tournament,
    results: Results,
    *,
    timed_out: Callable[[core.Table], tuple[int, ...]] = lambda table: (),
    between: Callable[[core.Tournament], list] = lambda state: [],
) -> tuple[core.Tournament, list]:
    """Start ``state`` and play every round: each table's game numbered in turn, its
    result from ``results``; ``between`` gives commands to run before each round's
    results (withdrawals)."""
    games = count(1000)
    state, log = apply(state, decider.Start())
    while state.status == core.RUNNING:
        tables = state.round_tables()
        state, events = apply(
            state, decider.StartRound(state.round, tuple(next(games) for _ in tables))
        )
        log += events
        for command in between(state):
            state, events = apply(state, command)
            log += events
        for table in state.round_tables():
            if state.status != core.RUNNING:
                break
            places, scores = results(table)
            state, events = apply(
                state, decider.RecordResult(table.game, places, scores, timed_out(table))
            )
            log += events
    return state, log
