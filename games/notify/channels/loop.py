"""The one delivery loop: every channel's rows (``Delivery``) are written, claimed, sent,
tried again, recovered from lost workers and withdrawn here, alike.

Writing (``keep``): the rows of a notice go in the writer's transaction, in one statement
that cannot write the same notice twice (the table's unique keys, ``ON CONFLICT DO
NOTHING``), and a Celery task (``send_delivery``, asked for by name) per row due now once
that transaction commits. Rows due later, like a move's "your turn" after its grace
period, are left to the minute sweep, never to a countdown: a task held in a worker's
memory does not survive a broker restart (docs/service.md, "The worker and its broker").
If the broker is down or loses the task, the sweep sends the row anyway: the row, not the
task, is the truth.

Sending once, as far as the channel allows (``send``). A row is sent by whoever claims it
first (the task, or the sweep) with a conditional ``UPDATE … WHERE claimed_at IS NULL``,
committed before the channel sends; ``handed_over_at`` is noted just before it leaves (only
while the claim is still ours: email's DATA command), and ``sent_at`` right after the
answer. So no row is ever handed over twice, whatever the number of workers, broker
re-deliveries or sweeps. What can go wrong, and what we do:

- The channel's service answers no, or the attempt fails before the hand-over
  (``Refused``; a worker killed before it: its claim goes stale after the channel's
  ``stale_after``): nothing left, so the row is tried again later with a growing wait, up
  to the channel's ``max_attempts`` (a permanent refusal gives up at once).
- No answer after the hand-over began, or the worker dies there (``InDoubt``): the service
  may have taken it. It and the database cannot commit together, so we choose *at most
  once*: the row is "in doubt" (``in_doubt_at``, logged as an error, listed for the
  operator) and not sent again blindly; a lost turn notice is covered by the next
  reminder. A channel whose claim is the hand-over (``claim_is_hand_over``: push, where
  nothing tells when it leaves) has every stale claim in doubt.

Keys (``Notice.key``). Notices about an event use its seq; reminders and deadline warnings,
which can fall many times on one position, use the minute they were scheduled for; a
digest the day (and no game); answers to a reply the id of the ``InboundMessage`` they
answer."""

import logging
import time
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from azulsite.celery import send_quickly
from games.models import Delivery, Game
from games.notify.channels import Channel, channel, every_channel
from games.notify.notice import Notice
from games.prepared import write
from games.sweeping import out_of_time

log = logging.getLogger(__name__)

# The Celery task that sends one row (``games.tasks``, a door above this layer).
TASK = "games.tasks.send_delivery"
IN_DOUBT = (
    "in doubt: the worker stopped after handing it over and before the answer; it may "
    "have gone out, so it is not sent again"
)
IN_DOUBT_ANSWER = "in doubt: {said}; it may have gone out, so it is not sent again"
STOPPED_BEFORE = "the worker stopped before handing it over; sent again"


class Refused(Exception):
    """The row did not go: tried again after ``wait`` (else a growing wait), or given up
    if ``permanent`` or after the channel's ``max_attempts``."""

    def __init__(self, said: str, *, permanent: bool = False, wait: timedelta | None = None):
        super().__init__(said)
        self.permanent = permanent
        self.wait = wait


class InDoubt(Exception):
    """The row was handed over and nobody said whether it was taken: never sent again."""


class Gone(Exception):
    """The reader is gone, and the channel removed the row with them."""


class ClaimLost(Exception):
    """Our claim on the row was given up (the sweep took us for dead) before the
    hand-over: stop before it, whoever holds the row now sends it."""


# --- writing -------------------------------------------------------------------------------


def keep(
    name: str,
    notice: Notice,
    *,
    recipient: str = "",
    message_id: str | None = None,
    readers: tuple[str, list] | None = None,
    payload: dict | None = None,
) -> bool:
    """Write the rows of ``notice`` for channel ``name``: one to ``recipient`` (and the
    notice's user), or one per reader that ``readers`` selects (an SQL select list of
    recipient, user id, subscription id and Message-ID, with its ``FROM``, and its
    parameters). Whether one may be new (``True`` too for a held write, whose answer
    nobody reads)."""
    now = timezone.now()
    due_at = notice.due_at or now
    due_now = due_at <= now
    payload = notice.payload if payload is None else payload
    user_id = notice.user.pk if notice.user is not None else None
    if notice.game is None:
        # NULL never conflicts in a unique key: notices about no game are looked up.
        row, created = Delivery.objects.get_or_create(
            channel=name,
            game=None,
            key=notice.key,
            recipient=recipient,
            kind=notice.kind,
            defaults={
                "payload": payload,
                "due_at": due_at,
                "user_id": user_id,
                "message_id": message_id,
            },
        )
        ids = [row.pk] if created else []
    else:
        operations = connection.ops
        sql = (
            f"INSERT INTO {Delivery._meta.db_table} (channel, game_id, key, kind, payload,"
            " created_at, due_at, attempts, last_error, withdrawn_because, recipient, user_id,"
            " subscription_id, message_id) SELECT %s, %s, %s, %s, %s, %s, %s, 0, '', '', "
        )
        select, params = readers or ("%s, %s, NULL, %s", [recipient, user_id, message_id])
        sql += select + " ON CONFLICT DO NOTHING"
        params = [
            name,
            notice.game.pk,
            notice.key,
            notice.kind,
            operations.adapt_json_value(payload, None),
            operations.adapt_datetimefield_value(now),
            operations.adapt_datetimefield_value(due_at),
            *params,
        ]
        if not due_now:
            # Nobody reads the answer: held, it goes out with the move's other writes
            # (``games.prepared.writes_together``).
            write(sql, params)
            return True
        with connection.cursor() as cursor:
            cursor.execute(sql + " RETURNING id", params)
            ids = [row[0] for row in cursor.fetchall()]
    if due_now:
        for delivery_id in ids:
            transaction.on_commit(partial(enqueue, delivery_id))
    return bool(ids)


