"""A tournament's language and state: the organiser's ``Settings``, the events (past
participles) of its stream, and the immutable ``Tournament`` folded from them by
``evolve``. What commands cause is the decider's (``decider.decide``).

Players are user ids; games are game ids."""

from dataclasses import dataclass, field, replace
from typing import Any, assert_never

from games.rules.common.codec import Codec
from games.tournaments import pairing
from games.tournaments.formats import FORMATS
from games.tournaments.formats.base import KnockedOut
from games.tournaments.standings import Result, Standing, default_points, standings

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round_robin", "knockout"
PER_GAME = (2, 3, 4)
# The most players one tournament takes (the pairing is measured for this many:
# bench/tournaments.py).
MOST_PLAYERS = 1000
# A player who times out of this many games in a row is withdrawn (issue 31).
TIMEOUTS_TO_WITHDRAW = 2
# The longest round deadline an organiser may set, in days.
MOST_ROUND_DAYS = 365

WITHDREW, REMOVED, TIMED_OUT = "withdrew", "removed", "timed_out"
# Why a tournament was cancelled: too few players when the entry window closed, or by its
# organiser or a moderator.
TOO_FEW_PLAYERS, BY_ORGANISER = "too_few_players", "organiser"


class TournamentRefused(Exception):
    """A command the tournament cannot take now: a stable ``code`` and the facts as
    ``params``; the service says it in the reader's language."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Settings:
    """What the organiser chose. ``rounds`` counts for a Swiss only (a round robin and a
    knockout take as many as their players need); ``points`` pays each place at a full
    table; ``min_players`` 0 means a table's worth. The game's own settings (``game``,
    ``options``, ``time_control``, ``rated``) are the services' to check; the entry
    window closes at ``entry_closes`` (ISO 8601, or "" for when the organiser starts);
    ``round_days``: each round's deadline, in days from its start (0: none);
    ``invited``: the email addresses an invitation-only tournament (not ``public``)
    accepts, lower-cased (the services check a player's address against them); ``bots``
    whether the organiser lets bots enter."""

    format: str
    per_game: int
    game: str
    rounds: int = 0
    points: tuple[int, ...] = ()
    min_players: int = 0
    max_players: int = 64
    min_rating: float | None = None
    min_games: int = 0
    options: dict = field(default_factory=dict)
    time_control: dict = field(default_factory=dict)
    rated: bool = True
    public: bool = True
    entry_closes: str = ""
    round_days: int = 0
    invited: tuple[str, ...] = ()
    # Whether bots (programs' accounts, issue 55) may enter; people alone otherwise.
    bots: bool = False


def settings_checked(settings: Settings) -> Settings:
    """``settings`` with the defaults filled in (points, fewest players), or
    ``TournamentRefused`` saying which setting is wrong and what is accepted."""
    if settings.format not in FORMATS:
        raise TournamentRefused("invalid_format", accepted=tuple(FORMATS))
    if settings.per_game not in PER_GAME:
        raise TournamentRefused("invalid_per_game", accepted=PER_GAME)
    settings = replace(settings, min_players=settings.min_players or settings.per_game)
    if not 2 <= settings.min_players <= settings.max_players <= MOST_PLAYERS:
        raise TournamentRefused("invalid_player_limits", most=MOST_PLAYERS)
    if settings.min_players < settings.per_game:
        raise TournamentRefused("too_few_for_a_table", per_game=settings.per_game)
    refused = FORMATS[settings.format].refusal(settings)
    if refused is not None:
        code, facts = refused
        raise TournamentRefused(code, **facts)
    if not 0 <= settings.round_days <= MOST_ROUND_DAYS:
        raise TournamentRefused("invalid_round_days", most=MOST_ROUND_DAYS)
    if settings.invited and settings.public:
        raise TournamentRefused("invitations_need_invitation_only")
    points = settings.points or default_points(settings.per_game)
    descending = all(a >= b for a, b in zip(points, points[1:], strict=False))
    if len(points) != settings.per_game or not descending or points[-1] < 0:
        raise TournamentRefused("invalid_points", places=settings.per_game)
    return replace(settings, points=tuple(points))


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentCreated:
    name: str
    organiser: int
    settings: Settings


@dataclass(frozen=True)
class PlayerRegistered:
    player: int
    rating: float


@dataclass(frozen=True)
class PlayerWithdrew:
    """``reason``: ``withdrew`` (the player), ``removed`` (the organiser or a moderator),
    ``timed_out`` (out of time in two games in a row)."""

    player: int
    reason: str


@dataclass(frozen=True)
class TournamentStarted:
    """Registration closed; the players by seed (best rating first)."""

    seeds: tuple[int, ...]


@dataclass(frozen=True)
class RoundPaired:
    """The round's tables, players in seat order (the first seat moves first)."""

    round: int
    tables: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class ByeGiven:
    """A player has no game this round and a win's points: a bye (at most once each), or
    a ``walkover`` (the opponent withdrew)."""

    round: int
    player: int
    walkover: bool = False


@dataclass(frozen=True)
class RoundStarted:
    """The round's games were created: one per table, in the tables' order; the round's
    ``deadline`` (ISO 8601, "" for none)."""

    round: int
    games: tuple[int, ...]
    deadline: str = ""


@dataclass(frozen=True)
class RoundDeadlinePassed:
    """The round's deadline passed with ``games`` unfinished: each ends by the time-out
    policy (the player to move forfeits)."""

    round: int
    games: tuple[int, ...]


@dataclass(frozen=True)
class GameResultRecorded:
    """A table's game ended: each player's place (1 = first, equal places shared), score
    in the game, and who of them ran out of time in it."""

    round: int
    game: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]
    timed_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class TournamentPaused:
    """The organiser or a moderator paused it: no new round starts (games in play go on)."""


