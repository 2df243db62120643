"""Closing an account and forgetting its person (issue 45; docs/privacy.md).

Ruling: closing is final and forgets at once — there is no account to come back to, and
nothing of the person waits for a later job. In one transaction: sign-in stops (every
session and API token ends), what was about to be sent to them is withdrawn, their seats
in games in play are resigned (or handed to a computer player where the game's timeout
policy plays absent players so), open games they wait in are left or called off,
tournaments withdrawn, plans deleted; then every row that holds their personal data is
emptied or deleted, and the keys of the streams they took part in are shredded, so that
free text written about them in events can no longer be read. Events are never touched:
they hold ids, and names are looked up when read (``selectors.names.display_name``), so their
games show "Deleted player" and still replay and verify."""

from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from events import store
from events.shredding import address_key, person_key, shred
from games import table as tbl
from games.errors import BadRequest, Conflict, Forbidden
from games.models import (
    ApiToken,
    ChatMessage,
    DataExport,
    Game,
    InboundMessage,
    Outbox,
    Plan,
    PlayerSettings,
    PushDelivery,
    PushSubscription,
    RefusedAddress,
    Report,
    Seat,
    Tournament,
    TournamentSnapshot,
)
from games.selectors.access import is_moderator
from games.selectors.names import (
    SHORTEST_NAME,
    bot_actor,
    deleted_name,
    display_name,
    forgotten_username,
    is_forgotten,
)
from games.selectors.tournaments import tournaments_entered, tournaments_of_person
from games.services.common import act, actor_of, locked_game
from games.services.data_export import data_exports_forgotten
from games.services.moderation import sealed
from games.services.moves import seat_resign
from games.services.tables import game_cancel, game_leave
from games.services.tournaments.entry import tournament_withdraw
from games.services.tournaments.organiser import tournament_cancel

ACCOUNT_STREAM = "account:{}"
CLOSED = "account.Closed"
WITHDRAWN = "account closed"


def account_stream(user_id: int) -> str:
    """The stream of an account's own events: its closing, by whom and why."""
    return ACCOUNT_STREAM.format(user_id)


def account_close(*, user, by=None, reason: str = "") -> None:
    """Close ``user``'s account and forget its person, by themselves or (``by``) by a
    moderator, who must say why: the closing is an event of the account's stream, the
    moderator its actor and the reason sealed under the account's key (shredded with the
    rest). Staff are closed by a superuser alone (``_outranks_moderators``). Closing one's
    own account (``by`` is ``user`` or ``None``): the caller checked that the person
    confirmed (password or a fresh sign-in) — the admin sends them to the page that asks."""
    if by is not None and by.pk != user.pk:
        if not (is_moderator(by) or _is_superuser(by)):
            raise Forbidden(_("only moderators may do this"), code="not_a_moderator")
        if _outranks_moderators(user) and not _is_superuser(by):
            raise Forbidden(
                _("only a superuser may close the account of a moderator or of staff"),
                code="rank",
            )
        if not reason.strip():
            raise BadRequest(
                _("say why: every moderation act is recorded with its reason"),
                code="reason_required",
            )
        actor = f"moderator:{by.pk}"
    else:
        actor = actor_of(user)
    if is_forgotten(user):
        raise Conflict(_("this account is already closed"), code="account_closed")
    # Before leaving: a seat handed to a computer player no longer names them.
    streams = _streams_of(user)
    _leave_everything(user)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        stream = account_stream(user.pk)
        store.append(
            stream,
            store.current_seq(stream),
            [store.NewEvent(CLOSED, {"user": user.pk})],
            actor=actor,
            reason=sealed(stream, reason),
        )
        _forget(user, streams)


def _is_superuser(user) -> bool:
    return bool(user.is_active and user.is_superuser)


def _outranks_moderators(user) -> bool:
    """Ruling (issue 52): staff — moderators (staff in their group), superusers, anyone
    who may open the admin — are closed by a superuser alone, so that no moderator can
    erase a peer or a superior for good."""
    return bool(user.is_staff or user.is_superuser)


