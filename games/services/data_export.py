"""Download your data (issue 45; GDPR art. 15, the right of access, and art. 20, data
portability): one ZIP of JSON files holding everything the site keeps about a player, and
nothing of anyone else. ``docs/data-export.md`` describes the archive.

Asking (``data_export_request``) writes a queued ``DataExport`` and sends the Celery task
``data_export_build`` after commit; a download already queued or being built is given
back instead of a second one, and at most ``DATA_EXPORTS_PER_DAY`` are asked for in a day.
The task builds the archive game by game outside any lock, saving ``done`` of ``total``
games as it goes, then keeps the archive for ``DATA_EXPORT_DAYS`` and tells the player
(``notify.data_export_ready``: an email; the account page shows it in any case).

Claims. While a download is being built, ``expires_at`` is its build's lease: the build
moves it ``STALE_AFTER`` ahead at every step, and every write of the build is conditional
on the lease it set last (``UPDATE … WHERE status = 'building' AND expires_at = <ours>``).
A build whose worker stopped lets its lease run out; the minute sweep
(``resume_stale_exports``) queues it again, and the new build's lease makes the old one's
writes do nothing. Once ready, ``expires_at`` is when the archive goes."""

import io
import json
import logging
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from azulsite.celery import send_quickly
from games import notify
from games.errors import TooManyRequests
from games.i18n import speaking_to
from games.models import (
    ChatMessage,
    DataExport,
    InboundMessage,
    NoticeKind,
    Outbox,
    Plan,
    PlayerSettings,
    PushSubscription,
    Rating,
    RatingChange,
    Seat,
    TournamentGame,
)
from games.selectors.history import export_record
from games.selectors.names import display_name
from games.selectors.tournaments import (
    tournament_view,
    tournaments_of_person,
    tournaments_registered,
)

log = logging.getLogger(__name__)

ARCHIVE_FORMAT = "azulsite-data-export"
ARCHIVE_FORMAT_VERSION = 1
# A build without news for this long lost its worker: the minute sweep queues it again.
STALE_AFTER = timedelta(minutes=10)
# Downloads the sweep queues again per pass.
SWEEP_BATCH = 10
# The build renews its lease after this many emails too (rendering them is its slow part
# after the games).
EMAILS_PER_BEAT = 50
PENDING = (DataExport.Status.QUEUED, DataExport.Status.BUILDING)
# The subject and text of a sent email as the mail door writes it now (it sits above the
# services, so the task that builds hands it in: ``mail.render.sent_text``).
EmailText = Callable[[Outbox, datetime], tuple[str, str]]

# What each file of the archive holds, said to the player (README.txt and index.json).
FILES = {
    "account.json": gettext_lazy(
        "Your account (number, email address, name, when you joined and last signed in) and "
        "your settings (language, time zone, playing hours, notices by channel, digest, "
        "vacation, profile privacy, suspension)."
    ),
    "ratings.json": gettext_lazy(
        "Your rating on each game's ladder, and how every rated game changed it."
    ),
    "games/": gettext_lazy(
        "One file per game you had a seat in (games/<number>.json): your seat, and the game's "
        "record as the site exports it (its settings, players and every event of the game)."
    ),
    "chat.json": gettext_lazy(
        "The messages you wrote in games' chats (only yours), with whether a moderator hid one."
    ),
    "plans.json": gettext_lazy("Your plans (conditional moves), one per game where you keep one."),
    "tournaments.json": gettext_lazy(
        "The tournaments you entered or organised: each as its page shows it, and your games in it."
    ),
    "devices.json": gettext_lazy(
        "The devices you receive notifications on: when each was added, when it expires, and "
        "the push service it goes through (never its address or keys)."
    ),
    "emails.json": gettext_lazy(
        "The emails the site sent you (kind, times, message id, subject and text as far as they "
        "can still be written) and the email replies it received from you (times and what "
        "became of them)."
    ),
    "sign-ins.json": gettext_lazy(
        "When you last signed in, and when sign-in links were sent to you."
    ),
}


# --- reads --------------------------------------------------------------------------------