@dataclass(frozen=True)
class TournamentResumed:
    """Rounds start again (the next at once if the round in play is over)."""


@dataclass(frozen=True)
class TournamentCancelled:
    """Called off: ``reason`` says why (``too_few_players`` at the end of the entry
    window; ``organiser``: by the organiser or a moderator, before or while it runs, its
    games in play then counting no more)."""

    reason: str


@dataclass(frozen=True)
class TournamentFinished:
    """The final ranking, best first."""

    ranking: tuple[int, ...]


Event = (
    TournamentCreated
    | PlayerRegistered
    | PlayerWithdrew
    | TournamentStarted
    | RoundPaired
    | ByeGiven
    | RoundStarted
    | RoundDeadlinePassed
    | GameResultRecorded
    | TournamentPaused
    | TournamentResumed
    | TournamentCancelled
    | TournamentFinished
)

CODEC = Codec(
    TournamentCreated,
    PlayerRegistered,
    PlayerWithdrew,
    TournamentStarted,
    RoundPaired,
    ByeGiven,
    RoundStarted,
    RoundDeadlinePassed,
    GameResultRecorded,
    TournamentPaused,
    TournamentResumed,
    TournamentCancelled,
    TournamentFinished,
)


# --- state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    player: int
    rating: float
    withdrawn: bool = False
    timeouts_in_a_row: int = 0


@dataclass(frozen=True)
class Table:
    """One table of a round: its players in seat order, its game once created, its result
    once finished."""

    round: int
    players: tuple[int, ...]
    game: int | None = None
    result: Result | None = None


@dataclass(frozen=True)
class Bye:
    round: int
    player: int
    walkover: bool


NEW, REGISTRATION, RUNNING, FINISHED, CANCELLED = (
    "new",
    "registration",
    "running",
    "finished",
    "cancelled",
)


