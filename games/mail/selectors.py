"""Reads for the email doors."""

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.crypto import constant_time_compare

from games.models import Outbox
from games.notify.channels.email import tokens
from games.notify.channels.email.addresses import player_by_address

User = get_user_model()


def player_by_token(token: str):
    """The player a preferences or unsubscribe link names (its short or long token), or
    ``None`` for a forged one or an address that is no player's."""
    user_id = tokens.read_player_token(token)
    if user_id is None:
        return player_by_address(tokens.read_address_token(token))
    user = User.objects.filter(pk=user_id).first()
    if user is None or not constant_time_compare(tokens.player_token(user.pk, user.email), token):
        return None
    return user


def outbox_in_doubt() -> QuerySet[Outbox]:
    """Emails that may or may not have gone out (the mail server was handed the message
    but never answered, or the worker stopped there), newest first: for the operator to
    check with the recipient or the server's log. None is sent again on its own."""
    return Outbox.objects.filter(in_doubt_at__isnull=False).order_by("-in_doubt_at")
