"""The mail door's work: sending the outbox (the email channel's rows, ``games.notify``),
the emails due each minute, moving by reply, and unsubscribing.

Sending once, as far as SMTP allows. An outbox row is sent by whoever claims it first (the
Celery task queued at commit, or the minute sweep when the broker lost that task) with a
conditional ``UPDATE … WHERE sent_at IS NULL AND claimed_at IS NULL``; the claim is
committed before the SMTP transaction, ``data_started_at`` just before its DATA command
(only while the claim is still ours), and ``sent_at`` right after the server's answer. So
no row is ever handed to the mail server twice, whatever the number of workers, broker
re-deliveries or sweeps. What can go wrong, and what we do:

- The server answers no (refused, 4xx/5xx, connection refused), or the attempt fails
  before DATA (a timeout while connecting, a worker killed before DATA — its claim goes
  stale after ``MAIL_CLAIM_STALE_SECONDS``): the message never reached the server, so the
  row is tried again later, up to ``MAX_ATTEMPTS`` (a 5xx gives up at once).
- The connection times out or drops after DATA began, or the worker dies there: the server
  may have taken the message. SMTP and the database cannot commit together, so we choose
  *at most once*: the row is "in doubt" (``in_doubt_at``, logged as an error, listed by
  ``selectors.outbox_in_doubt`` for the operator) and not sent again blindly; a lost turn
  email is covered by the next reminder.

Keys. Emails about an event use its seq; reminders and deadline warnings, which can fall
many times on one position, use the minute they were scheduled for; a digest the day
(and no game); answers to a reply the id of the ``InboundMessage`` they answer.
"""

import logging
import re
import smtplib
from contextlib import suppress
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import get_connection
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import notify, throttles
from games.errors import BadRequest, ServiceError
from games.i18n import speaking_to
from games.mail import inbound, render, texts, tokens, words
from games.mail.selectors import player_by_address, player_by_token
from games.models import (
    Game,
    InboundMessage,
    NoticeKind,
    Outbox,
    PlayerSettings,
    RefusedAddress,
)
from games.notify import preferences, presence
from games.notify.channels import channel
from games.plan_lines import read_lines
from games.repository import game_table
from games.rules.common import InvalidNotation
from games.selectors.moves import legal_moves_of
from games.services import sweep as minute_sweep
from games.services.accounts import account_identity
from games.services.moves import move_submit
from games.services.plans import plan_replace

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
# Answers to what a person asked for themselves (a reply, a sign-in link, the download of
# their data): sent even after an unsubscribe.
ANSWER_KINDS = (
    NoticeKind.MOVE_CONFIRMED,
    NoticeKind.REPLY_REFUSED,
    NoticeKind.SIGN_IN,
    NoticeKind.DATA_EXPORT_READY,
)
IN_DOUBT = (
    "in doubt: the worker stopped after handing the message to the mail server (DATA) and "
    "before its answer; it may have gone out, so it is not sent again"
)
IN_DOUBT_ANSWER = (
    "in doubt: no answer from the mail server after the message was handed over (DATA): "
    "{error}; it may have gone out, so it is not sent again"
)
STOPPED_BEFORE_DATA = "the worker stopped before handing the message to the mail server; sent again"
# A "your turn" email waits this long for the "game started" email to the same player,
# which shows the same turn, to be sent or given up.
WAIT_FOR_STARTED = timedelta(minutes=1)


class ClaimLost(smtplib.SMTPException):
    """Our claim on the row was given up (the sweep took us for dead) before DATA: stop
    before handing the message over, whoever holds the row now sends it."""


# --- sending ------------------------------------------------------------------------------


