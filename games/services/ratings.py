"""Ratings (issue 16): a projection of the game streams, rebuilt at will.

Each game's ladder (Azul, Summer Pavilion, Miyabi) rates its players with OpenSkill's
Plackett-Luce model, which rates a free-for-all of two to four players with ties in one
update. Glicko-2 was the alternative: it is made for two-player results grouped into rating
periods, so a game of four would have to be split into six made-up duels that count the
same game several times; Plackett-Luce takes the game's finishing order as it is.

When a game finishes, ``ratings_game_finished`` records its ``GameResult`` (from its events)
and applies it to the ladder in the same transaction. Results are applied in game-end order
(``ended_at``, then game id): a result that arrives out of that order, or a finished game
taken back by a moderator (``ratings_game_reopened``), recomputes the ladder from that point
on. ``ratings_rebuild`` recomputes everything from the events (``rebuild_projections``) and
gets the same numbers, because the live path and the rebuild run the same fold in the same
order on the same floats.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Q
from openskill.models import PlackettLuce

from events import store
from games import table as tbl
from games.models import (
    Game,
    GameResult,
    PlayerSettings,
    Rating,
    RatingChange,
    RatingLadder,
    ResultSeat,
)
from games.repository import game_table

# OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): the library's documented
# numbers hold for them, and the model's authors advise against changing them.
MODEL = PlackettLuce()

# The rating people see: the conservative estimate mu - 3 sigma (the player is very likely at
# least this good), on a scale where a newcomer shows 1500 and one OpenSkill point is 20.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
# Shown as "± N": two standard deviations on the same scale.
UNCERTAINTY_SIGMAS = 2
# A rating is provisional until the player has this many rated games on the ladder.
PROVISIONAL_GAMES = 5

USER_PREFIX = "user:"
WRITE_BATCH = 5000


def display_rating(mu: float, sigma: float) -> int:
    """The conservative rating shown to people (``DISPLAY_BASE`` for a newcomer)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def uncertainty(sigma: float) -> int:
    """The "±" shown next to a rating."""
    return round(UNCERTAINTY_SIGMAS * DISPLAY_SCALE * sigma)


# --- a game's result, from its events --------------------------------------------------------


@dataclass(frozen=True)
class Placing:
    """One seat's end of the game."""

    seat: int
    actor: str
    score: int
    won: bool
    resigned: bool
    timed_out: bool
    place: int = 0


def placings(table: tbl.Table, events: Iterable[store.StoredEvent]) -> list[Placing]:
    """Every seat's place (1 = first; equal places share). Seats still playing at the end
    come first, by the game's winners then score; then seats that resigned, the last to
    resign first; a seat that ran out of time (a move played for it on timeout, or a
    forfeit) is last (issue 16)."""
    forfeits, resigned = set(), {}
    for event in events:
        if event.type == "table.Resigned":
            resigned[event.data["seat"]] = event.seq
            if event.reason == tbl.TIME_RAN_OUT:
                forfeits.add(event.data["seat"])
    timed_out = forfeits | {step.seat for step in table.steps if step.auto == "timeout"}
    scores, winners = table.scores(), set(table.winners())
    seats = [
        Placing(
            seat=seat,
            actor=actor,
            score=scores[seat] if seat < len(scores) else 0,
            won=seat in winners,
            resigned=seat in resigned,
            timed_out=seat in timed_out,
        )
        for seat, actor in enumerate(table.players)
    ]

    def standing(placing: Placing) -> tuple:
        if placing.timed_out:
            return (2,)
        if placing.resigned:
            return (1, -resigned[placing.seat])
        return (0, not placing.won, -placing.score)

    keys = [standing(placing) for placing in seats]
    return [
        Placing(**{**vars(placing), "place": 1 + sum(other < key for other in keys)})
        for placing, key in zip(seats, keys, strict=True)
    ]


def end_seq(table: tbl.Table, events: list[store.StoredEvent]) -> int:
    """The event that ended the game: its last counting move, or the resignation that left
    one player (later events, such as a moderator hiding a chat message, change nothing)."""
    resignations = [e.seq for e in events if e.type == "table.Resigned"]
    return max([table.steps[-1].last, *resignations])


def _excluded(game: Game, seats: list[Placing]) -> str:
    return GameResult.Excluded.ruling(
        rated=game.rated,
        computer_players=sum(not placing.actor.startswith(USER_PREFIX) for placing in seats),
    )


def result_of(game: Game, table: tbl.Table | None = None) -> tuple[GameResult, list[ResultSeat]]:
    """The (unsaved) result rows of a finished game, read from its events."""
    events = store.load(game.stream)
    table = table if table is not None else game_table(game)
    seats = placings(table, events)
    end = end_seq(table, events)
    ended_at = next(event.recorded_at for event in events if event.seq == end)
    result = GameResult(
        game=game,
        game_type=game.game_type,
        side=next(iter(game.options.values()), ""),
        players=len(seats),
        ended_at=ended_at,
        end_seq=end,
        private=game.private,
        shared_win=sum(placing.won for placing in seats) > 1,
        excluded=_excluded(game, seats),
    )
    rows = [
        ResultSeat(
            result=result,
            user_id=_user_id(placing.actor),
            actor=placing.actor,
            seat=placing.seat,
            place=placing.place,
            score=placing.score,
            won=placing.won,
            resigned=placing.resigned,
            timed_out=placing.timed_out,
            game_type=game.game_type,
            ended_at=ended_at,
        )
        for placing in seats
    ]
    return result, rows