def _leave_everything(user) -> None:
    """What the person takes part in, left as a player would leave it, each through its
    own service (each game and tournament under its own lock, as every writer takes
    them)."""
    going_on = tournaments_of_person(user).filter(
        status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
    )
    # Called off, its players told: nobody is left registered in a tournament that its
    # organiser, gone, can never start or run (issue 52).
    for tournament in going_on.filter(organiser=user):
        tournament_cancel(tournament=tournament, user=user)
    for tournament in going_on.filter(pk__in=tournaments_entered(user, going_on)):
        tournament_withdraw(tournament=tournament, user=user)
    for game_id in (
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE)
        .exclude(status=Seat.Status.RESIGNED)
        .values_list("game_id", flat=True)
    ):
        _leave_game(game_id, user)
    for game in Game.objects.filter(seats__user=user, status=Game.Status.OPEN).distinct():
        if game.created_by_id == user.pk:
            game_cancel(game=game, user=user)
        else:
            game_leave(game=game, user=user)
    for game in Game.objects.filter(created_by=user, status=Game.Status.OPEN):
        game_cancel(game=game, user=user)


@transaction.atomic
def _leave_game(game_id: int, user) -> None:
    """Resign the seat, or, where the game's timeout policy has a computer play for an
    absent player, hand the seat to that computer player: the others' game goes on as
    they agreed it would."""
    game = locked_game(game_id)
    seat = game.seats.filter(user=user).exclude(status=Seat.Status.RESIGNED).first()
    if game.status != Game.Status.ACTIVE or seat is None:
        return
    if game.timeout_policy == Game.TimeoutPolicy.BOT and game.timeout_bot:
        act(game, tbl.ReplaceSeat(seat.position, bot_actor(game.timeout_bot)), actor=actor_of(user))
        return
    seat_resign(game, seat, actor=actor_of(user))


def _forget(user, streams: list[str]) -> None:
    """Empty or delete every row holding the person's data, and shred the keys of the
    ``streams`` they took part in and their own keys (``events.shredding``: what was
    sealed for them anywhere, a reason naming them, their address invited, the names of
    their tournaments). ``user`` is locked by the caller."""
    now = timezone.now()
    address = user.email.lower()
    names = {name for name in (display_name(user), user.first_name, user.last_name) if name}
    said = dict.fromkeys(names | {address}, deleted_name())
    renamed = _forget_tournaments(user, address)
    said |= renamed
    texts = _erase_texts(user, now)
    _erase_mentions(names | {address})
    _withdraw_and_empty_mail(user, address, now)
    _scrub_payloads(said | dict.fromkeys(texts, deleted_name()))
    DataExport.objects.filter(user=user).delete()
    data_exports_forgotten(person=user, texts=[*names, address, *texts, *renamed])
    PushSubscription.objects.filter(user=user).delete()
    Plan.objects.filter(user=user).delete()
    InboundMessage.objects.filter(sender__iexact=address).update(sender="", outcome="")
    RefusedAddress.objects.filter(address__iexact=address).delete()
    Seat.objects.filter(invited_email__iexact=address, status=Seat.Status.INVITED).update(
        invited_email="", status=Seat.Status.OPEN
    )
    # Seats they took by invitation keep the address no more.
    Seat.objects.filter(Q(user=user) | Q(invited_email__iexact=address)).exclude(
        invited_email=""
    ).update(invited_email="")
    Token.objects.filter(user=user).delete()
    ApiToken.objects.filter(user=user).delete()
    _end_sessions(user)
    content_type = ContentType.objects.get_for_model(user)
    LogEntry.objects.filter(content_type=content_type, object_id=str(user.pk)).update(
        object_repr=deleted_name(), change_message=""
    )
    shred([*streams, person_key(user.pk), address_key(address)])
    PlayerSettings.objects.filter(user=user).delete()
    PlayerSettings.objects.create(user=user, closed_at=now, forgotten_at=now)
    user.username = forgotten_username(user.pk)
    user.email = user.first_name = user.last_name = ""
    user.is_active = False
    user.last_login = None
    user.set_unusable_password()
    user.save()


def _withdraw_and_empty_mail(user, address: str, now) -> None:
    """Nothing more leaves for them; what was sent keeps its fact and time, not its
    address or content."""
    theirs = Q(user=user) | Q(recipient__iexact=address)
    pending = Outbox.objects.filter(theirs, sent_at__isnull=True, cancelled_at__isnull=True)
    pending.update(cancelled_at=now, withdrawn_because=WITHDRAWN)
    # The outbox keeps one row per (game, key, recipient, kind): the address gives way to
    # the account's forgotten name, unique as the address was.
    Outbox.objects.filter(theirs).update(
        recipient=forgotten_username(user.pk), payload={}, last_error=""
    )
    PushDelivery.objects.filter(
        subscription__user=user, sent_at__isnull=True, cancelled_at__isnull=True
    ).update(cancelled_at=now, withdrawn_because=WITHDRAWN)


