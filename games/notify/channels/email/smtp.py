"""Handing an email to the mail server, and whether it should still go.

The delivery loop (``channels.loop``) claims the row; here the SMTP transaction runs, and
the loop's ``hand_over`` is called just before its DATA command, so that what fails
before DATA is tried again and what fails after it is in doubt. What the server says:

- a reply (refused, 4xx/5xx): it did not take the message; a 5xx gives up at once
  (RFC 5321 4.2.1), a 4xx is tried again;
- no reply, a timeout or a dropped connection before DATA: tried again;
- the same after DATA began: it may have taken the message, so the row is in doubt."""

import smtplib
from contextlib import suppress
from datetime import datetime, timedelta

from django.core.mail import get_connection
from django.db.models import Q

from games.models import Delivery, Game, NoticeKind, Outbox, PlayerSettings
from games.notify import preferences, presence
from games.notify.channels import channel
from games.notify.channels.email.addresses import address_refused, player_by_address
from games.notify.channels.email.render import TURN_KINDS
from games.notify.channels.loop import InDoubt, Refused

# Answers to what a person asked for themselves (a reply, a sign-in link, the download of
# their data): sent even after an unsubscribe.
ANSWER_KINDS = (
    NoticeKind.MOVE_CONFIRMED,
    NoticeKind.REPLY_REFUSED,
    NoticeKind.SIGN_IN,
    NoticeKind.DATA_EXPORT_READY,
)
NO_ANSWER = "no answer from the mail server after the message was handed over (DATA): {error}"
# A "your turn" email waits this long for the "game started" email to the same player,
# which shows the same turn, to be sent or given up.
WAIT_FOR_STARTED = timedelta(minutes=1)


def send(message, hand_over) -> None:
    """Hand ``message`` to the mail server, calling ``hand_over`` just before DATA."""
    connection = get_connection()
    try:
        connection.open()
        _before_data(connection, hand_over)
        connection.send_messages([message])
    except smtplib.SMTPResponseException as error:
        # The server answered: whatever it said, it did not take the message.
        raise Refused(str(error), permanent=_permanent(error)) from error
    except (smtplib.SMTPException, OSError) as error:
        if not hand_over.done:
            raise Refused(_said(error), permanent=_permanent(error)) from error
        said = str(error)[:200] or type(error).__name__
        raise InDoubt(NO_ANSWER.format(error=said)) from error
    finally:
        with suppress(smtplib.SMTPException, OSError):
            connection.close()


def _said(error: Exception) -> str:
    """What a refusal says, for the log and the row's ``last_error``: a refused recipient
    by its code and text, never its address (docs/privacy.md: the log names rows by id)."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = [
            f"{code} {text.decode(errors='replace')}" for code, text in error.recipients.values()
        ]
        return "recipient refused: " + "; ".join(answers)
    return str(error) or type(error).__name__


def _before_data(connection, hand_over) -> None:
    """Call ``hand_over`` just before the message is handed over. With Django's SMTP
    backend that is the DATA command of its ``smtplib`` connection (``sendmail`` calls
    ``self.data``); any other backend has no such step, so the whole send counts."""
    smtp = getattr(connection, "connection", None)
    if isinstance(smtp, smtplib.SMTP):
        data = smtp.data

        def noted_data(msg):
            hand_over()
            return data(msg)

        smtp.data = noted_data
    else:
        hand_over()


def _permanent(error: Exception) -> bool:
    """Whether the server's refusal is for good (RFC 5321 4.2.1: a 5yz reply); a 4yz
    reply, also to a recipient ("451 busy, try again later"), is tried again."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _text in error.recipients.values())
    return (getattr(error, "smtp_code", 0) or 0) >= 500


def skip_reason(row: Delivery, now: datetime) -> str:
    """Why this email should not go out any more, or ``""``."""
    user = row.user or player_by_address(row.recipient)
    if user is None and row.kind not in ANSWER_KINDS and address_refused(row.recipient):
        return "the address refused all email"
    prefs = PlayerSettings.objects.filter(user=user).first() if user else None
    if prefs is not None and row.kind not in ANSWER_KINDS:
        if prefs.unsubscribed_at is not None:
            return "unsubscribed"
        if not preferences.wants(prefs, row.kind, channel("email")):
            return "turned off in the preferences"
        if prefs.daily_digest and row.kind in TURN_KINDS:
            return "in the daily digest"
    if row.kind not in TURN_KINDS:
        return ""
    game = row.game
    seat = (row.payload or {}).get("seat")
    if game.status != Game.Status.ACTIVE or game.to_move != seat:
        return "no longer this player's turn"
    if row.kind == NoticeKind.YOUR_TURN and _turn_shown_elsewhere(row):
        return "a later turn email, or the game-started email, shows this turn"
    if row.kind != NoticeKind.DEADLINE_WARNING and presence.looking(game, seat, now):
        return "the player is on the game's page"
    return ""


def _turn_shown_elsewhere(row: Delivery) -> bool:
    """A later "your turn" email exists, or the "game started" email showing this same
    turn was actually sent (one turned off, lost or given up shows nothing)."""
    later = Q(kind=NoticeKind.YOUR_TURN, key__gt=row.key)
    started = Q(kind=NoticeKind.GAME_STARTED, key=row.key, sent_at__isnull=False)
    return Outbox.objects.filter(later | started, game=row.game, recipient=row.recipient).exists()


def waits(row: Delivery) -> timedelta | None:
    """A "your turn" email whose "game started" email (the same turn) is still to be sent
    waits for it: sent, it makes this one needless; given up, this one goes out."""
    pending = row.kind == NoticeKind.YOUR_TURN and (
        Outbox.objects.filter(
            game=row.game,
            recipient=row.recipient,
            kind=NoticeKind.GAME_STARTED,
            key=row.key,
            sent_at__isnull=True,
            cancelled_at__isnull=True,
        ).exists()
    )
    return WAIT_FOR_STARTED if pending else None
