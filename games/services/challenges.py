"""Challenges (issue 55): one player asks another — a person or a bot — to play a game of
two, with its options and, for bot games, a clock of seconds per move. The game starts when
the other accepts; the other may decline, the challenger cancel. A bot is challenged only
in the games it plays and by the players it accepts; games with a bot are never rated on
the people's leaderboards."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests
from games.models import BOT_USERNAME_PREFIX, BotAccount, Challenge, Game, MoveClock, Seat
from games.registry import GAME_TYPES
from games.selectors.names import is_bot_account
from games.services.bot_accounts import player_news
from games.services.tables import game_begin, game_create_seated, seating, validate_options

# Seconds per move a challenge may ask for: at least long enough for a network's round
# trip and a program's thought, at most a day (beyond that, the correspondence clocks).
FEWEST_SECONDS = 5
MOST_SECONDS = 24 * 3600
# Ruling: challenges waiting on one player at a time; more is a flood.
MOST_OPEN = 20
# Bot-against-bot games a bot may start in a day (challenges and the ladder), as lichess
# allows.
MOST_A_DAY = 100
DAY = timedelta(days=1)
DECLINE_REASONS = ("generic", "later", "variant", "timeControl", "noBot", "onlyBot")


def bot_games_today(user, now: datetime) -> int:
    """Games ``user`` (a bot) started against another bot in the day before ``now``."""
    other_bot = Seat.objects.filter(
        game=OuterRef("pk"), user__username__startswith=BOT_USERNAME_PREFIX
    ).exclude(user=user)
    return (
        Game.objects.filter(seats__user=user, started_at__gte=now - DAY)
        .filter(Exists(other_bot))
        .count()
    )


def _bot(user) -> BotAccount | None:
    return BotAccount.objects.filter(user=user).first() if is_bot_account(user) else None


def _refusal(challenger, opponent, game: str) -> str:
    """Why ``opponent`` takes no challenge from ``challenger`` in ``game`` ("": it does)."""
    bot = _bot(opponent)
    if bot is None:
        return ""
    if bot.paused_at is not None or not opponent.is_active:
        return _("this bot is paused and takes no challenge now")
    if game not in bot.games:
        return _("this bot does not play %(game)s") % {"game": GAME_TYPES[game].title}
    if is_bot_account(challenger) and not bot.accepts_bots:
        return _("this bot accepts challenges from people only")
    if not is_bot_account(challenger) and not bot.accepts_people:
        return _("this bot accepts challenges from bots only")
    return ""


@transaction.atomic
def challenge_create(
    *,
    challenger,
    opponent_id: int,
    game: str,
    options: dict | None = None,
    seconds_per_move: int | None = None,
    timeout_policy: str = Game.TimeoutPolicy.FORFEIT,
) -> Challenge:
    """Challenge player ``opponent_id`` to a game of two of ``game``; the opponent's event
    stream hears of it at once."""
    if game not in GAME_TYPES:
        raise BadRequest(
            _("game must be one of %(games)s") % {"games": ", ".join(GAME_TYPES)},
            code="invalid_game",
        )
    opponent = get_user_model().objects.filter(pk=opponent_id, is_active=True).first()
    if opponent is None:
        raise NotFound(_("there is no player %(number)s") % {"number": opponent_id})
    if opponent.pk == challenger.pk:
        raise BadRequest(_("you cannot challenge yourself"), code="challenge_self")
    mine = _bot(challenger)
    if mine is not None and mine.paused_at is not None:
        raise Forbidden(
            _("your bot is paused: its owner lets it play again on the account page"),
            code="bot_paused",
        )
    if why := _refusal(challenger, opponent, game):
        raise Forbidden(why, code="challenge_refused")
    engine = GAME_TYPES[game].engine
    options = validate_options(engine, 2, options)
    if seconds_per_move is not None and not (
        isinstance(seconds_per_move, int) and FEWEST_SECONDS <= seconds_per_move <= MOST_SECONDS
    ):
        raise BadRequest(
            _("seconds_per_move must be a whole number from %(fewest)s to %(most)s")
            % {"fewest": FEWEST_SECONDS, "most": MOST_SECONDS},
            code="invalid_time_control",
        )
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise BadRequest(
            _("timeout_policy must be one of %(accepted)s")
            % {"accepted": ", ".join(Game.TimeoutPolicy.values)},
            code="invalid_time_control",
        )
    if is_bot_account(challenger) and is_bot_account(opponent):
        now = timezone.now()
        if max(bot_games_today(challenger, now), bot_games_today(opponent, now)) >= MOST_A_DAY:
            raise TooManyRequests(
                _("a bot plays at most %(count)s games against bots a day: try again later")
                % {"count": MOST_A_DAY},
                retry_after=3600,
            )
    if Challenge.objects.filter(opponent=opponent, status=Challenge.Status.OPEN).count() >= (
        MOST_OPEN
    ):
        raise Conflict(
            _("this player has %(count)s challenges waiting: try again later")
            % {"count": MOST_OPEN},
            code="too_many_challenges",
        )
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        game_type=game,
        options=options,
        seconds_per_move=seconds_per_move,
        timeout_policy=timeout_policy,
    )
    player_news(opponent.pk)
    player_news(challenger.pk)
    return challenge


def _open(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "opponent")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise NotFound(_("there is no challenge %(number)s") % {"number": challenge_id})
    if challenge.status != Challenge.Status.OPEN:
        raise Conflict(
            _("this challenge was %(status)s already") % {"status": challenge.get_status_display()},
            code="challenge_answered",
        )
    return challenge


@transaction.atomic
def challenge_accept(*, user, challenge_id: int) -> Game:
    """``user``, the one challenged, accepts: the game starts at once (seats drawn)."""
    challenge = _open(challenge_id)
    if challenge.opponent_id != user.pk:
        raise NotFound(_("there is no challenge %(number)s") % {"number": challenge_id})
    if why := _refusal(challenge.challenger, user, challenge.game_type):
        raise Forbidden(why, code="challenge_refused")
    players = [challenge.challenger, challenge.opponent]
    seating.shuffle(players)
    game = start_timed_game(
        players,
        game=challenge.game_type,
        options=challenge.options,
        seconds_per_move=challenge.seconds_per_move,
        timeout_policy=challenge.timeout_policy,
    )
    challenge.status, challenge.game = Challenge.Status.ACCEPTED, game
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "game", "answered_at"])
    return game


def start_timed_game(
    users: list,
    *,
    game: str,
    options: dict,
    seconds_per_move: int | None,
    timeout_policy: str,
    rng_secret: str | None = None,
) -> Game:
    """A game of ``users`` in that seat order, started, with a clock of
    ``seconds_per_move`` (none: the correspondence clock alone). Unrated for the people's
    ratings whenever a bot plays; ``rng_secret`` (a ladder's pair of games) sets the deal.
    Every player's event stream is told."""
    new = game_create_seated(
        users=users,
        game=game,
        options=options,
        time_control={"kind": "none"},
        timeout_policy=timeout_policy,
        rated=not any(is_bot_account(user) for user in users),
    )
    if rng_secret is not None:
        new.rng_secret = rng_secret
        new.save(update_fields=["rng_secret"])
    if seconds_per_move is not None:
        MoveClock.objects.create(game=new, seconds=seconds_per_move)
    game_begin(game=new)
    for user in users:
        player_news(user.pk)
    return new


@transaction.atomic
def challenge_decline(*, user, challenge_id: int, reason: str = "generic") -> Challenge:
    """``user``, the one challenged, declines (``reason``: one of ``DECLINE_REASONS``)."""
    challenge = _open(challenge_id)
    if challenge.opponent_id != user.pk:
        raise NotFound(_("there is no challenge %(number)s") % {"number": challenge_id})
    if reason not in DECLINE_REASONS:
        raise BadRequest(
            _("reason must be one of %(reasons)s") % {"reasons": ", ".join(DECLINE_REASONS)},
            code="invalid_reason",
        )
    return _answered(challenge, Challenge.Status.DECLINED, reason)


@transaction.atomic
def challenge_cancel(*, user, challenge_id: int) -> Challenge:
    """The challenger takes the challenge back."""
    challenge = _open(challenge_id)
    if challenge.challenger_id != user.pk:
        raise NotFound(_("there is no challenge %(number)s") % {"number": challenge_id})
    return _answered(challenge, Challenge.Status.CANCELLED, "")


def _answered(challenge: Challenge, status: str, reason: str) -> Challenge:
    challenge.status, challenge.decline_reason = status, reason
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "decline_reason", "answered_at"])
    player_news(challenge.opponent_id)
    player_news(challenge.challenger_id)
    return challenge