def _user_id(actor: str) -> int | None:
    kind, _, number = actor.partition(":")
    return int(number) if kind + ":" == USER_PREFIX and number.isdigit() else None


def _facts(result: GameResult, seats: Iterable[ResultSeat]) -> tuple:
    fields = ("game_type", "side", "players", "ended_at", "end_seq", "private", "shared_win")
    head = tuple(getattr(result, name) for name in (*fields, "excluded"))
    # The seat first: it is unique in a game, so the sort never compares the ``user_id`` of a
    # person with the ``None`` of a computer player.
    rows = ("seat", "user_id", "actor", "place", "score", "won", "resigned", "timed_out")
    return head, tuple(sorted(tuple(getattr(s, name) for name in rows) for s in seats))


# --- the live path ----------------------------------------------------------------------------


def ratings_game_finished(game: Game, *, table: tbl.Table | None = None) -> None:
    """Record a game that has just finished and update its ladder. For the write path
    (the reaction ``reactions.ratings``), in the transaction that finished the game. Safe to call
    again: an unchanged result changes nothing."""
    if game.status != Game.Status.FINISHED:
        ratings_game_reopened(game)
        return
    result, seats = result_of(game, table)
    _lock_ladder(game.game_type)
    old = GameResult.objects.filter(game=game).first()
    if old is not None and _facts(old, old.seats.all()) == _facts(result, seats):
        return
    since = _earliest(old, result)
    rated_before = _drop(old)
    # Its row is gone if it was there (``_drop``): an INSERT, without the UPDATE that
    # ``save()`` tries first on a row whose key is given.
    result.save(force_insert=True)
    ResultSeat.objects.bulk_create(seats)
    if since is None:
        return
    if old is None and _is_latest(result):
        _apply_latest(result, seats)
    else:
        _replay(game.game_type, since=since, touched=rated_before)


def ratings_game_reopened(game: Game) -> None:
    """A finished game no longer has its result (a moderator took it back or aborted it):
    drop the result and recompute the ladder from where it stood."""
    old = GameResult.objects.filter(game=game).first()
    if old is None:
        return
    _lock_ladder(old.game_type)
    since = _earliest(old, None)
    rated_before = _drop(old)
    if since is not None:
        _replay(old.game_type, since=since, touched=rated_before)


def _drop(old: GameResult | None) -> set[int]:
    """Delete a result (its seats and rating changes go with it); the players it rated."""
    if old is None:
        return set()
    rated = set(old.changes.values_list("user_id", flat=True))
    old.delete()
    return rated


def _earliest(old: GameResult | None, new: GameResult | None) -> tuple | None:
    """Where the ladder must be recomputed from: the earlier of the two results that count."""
    keys = [
        (r.ended_at, r.game_id)
        for r in (old, new)
        if r is not None and r.excluded == GameResult.Excluded.COUNTED
    ]
    return min(keys) if keys else None


def _lock_ladder(game_type: str) -> None:
    RatingLadder.objects.select_for_update().get_or_create(game_type=game_type)


def _is_latest(result: GameResult) -> bool:
    later = Q(ended_at__gt=result.ended_at) | Q(ended_at=result.ended_at, result__gt=result.game_id)
    return not RatingChange.objects.filter(later, game_type=result.game_type).exists()


def _apply_latest(result: GameResult, seats: list[ResultSeat]) -> None:
    """The usual case: the game ended after every other on its ladder."""
    ids = [seat.user_id for seat in seats]
    ratings = Rating.objects.filter(game_type=result.game_type, user_id__in=ids)
    current = {rating.user_id: rating for rating in ratings}
    state = {user: (r.mu, r.sigma, r.games) for user, r in current.items()}
    changes = _rate(result.game_id, [(seat.user_id, seat.place) for seat in seats], state)
    _write_changes(result.game_type, [(*change, result.ended_at) for change in changes])
    for user, *_ in changes:
        rating = current.get(user) or Rating(user_id=user, game_type=result.game_type)
        rating.mu, rating.sigma, rating.games = state[user]
        rating.display = display_rating(rating.mu, rating.sigma)
        rating.last_played_at = result.ended_at
        rating.save()


Change = tuple[int, int, float, float, float, float]  # user, game, mu/sigma before, after


def _rate(game_id: int, seats: list[tuple[int, int]], state: dict) -> list[Change]:
    """Rate one game whose seats are (user, place) in seat order: update ``state``
    (user -> (mu, sigma, games)) and return each player's change. The one fold shared by
    the live path and every recomputation, so both compute the same floats."""
    before = [state.get(user, (MODEL.mu, MODEL.sigma, 0)) for user, _ in seats]
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma, _ in before]
    rated = MODEL.rate(teams, ranks=[place for _, place in seats])
    changes = []
    for (user, _), (mu0, sigma0, games), [after] in zip(seats, before, rated, strict=True):
        state[user] = (after.mu, after.sigma, games + 1)
        changes.append((user, game_id, mu0, sigma0, after.mu, after.sigma))
    return changes


