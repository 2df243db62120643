"""The game's chat and players' reports to the moderators."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import news
from games.errors import BadRequest, Forbidden
from games.models import ChatMessage, Game, Report, Seat
from games.selectors.access import can_view, seat_of

CHAT_MAX_LENGTH = 1000


@transaction.atomic
def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """A player writes in the game's chat (players only; at most ``CHAT_MAX_LENGTH``
    characters)."""
    text = (text or "").strip()
    seat = seat_of(game, user)
    if seat is None or seat.status not in (Seat.Status.JOINED, Seat.Status.RESIGNED):
        raise Forbidden(_("only the game's players write in its chat"), code="not_a_player")
    if not text:
        raise BadRequest(_("the message is empty"), code="empty_message")
    if len(text) > CHAT_MAX_LENGTH:
        raise BadRequest(
            ngettext(
                "a message holds at most %(most)s characters, this one has %(length)s",
                "a message holds at most %(most)s characters, this one has %(length)s",
                len(text),
            )
            % {"most": CHAT_MAX_LENGTH, "length": len(text)},
            code="message_too_long",
        )
    message = ChatMessage.objects.create(game=game, author=user, text=text)
    news.game_changed(game.pk)
    return message


@transaction.atomic
def report_create(*, game: Game, reporter, reason: str, message: ChatMessage | None = None):
    """A player reports a game or one of its chat messages to the moderators."""
    if not (reason or "").strip():
        raise BadRequest(_("say what is wrong"), code="reason_required")
    if seat_of(game, reporter) is None and not can_view(game, reporter):
        raise Forbidden(_("you can only report games you can see"), code="not_visible")
    if message is not None and message.game_id != game.pk:
        raise BadRequest(_("that message is not in this game"), code="invalid_message")
    return Report.objects.create(
        game=game, message=message, reporter=reporter, reason=reason.strip()[:2000]
    )
