"""Reads of the ratings, profiles and archive. Nothing here writes. Names only, never
email addresses (``games.selectors.names.display_name``)."""

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games.boards import side_name, title_of
from games.errors import NotFound
from games.models import (
    Game,
    GameResult,
    PlayerSettings,
    Rating,
    RatingChange,
    ResultSeat,
    Seat,
)
from games.registry import GAME_TYPES
from games.selectors.access import is_moderator
from games.selectors.history import export_record
from games.selectors.names import BOT_ACTOR_PREFIX, actor_name, display_name, table_names
from games.services.ratings import PROVISIONAL_GAMES, display_rating, uncertainty

# The leaderboard shows players with a rated game on the ladder this recently.
ACTIVE_DAYS = 180
RECENT_GAMES = 20
HEAD_TO_HEAD_GAMES = 2000
RESULTS = ("won", "lost", "shared")


def player_get(player_id):
    """The player with that id; ``NotFound`` otherwise."""
    try:
        return get_user_model().objects.get(pk=int(player_id), is_active=True)
    except (ValueError, TypeError, get_user_model().DoesNotExist):
        raise NotFound(gettext("there is no player %(number)s") % {"number": player_id}) from None


def profile_hidden(user) -> bool:
    return PlayerSettings.objects.filter(user=user, profile_hidden=True).exists()


def profile_visible(user, viewer) -> bool:
    """A hidden profile is seen by signed-in players only (issue 16: hidden from
    non-players); every other profile by anyone."""
    return getattr(viewer, "is_authenticated", False) or not profile_hidden(user)


@dataclass(frozen=True)
class LadderRating:
    """A rating as people see it: "1523 ± 80", provisional for the first games."""

    game: str
    title: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool
    mu: float
    sigma: float
    last_played_at: datetime | None


def ladder_rating(rating: Rating) -> LadderRating:
    return LadderRating(
        game=rating.game_type,
        title=title_of(rating.game_type),
        rating=rating.display,
        uncertainty=uncertainty(rating.sigma),
        games=rating.games,
        provisional=rating.games < PROVISIONAL_GAMES,
        mu=rating.mu,
        sigma=rating.sigma,
        last_played_at=rating.last_played_at,
    )


def ratings_of(user) -> list[LadderRating]:
    """The player's rating on each ladder they have played, in the site's game order."""
    ratings = {rating.game_type: rating for rating in Rating.objects.filter(user=user)}
    return [ladder_rating(ratings[slug]) for slug in GAME_TYPES if slug in ratings]


def rating_history(user, game: str) -> QuerySet[RatingChange]:
    """The player's rating after each rated game of ``game``, oldest first."""
    return RatingChange.objects.filter(user=user, game_type=game).order_by("ended_at", "result_id")


def history_point(change: RatingChange) -> dict:
    return {
        "game_id": change.result_id,
        "ended_at": change.ended_at,
        "rating": change.display,
        "uncertainty": uncertainty(change.sigma),
        "change": change.display - display_rating(change.mu_before, change.sigma_before),
    }


def stats_of(user) -> list[dict]:
    """Games played and won and the average score, per game (rated or not)."""
    rows = (
        ResultSeat.objects.filter(user=user)
        .values("game_type")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)), average=Avg("score"))
    )
    by_game = {row["game_type"]: row for row in rows}
    return [
        {
            "game": slug,
            "title": title_of(kind.slug),
            "played": by_game[slug]["played"],
            "won": int(by_game[slug]["won"] or 0),
            "average_score": round(by_game[slug]["average"] or 0, 1),
        }
        for slug, kind in GAME_TYPES.items()
        if slug in by_game
    ]


def current_games(user, viewer) -> QuerySet[Game]:
    """Games the player sits at that are waiting for players or in play, as ``viewer``
    may know of them: a private game only to its players, those invited to it and the
    moderators (``games.selectors.access.can_view``)."""
    games = Game.objects.filter(
        seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).distinct()
    if not is_moderator(viewer):
        games = games.filter(_private_visible(viewer))
    return games.order_by("-last_move_at", "-created_at")


