"""The bot ladder (issue 55): bots whose owners put them on it are paired by the site, game
kind by game kind, always for a **match of two games on the same deal with the seats
swapped** (the two games share one secret, so every draw follows the same seed), so neither
the deal nor the first move decides a match. Each game is rated on the ladder's own ratings
(``BotRating``, OpenSkill's Plackett-Luce as the people's), a timeout counting as a loss;
once both games are over the secret is published, so anyone can check with the export that
the draws were the seed's (``manage.py verify_game --seed``).

Pairing and settling run in the move clock's loop (``games.bot_streams``) every
``LADDER_SECONDS``; an advisory lock keeps two loops from pairing at once."""

import zlib
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from games.models import (
    BotAccount,
    BotRating,
    Game,
    LadderMatch,
    MoveClock,
    Seat,
    new_rng_secret,
)
from games.registry import GAME_TYPES
from games.services.challenges import MOST_A_DAY, bot_games_today, start_timed_game
from games.services.ratings import MODEL, display_rating
from games.services.tables import validate_options

# How often the loop pairs and settles.
LADDER_SECONDS = 5
# A bot plays at most this many games at once (one match: its two games together).
MOST_AT_ONCE = 2
# The ladder's clock and its policy: a move a minute at most; out of time loses.
SECONDS_PER_MOVE = 60
_LOCK = zlib.crc32(b"azulsite bot ladder")


def _games_at_once(user) -> int:
    return Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).count()


def _rating(user, game_type: str) -> BotRating:
    found = BotRating.objects.filter(user=user, game_type=game_type).first()
    if found is None:
        found = BotRating(
            user=user,
            game_type=game_type,
            mu=MODEL.mu,
            sigma=MODEL.sigma,
            display=display_rating(MODEL.mu, MODEL.sigma),
        )
    return found


@transaction.atomic
def ladder_pair(*, now: datetime | None = None) -> int:
    """Pair the free bots of every game kind (closest ratings together); how many matches
    began. A bot is free when it has room for a match's two games under ``MOST_AT_ONCE``
    and ``MOST_A_DAY``."""
    now = now or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_LOCK])
        if not cursor.fetchone()[0]:
            return 0
    made = 0
    for game_type in GAME_TYPES:
        bots = BotAccount.objects.filter(
            on_ladder=True,
            paused_at__isnull=True,
            user__is_active=True,
            games__contains=[game_type],
        ).select_related("user")
        free = [
            bot.user
            for bot in bots
            if _games_at_once(bot.user) + 2 <= MOST_AT_ONCE
            and bot_games_today(bot.user, now) + 2 <= MOST_A_DAY
        ]
        free.sort(key=lambda user: (-_rating(user, game_type).display, user.pk))
        for first, second in zip(free[::2], free[1::2], strict=False):
            match_begin(first, second, game_type)
            made += 1
    return made


def match_begin(first, second, game_type: str) -> LadderMatch:
    """A match of ``first`` and ``second``: two games on one secret, seats swapped."""
    secret = new_rng_secret()
    options = validate_options(GAME_TYPES[game_type].engine, 2, None)
    match = LadderMatch.objects.create(
        game_type=game_type, first=first, second=second, secret=secret
    )
    for players in ([first, second], [second, first]):
        game = start_timed_game(
            players,
            game=game_type,
            options=options,
            seconds_per_move=SECONDS_PER_MOVE,
            timeout_policy=Game.TimeoutPolicy.FORFEIT,
            rng_secret=secret,
        )
        match.games.add(game)
    return match


@transaction.atomic
def ladder_settle(*, now: datetime | None = None) -> int:
    """Rate the matches whose two games are over and publish their secret; how many."""
    now = now or timezone.now()
    waiting = (
        LadderMatch.objects.select_for_update(skip_locked=True)
        .filter(settled_at__isnull=True)
        .exclude(games__status__in=[Game.Status.ACTIVE, Game.Status.OPEN])
    )
    settled = 0
    for match in waiting:
        for game in match.games.order_by("pk"):
            _rate(game)
        match.settled_at = now
        match.save(update_fields=["settled_at"])
        settled += 1
    return settled


def _rate(game: Game) -> None:
    """Rate one ladder game: its winners first; a game aborted because a seat ran out of
    time before moving counts as that seat's loss; any other aborted game is not rated."""
    seats = {seat.position: seat.user for seat in game.seats.select_related("user")}
    winners = set(game.winners)
    if game.status == Game.Status.ABORTED:
        clock = MoveClock.objects.filter(game=game).first()
        late = set(clock.timed_out) if clock else set()
        winners = set(seats) - late if late and late != set(seats) else set()
    if not winners:
        return
    ratings = [_rating(seats[position], game.game_type) for position in sorted(seats)]
    ranks = [1 if position in winners else 2 for position in sorted(seats)]
    teams = [[MODEL.create_rating([rating.mu, rating.sigma])] for rating in ratings]
    for rating, rank, [after] in zip(ratings, ranks, MODEL.rate(teams, ranks=ranks), strict=True):
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.display = display_rating(after.mu, after.sigma)
        rating.games += 1
        rating.wins += rank == 1 and len(winners) < len(seats)
        rating.losses += rank == 2
        rating.save()