def outbox_send(*, outbox_id: int, now: datetime | None = None) -> str:
    """Send one outbox row if it is due and nobody has claimed it: ``sent``, ``skipped``
    (the reader does not want it or it is out of date), ``failed`` (tried again later),
    ``in doubt`` (see the module doc), ``busy`` (claimed by another worker), ``not due``
    or ``done``."""
    now = now or timezone.now()
    row = Outbox.objects.select_related("game").filter(pk=outbox_id).first()
    if row is None or row.sent_at or row.cancelled_at or row.claimed_at:
        return "done"
    if row.due_at > now:
        return "not due"
    reason = skip_reason(row, now)
    if reason:
        _unclaimed(row).update(cancelled_at=now, withdrawn_because=reason)
        return "skipped"
    if _started_email_pending(row):
        _unclaimed(row).update(due_at=now + WAIT_FOR_STARTED)
        return "not due"
    try:
        message = render.message(row, now)
    except Exception as error:
        # One email that cannot be written must not stop the others behind it in the sweep.
        log.exception("outbox %s: cannot render the email", row.pk)
        _failed_unclaimed(row, error, now)
        return "failed"
    connection = get_connection()
    try:
        connection.open()
        # The claim comes after the connection is up: what fails before it is not in doubt.
        if not _unclaimed(row).update(
            claimed_at=now, data_started_at=None, attempts=F("attempts") + 1
        ):
            return "busy"
        ours = Outbox.objects.filter(pk=row.pk, claimed_at=now, sent_at__isnull=True)
        ours = ours.filter(attempts=ours.values_list("attempts", flat=True).first())
        return _hand_over(connection, message, ours, row, now)
    except (smtplib.SMTPException, OSError) as error:
        _failed_unclaimed(row, error, now)
        return "failed"
    finally:
        with suppress(smtplib.SMTPException, OSError):
            connection.close()


def _hand_over(connection, message, ours, row: Outbox, now: datetime) -> str:
    """The SMTP transaction of a claimed row (``ours``), noting DATA as it starts."""
    started = []

    def data_starts() -> None:
        if not ours.filter(data_started_at__isnull=True).update(data_started_at=timezone.now()):
            raise ClaimLost(f"outbox {row.pk}: claim given up before DATA")
        started.append(True)

    _before_data(connection, data_starts)
    try:
        connection.send_messages([message])
    except ClaimLost:
        return "busy"
    except smtplib.SMTPResponseException as error:
        # The server answered: whatever it said, it did not take the message.
        _failed(ours, row, error, now)
        return "failed"
    except (smtplib.SMTPException, OSError) as error:
        if not started:
            _failed(ours, row, error, now)
            return "failed"
        said = str(error)[:200] or type(error).__name__
        ours.update(
            in_doubt_at=now, cancelled_at=now, last_error=IN_DOUBT_ANSWER.format(error=said)
        )
        log.error("outbox %s in doubt: %s", row.pk, said)
        return "in doubt"
    ours.update(sent_at=now, last_error="")
    return "sent"


def _before_data(connection, data_starts) -> None:
    """Call ``data_starts`` just before the message is handed over. With Django's SMTP
    backend that is the DATA command of its ``smtplib`` connection (``sendmail`` calls
    ``self.data``); any other backend has no such step, so the whole send counts."""
    smtp = getattr(connection, "connection", None)
    if isinstance(smtp, smtplib.SMTP):
        data = smtp.data

        def noted_data(msg):
            data_starts()
            return data(msg)

        smtp.data = noted_data
    else:
        data_starts()


def skip_reason(row: Outbox, now: datetime) -> str:
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
        if prefs.daily_digest and row.kind in render.TURN_KINDS:
            return "in the daily digest"
    if row.kind not in render.TURN_KINDS:
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


def _turn_shown_elsewhere(row: Outbox) -> bool:
    """A later "your turn" email exists, or the "game started" email showing this same
    turn was actually sent (one turned off, lost or given up shows nothing)."""
    later = Q(kind=NoticeKind.YOUR_TURN, seq__gt=row.seq)
    started = Q(kind=NoticeKind.GAME_STARTED, seq=row.seq, sent_at__isnull=False)
    return Outbox.objects.filter(later | started, game=row.game, recipient=row.recipient).exists()


def _started_email_pending(row: Outbox) -> bool:
    """A "your turn" email whose "game started" email (the same turn) is still to be sent
    waits for it: sent, it makes this one needless; given up, this one goes out."""
    return (
        row.kind == NoticeKind.YOUR_TURN
        and Outbox.objects.filter(
            game=row.game,
            recipient=row.recipient,
            kind=NoticeKind.GAME_STARTED,
            seq=row.seq,
            sent_at__isnull=True,
            cancelled_at__isnull=True,
        ).exists()
    )


def _unclaimed(row: Outbox):
    return Outbox.objects.filter(
        pk=row.pk, sent_at__isnull=True, cancelled_at__isnull=True, claimed_at__isnull=True
    )


def _backoff(row: Outbox) -> timedelta:
    return timedelta(minutes=2 ** min(row.attempts, 10))


