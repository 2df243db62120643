"""What is needed only for a while goes away by itself (issue 45, ``docs/retention.md``): a
job of the minute sweep, on the schedule of ``settings.RETENTION_DAYS`` and
``DATA_EXPORT_DAYS``.

- Received emails (``InboundMessage``), ``inbound`` days after they came: the sender's
  address and the outcome (which quotes the move or the refusal) go; the Message-ID, the
  time and the game stay.
- Sign-in emails (``Outbox`` of kind ``sign_in``), ``sign_in`` days after they were
  written: deleted, and with them their codes (a code is a MAC of its row,
  ``channels.email.tokens.sign_in_code``: its link then says it is not valid, ask for a new one).
- Sent emails and pushes, ``sent_bodies`` days after they were sent or given up: the
  body (``payload``) is emptied; the fact stays (kind, game, times, Message-ID). An email
  to an address with no account (an invitation) is deleted whole: its address is a
  stranger's, and no player's record needs it.
- Sent emails and pushes, ``sent_rows`` days after they were sent or given up: deleted,
  the fact with them (issue 44: most of a large site's database, ``docs/scale.md``).
  An email of a game still open or in play keeps its row: the game's next emails thread to its
  first one (``render.thread_headers``).
- Downloads of one's data (``DataExport``), ready and past their ``expires_at``: deleted.

Cheap when there is nothing to do. The horizons fall on columns that have no index
(``created_at``, ``received_at``), so each stream walks its table by primary key, the order
its rows were written in, from a cursor kept in ``ProcessBeat`` ``retention``: at most
``RETENTION_BATCH`` rows a pass, read ``CHUNK`` at a time, stopping at the first row younger
than the horizon (the rows after it are younger still). A pass with nothing to do reads one
short chunk per stream. Downloads are found by ``expires_at``, which is indexed.

A pass that fails between its writes and its cursor's does the same rows again: every write
here leaves alone what is already forgotten, so a second pass changes nothing."""

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet

from games.models import (
    DataExport,
    Game,
    InboundMessage,
    NoticeKind,
    Outbox,
    ProcessBeat,
    PushDelivery,
)

BEAT = "retention"
# Rows a stream forgets at most per pass: the minute sweep stays fast, and a backlog (the
# first pass after this job was deployed) is worked off over a few minutes.
RETENTION_BATCH = 1000
# Rows read per query while walking a stream.
CHUNK = 100
# The cursors' names in ``ProcessBeat`` ``retention``.
BEAT_INBOUND, BEAT_SIGN_IN, BEAT_EMAILS, BEAT_PUSHES = "inbound", "sign_in", "emails", "pushes"
BEAT_EMAIL_ROWS, BEAT_PUSH_ROWS = "email_rows", "push_rows"
# What the walk over sent rows reads to know whether a row is settled.
SETTLED = ("sent_at", "cancelled_at")

Cursors = dict[str, int]


def forget_expired(*, now: datetime) -> dict[str, int]:
    """One pass over every stream; returns how many rows of each it forgot."""
    days = settings.RETENTION_DAYS
    beat = ProcessBeat.objects.filter(name=BEAT).first()
    before = dict(beat.detail.get("cursors", {})) if beat else {}
    cursors = dict(before)
    done = {
        "replies_forgotten": _replies_forget(cursors, now - timedelta(days=days["inbound"])),
        "sign_ins_deleted": _sign_ins_delete(cursors, now - timedelta(days=days["sign_in"])),
        "emails_emptied": _emails_empty(cursors, now - timedelta(days=days["sent_bodies"])),
        "pushes_emptied": _pushes_empty(cursors, now - timedelta(days=days["sent_bodies"])),
        "emails_deleted": _emails_delete(cursors, now - timedelta(days=days["sent_rows"])),
        "pushes_deleted": _pushes_delete(cursors, now - timedelta(days=days["sent_rows"])),
        "downloads_deleted": _downloads_delete(now),
    }
    if cursors != before:
        ProcessBeat.objects.update_or_create(
            name=BEAT, defaults={"at": now, "detail": {"cursors": cursors}}
        )
    return done


def _replies_forget(cursors: Cursors, horizon: datetime) -> int:
    """Received emails older than the horizon lose their sender and outcome. The row stays
    with its Message-ID: ``reply_receive`` ignores a Message-ID it has handled, and a mail
    server may deliver a reply again long after (a retried delivery, a mailbox replayed);
    without the row, the repeat would be played or refused as new. The Message-ID names no
    person (at most the sender's mail server), the game is the record's."""
    due = _walk(InboundMessage.objects.all(), BEAT_INBOUND, cursors, horizon, "received_at")
    return (
        InboundMessage.objects.filter(pk__in=[row["pk"] for row in due])
        .exclude(sender="", outcome="")
        .update(sender="", outcome="")
    )