def data_export_latest(user) -> DataExport | None:
    """The player's latest download, whatever its state (its archive not loaded)."""
    return (
        DataExport.objects.filter(user=user)
        .defer("archive")
        .order_by("-requested_at", "-pk")
        .first()
    )


def data_export_for_download(
    user, export_id: int, *, now: datetime | None = None
) -> DataExport | None:
    """The download ``export_id`` with its archive if it is ``user``'s, ready and not
    expired; ``None`` otherwise (so that nobody learns whether another's exists)."""
    return DataExport.objects.filter(
        pk=export_id,
        user=user,
        status=DataExport.Status.READY,
        expires_at__gt=now or timezone.now(),
    ).first()


def archive_filename(export: DataExport) -> str:
    """The name the archive is saved under."""
    return f"azulsite-data-{export.ready_at:%Y-%m-%d}.zip"


@dataclass(frozen=True)
class Progress:
    """What the account page and the API say of a download: ``status`` (a
    ``DataExport.Status``, or ``expired``), games ``done`` of ``total``, and a sentence."""

    status: str
    done: int
    total: int
    text: str

    @property
    def pending(self) -> bool:
        """Queued or being built: the page follows it."""
        return self.status in PENDING


def data_export_progress(export: DataExport, *, now: datetime | None = None) -> Progress:
    """The state of ``export`` and a sentence for its player (in the active language and
    time zone). A ready download past its time reads as expired."""
    status = export.status
    if status == DataExport.Status.READY and export.expires_at <= (now or timezone.now()):
        status = "expired"
    match status:
        case DataExport.Status.QUEUED:
            text = _("Your archive is waiting to be built.")
        case DataExport.Status.BUILDING if export.total:
            text = ngettext(
                "Building your archive: %(done)s of %(total)s game",
                "Building your archive: %(done)s of %(total)s games",
                export.total,
            ) % {"done": export.done, "total": export.total}
        case DataExport.Status.BUILDING:
            text = _("Building your archive…")
        case DataExport.Status.READY:
            # Translators: %(size)s is e.g. "2.1 MB", %(until)s a date and time.
            text = _(
                "Your archive (%(size)s) is ready. You can download it until %(until)s; then "
                "it is deleted."
            ) % {"size": filesizeformat(export.size), "until": _when(export.expires_at)}
        case DataExport.Status.FAILED:
            text = _("Your archive could not be built. Please ask for it again.")
        case _:
            text = _("Your last archive has expired. Ask for a new one to download your data.")
    return Progress(status, export.done, export.total, text)


