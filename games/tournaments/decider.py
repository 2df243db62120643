"""A tournament as a decider: commands in the imperative, and ``decide(state, command)``
returning the events a command causes in the state folded so far (``core``), or raising
``TournamentRefused``.

The service creates a paired round's games and says so with ``StartRound``, and records
each finished game with ``RecordResult``. When a round's last result comes in, ``decide``
pairs the next round (or finishes the tournament) in the same list of events, so a
tournament runs by itself."""

from dataclasses import dataclass
from datetime import datetime
from typing import assert_never

from games.tournaments import pairing
from games.tournaments.core import (
    CANCELLED,
    FINISHED,
    NEW,
    REGISTRATION,
    RUNNING,
    TIMED_OUT,
    TIMEOUTS_TO_WITHDRAW,
    TOO_FEW_PLAYERS,
    WITHDREW,
    ByeGiven,
    Event,
    GameResultRecorded,
    PlayerRegistered,
    PlayerWithdrew,
    RoundDeadlinePassed,
    RoundPaired,
    RoundStarted,
    Settings,
    Tournament,
    TournamentCancelled,
    TournamentCreated,
    TournamentFinished,
    TournamentPaused,
    TournamentRefused,
    TournamentResumed,
    TournamentStarted,
    evolve,
    settings_checked,
)
from games.tournaments.formats import FORMATS
from games.tournaments.standings import valid_places

# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateTournament:
    name: str
    organiser: int
    settings: Settings


@dataclass(frozen=True)
class Register:
    """``rating`` and ``finished_games``: the player's, for the seeding and the entry
    requirements."""

    player: int
    rating: float
    finished_games: int = 0


@dataclass(frozen=True)
class Withdraw:
    player: int
    reason: str = WITHDREW


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Pause:
    """No new round starts (the organiser or a moderator); games in play go on."""


@dataclass(frozen=True)
class Resume:
    """Rounds start again."""


@dataclass(frozen=True)
class Cancel:
    reason: str


@dataclass(frozen=True)
class StartRound:
    """The paired round's games, one per table in order, and its deadline (ISO 8601, ""
    for none)."""

    round: int
    games: tuple[int, ...]
    deadline: str = ""


@dataclass(frozen=True)
class PassDeadline:
    """The clock says ``now`` (ISO 8601): the round's deadline has passed if it is due."""

    round: int
    now: str


@dataclass(frozen=True)
class RecordResult:
    game: int
    places: tuple[int, ...]
    scores: tuple[int, ...]
    timed_out: tuple[int, ...] = ()


Command = (
    CreateTournament
    | Register
    | Withdraw
    | Start
    | Pause
    | Resume
    | Cancel
    | StartRound
    | PassDeadline
    | RecordResult
)


# --- decide -------------------------------------------------------------------------------


def decide(state: Tournament, command: Command) -> list[Event]:
    """The events ``command`` causes in ``state``; ``TournamentRefused`` if it cannot."""
    match command:
        case CreateTournament(name, organiser, settings):
            if state.status != NEW:
                raise TournamentRefused("already_created")
            if not name.strip():
                raise TournamentRefused("name_missing")
            return [TournamentCreated(name.strip(), organiser, settings_checked(settings))]
        case Register(player, rating, finished_games):
            return _register(state, player, rating, finished_games)
        case Withdraw(player, reason):
            entrant = state.entrant(player)
            if entrant is None or entrant.withdrawn:
                raise TournamentRefused("not_registered")
            if state.status in (FINISHED, CANCELLED):
                raise TournamentRefused("finished")
            return [PlayerWithdrew(player, reason)]
        case Start():
            return _start(state)
        case Pause():
            if state.status != RUNNING:
                raise TournamentRefused("not_running")
            if state.paused:
                raise TournamentRefused("already_paused")
            return [TournamentPaused()]
        case Resume():
            if state.status != RUNNING or not state.paused:
                raise TournamentRefused("not_paused")
            resumed = TournamentResumed()
            return [resumed, *_moved_on(evolve(state, resumed))]
        case Cancel(reason):
            if state.status not in (REGISTRATION, RUNNING):
                raise TournamentRefused("finished")
            if reason == TOO_FEW_PLAYERS and state.status != REGISTRATION:
                raise TournamentRefused("registration_closed")
            return [TournamentCancelled(reason)]
        case StartRound(number, games, deadline):
            tables = state.round_tables(number)
            if state.status != RUNNING or number != state.round or tables[0].game is not None:
                raise TournamentRefused("round_not_waiting", round=number)
            if len(games) != len(tables):
                raise TournamentRefused("games_do_not_match_tables", tables=len(tables))
            return [RoundStarted(number, tuple(games), deadline)]
        case PassDeadline(number, now):
            return _deadline_passed(state, number, now)
        case RecordResult(game, places, scores, timed_out):
            return _record(state, game, places, scores, timed_out)
        case _:
            assert_never(command)