def _failed_unclaimed(row: Outbox, error: Exception, now: datetime) -> None:
    """An attempt that failed before its claim (rendering, connecting): counted, retried."""
    _unclaimed(row).update(attempts=F("attempts") + 1)
    _failed(_unclaimed(row), row, error, now)


def _failed(ours, row: Outbox, error: Exception, now: datetime) -> None:
    """Release our claim (``ours``): the message did not reach the server, so nothing went
    out. A permanent refusal (5xx) or too many attempts give up."""
    row.refresh_from_db(fields=["attempts"])
    permanent = _permanent(error)
    ours.filter(sent_at__isnull=True).update(
        claimed_at=None,
        data_started_at=None,
        last_error=str(error)[:500],
        due_at=now + _backoff(row),
        cancelled_at=now if permanent or row.attempts >= MAX_ATTEMPTS else None,
    )


def _permanent(error: Exception) -> bool:
    """Whether the server's refusal is for good (RFC 5321 4.2.1: a 5yz reply); a 4yz
    reply, also to a recipient ("451 busy, try again later"), is tried again."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _text in error.recipients.values())
    return (getattr(error, "smtp_code", 0) or 0) >= 500


# --- the periodic jobs --------------------------------------------------------------------


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The minute's pass: the services' periodic jobs (``services.sweep``: timeouts,
    warnings, reminders, digests…), then the emails due, including those a lost broker
    dropped (``outbox_sweep``), a job like the others: whatever failed before it, the
    emails go."""
    return minute_sweep.sweep(now=now, jobs=(*minute_sweep.JOBS, ("emails", outbox_sweep)))


def outbox_sweep(*, now: datetime) -> dict[str, int]:
    """Settle the claims of workers that stopped (see the module doc), then send every due
    row nobody claimed."""
    pending = Outbox.objects.filter(
        sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
    )
    stale = pending.filter(
        claimed_at__lte=now - timedelta(seconds=settings.MAIL_CLAIM_STALE_SECONDS)
    )
    retried = stale.filter(data_started_at__isnull=True).update(
        claimed_at=None, last_error=STOPPED_BEFORE_DATA
    )
    in_doubt = stale.filter(data_started_at__isnull=False).update(
        in_doubt_at=now, cancelled_at=now, last_error=IN_DOUBT
    )
    if in_doubt:
        log.error("%s outbox row(s) in doubt after a worker stopped; not sent again", in_doubt)
    ids = list(
        pending.filter(claimed_at__isnull=True)
        .order_by("due_at")
        .values_list("pk", flat=True)[: settings.MAIL_SWEEP_BATCH]
    )
    sent = sum(outbox_send(outbox_id=pk, now=now) == "sent" for pk in ids)
    return {"sent": sent, "in_doubt": in_doubt, "retried": retried}


# --- unsubscribe ---------------------------------------------------------------------------


def unsubscribe(*, token: str, now: datetime | None = None) -> None:
    """Stop every email but answers to the player's own replies. The link of an email to
    an address without an account (an invitation) names the address: it refuses all
    email to it (``RefusedAddress``). A forged token does nothing, silently: the page
    says the same either way."""
    user = player_by_token(token)
    if user is None:
        address = tokens.read_address_token(token)
        if address:
            RefusedAddress.objects.get_or_create(
                address=account_identity(address),
                defaults={"refused_at": now or timezone.now()},
            )
        return
    prefs, _created = PlayerSettings.objects.get_or_create(user=user)
    PlayerSettings.objects.filter(pk=prefs.pk, unsubscribed_at__isnull=True).update(
        unsubscribed_at=now or timezone.now()
    )


def address_refused(address: str) -> bool:
    """Whether ``address`` refused all email from the site (``unsubscribe``)."""
    return RefusedAddress.objects.filter(address=account_identity(address)).exists()


# --- moving by reply ----------------------------------------------------------------------


def reply_receive(*, raw: bytes, recipients: tuple[str, ...] = ()) -> str:
    """Handle one emailed reply (RFC 822 bytes) and say what became of it. A repeated
    Message-ID is ignored; otherwise the move is played and confirmed, or refused with the
    reason, the current position and the legal moves. Mail from robots (out-of-office) and
    from unknown addresses gets no answer, and refusals are capped (``_refusal_held_back``)
    so that no responder can make us loop."""
    reply = inbound.read(raw, tuple(recipients))
    with transaction.atomic():
        record, created = InboundMessage.objects.get_or_create(
            message_id=reply.message_id, defaults={"sender": reply.sender[:254]}
        )
        if not created:
            return "ignored: duplicate"
        # The sender's language: the words of their reply, and the service's refusal
        # sentences kept for their answer.
        with speaking_to(player_by_address(reply.sender)):
            outcome = _answer(reply, record)
        record.outcome = outcome[:255]
        record.save(update_fields=["outcome", "game"])
    return outcome