def enqueue(delivery_id: int) -> None:
    """Ask a worker to send the row now. A broker that cannot be reached is logged, never
    raised: the change that wrote the row is already committed, and the sweep sends it."""
    if not send_quickly(TASK, [delivery_id]):
        log.warning("delivery %s: broker unreachable; the sweep will send it", delivery_id)


def withdraw(
    *, game: Game, kinds: tuple[str, ...], after_seq: int, reason: str, now: datetime
) -> int:
    """Withdraw, on every channel, the waiting notices of ``kinds`` keyed after
    ``after_seq`` that no worker has claimed; how many."""
    return Delivery.objects.filter(
        game=game,
        key__gt=after_seq,
        kind__in=kinds,
        sent_at__isnull=True,
        cancelled_at__isnull=True,
        claimed_at__isnull=True,
    ).update(cancelled_at=now, withdrawn_because=reason)


def withdraw_but_for(
    *, game: Game, kinds: tuple[str, ...], user_id: int | None, reason: str, now: datetime
) -> None:
    """Withdraw, on every channel, the waiting notices of ``kinds`` that no worker has
    claimed, but those addressed to ``user_id`` (``None``: every one). Held with the move's
    other writes (``games.prepared.write``): nobody reads how many, and the rows the move
    writes for others than ``user_id`` are none of these."""
    kinds_in = ", ".join(["%s"] * len(kinds))
    sql = (
        f"UPDATE {Delivery._meta.db_table} SET cancelled_at = %s, withdrawn_because = %s"
        f" WHERE game_id = %s AND kind IN ({kinds_in}) AND sent_at IS NULL"
        " AND cancelled_at IS NULL AND claimed_at IS NULL"
    )
    params = [connection.ops.adapt_datetimefield_value(now), reason, game.pk, *kinds]
    if user_id is not None:
        sql += " AND (user_id IS NULL OR user_id <> %s)"
        params.append(user_id)
    write(sql, params)


# --- sending -------------------------------------------------------------------------------


class HandOver:
    """What a channel calls just before its row leaves: notes it (``handed_over_at``) if
    the claim is still ours, else raises ``ClaimLost``. ``done``: whether it was called."""

    def __init__(self, ours, row: Delivery):
        self.ours, self.row, self.done = ours, row, False

    def __call__(self) -> None:
        if not self.ours.filter(handed_over_at__isnull=True).update(handed_over_at=timezone.now()):
            raise ClaimLost(f"delivery {self.row.pk}: claim given up before the hand-over")
        self.done = True


def send(*, delivery_id: int, now: datetime | None = None) -> str:
    """Send one row if it is due and nobody has claimed it: ``sent``, ``skipped`` (the
    reader does not want it or it is out of date), ``failed`` (tried again later, or given
    up), ``in doubt`` (see the module doc), ``gone`` (the reader is gone), ``busy``
    (claimed by another worker), ``not due`` or ``done``."""
    now = now or timezone.now()
    row = (
        Delivery.objects.select_related("game", "subscription__user").filter(pk=delivery_id).first()
    )
    if row is None or row.sent_at or row.cancelled_at or row.claimed_at:
        return "done"
    if row.due_at > now:
        return "not due"
    way = channel(row.channel)
    try:
        reason = way.skip_reason(row, now)
    except Gone:
        return "gone"
    if reason:
        _unclaimed(row).update(cancelled_at=now, withdrawn_because=reason)
        return "skipped"
    wait = way.waits(row)
    if wait is not None:
        _unclaimed(row).update(due_at=now + wait)
        return "not due"
    try:
        composed = way.compose(row, now)
    except Exception as error:
        # One row that cannot be written must not stop the others behind it in the sweep.
        log.exception("delivery %s: cannot be written", row.pk)
        _unclaimed(row).update(attempts=F("attempts") + 1)
        return _failed(_unclaimed(row), row, way, Refused(str(error)), now)
    if not _unclaimed(row).update(claimed_at=now, handed_over_at=None, attempts=F("attempts") + 1):
        return "busy"
    ours = Delivery.objects.filter(pk=row.pk, claimed_at=now, sent_at__isnull=True)
    ours = ours.filter(attempts=ours.values_list("attempts", flat=True).first())
    return _sent(way, row, composed, ours, now)


