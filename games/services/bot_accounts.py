"""Bot accounts (issue 55): a signed-in person makes a bot of their own, an account a program
plays as. Its owner names it, says which games it plays and whom it accepts challenges from,
pauses, renames or deletes it, and makes and revokes its API tokens (named tokens, as a
person's: shown once, only their hash kept, each signing in as the bot alone)."""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import news
from games.errors import BadRequest, Forbidden, NotFound
from games.models import BOT_USERNAME_PREFIX, ApiToken, BotAccount, PlayerSettings
from games.registry import GAME_TYPES
from games.selectors.names import is_bot_account
from games.services.tokens import api_token_create

NAME_LENGTH = 30
# Ruling: enough for a person's engines and their versions; a program farm is not a person.
MOST_BOTS = 10


def bot_topic(user_id: int) -> str:
    """The news topic of a bot's (or any player's) challenges and new games: its event
    stream listens to it (``games.bot_streams``)."""
    return f"player:{user_id}"


def player_news(user_id: int) -> None:
    """Something for ``user_id``'s event stream: told once the transaction commits."""
    topic = bot_topic(user_id)
    transaction.on_commit(lambda: news.publish(topic))


def _name(name) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise BadRequest(_("give the bot a name"), code="bot_name_missing")
    if len(name) > NAME_LENGTH:
        raise BadRequest(
            _("a bot's name has at most %(count)s characters") % {"count": NAME_LENGTH},
            code="bot_name_too_long",
        )
    return name


def _games(games) -> list[str]:
    if isinstance(games, str) or not isinstance(games, list | tuple):
        games = []
    chosen = [slug for slug in GAME_TYPES if slug in games]
    unknown = [slug for slug in games if slug not in GAME_TYPES]
    if unknown or not chosen:
        raise BadRequest(
            _("choose the games the bot plays, among %(games)s") % {"games": ", ".join(GAME_TYPES)},
            code="bot_games_invalid",
        )
    return chosen


def _accepts(people: bool, bots: bool) -> tuple[bool, bool]:
    if not people and not bots:
        raise BadRequest(
            _("a bot accepts challenges from people, from bots, or both: choose at least one"),
            code="bot_accepts_nobody",
        )
    return bool(people), bool(bots)


@transaction.atomic
def bot_create(
    *, owner, name: str, games: list[str], accepts_people: bool = True, accepts_bots: bool = True
) -> BotAccount:
    """A new bot owned by ``owner`` (a person, never a bot): an account of its own, which
    no sign-in link or password opens (its tokens alone)."""
    if is_bot_account(owner):
        raise Forbidden(_("a bot cannot make bots"), code="bot_owner_is_bot")
    name, games = _name(name), _games(games)
    people, bots = _accepts(accepts_people, accepts_bots)
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    if BotAccount.objects.filter(owner=owner).count() >= MOST_BOTS:
        raise BadRequest(
            _("you have %(count)s bots, the most there may be: delete one you no longer use")
            % {"count": MOST_BOTS},
            code="too_many_bots",
        )
    user = get_user_model().objects.create(
        username=f"{BOT_USERNAME_PREFIX}{secrets.token_hex(8)}",
        first_name=name,
        email="",
        password=make_password(None),
    )
    # A bot reads no email: every notice to it is skipped as unsubscribed.
    PlayerSettings.objects.create(user=user, unsubscribed_at=timezone.now())
    return BotAccount.objects.create(
        user=user, owner=owner, games=games, accepts_people=people, accepts_bots=bots
    )


def bot_of(owner, bot_id: int) -> BotAccount:
    """``owner``'s bot ``bot_id`` (the bot's user id), locked; ``NotFound`` for another's."""
    bot = (
        BotAccount.objects.select_for_update()
        .select_related("user")
        .filter(owner=owner, user_id=bot_id)
        .first()
    )
    if bot is None:
        raise NotFound(_("no such bot of yours"), code="no_bot")
    return bot


@transaction.atomic
def bot_update(
    *,
    owner,
    bot_id: int,
    name: str | None = None,
    games: list[str] | None = None,
    accepts_people: bool | None = None,
    accepts_bots: bool | None = None,
    on_ladder: bool | None = None,
) -> BotAccount:
    """Rename the bot or change what it plays and accepts (what is ``None`` stays)."""
    bot = bot_of(owner, bot_id)
    if name is not None:
        bot.user.first_name = _name(name)
        bot.user.save(update_fields=["first_name"])
    if games is not None:
        bot.games = _games(games)
    people = bot.accepts_people if accepts_people is None else accepts_people
    bots = bot.accepts_bots if accepts_bots is None else accepts_bots
    bot.accepts_people, bot.accepts_bots = _accepts(people, bots)
    if on_ladder is not None:
        bot.on_ladder = bool(on_ladder)
    bot.save()
    return bot


@transaction.atomic
def bot_pause(*, owner, bot_id: int, paused: bool, reason: str = "") -> BotAccount:
    """Pause the bot (no challenge reaches it, the ladder pairs it no more; its games go
    on) or let it play again."""
    bot = bot_of(owner, bot_id)
    bot.paused_at = timezone.now() if paused else None
    bot.paused_reason = reason if paused else ""
    bot.save(update_fields=["paused_at", "paused_reason"])
    player_news(bot.user_id)
    return bot


@transaction.atomic
def bot_delete(*, owner, bot_id: int) -> str:
    """Delete the bot: its tokens stop working at once and it plays no more. An account
    that played keeps its games (as a player who closed their account does): it is made
    inactive and its tokens deleted; one that never played is deleted outright. Returns
    its name."""
    bot = bot_of(owner, bot_id)
    user = bot.user
    name = user.first_name
    ApiToken.objects.filter(user=user).delete()
    if user.seats.exists() or user.games_created.exists():
        user.is_active = False
        user.save(update_fields=["is_active"])
        bot.paused_at = timezone.now()
        bot.on_ladder = False
        bot.save(update_fields=["paused_at", "on_ladder"])
    else:
        bot.delete()
        user.delete()
    player_news(user.pk)
    return name


def bot_token_create(*, owner, bot_id: int, name: str) -> tuple[ApiToken, str]:
    """A new API token for ``owner``'s bot, signing in as the bot: its key, shown once."""
    with transaction.atomic():
        bot = bot_of(owner, bot_id)
        if not bot.user.is_active:
            raise NotFound(_("no such bot of yours"), code="no_bot")
    return api_token_create(user=bot.user, name=name)


@transaction.atomic
def bot_token_revoke(*, owner, bot_id: int, token_id: int) -> str:
    """Revoke a token of ``owner``'s bot: calls with it are refused, and its open streams
    end (told at once). Returns its name."""
    bot = bot_of(owner, bot_id)
    token = ApiToken.objects.filter(user=bot.user, pk=token_id).first()
    if token is None:
        raise NotFound(_("no such token of yours (it may be revoked already)"), code="no_token")
    token.delete()
    player_news(bot.user_id)
    return token.name


def bots_of(owner) -> list[BotAccount]:
    """The person's bots still in use, with their tokens, oldest first."""
    return list(
        BotAccount.objects.filter(owner=owner, user__is_active=True)
        .select_related("user")
        .prefetch_related("user__api_tokens")
    )