# A player gets at most one refusal per game in this time, whatever they (or a robot
# answering in their name) send: enough to learn what went wrong, never a loop.
REFUSAL_INTERVAL = timedelta(hours=1)
# A reply that failed its DMARC check is told to the seat's player, not to whoever wrote
# it: anyone who knows a reply address could forge such replies, so the player hears of
# them at most this often, across all their games.
FORGED_REFUSAL_INTERVAL = timedelta(days=1)
# How many of the lines a player wrote are searched for the move: a greeting or a
# sentence may come first, a whole letter is not read.
MOVE_LINES_READ = 10
MOVE_NUMBER = re.compile(r"#?\s*(\d+)\s*[.)]?")


def _answer(reply: inbound.Reply, record: InboundMessage) -> str:
    if reply.automatic:
        return "ignored: automatic reply"
    if reply.sender_refused:
        # Nobody is answered: not the display name's address, nor any other the header
        # names, since none of them is known to have written.
        return f"refused: {reply.sender_refused} (not answered)"
    if throttles.reply_flood(reply.sender):
        return "ignored: too many replies from this address this hour"
    target = reply.addressed_to[0] if reply.addressed_to else None
    game = Game.objects.filter(pk=target.game_id).first() if target else None
    seat = game.seats.filter(position=target.seat).select_related("user").first() if game else None
    if reply.forged:
        # The receiving server says the sender did not write it: answering the From would
        # answer someone else. The seat's player is told at their account's address, so
        # that one whose mail a forwarder alters learns why their moves do not count.
        player = seat.user if seat is not None else None
        return _refuse(game if player else None, player, record, reply, "forged")
    user = player_by_address(reply.sender)
    if seat is None or seat.user_id is None:
        return _refuse(None, user, record, reply, "wrong_address")
    if user is None or seat.user_id != user.pk:
        return _refuse(None, user, record, reply, "not_the_seats_address")
    record.game = game
    if reply.unreadable:
        return _refuse(game, user, record, reply, "unreadable", error=reply.unreadable)
    if game.status != Game.Status.ACTIVE:
        return _refuse(game, user, record, reply, "game_not_active", status=game.status)
    lines = reply.lines()
    if not lines:
        return _refuse(game, user, record, reply, "no_move")
    if target.seq != game.last_seq:
        return _refuse(game, user, record, reply, "moved_on")
    language = translation.get_language()
    planned = _plan_lines(game.game_type, lines, language)
    lines = [line for line in lines if _plan_line(line) is None]
    if not lines:
        return _refuse(game, user, record, reply, "no_move")
    written = _move_line(game, lines, language)
    try:
        result = move_submit(
            game=game,
            user=user,
            move=_move_text(game, words.neutral(game.game_type, language, written)),
            expected_seq=target.seq,
            looking=False,
        )
    except ServiceError as error:
        # The service's sentence is in the player's language already (``speaking_to``).
        return _refuse(
            game,
            user,
            record,
            reply,
            error.code,
            written=written,
            message=error.message,
        )
    moved = result.events[0]
    plan = _plan_kept(game, user, planned) if planned else {}
    notify.reply_played(
        game, moved.seq, user, move=moved.data["move"], in_reply_to=reply.message_id, **plan
    )
    return f"played {moved.data['move']}" + (f"; plan: {plan}" if plan else "")


# A row of a reply that gives a line of the player's plan (conditional moves, issue 32):
# "plan: F1 blue 3; C red floor", the moves separated by ";" as on the game page.
PLAN_ROW = re.compile(r"^\s*(?P<word>[^\W\d]+)\s*:\s*(?P<rest>\S.*)$")


def _plan_line(line: str) -> str | None:
    """The moves of a plan row ("plan:" or the word of the reader's language), else ``None``."""
    found = PLAN_ROW.match(line)
    # Translators: the word a player writes before a line of their plan in an email reply,
    # "plan: F1 blue 3; C red floor" (lower case, no spaces).
    words_for_plan = {"plan", pgettext("email reply", "plan")}
    if found is None or found.group("word").lower() not in words_for_plan:
        return None
    return found.group("rest")


