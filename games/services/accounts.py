"""Accounts: signing in by a link sent by email.

The email goes through the outbox like every other (a worker sends it, so a slow mail
server never holds a page). Its sign-in code is opaque — the outbox row's number and a
keyed hash of that row, the address and the account's last sign-in — so it names no
address, works once (signing in changes the last sign-in, by a conditional UPDATE that
one post alone wins) and for ``SIGN_IN_MAX_AGE``.
The link carries the code in its fragment (``/signin/link/#CODE``), which browsers send
to no server and in no ``Referer``: the page POSTs it."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from games import i18n, notify
from games.errors import BadRequest, Forbidden
from games.models import NoticeKind, Outbox, PlayerSettings
from games.notify.channels.email.addresses import account_identity
from games.notify.channels.email.tokens import sign_in_mac
from games.services.hours import hours_follow_zone, validate_hours

User = get_user_model()


SIGN_IN_MAX_AGE = timedelta(minutes=30)


@transaction.atomic
def sign_in_request(*, email: str, next_url: str = "/lobby/", language: str = "") -> bool:
    """Queue a sign-in email to ``email``, whose link returns to ``next_url`` (a local
    path), written in ``language`` (the page's, where the address has no account yet).
    Creates no account (``account_sign_in`` does). Asking again within the same minute
    queues nothing more: the email on its way holds a working link. Whether an email was
    queued now."""
    email = account_identity(email)
    _one_at_a_time(email)
    user = User.objects.filter(username=email).first()
    minute = int(timezone.now().timestamp() // 60)
    return notify.sign_in_link(
        email,
        minute,
        user,
        last=_last_login(user),
        next_url=next_url,
        language=i18n.supported(language),
    )


def _one_at_a_time(email: str) -> None:
    """Requests for one address wait for each other until their transaction ends: the
    outbox's unique key cannot catch two rows of the same minute for it, since rows
    without a game have a NULL in the key, and NULLs never collide. (SQLite already lets
    one writer in at a time.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"sign-in:{email}"])


def _last_login(user) -> str:
    return user.last_login.isoformat() if user is not None and user.last_login else ""


@transaction.atomic
def account_sign_in(*, code: str):
    """The account a sign-in code opens. Ruling (issue 6): an address with no account gets
    one here, when its owner follows the link, since the link proves the address is theirs;
    asking for a link creates nothing. Raises ``BadRequest`` for a forged, expired or used
    code."""
    number, _dot, mac = (code or "").strip().partition(".")
    row = (
        Outbox.objects.filter(pk=int(number), kind=NoticeKind.SIGN_IN).first()
        if number.isdigit() and len(number) < 19
        else None
    )
    if row is None or not constant_time_compare(mac, sign_in_mac(row)):
        raise BadRequest(
            _("this sign-in link is not valid: ask for a new one"), code="link_invalid"
        )
    if row.created_at < timezone.now() - SIGN_IN_MAX_AGE:
        raise BadRequest(
            _("this sign-in link has expired (links last 30 minutes): ask for a new one"),
            code="link_expired",
        )
    # An account made here has no password: it signs in by links alone (an empty password
    # would count as usable, and the closing page would ask for one that does not exist).
    user, _created = User.objects.get_or_create(
        username=row.recipient, defaults={"email": row.recipient, "password": make_password(None)}
    )
    if _last_login(user) != row.payload.get("last", ""):
        raise _link_used()
    if not user.is_active:
        raise Forbidden(_("this account is disabled"), code="account_disabled")
    # The code is spent by one conditional UPDATE: of simultaneous posts of one code, one
    # alone still finds the last sign-in the code was made with (PostgreSQL re-reads the
    # row a concurrent UPDATE changed before deciding), the others change nothing.
    now = timezone.now()
    if not User.objects.filter(pk=user.pk, last_login=user.last_login).update(last_login=now):
        raise _link_used()
    user.last_login = now
    if language := i18n.supported(row.payload.get("language")):
        PlayerSettings.objects.update_or_create(user=user, defaults={"last_language": language})
    return user


def _link_used() -> BadRequest:
    return BadRequest(
        _("this sign-in link has already been used: ask for a new one"), code="link_used"
    )


@transaction.atomic
def player_preferences_set(
    *,
    user,
    language: str | None = None,
    time_zone: str | None = None,
    hours: dict | None = None,
) -> None:
    """Save the account page: the language of pages and emails ('' follows the browser),
    the time zone of every date and time shown ('' is UTC; a new one is followed by the
    seats of the player's games with playing hours, ``hours.hours_follow_zone``) and the
    playing hours offered when taking a seat (``{"start": "HH:MM", "end": "HH:MM"}``).
    ``None`` keeps a value."""
    changes = {}
    if hours is not None:
        chosen = validate_hours(hours)
        changes["hours_start"], changes["hours_end"] = chosen["start"], chosen["end"]
    if language is not None:
        if language and not i18n.supported(language):
            accepted = ", ".join(code for code, _name in settings.LANGUAGES)
            raise BadRequest(
                _("Unknown language %(language)s; choose one of %(accepted)s.")
                % {"language": language, "accepted": accepted},
                code="invalid_language",
            )
        changes["language"] = i18n.supported(language)
    if time_zone is not None:
        if time_zone and time_zone not in i18n.time_zone_names():
            raise BadRequest(
                _("Unknown time zone %(zone)s; choose one from the list, such as Europe/Madrid.")
                % {"zone": time_zone},
                code="invalid_time_zone",
            )
        changes["time_zone"] = time_zone
    PlayerSettings.objects.update_or_create(user=user, defaults=changes)
    if time_zone is not None:
        hours_follow_zone(user=user)