def _when(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


# --- writes -------------------------------------------------------------------------------


def data_export_request(*, user, now: datetime | None = None) -> DataExport:
    """Ask for a download of ``user``'s data: a new queued one, built by a task sent when
    the transaction commits, or the one already queued or being built. Raises
    ``TooManyRequests`` (saying when they may ask again) once ``DATA_EXPORTS_PER_DAY``
    were asked for in the last 24 hours; one that failed does not count."""
    now = now or timezone.now()
    with transaction.atomic():
        # The player's row serialises their requests: two clicks make one download.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        pending = DataExport.objects.filter(user=user, status__in=PENDING).defer("archive").first()
        if pending is not None:
            return pending
        limit = settings.DATA_EXPORTS_PER_DAY
        asked = list(
            DataExport.objects.filter(user=user, requested_at__gt=now - timedelta(days=1))
            .exclude(status=DataExport.Status.FAILED)
            .order_by("requested_at")
            .values_list("requested_at", flat=True)
        )
        if len(asked) >= limit:
            # Free again when the request that makes the count reach the limit is a day old.
            again = asked[len(asked) - limit] + timedelta(days=1)
            raise TooManyRequests(
                ngettext(
                    "You can ask for your data %(count)s time a day. From %(when)s you can "
                    "ask again.",
                    "You can ask for your data %(count)s times a day. From %(when)s you can "
                    "ask again.",
                    limit,
                )
                % {"count": limit, "when": _when(again)},
                code="data_export_limit",
                retry_after=int((again - now).total_seconds()) + 1,
            )
        export = DataExport.objects.create(user=user, requested_at=now)
        transaction.on_commit(partial(_send, export.pk))
    return export


def _send(export_id: int) -> None:
    if not send_quickly("games.tasks.data_export_build", [export_id]):
        log.warning("data export %s: broker unreachable; the sweep will queue it", export_id)


def resume_stale_exports(*, now: datetime) -> int:
    """The minute sweep's part: queue again the downloads whose task was lost, queued for
    ``STALE_AFTER`` or being built by a build whose lease ran out, at most ``SWEEP_BATCH``
    a pass. Each is queued again with a lease of its own, so it is sent again at most once
    every ``STALE_AFTER``. Returns how many were sent."""
    lost = (
        DataExport.objects.filter(
            Q(
                status=DataExport.Status.QUEUED,
                requested_at__lt=now - STALE_AFTER,
            )
            & (Q(expires_at__isnull=True) | Q(expires_at__lt=now))
            | Q(status=DataExport.Status.BUILDING, expires_at__lt=now)
        )
        .order_by("requested_at")
        .values_list("pk", "status", "expires_at")[:SWEEP_BATCH]
    )
    sent = 0
    for pk, status, lease in list(lost):
        taken = DataExport.objects.filter(pk=pk, status=status, expires_at=lease).update(
            status=DataExport.Status.QUEUED, done=0, expires_at=now + STALE_AFTER
        )
        if taken:
            _send(pk)
            sent += 1
    return sent


class LeaseLost(Exception):
    """Another build took the download over (ours was taken for dead): stop."""


def data_export_build(*, export_id: int, email_text: EmailText, now: datetime | None = None) -> str:
    """Build a queued download: claim it, write the archive game by game saving the
    progress, then keep it for ``DATA_EXPORT_DAYS`` and tell the player. ``email_text``
    writes the emails sent to them. ``ready``, ``failed``, ``taken over`` (another build
    holds it now) or ``done`` (nothing to do)."""
    lease = _lease(now)
    claimed = DataExport.objects.filter(pk=export_id, status=DataExport.Status.QUEUED).update(
        status=DataExport.Status.BUILDING, done=0, total=0, error="", expires_at=lease
    )
    if not claimed:
        return "done"
    export = DataExport.objects.select_related("user").defer("archive").get(pk=export_id)
    build = _Build(export, lease, email_text)
    try:
        archive = build.archive()
    except LeaseLost:
        log.info("data export %s: another build took it over", export_id)
        return "taken over"
    except Exception as error:
        log.exception("data export %s: the archive could not be built", export_id)
        DataExport.objects.filter(
            pk=export_id, status=DataExport.Status.BUILDING, expires_at=build.lease
        ).update(status=DataExport.Status.FAILED, error=f"{type(error).__name__}: {error}")
        return "failed"
    ready_at = timezone.now()
    with transaction.atomic():
        done = DataExport.objects.filter(
            pk=export_id, status=DataExport.Status.BUILDING, expires_at=build.lease
        ).update(
            status=DataExport.Status.READY,
            archive=archive,
            size=len(archive),
            done=build.total,
            ready_at=ready_at,
            expires_at=ready_at + timedelta(days=settings.DATA_EXPORT_DAYS),
        )
        if not done:
            return "taken over"
        export.refresh_from_db(fields=["status", "size", "ready_at", "expires_at"])
        notify.data_export_ready(export)
    return "ready"


def _lease(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) + STALE_AFTER


# --- the archive --------------------------------------------------------------------------


def _json(value) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2) + "\n"


