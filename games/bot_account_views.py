"""The account's bots page (issue 55, ``/account/bots/``): a person makes bots of their own,
and sees, renames, pauses, deletes each, and makes and revokes its API tokens. Each form
calls one service of ``services.bot_accounts``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.errors import ServiceError
from games.registry import GAME_TYPES
from games.services.bot_accounts import (
    NAME_LENGTH,
    bot_create,
    bot_delete,
    bot_pause,
    bot_token_create,
    bot_token_revoke,
    bot_update,
    bots_of,
)
from games.services.tokens import NAME_LENGTH as TOKEN_NAME_LENGTH


def _page(request: HttpRequest, status: int = 200, **extra) -> HttpResponse:
    context = {
        "bots": bots_of(request.user),
        "game_types": [(slug, kind.title) for slug, kind in GAME_TYPES.items()],
        "bot_name_length": NAME_LENGTH,
        "token_name_length": TOKEN_NAME_LENGTH,
        **extra,
    }
    return render(request, "bots.html", context, status=status)


def _settings(request: HttpRequest) -> dict:
    return {
        "name": request.POST.get("name", ""),
        "games": request.POST.getlist("games"),
        "accepts_people": "accepts_people" in request.POST,
        "accepts_bots": "accepts_bots" in request.POST,
    }


def _back(bot_id: int | None = None) -> HttpResponse:
    return redirect(reverse("bots") + (f"#bot-{bot_id}" if bot_id else ""))


@login_required
@require_GET
def bots_page(request: HttpRequest) -> HttpResponse:
    """The person's bots, and the form to make one."""
    return _page(request)


@login_required
@require_POST
def bot_new(request: HttpRequest) -> HttpResponse:
    """ "Make a bot": the page again, the bot listed, or what was wrong beside the form."""
    asked = _settings(request)
    try:
        bot = bot_create(owner=request.user, **asked)
    except ServiceError as error:
        return _page(request, error.status, bot_error=error.message, asked=asked)
    messages.success(
        request,
        _("Your bot “%(name)s” is made: make it a token, and connect it.")
        % {"name": bot.user.first_name},
    )
    return _back(bot.user_id)


@login_required
@require_POST
def bot_changed(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's "Save": its name, games, whom it accepts, whether it plays on the ladder."""
    try:
        bot_update(
            owner=request.user,
            bot_id=bot_id,
            on_ladder="on_ladder" in request.POST,
            **_settings(request),
        )
    except ServiceError as error:
        messages.error(request, capfirst(error.message) + ".")
    else:
        messages.success(request, _("The bot's settings are saved."))
    return _back(bot_id)


@login_required
@require_POST
def bot_paused(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's "Pause" or "Let it play again"."""
    paused = request.POST.get("paused") == "1"
    try:
        bot_pause(owner=request.user, bot_id=bot_id, paused=paused)
    except ServiceError as error:
        messages.error(request, capfirst(error.message) + ".")
    else:
        messages.success(
            request,
            _("The bot is paused: it takes no challenge until you let it play again.")
            if paused
            else _("The bot plays again."),
        )
    return _back(bot_id)


@login_required
@require_POST
def bot_deleted(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's "Delete": its tokens stop working at once."""
    try:
        name = bot_delete(owner=request.user, bot_id=bot_id)
    except ServiceError as error:
        messages.error(request, capfirst(error.message) + ".")
    else:
        messages.success(request, _("The bot “%(name)s” is deleted.") % {"name": name})
    return _back()


@never_cache
@login_required
@require_POST
def bot_token_new(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's "Make a token": the page again with the key shown this once (answered,
    never redirected to, so the key is kept nowhere)."""
    name = request.POST.get("name", "")
    try:
        token, key = bot_token_create(owner=request.user, bot_id=bot_id, name=name)
    except ServiceError as error:
        return _page(request, error.status, token_error=error.message, token_bot=bot_id)
    return _page(request, new_token=token, new_key=key, token_bot=bot_id)


@login_required
@require_POST
def bot_token_revoked(request: HttpRequest, bot_id: int, token_id: int) -> HttpResponse:
    """A bot's token's "Revoke": refused from now on, its open streams end."""
    try:
        name = bot_token_revoke(owner=request.user, bot_id=bot_id, token_id=token_id)
    except ServiceError as error:
        messages.error(request, capfirst(error.message) + ".")
    else:
        messages.success(
            request,
            _("The token “%(name)s” is revoked: the API refuses it from now on.") % {"name": name},
        )
    return _back(bot_id)