def _sent(way: Channel, row: Delivery, composed, ours, now: datetime) -> str:
    """Hand the claimed row (``ours``) to its channel, and note what became of it."""
    try:
        way.send(row, composed, HandOver(ours, row))
    except ClaimLost:
        return "busy"
    except Gone:
        return "gone"
    except Refused as error:
        return _failed(ours, row, way, error, now)
    except InDoubt as error:
        said = str(error)[:300] or type(error).__name__
        ours.update(in_doubt_at=now, cancelled_at=now, last_error=IN_DOUBT_ANSWER.format(said=said))
        log.error("delivery %s (%s) in doubt: %s", row.pk, row.channel, said)
        return "in doubt"
    ours.update(sent_at=now, last_error="")
    return "sent"


def _unclaimed(row: Delivery):
    return Delivery.objects.filter(
        pk=row.pk, sent_at__isnull=True, cancelled_at__isnull=True, claimed_at__isnull=True
    )


def _failed(ours, row: Delivery, way: Channel, error: Refused, now: datetime) -> str:
    """Release our claim (``ours``): nothing left, so it is tried again after a growing
    wait (or the one the service asked for), or given up for good."""
    row.refresh_from_db(fields=["attempts"])
    log.warning("delivery %s (%s) failed, attempt %s: %s", row.pk, row.channel, row.attempts, error)
    given_up = error.permanent or row.attempts >= way.max_attempts
    ours.filter(sent_at__isnull=True).update(
        claimed_at=None,
        handed_over_at=None,
        last_error=str(error)[:500],
        due_at=now + (error.wait or timedelta(minutes=2 ** min(row.attempts, 10))),
        cancelled_at=now if given_up else None,
    )
    return "failed"


# --- the minute's pass ---------------------------------------------------------------------


def send_due(*, now: datetime, name: str | None = None) -> dict[str, int]:
    """The minute sweep's part, for channel ``name`` (``None``: every channel): settle the
    claims of workers that stopped (see the module doc), then send every due row nobody
    claimed, while the sweep has time (``games.sweeping``), and hand the rest to the
    workers. Counts by the channels' names for them (``Channel.tally``: sent by the sweep
    itself, in doubt, tried again), and the rows handed to the workers apart, as
    ``<job>_handed`` ("emails_handed"): a worker sends them, if one runs."""
    done: dict[str, int] = {}
    for way in [channel(name)] if name else every_channel():
        sent, handed, in_doubt, retried = _due(way, now)
        done.update(zip(way.tally, (sent, in_doubt, retried), strict=True))
        done[f"{way.job or way.name}_handed"] = handed
    return done


def _due(way: Channel, now: datetime) -> tuple[int, int, int, int]:
    pending = Delivery.objects.filter(
        channel=way.name, sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
    )
    stale = pending.filter(claimed_at__lte=now - way.stale_after())
    retried = 0
    if not way.claim_is_hand_over:
        retried = stale.filter(handed_over_at__isnull=True).update(
            claimed_at=None, last_error=STOPPED_BEFORE
        )
        stale = stale.filter(handed_over_at__isnull=False)
    in_doubt = stale.update(in_doubt_at=now, cancelled_at=now, last_error=IN_DOUBT)
    if in_doubt:
        log.error(
            "%s %s row(s) in doubt after a worker stopped; not sent again", in_doubt, way.name
        )
    ids = list(
        pending.filter(claimed_at__isnull=True)
        # Rows due at the same time go in the order they were written, every time.
        .order_by("due_at", "pk")
        .values_list("pk", flat=True)[: settings.MAIL_SWEEP_BATCH]
    )
    sent, handing, began = 0, True, time.monotonic()
    for index, delivery_id in enumerate(ids):
        # Past the sweep's time, the rows left go to the workers, a task each as after a
        # commit (whoever claims one first sends it, once); the sweep sends them itself
        # when the broker cannot take them.
        if handing and out_of_time(began):
            if _handed_out(ids[index:]):
                return sent, len(ids) - index, in_doubt, retried
            handing = False
        sent += send(delivery_id=delivery_id, now=now) == "sent"
    return sent, 0, in_doubt, retried


def _handed_out(ids: list[int]) -> bool:
    if all(send_quickly(TASK, [delivery_id]) for delivery_id in ids):
        return True
    log.warning("broker unreachable: the sweep sends the %s rows due itself", len(ids))
    return False
