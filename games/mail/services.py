"""The mail door's work: moving by reply, and unsubscribing. Sending the emails is the
email channel's (``games.notify.channels.email``), through the one delivery loop.

Keys of the answers to a reply: the id of the ``InboundMessage`` they answer."""

import re
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import notify, throttles
from games.errors import BadRequest, ServiceError
from games.i18n import speaking_to
from games.mail import inbound
from games.mail.selectors import player_by_token
from games.models import (
    Game,
    InboundMessage,
    NoticeKind,
    Outbox,
    PlayerSettings,
    RefusedAddress,
)
from games.notify.channels.email import texts, tokens, words
from games.notify.channels.email.addresses import account_identity, player_by_address
from games.plan_lines import read_lines
from games.repository import game_table
from games.rules.common import InvalidNotation
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from games.services.plans import plan_replace

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