class _Build:
    """One build of one download: the files of the archive, written one after another into
    a ZIP in memory, the progress saved under the build's lease."""

    def __init__(self, export: DataExport, lease: datetime, email_text: EmailText) -> None:
        self.export = export
        self.email_text = email_text
        self.user = export.user
        self.lease = lease
        self.total = 0

    def beat(self, done: int, **columns) -> None:
        """Save the progress and move the lease on; ``LeaseLost`` if another build holds
        the download now."""
        lease = _lease()
        moved = DataExport.objects.filter(
            pk=self.export.pk, status=DataExport.Status.BUILDING, expires_at=self.lease
        ).update(done=done, expires_at=lease, **columns)
        if not moved:
            raise LeaseLost
        self.lease = lease

    def archive(self) -> bytes:
        user = self.user
        seats = list(Seat.objects.filter(user=user).select_related("game").order_by("game_id"))
        self.total = len(seats)
        self.beat(0, total=self.total)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            with speaking_to(user):
                archive.writestr("README.txt", readme(user))
                archive.writestr("index.json", _json(index(user)))
                archive.writestr("account.json", _json(account(user)))
                archive.writestr("ratings.json", _json(ratings(user)))
                archive.writestr("chat.json", _json(chat(user)))
                archive.writestr("plans.json", _json(plans(user)))
                archive.writestr("tournaments.json", _json(tournaments_of(user)))
                archive.writestr("devices.json", _json(devices(user)))
                archive.writestr("sign-ins.json", _json(sign_ins(user)))
                archive.writestr(
                    "emails.json",
                    _json(emails(user, beat=lambda: self.beat(0), email_text=self.email_text)),
                )
            for done, seat in enumerate(seats, start=1):
                archive.writestr(f"games/{seat.game_id}.json", _json(game_file(seat)))
                self.beat(done)
        return buffer.getvalue()


def readme(user) -> str:
    """README.txt: what the archive is and what each file holds, in the player's language."""
    lines = [
        _("Your data from azulsite"),
        "",
        _(
            "This archive holds everything azulsite keeps about you (%(name)s), as JSON files. "
            "It was made on %(when)s; the times in its files are in UTC (ISO 8601)."
        )
        % {"name": display_name(user), "when": _when(timezone.now())},
        _(
            "It holds nothing of other players but what your games and tournaments show to "
            "everyone in them: their names, moves and results."
        ),
        "",
    ]
    for name, description in FILES.items():
        lines += [name, "    " + str(description), ""]
    lines.append(_("index.json lists the same files for programs, and says the format's version."))
    return "\n".join(lines) + "\n"


def index(user) -> dict:
    return {
        "format": ARCHIVE_FORMAT,
        "format_version": ARCHIVE_FORMAT_VERSION,
        "player": user.pk,
        "created_at": timezone.now(),
        "files": {name: str(description) for name, description in FILES.items()},
    }


def account(user) -> dict:
    prefs = PlayerSettings.objects.filter(user=user).first()
    found = {
        "id": user.pk,
        "email": user.email,
        "name": display_name(user),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "settings": None,
    }
    if prefs is not None:
        found["settings"] = {
            "language": prefs.language,
            "last_language": prefs.last_language,
            "time_zone": prefs.time_zone,
            "playing_hours": {"start": prefs.hours_start, "end": prefs.hours_end},
            "channels": prefs.channels,
            "unsubscribed_at": prefs.unsubscribed_at,
            "daily_digest": prefs.daily_digest,
            "last_digest_at": prefs.last_digest_at,
            "vacation": {
                "days_per_year": prefs.vacation_days_per_year,
                "started_at": prefs.vacation_started_at,
                "year": prefs.vacation_year,
                "seconds_used": prefs.vacation_seconds_used,
            },
            "profile_hidden": prefs.profile_hidden,
            "suspended_at": prefs.suspended_at,
            "suspended_reason": prefs.suspended_reason,
            "closed_at": prefs.closed_at,
        }
    return found


def ratings(user) -> dict:
    return {
        "ratings": [
            {
                "game": rating.game_type,
                "rating": rating.display,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "games": rating.games,
                "last_played_at": rating.last_played_at,
            }
            for rating in Rating.objects.filter(user=user).order_by("game_type")
        ],
        "history": [
            {
                "game": change.game_type,
                "game_id": change.result_id,
                "ended_at": change.ended_at,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu": change.mu,
                "sigma": change.sigma,
                "rating": change.display,
            }
            for change in RatingChange.objects.filter(user=user).order_by(
                "game_type", "ended_at", "result_id"
            )
        ],
    }


