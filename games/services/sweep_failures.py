"""The minute sweep's items taken apart (issue 58): every job that works item by item (a
game, a tournament) does each in a transaction of its own through ``apart``, whatever the
item's kind. An item whose part fails is logged and rolled back alone, and rests for a
growing wait (``BACKOFF_MINUTES``) before its job tries it again: the jobs' queries leave
resting items out (``resting``), so that an item that always fails (a "poison" item) is
not tried every minute ahead of the others, and a few of them never starve a job. The
status page lists the items resting (``games.selectors.operations``)."""

import logging
import traceback
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F, QuerySet

from games.models import SweepFailure

log = logging.getLogger(__name__)

# Ruling: the waits after the 1st, 2nd, … failure in a row; an hour from the seventh on, as
# healthchecks moves a check that keeps failing an hour ahead.
BACKOFF_MINUTES = (1, 2, 4, 8, 15, 30, 60)
# The last lines of an item's traceback kept for the status page.
ERROR_LINES = 6


def resting(job: str, now: datetime) -> QuerySet:
    """The items (ids) that ``job`` leaves alone at ``now``: for a due query's
    ``.exclude(pk__in=…)``, before its batch is cut."""
    return SweepFailure.objects.filter(job=job, next_try_at__gt=now).values("item")


def failing(job: str, kind: str) -> set[int]:
    """The items of ``kind`` whose last try at ``job`` failed: one query a pass, so that
    an item done without error is cleared only when there is something to clear."""
    return set(SweepFailure.objects.filter(job=job, kind=kind).values_list("item", flat=True))


def apart(
    item: int, do: Callable[[int], int], *, job: str, kind: str, now: datetime, failed: set[int]
) -> int:
    """``do(item)`` for ``job``: what it returns, or 0 when it raised (logged, rolled back
    by ``do``'s own transaction, and the item set to rest). ``failed``: ``failing(job,
    kind)``, read once a pass."""
    try:
        done = do(item)
    except Exception:
        log.exception("%s %s: the sweep's job %s failed; tried again later", kind, item, job)
        usable_again()
        _rests(job, kind, item, now)
        return 0
    if item in failed:
        SweepFailure.objects.filter(job=job, kind=kind, item=item).delete()
        failed.discard(item)
    return int(done)


def usable_again() -> None:
    """After an item's or a job's error, a connection the error broke (dropped by the
    server, say) is closed, so that the next one's first query opens a new one instead of
    everything after it in the pass failing on the dead one. Under a caller's transaction
    (a test's) the failure rolled back its own savepoint: nothing of ours to close."""
    if not connection.in_atomic_block:
        connection.close_if_unusable_or_obsolete()


def _rests(job: str, kind: str, item: int, now: datetime) -> None:
    error = "\n".join(traceback.format_exc().strip().splitlines()[-ERROR_LINES:])
    with transaction.atomic():
        row, made = SweepFailure.objects.select_for_update().get_or_create(
            job=job,
            kind=kind,
            item=item,
            defaults={
                "first_failed_at": now,
                "last_failed_at": now,
                "next_try_at": now + timedelta(minutes=BACKOFF_MINUTES[0]),
                "error": error,
            },
        )
        if made:
            return
        failures = row.failures + 1
        wait = BACKOFF_MINUTES[min(failures, len(BACKOFF_MINUTES)) - 1]
        SweepFailure.objects.filter(pk=row.pk).update(
            failures=F("failures") + 1,
            last_failed_at=now,
            next_try_at=now + timedelta(minutes=wait),
            error=error,
        )
