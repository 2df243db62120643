"""Lists of games: a player's games and turns, the games open to join, the games to
watch, the invitations waiting for a player."""

from django.db.models import F, Q, QuerySet

from events.models import Event
from games.models import GAME_STREAM, Game, Seat


def _waiting(user) -> Q:
    return Q(
        status=Game.Status.ACTIVE,
        seats__user=user,
        seats__status=Seat.Status.JOINED,
        seats__position=F("to_move"),
    )


def games_for_user(user, which: str | None = None) -> QuerySet[Game]:
    """The user's games: ``waiting`` (their turn), ``active``, ``finished`` or all."""
    games = Game.objects.filter(seats__user=user)
    match which:
        case "waiting":
            games = Game.objects.filter(_waiting(user))
        case "active":
            games = games.filter(status__in=[Game.Status.ACTIVE, Game.Status.OPEN])
        case "finished":
            games = games.filter(
                status__in=[Game.Status.FINISHED, Game.Status.ABORTED, Game.Status.CANCELLED]
            )
    return games.distinct().order_by("-last_move_at", "-created_at")


def waiting_for(user) -> QuerySet[Game]:
    """Active games whose seat to move is the user's, longest waiting first."""
    return Game.objects.filter(_waiting(user)).distinct().order_by("last_move_at")


def open_games(user=None) -> QuerySet[Game]:
    """Public games waiting for players with a seat open to anyone (a private game's seats
    are for the players invited to it: ``invitations_for``)."""
    games = Game.objects.filter(
        status=Game.Status.OPEN, private=False, seats__status=Seat.Status.OPEN
    )
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games.distinct().order_by("-created_at")


# The lobby lists at most this many games in play to watch.
GAMES_TO_WATCH = 20


# The store's newest events read to find the games moved last: on a busy site, a few
# hundred games.
NEWEST_EVENTS = 1000
# Of the games those events name, the ones moved last looked at: this many times the
# games asked for (some are private, over, or the viewer's own).
LOOKED_AT = 3


def games_to_watch(user=None) -> QuerySet[Game]:
    """Public games in play that ``user`` does not play in, the latest move first: what a
    spectator may watch (``can_view``)."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, private=False)
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games.order_by(F("last_move_at").desc(nulls_last=True), "-started_at", "-pk")


def games_to_watch_first(user=None, count: int = GAMES_TO_WATCH) -> list[Game]:
    """The first ``count`` of ``games_to_watch``, for the lobby and home.

    The game row keeps no index on its last move (``Game.Meta``), so sorting every game in
    play reads all of them (``docs/scale.md``). The games moved last are the streams of the
    store's newest events (its primary key read backwards): the ``LOOKED_AT`` × ``count``
    games whose latest event is newest are sorted instead. The answer is the same whenever
    the last game kept moved no earlier than the last event read (the latest of the last
    game looked at), as every game left out moved before it (events are numbered in the
    order they are written; a tie to the microsecond, as the timeouts of one sweep have,
    may put one game for another). When it is not (a quiet site), every game in play is
    sorted."""
    games = games_to_watch(user)
    newest = Event.objects.order_by("-pk").values_list("stream", "recorded_at")[:NEWEST_EVENTS]
    looked_at: set[int] = set()
    # Every game left out moved no later than this: the last event read.
    bound = None
    for stream, recorded_at in newest:
        bound = recorded_at
        number = stream.removeprefix(GAME_STREAM)
        if stream.startswith(GAME_STREAM) and number.isdigit():
            looked_at.add(int(number))
            if len(looked_at) == LOOKED_AT * count:
                break
    first = list(games.filter(pk__in=looked_at)[:count])
    if len(first) == count and first[-1].last_move_at and first[-1].last_move_at >= bound:
        return first
    return list(games[:count])


def invitations_for(user) -> QuerySet[Game]:
    """Games waiting for players with a seat invited under the user's address."""
    return (
        Game.objects.filter(
            status=Game.Status.OPEN,
            seats__status=Seat.Status.INVITED,
            seats__invited_email__iexact=user.email,
        )
        .distinct()
        .order_by("-created_at")
    )