def game_file(seat: Seat) -> dict:
    """One game: the player's seat and the game's record (``selectors.history.export_record``)."""
    return {
        "seat": {
            "position": seat.position,
            "status": seat.status,
            "joined_at": seat.joined_at,
            "playing_hours": seat.playing_hours,
        },
        "record": export_record(seat.game),
    }


def chat(user) -> list[dict]:
    return [
        {
            "game": message.game_id,
            "created_at": message.created_at,
            "text": message.text,
            "hidden_at": message.hidden_at,
            "hidden_reason": message.hidden_reason,
            "erased_at": message.erased_at,
        }
        for message in ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
    ]


def plans(user) -> list[dict]:
    return [
        {
            "game": plan.game_id,
            "seat": plan.seat,
            "lines": plan.lines,
            "next_move": plan.next_move,
            "at_seq": plan.at_seq,
            "updated_at": plan.updated_at,
        }
        for plan in Plan.objects.filter(user=user).order_by("game_id")
    ]


def tournaments_of(user) -> list[dict]:
    """The tournaments ``user`` registered for (withdrawn since or not) or organises: each
    as its page shows it to them, their role and their games in it."""
    entered = tournaments_registered(user)
    found = tournaments_of_person(user).select_related("organiser")
    games = {}
    for table in TournamentGame.objects.filter(game__seats__user=user, tournament__in=found):
        games.setdefault(table.tournament_id, []).append(
            {"game": table.game_id, "round": table.round}
        )
    return [
        {
            "entered": tournament.pk in entered,
            "organiser": tournament.organiser_id == user.pk,
            "created_at": tournament.created_at,
            "my_games": sorted(games.get(tournament.pk, []), key=lambda g: g["game"]),
            "tournament": tournament_view(tournament, user),
        }
        for tournament in found.order_by("pk")
    ]


def devices(user) -> list[dict]:
    return [
        {
            "created_at": device.created_at,
            "expires_at": device.expires_at,
            "push_service": urlsplit(device.endpoint).hostname or "",
        }
        for device in PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
    ]


def _to_them(user) -> Q:
    return Q(user=user) | Q(recipient__iexact=user.email)


def sign_ins(user) -> dict:
    return {
        "last_login": user.last_login,
        "sign_in_emails": [
            {"created_at": row.created_at, "sent_at": row.sent_at}
            for row in Outbox.objects.filter(_to_them(user), kind=NoticeKind.SIGN_IN).order_by(
                "created_at", "pk"
            )
        ],
    }


def emails(user, *, beat, email_text: EmailText) -> dict:
    """The emails sent to ``user`` (their account's or their address's) and the replies
    received from them. A sign-in email is listed by its facts alone: its link signs in."""
    now = timezone.now()
    sent = []
    rows = Outbox.objects.filter(_to_them(user)).select_related("game").order_by("created_at", "pk")
    for number, row in enumerate(rows, start=1):
        if number % EMAILS_PER_BEAT == 0:
            beat()
        entry = {
            "kind": row.kind,
            "game": row.game_id,
            "to": row.recipient,
            "created_at": row.created_at,
            "sent_at": row.sent_at,
            "cancelled_at": row.cancelled_at,
            "cancelled_because": row.withdrawn_because,
            "message_id": row.message_id,
            "subject": None,
            "text": None,
        }
        if row.kind != NoticeKind.SIGN_IN:
            try:
                entry["subject"], entry["text"] = email_text(row, now)
            except Exception:
                # The game or what the row names may be gone: its facts stay.
                log.info("data export: outbox %s cannot be written any more", row.pk)
        sent.append(entry)
    received = [
        {
            "message_id": reply.message_id,
            "received_at": reply.received_at,
            "game": reply.game_id,
            "outcome": reply.outcome,
        }
        for reply in InboundMessage.objects.filter(sender__iexact=user.email).order_by(
            "received_at", "pk"
        )
    ]
    return {"sent": sent, "received": received}
