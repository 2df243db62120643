"""Download your data (issue 45; GDPR art. 15, the right of access, and art. 20, data
portability): one ZIP of JSON files holding everything the site keeps about a player, and
nothing of anyone else. ``docs/data-export.md`` describes the archive; its files are
written by ``games.services.data_export_files``.

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
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from azulsite.celery import send_quickly
from games import notify
from games.errors import TooManyRequests
from games.i18n import speaking_to
from games.models import DataExport, Seat
from games.services import data_export_files as files
from games.services.data_export_files import EmailText, moment_text

log = logging.getLogger(__name__)

# A build without news for this long lost its worker: the minute sweep queues it again.
STALE_AFTER = timedelta(minutes=10)
# Downloads the sweep queues again per pass.
SWEEP_BATCH = 10
PENDING = (DataExport.Status.QUEUED, DataExport.Status.BUILDING)


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
            ) % {"size": filesizeformat(export.size), "until": moment_text(export.expires_at)}
        case DataExport.Status.FAILED:
            text = _("Your archive could not be built. Please ask for it again.")
        case _:
            text = _("Your last archive has expired. Ask for a new one to download your data.")
    return Progress(status, export.done, export.total, text)


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
                % {"count": limit, "when": moment_text(again)},
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


# --- another person forgotten -------------------------------------------------------------

# Texts shorter than this are not looked for in archives: they would be found by chance.
SHORTEST_TEXT = 3


def data_exports_forgotten(*, person, texts: Iterable[str]) -> int:
    """Other people's downloads that hold ``person``'s data, deleted as ``person`` is
    forgotten (issue 52; docs/privacy.md): every download, kept or being built, of whoever
    shared a game with them (a build may have read them already), and every other kept
    archive in which one of ``texts`` is found (their address, names, chat, the names of
    the tournaments they organised: what a reason naming them in another game, or a
    tournament's page, would show). Deleted, not
    rebuilt: its owner asks again, and the new one shows "Deleted player". How many."""
    shared = Seat.objects.filter(game__seats__user=person).exclude(user=person)
    doomed = set(
        DataExport.objects.filter(user__in=shared.values("user")).values_list("pk", flat=True)
    )
    needles = _needles(texts)
    kept = (
        DataExport.objects.filter(status=DataExport.Status.READY, archive__isnull=False)
        .exclude(user=person)
        .exclude(pk__in=doomed)
        .values_list("pk", "archive")
    )
    for pk, archive in kept.iterator(chunk_size=10):
        if _holds(bytes(archive), needles):
            doomed.add(pk)
    deleted, _by_model = DataExport.objects.filter(pk__in=doomed).delete()
    return deleted


def _needles(texts: Iterable[str]) -> list[bytes]:
    """Each text as an archive's JSON may spell it (as written, or escaped), lower-cased."""
    needles = set()
    for text in texts:
        if len(text) >= SHORTEST_TEXT:
            needles.add(text.lower().encode())
            needles.add(json.dumps(text.lower(), ensure_ascii=False)[1:-1].encode())
    return sorted(needles)


def _holds(archive: bytes, needles: list[bytes]) -> bool:
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        for name in opened.namelist():
            content = opened.read(name).lower()
            if any(needle in content for needle in needles):
                return True
    return False


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
                archive.writestr("README.txt", files.readme(user))
                archive.writestr("index.json", _json(files.index(user)))
                archive.writestr("account.json", _json(files.account(user)))
                archive.writestr("ratings.json", _json(files.ratings(user)))
                archive.writestr("chat.json", _json(files.chat(user)))
                archive.writestr("plans.json", _json(files.plans(user)))
                archive.writestr("tournaments.json", _json(files.tournaments_of(user)))
                archive.writestr("devices.json", _json(files.devices(user)))
                archive.writestr("sign-ins.json", _json(files.sign_ins(user)))
                archive.writestr(
                    "emails.json",
                    _json(
                        files.emails(user, beat=lambda: self.beat(0), email_text=self.email_text)
                    ),
                )
            for done, seat in enumerate(seats, start=1):
                archive.writestr(f"games/{seat.game_id}.json", _json(files.game_file(seat)))
                self.beat(done)
        return buffer.getvalue()