def _plan_lines(game_type: str, lines: list[str], language: str) -> list[list[str]]:
    """The plan rows of a reply, read as the game page reads its lines, each move in the
    notation (the words of the player's ``language`` read too)."""
    rows = [row for row in map(_plan_line, lines[:MOVE_LINES_READ]) if row is not None]
    return [
        [words.neutral(game_type, language, step) for step in line]
        for line in read_lines("\n".join(rows))
    ]


def _plan_kept(game: Game, user, lines: list[list[str]]) -> dict:
    """Keep the reply's plan lines after its move: how many, or why not (said in the
    player's language, for the confirmation)."""
    try:
        plan = plan_replace(game=game, user=user, lines=lines)
    except ServiceError as error:
        return {"plan_refused": str(error.message)}
    return {"plan_lines": len(plan.lines) if plan else 0}


def _move_line(game: Game, lines: list[str], language: str = "") -> str:
    """The first line the player wrote that reads as a move or a move's number — maybe
    after a lead-in such as "My move:" — so a greeting before it and a signature after it
    do not matter; the words of the player's ``language`` are read too (``words``). When
    none reads, the first line that is not a greeting, to say why it does not."""
    engine = game_table(game).engine
    for line in lines[:MOVE_LINES_READ]:
        for candidate in (line, inbound.without_lead_in(line)):
            if candidate and (
                MOVE_NUMBER.fullmatch(candidate)
                or _reads(engine, words.neutral(game.game_type, language, candidate))
            ):
                return candidate
    return next((line for line in lines if not inbound.is_greeting(line)), lines[0])


def _reads(engine, text: str) -> bool:
    try:
        engine.parse(text)
    except InvalidNotation:
        return False
    return True


def _move_text(game: Game, written: str) -> str:
    """The notation of a move given by its number in the email's list, or ``written``."""
    number = MOVE_NUMBER.fullmatch(written)
    if number is None:
        return written
    legal = legal_moves_of(game_table(game))
    chosen = int(number.group(1))
    if not 1 <= chosen <= len(legal):
        raise BadRequest(
            _("there is no move number %(number)s: the moves are numbered 1 to %(last)s")
            % {"number": chosen, "last": len(legal)},
            code="invalid_move_number",
            number=chosen,
            last=len(legal),
        )
    return legal[chosen - 1]["move"]


def _refuse(game, user, record: InboundMessage, reply: inbound.Reply, code: str, **details) -> str:
    """Queue the refusal (to registered players only: no mail to strangers), with the game
    when the sender may see it — unless ``_refusal_held_back`` says not to answer. The row
    keeps the reason's ``code`` and ``details``: its email says it in the recipient's
    language when it is sent (``texts.refusal_reason``). The outcome, for the operator,
    says it in English."""
    with translation.override("en"):
        reason = texts.refusal_reason({"refusal": code, "details": details})
    if user is None:
        return f"refused: {reason}"
    held_back = _refusal_held_back(game, user, reply, code)
    if held_back:
        return f"refused: {reason} (not answered: {held_back})"
    notify.reply_refused(
        game, record.pk, user, code=code, details=details, in_reply_to=reply.message_id
    )
    return f"refused: {reason}"


def _refusal_held_back(game: Game | None, user, reply: inbound.Reply, code: str) -> str:
    """Why a refusal must not be sent: the message answers one of our refusals (an
    auto-responder we did not recognise), or the player had one for this game within
    ``REFUSAL_INTERVAL`` — one for a failed DMARC check (``forged``) within
    ``FORGED_REFUSAL_INTERVAL``, whatever the game. The player's row is locked so two
    replies at once count as two."""
    refusals = Outbox.objects.filter(kind=NoticeKind.REPLY_REFUSED)
    if refusals.filter(message_id__in=reply.answers).exists():
        return "it answers a refusal"
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    if code == "forged":
        told = refusals.filter(
            recipient=user.email,
            payload__refusal="forged",
            created_at__gte=now - FORGED_REFUSAL_INTERVAL,
        )
        return "one answer a day about failed DMARC checks" if told.exists() else ""
    recent = refusals.filter(
        game=game,
        recipient=user.email,
        created_at__gte=now - REFUSAL_INTERVAL,
    )
    if recent.exists():
        return "one answer per game and hour"
    return ""