def _sign_ins_delete(cursors: Cursors, horizon: datetime) -> int:
    """Sign-in emails older than the horizon are deleted, sent or not: a link lasts 30
    minutes (``accounts.SIGN_IN_MAX_AGE``), and the row holds an address that may have no
    account."""
    due = _walk(Outbox.objects.all(), BEAT_SIGN_IN, cursors, horizon, "created_at", ("kind",))
    sign_ins = [row["pk"] for row in due if row["kind"] == NoticeKind.SIGN_IN]
    deleted, _by_model = Outbox.objects.filter(pk__in=sign_ins).delete()
    return deleted


def _emails_empty(cursors: Cursors, horizon: datetime) -> int:
    """Emails sent or given up before the horizon lose their body. The recipient stays on a
    player's email: it is part of the row's key (game, key, recipient, kind), and a game
    longer than the horizon still threads its emails to its first one by it
    (``render.thread_headers``); it is the account's own address, forgotten with the account.
    A reply to such an email is read by its reply address alone (``tokens``), never by the
    row, so it is played or refused as before."""
    due = _walk(
        Outbox.objects.all(),
        BEAT_EMAILS,
        cursors,
        horizon,
        "created_at",
        ("user_id", *SETTLED),
        _settled,
    )
    strangers = [row["pk"] for row in due if row["user_id"] is None]
    deleted, _by_model = Outbox.objects.filter(pk__in=strangers).delete()
    players = [row["pk"] for row in due if row["user_id"] is not None]
    return deleted + _empty(Outbox.objects.filter(pk__in=players))


def _pushes_empty(cursors: Cursors, horizon: datetime) -> int:
    """Pushes sent or given up before the horizon lose their body (only their sending
    reads it)."""
    due = _walk(
        PushDelivery.objects.all(), BEAT_PUSHES, cursors, horizon, "created_at", SETTLED, _settled
    )
    return _empty(PushDelivery.objects.filter(pk__in=[row["pk"] for row in due]))


def _emails_delete(cursors: Cursors, horizon: datetime) -> int:
    """Emails sent or given up before the horizon are deleted, but for those of a game still
    open or in play, which stay (bodies emptied) for its next emails to thread to: a game played for
    longer than the horizon is rare, and its rows are few. What reads old rows reads the last
    hour or day of them (the refusal limits, the operator's counts)."""
    due = _walk(
        Outbox.objects.all(),
        BEAT_EMAIL_ROWS,
        cursors,
        horizon,
        "created_at",
        ("game__status", *SETTLED),
        _settled,
    )
    going = (Game.Status.OPEN, Game.Status.ACTIVE)
    over = [row["pk"] for row in due if row["game__status"] not in going]
    deleted, _by_model = Outbox.objects.filter(pk__in=over).delete()
    return deleted


def _pushes_delete(cursors: Cursors, horizon: datetime) -> int:
    """Pushes sent or given up before the horizon are deleted: only their sending read them."""
    due = _walk(
        PushDelivery.objects.all(),
        BEAT_PUSH_ROWS,
        cursors,
        horizon,
        "created_at",
        SETTLED,
        _settled,
    )
    deleted, _by_model = PushDelivery.objects.filter(pk__in=[row["pk"] for row in due]).delete()
    return deleted


def _downloads_delete(now: datetime) -> int:
    """Ready downloads past their ``expires_at`` are deleted, archive and all. Only ready
    ones: while a download is built, ``expires_at`` is its build's lease, and one whose
    lease ran out is built again (``data_export.resume_stale_exports``)."""
    expired = DataExport.objects.filter(
        expires_at__lt=now, status=DataExport.Status.READY
    ).values_list("pk", flat=True)
    deleted, _by_model = DataExport.objects.filter(pk__in=list(expired[:RETENTION_BATCH])).delete()
    return deleted


def _settled(row: dict, horizon: datetime) -> bool:
    """Sent or given up before the horizon. A row still being sent (retried, or waiting to
    be due) stops the walk until it is: every row settles within days (``MAX_ATTEMPTS``,
    stale claims cancelled, in-doubt rows cancelled)."""
    settled_at = row["sent_at"] or row["cancelled_at"]
    return settled_at is not None and settled_at < horizon


def _empty(rows: QuerySet) -> int:
    return rows.exclude(payload={}).update(payload={})


def _walk(
    rows: QuerySet,
    stream: str,
    cursors: Cursors,
    horizon: datetime,
    written: str,
    fields: tuple[str, ...] = (),
    ready: Callable[[dict, datetime], bool] | None = None,
) -> list[dict]:
    """The rows of ``rows`` past the cursor of ``stream``, in the order written (pk),
    written before ``horizon`` and ``ready`` (when given): at most ``RETENTION_BATCH``, with
    ``fields``. Moves the cursor past them; it stops at the first row that is not due, which
    is read again next pass."""
    after = cursors.get(stream, 0)
    due: list[dict] = []
    while len(due) < RETENTION_BATCH:
        wanted = min(CHUNK, RETENTION_BATCH - len(due))
        chunk = list(
            rows.filter(pk__gt=after).order_by("pk").values("pk", written, *fields)[:wanted]
        )
        for row in chunk:
            if row[written] >= horizon or (ready is not None and not ready(row, horizon)):
                cursors[stream] = after
                return due
            due.append(row)
            after = row["pk"]
        if len(chunk) < wanted:
            break
    cursors[stream] = after
    return due