# --- recomputing a ladder ------------------------------------------------------------------


def _replay(
    game_type: str, *, since: tuple[datetime, int] | None, touched: set[int] | None = None
) -> int:
    """Recompute the ladder from the result ``since`` (ended_at, game id) on, or from the
    start (``None``); how many games were rated. ``touched``: players of a result just
    dropped, whose ratings must be recomputed too. The caller holds the ladder's lock."""
    changes = RatingChange.objects.filter(game_type=game_type)
    seats = ResultSeat.objects.filter(
        game_type=game_type, result__excluded=GameResult.Excluded.COUNTED
    )
    state: dict[int, tuple[float, float, int]] = {}
    played: dict[int, datetime] = {}
    touched = set(touched or ())
    if since is None:
        changes.delete()
        Rating.objects.filter(game_type=game_type).delete()
    else:
        at, game_id = since
        later = Q(ended_at__gt=at) | Q(ended_at=at, result__gte=game_id)
        # Players whose later games are recomputed (or no longer count at all).
        touched |= set(changes.filter(later).values_list("user_id", flat=True))
        changes.filter(later).delete()
        earlier = changes.order_by("ended_at", "result_id").values_list(
            "user_id", "mu", "sigma", "ended_at"
        )
        for user, mu, sigma, ended_at in earlier.iterator(chunk_size=WRITE_BATCH):
            state[user] = (mu, sigma, state.get(user, (0, 0, 0))[2] + 1)
            played[user] = ended_at
        seats = seats.filter(later)
    rows = seats.order_by("ended_at", "result_id", "seat").values_list(
        "result_id", "ended_at", "user_id", "place"
    )
    written: list[tuple] = []
    count = 0
    for (game_id, ended_at), game_seats in groupby(
        rows.iterator(chunk_size=WRITE_BATCH), key=lambda row: row[:2]
    ):
        for change in _rate(game_id, [(user, place) for *_, user, place in game_seats], state):
            written.append((*change, ended_at))
            touched.add(change[0])
            played[change[0]] = ended_at
        count += 1
        if len(written) >= WRITE_BATCH:
            _write_changes(game_type, written)
            written = []
    _write_changes(game_type, written)
    Rating.objects.filter(game_type=game_type, user_id__in=touched).delete()
    _insert(
        Rating,
        ("user_id", "game_type", "mu", "sigma", "games", "display", "last_played_at"),
        (
            (user, game_type, mu, sigma, games, display_rating(mu, sigma), played[user])
            for user, (mu, sigma, games) in state.items()
            if user in touched
        ),
    )
    return count


CHANGE_COLUMNS = ("user_id", "result_id", "mu_before", "sigma_before", "mu", "sigma")


def _write_changes(game_type: str, written: list[tuple]) -> None:
    _insert(
        RatingChange,
        (*CHANGE_COLUMNS, "ended_at", "game_type", "display"),
        ((*row, game_type, display_rating(row[4], row[5])) for row in written),
    )


def _insert(model, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert rows in bulk: PostgreSQL's COPY (a rebuild writes hundreds of thousands),
    Django's bulk insert elsewhere."""
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=500
        )
        return
    names = ", ".join(model._meta.get_field(column).column for column in columns)
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {model._meta.db_table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


@transaction.atomic
def ratings_rebuild(*, results: bool = True) -> dict[str, int]:
    """Recompute every ladder from the start (``rebuild_projections``): with ``results``,
    first every finished game's result from its events. How many games each ladder rated."""
    if results:
        results_rebuild()
    rated = {}
    ladders = GameResult.objects.values_list("game_type", flat=True).distinct()
    for game_type in sorted({*ladders, *RatingLadder.objects.values_list("game_type", flat=True)}):
        _lock_ladder(game_type)
        rated[game_type] = _replay(game_type, since=None)
    return rated


def results_rebuild() -> None:
    """Every finished game's result read again from its events; results of games that are
    no longer finished are dropped."""
    GameResult.objects.exclude(game__status=Game.Status.FINISHED).delete()
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    for game in finished.iterator(chunk_size=500):
        result, seats = result_of(game)
        old = GameResult.objects.filter(game=game).first()
        if old is not None and _facts(old, old.seats.all()) == _facts(result, seats):
            continue
        if old is not None:
            old.delete()
        result.save()
        ResultSeat.objects.bulk_create(seats)


# --- players' choices -----------------------------------------------------------------------


@transaction.atomic
def profile_visibility_set(*, user, hidden: bool) -> PlayerSettings:
    """Hide the player's profile from people who are not signed in (or show it again)."""
    prefs, _ = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    prefs.profile_hidden = bool(hidden)
    prefs.save(update_fields=["profile_hidden"])
    return prefs