def _private_visible(viewer) -> Q:
    """Games public, or private with the viewer seated or invited."""
    if not getattr(viewer, "is_authenticated", False):
        return Q(private=False)
    own = Seat.objects.filter(game=OuterRef("pk"))
    return (
        Q(private=False)
        | Exists(own.filter(user=viewer))
        | Exists(own.filter(status=Seat.Status.INVITED, invited_email__iexact=viewer.email or "-"))
    )


def _visible_results(viewer) -> Q:
    """Finished games the viewer may see: public ones, and private ones they played."""
    if is_moderator(viewer):
        return Q()
    if not getattr(viewer, "is_authenticated", False):
        return Q(private=False)
    return Q(private=False) | Exists(ResultSeat.objects.filter(result=OuterRef("pk"), user=viewer))


def finished_games(user, viewer, limit: int = RECENT_GAMES) -> list[GameResult]:
    """The player's latest finished games the viewer may see, newest first."""
    mine = ResultSeat.objects.filter(user=user).values("result")
    return with_seats(
        GameResult.objects.filter(_visible_results(viewer), pk__in=mine).order_by(
            "-ended_at", "-game"
        )[:limit]
    )


def with_seats(results) -> list[GameResult]:
    """Results with their seats and the players' names (``seat_rows``)."""
    results = list(results)
    seats = defaultdict(list)
    rows = ResultSeat.objects.filter(result__in=[r.pk for r in results]).select_related("user")
    for seat in rows.order_by("place", "seat"):
        seats[seat.result_id].append(seat)
    for result in results:
        names = _seat_names(seats[result.pk])
        result.seat_rows = [
            {
                "seat": seat.seat,
                "player_id": seat.user_id,
                "player": names[seat.seat],
                "place": seat.place,
                "score": seat.score,
                "won": seat.won,
                "resigned": seat.resigned,
                "timed_out": seat.timed_out,
            }
            for seat in seats[result.pk]
        ]
        result.title = title_of(result.game_type)
        result.side_said = side_name(result.side) if result.side else ""
    return results


def _seat_names(seats: list[ResultSeat]) -> dict[int, str]:
    """The name of each seat of one finished game, by seat, as the game page and the replay
    say them (``selectors.names.table_names``: "Computer 2 (medium)")."""
    ordered = sorted(seats, key=lambda seat: seat.seat)
    names = table_names(
        [(seat.user, seat.actor.removeprefix(BOT_ACTOR_PREFIX)) for seat in ordered]
    )
    return {
        seat.seat: name or actor_name(seat.actor) for seat, name in zip(ordered, names, strict=True)
    }


def head_to_head(user, viewer) -> list[dict]:
    """Every opponent of the player in finished games the viewer may see: games together,
    how often each finished ahead, equal places; most games first."""
    results = (
        GameResult.objects.filter(_visible_results(viewer), seats__user=user)
        .order_by("-ended_at")
        .values_list("pk", flat=True)[:HEAD_TO_HEAD_GAMES]
    )
    places = defaultdict(dict)
    for result, player, place in ResultSeat.objects.filter(
        result__in=list(results), user__isnull=False
    ).values_list("result_id", "user_id", "place"):
        places[result][player] = place
    record = defaultdict(lambda: {"games": 0, "ahead": 0, "behind": 0, "level": 0})
    for seats in places.values():
        mine = seats.get(user.pk)
        for other, place in seats.items():
            if other == user.pk or mine is None:
                continue
            row = record[other]
            row["games"] += 1
            key = "ahead" if mine < place else "behind" if mine > place else "level"
            row[key] += 1
    names = {u.pk: u for u in get_user_model().objects.filter(pk__in=list(record))}
    rows = [
        {"player_id": other, "player": display_name(names[other]), **row}
        for other, row in record.items()
        if other in names
    ]
    return sorted(rows, key=lambda row: (-row["games"], row["player"]))