@dataclass(frozen=True)
class Tournament:
    """Where a tournament stands: its settings, the entrants in registration order, the
    seeds, every round's tables and byes, and the final ranking once finished."""

    name: str = ""
    organiser: int = 0
    settings: Settings | None = None
    status: str = NEW
    entrants: tuple[Entrant, ...] = ()
    seeds: tuple[int, ...] = ()
    round: int = 0
    tables: tuple[Table, ...] = ()
    byes: tuple[Bye, ...] = ()
    ranking: tuple[int, ...] = ()
    deadline: str = ""
    paused: bool = False

    def entrant(self, player: int) -> Entrant | None:
        return next((e for e in self.entrants if e.player == player), None)

    def active(self) -> tuple[int, ...]:
        """The players still in: registered and not withdrawn."""
        return tuple(e.player for e in self.entrants if not e.withdrawn)

    def met(self) -> set[pairing.Pair]:
        """Every pair of players who have sat at a table together."""
        return {
            frozenset((a, b))
            for table in self.tables
            for index, a in enumerate(table.players)
            for b in table.players[index + 1 :]
        }

    def round_tables(self, number: int | None = None) -> tuple[Table, ...]:
        number = self.round if number is None else number
        return tuple(table for table in self.tables if table.round == number)

    def round_complete(self) -> bool:
        return all(table.result is not None for table in self.round_tables())

    def standings(self) -> tuple[Standing, ...]:
        """The live standings (``standings.standings``)."""
        settings = self.settings
        return standings(
            players=tuple(e.player for e in self.entrants if e.player in self._counted()),
            ratings={e.player: e.rating for e in self.entrants},
            withdrawn={e.player for e in self.entrants if e.withdrawn},
            results=tuple(t.result for t in self.tables if t.result is not None),
            byes=tuple(bye.player for bye in self.byes),
            points=settings.points,
            per_game=settings.per_game,
        )

    def _counted(self) -> set[int]:
        # Before the start, everyone registered; after it, those seeded (a player who left
        # during registration is not in the tournament).
        if self.status in (NEW, REGISTRATION):
            return set(self.active())
        return set(self.seeds)


def evolve(state: Tournament, event: Event) -> Tournament:
    """The tournament after ``event``."""
    match event:
        case TournamentCreated(name, organiser, settings):
            return replace(
                state, name=name, organiser=organiser, settings=settings, status=REGISTRATION
            )
        case PlayerRegistered(player, rating):
            kept = tuple(e for e in state.entrants if e.player != player)
            return replace(state, entrants=(*kept, Entrant(player, rating)))
        case PlayerWithdrew(player, _):
            return _entrant(state, player, withdrawn=True)
        case TournamentStarted(seeds):
            return replace(state, status=RUNNING, seeds=seeds)
        case RoundPaired(number, tables):
            new = tuple(Table(number, players) for players in tables)
            return replace(state, round=number, tables=(*state.tables, *new))
        case ByeGiven(number, player, walkover):
            return replace(state, byes=(*state.byes, Bye(number, player, walkover)))
        case RoundStarted(number, games, deadline):
            started = iter(games)
            tables = tuple(
                replace(table, game=next(started)) if table.round == number else table
                for table in state.tables
            )
            return replace(state, tables=tables, deadline=deadline)
        case RoundDeadlinePassed(_, _):
            return replace(state, deadline="")
        case GameResultRecorded(_, game, players, places, scores, timed_out):
            result = Result(players, places, scores)
            tables = tuple(
                replace(table, result=result) if table.game == game else table
                for table in state.tables
            )
            entrants = tuple(
                replace(
                    e,
                    timeouts_in_a_row=e.timeouts_in_a_row + 1 if e.player in timed_out else 0,
                )
                if e.player in players
                else e
                for e in state.entrants
            )
            return replace(state, tables=tables, entrants=entrants)
        case TournamentPaused():
            return replace(state, paused=True)
        case TournamentResumed():
            return replace(state, paused=False)
        case TournamentCancelled(_):
            return replace(state, status=CANCELLED)
        case TournamentFinished(ranking):
            return replace(state, status=FINISHED, ranking=ranking)
        case _:
            assert_never(event)


def _entrant(state: Tournament, player: int, **changes: Any) -> Tournament:
    return replace(
        state,
        entrants=tuple(replace(e, **changes) if e.player == player else e for e in state.entrants),
    )


def fold(events: list[Event], state: Tournament | None = None) -> Tournament:
    for event in events:
        state = evolve(state or Tournament(), event)
    return state or Tournament()


def knocked_out(state: Tournament) -> dict[int, KnockedOut]:
    """Every player out of the tournament by a game they lost (a knockout's), with their
    final places: nobody in other formats."""
    return FORMATS[state.settings.format].knocked_out(state)