def _register(state: Tournament, player: int, rating: float, games: int) -> list[Event]:
    settings = state.settings
    if state.status != REGISTRATION:
        raise TournamentRefused("registration_closed")
    entrant = state.entrant(player)
    if entrant is not None and not entrant.withdrawn:
        raise TournamentRefused("already_registered")
    if len(state.active()) >= settings.max_players:
        raise TournamentRefused("full", most=settings.max_players)
    if settings.min_rating is not None and rating < settings.min_rating:
        raise TournamentRefused("rating_too_low", rating=rating, needed=settings.min_rating)
    if games < settings.min_games:
        raise TournamentRefused("too_few_games", games=games, needed=settings.min_games)
    return [PlayerRegistered(player, rating)]


def _start(state: Tournament) -> list[Event]:
    if state.status != REGISTRATION:
        raise TournamentRefused("registration_closed")
    active, settings = state.active(), state.settings
    needed = FORMATS[settings.format].needed(settings)
    if len(active) < needed:
        raise TournamentRefused("too_few_players", players=len(active), needed=needed)
    rating = {e.player: e.rating for e in state.entrants}
    order = {player: index for index, player in enumerate(active)}
    seeds = tuple(sorted(active, key=lambda p: (-rating[p], order[p])))
    started = TournamentStarted(seeds)
    return [started, *_next_round(evolve(state, started))]


def _deadline_passed(state: Tournament, number: int, now: str) -> list[Event]:
    unfinished = tuple(
        table.game for table in state.round_tables(number) if table.result is None and table.game
    )
    due = bool(state.deadline) and datetime.fromisoformat(state.deadline) <= datetime.fromisoformat(
        now
    )
    waiting = state.status == RUNNING and not state.paused and number == state.round
    if not waiting or not due or not unfinished:
        raise TournamentRefused("deadline_not_passed", round=number)
    return [RoundDeadlinePassed(number, unfinished)]


def _record(
    state: Tournament,
    game: int,
    places: tuple[int, ...],
    scores: tuple[int, ...],
    timed_out: tuple[int, ...],
) -> list[Event]:
    if state.status != RUNNING:
        raise TournamentRefused("finished")
    table = next((t for t in state.tables if t.game == game), None)
    if table is None:
        raise TournamentRefused("not_a_tournament_game", game=game)
    if table.result is not None:
        raise TournamentRefused("result_recorded", game=game)
    seats = len(table.players)
    if len(places) != seats or len(scores) != seats or not valid_places(places):
        raise TournamentRefused("invalid_result", players=seats)
    timed_out = tuple(player for player in table.players if player in timed_out)
    events: list[Event] = [
        GameResultRecorded(table.round, game, table.players, places, scores, timed_out)
    ]
    state = evolve(state, events[0])
    for player in timed_out:
        entrant = state.entrant(player)
        if entrant.timeouts_in_a_row >= TIMEOUTS_TO_WITHDRAW and not entrant.withdrawn:
            withdrew = PlayerWithdrew(player, TIMED_OUT)
            events.append(withdrew)
            state = evolve(state, withdrew)
    return [*events, *_moved_on(state)]


def _moved_on(state: Tournament) -> list[Event]:
    """When the running round has all its results: the next round, or the end (not
    while paused)."""
    if state.status != RUNNING or state.paused or not state.round_complete():
        return []
    return _next_round(state)


def _next_round(state: Tournament) -> list[Event]:
    """Pair the next round, or finish: a round with no game to play (everyone has a bye
    or a walkover) is over at once and the one after it follows."""
    events: list[Event] = []
    while True:
        paired = _pairing(state)
        if paired is None:
            ranking = tuple(standing.player for standing in state.standings())
            events.append(TournamentFinished(ranking))
            return events
        number = state.round + 1
        round_events: list[Event] = [RoundPaired(number, _seated(state, paired.tables))]
        round_events += [ByeGiven(number, player) for player in paired.byes]
        round_events += [ByeGiven(number, player, walkover=True) for player in paired.walkovers]
        for event in round_events:
            state = evolve(state, event)
        events.extend(round_events)
        if paired.tables:
            return events


def _seated(state: Tournament, tables: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...]]:
    """Each table in seat order: who has sat first least often sits first (the first
    player moves first in every game offered), then the better seed."""
    firsts: dict[int, int] = {}
    for table in state.tables:
        firsts[table.players[0]] = firsts.get(table.players[0], 0) + 1
    seed = {player: index for index, player in enumerate(state.seeds)}
    return tuple(
        tuple(sorted(table, key=lambda p: (firsts.get(p, 0), seed[p]))) for table in tables
    )


def _pairing(state: Tournament) -> pairing.Round | None:
    """The next round's tables and byes (by the tournament's format), or None when the
    tournament is over."""
    if len(state.active()) < 2:
        return None
    return FORMATS[state.settings.format].pairing(state)