def _erase_texts(user, now) -> list[str]:
    """Their chat messages lose their text (the message's place stays, so the others'
    answers still read in order); reports they wrote and reports about their messages
    lose theirs. The texts their messages held."""
    messages = ChatMessage.objects.filter(author=user)
    texts = [text for text in messages.values_list("text", flat=True) if text]
    messages.update(text="", hidden_reason="", erased_at=now)
    Report.objects.filter(Q(reporter=user) | Q(message__author=user)).update(reason="")
    return texts


def _erase_mentions(said: set[str]) -> None:
    """What others wrote by hand about them in rows a moderator reads, naming them (their
    address or a name, as ``persons_named`` finds them): a report's reason, a suspension's
    reason, emptied."""
    said = {text for text in said if len(text) >= SHORTEST_NAME}
    if not said:
        return
    Report.objects.filter(_mentioning("reason", said)).update(reason="")
    PlayerSettings.objects.filter(_mentioning("suspended_reason", said)).update(suspended_reason="")


def _mentioning(field: str, said: set[str]) -> Q:
    found = Q()
    for text in said:
        found |= Q(**{f"{field}__icontains": text})
    return found


def _forget_tournaments(user, address: str) -> dict[str, str]:
    """The tournaments they organised lose their names (the organiser's free text; their
    events keep it sealed under the organiser's key, shredded next), and invitation-only
    tournaments the address they were invited by. Their folded snapshots, which held
    both, are dropped (the next read folds the events again). Each erased name and what
    it now reads as, for the notices still to be sent."""
    renamed = {}
    touched = []
    for tournament in Tournament.objects.filter(organiser=user).exclude(name=""):
        name = tournament.name
        tournament.name = ""
        tournament.save(update_fields=["name"])
        renamed[name] = tournament.title
        touched.append(tournament.pk)
    # Few tournaments are invitation-only; read in Python, as SQLite's JSON has no
    # "contains".
    for tournament in Tournament.objects.filter(public=False).only("pk", "settings"):
        invited = tournament.settings.get("invited") or []
        if address in invited:
            invited = [other for other in invited if other != address]
            tournament.settings = {**tournament.settings, "invited": invited}
            tournament.save(update_fields=["settings"])
            touched.append(tournament.pk)
    TournamentSnapshot.objects.filter(tournament_id__in=touched).delete()
    return renamed


def _scrub_payloads(said: dict[str, str]) -> None:
    """Emails and pushes (still to be sent, or kept) to others whose payload holds one of
    ``said`` (a name, the address, a chat text, a tournament's name): each such text
    gives way to what ``said`` maps it to ("Deleted player", "Tournament 12")."""
    said = {text: instead for text, instead in said.items() if len(text) >= 2}
    if not said:
        return
    for model in (Outbox, PushDelivery):
        rows = model.objects.annotate(as_text=Cast("payload", TextField()))
        rows = rows.filter(_mentioning("as_text", set(said)))
        for row in rows.only("pk", "payload"):
            row.payload = _replaced(row.payload, said)
            row.save(update_fields=["payload"])


def _replaced(value, said: dict[str, str]):
    if isinstance(value, str):
        # The longest first: a tournament's name may hold its organiser's name.
        for text, instead in sorted(said.items(), key=lambda item: -len(item[0])):
            value = value.replace(text, instead)
        return value
    if isinstance(value, list):
        return [_replaced(item, said) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, said) for key, item in value.items()}
    return value


def _end_sessions(user) -> None:
    """Every session signed in as them ends now. Sessions are signed data in the
    database: each live one is read to find theirs (closing is rare; an index of
    sessions by user would cost every sign-in)."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now())
        if session.get_decoded().get("_auth_user_id") == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()


def _streams_of(user) -> list[str]:
    games = Game.objects.filter(Q(seats__user=user) | Q(created_by=user) | Q(plans__user=user))
    streams = [game.stream for game in games.distinct()]
    streams += [tournament.stream for tournament in tournaments_of_person(user)]
    return [*streams, account_stream(user.pk)]