def leaderboard(game: str, now: datetime | None = None) -> QuerySet[Rating]:
    """The ladder of ``game``: players past their provisional games who played a rated game
    in the last ``ACTIVE_DAYS``, best conservative rating first."""
    now = now or timezone.now()
    return (
        Rating.objects.filter(
            game_type=game,
            games__gte=PROVISIONAL_GAMES,
            last_played_at__gte=now - timedelta(days=ACTIVE_DAYS),
            user__is_active=True,
        )
        .select_related("user", "user__player_settings")
        .order_by("-display", "-games", "user_id")
    )


def leaderboard_row(rating: Rating, rank: int, viewer) -> dict:
    """A line of the leaderboard; a hidden profile shows no name to visitors."""
    prefs = getattr(rating.user, "player_settings", None)
    hidden = bool(prefs and prefs.profile_hidden) and not viewer.is_authenticated
    return {
        "rank": rank,
        "player_id": None if hidden else rating.user_id,
        "player": None if hidden else display_name(rating.user),
        "rating": rating.display,
        "uncertainty": uncertainty(rating.sigma),
        "games": rating.games,
    }


@dataclass(frozen=True)
class ArchiveQuery:
    """What the archive is searched by; every field is optional."""

    player: int | None = None
    player_name: str = ""
    game: str = ""
    side: str = ""
    players: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    result: str = ""
    rated: bool | None = None


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def archive_search(query: ArchiveQuery, viewer) -> QuerySet[GameResult]:
    """Finished games the viewer may see that match ``query``, newest first. ``won`` and
    ``lost`` are about the chosen player."""
    results = GameResult.objects.filter(_visible_results(viewer))
    if query.game:
        results = results.filter(game_type=query.game)
    if query.side:
        results = results.filter(side=query.side)
    if query.players:
        results = results.filter(players=query.players)
    if query.date_from:
        results = results.filter(ended_at__gte=_day_start(query.date_from))
    if query.date_to:
        results = results.filter(ended_at__lt=_day_start(query.date_to + timedelta(days=1)))
    if query.rated is not None:
        counted = Q(excluded=GameResult.Excluded.COUNTED)
        results = results.filter(counted if query.rated else ~counted)
    if query.result == "shared":
        results = results.filter(shared_win=True)
    seats = None
    if query.player is not None:
        seats = ResultSeat.objects.filter(user_id=query.player)
    elif query.player_name:
        name = query.player_name.strip()
        # A name is the first name, or for a player without one the part of the address
        # before the @ (``display_name``): never the address itself.
        by_name = Q(user__first_name__iexact=name)
        by_address = Q(user__first_name="", user__email__istartswith=name + "@")
        seats = ResultSeat.objects.filter(by_name | by_address)
    if seats is not None:
        if query.result in ("won", "lost"):
            seats = seats.filter(won=query.result == "won")
        results = results.filter(pk__in=seats.values("result"))
    return results.order_by("-ended_at", "-game")


# Counting every match of a broad search costs a scan of the whole archive; past this many
# a search says "more than" instead (the pages go on regardless).
COUNT_CAP = 1000


def capped_count(results: QuerySet) -> tuple[int, bool]:
    """How many results, counted up to ``COUNT_CAP``: (count, whether it is exact)."""
    count = results[: COUNT_CAP + 1].count()
    return min(count, COUNT_CAP), count <= COUNT_CAP


def export_lines(user) -> Iterator[dict]:
    """Every game the player has sat at since it started, each as its single-game export
    (a header line, then its events), oldest first."""
    games = (
        Game.objects.filter(seats__user=user, last_seq__gt=0)
        .distinct()
        .order_by("started_at", "pk")
    )
    for game in games.iterator(chunk_size=100):
        yield from export_record(game)
