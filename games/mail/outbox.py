"""Writing the outbox: a row per email in the writer's transaction, and a Celery task to
send it once that transaction commits. If the broker is down or loses the task, the
minute sweep (``services.sweep``) sends the row anyway: the row, not the task, is the truth.
"""

import logging
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from azulsite.celery import app
from games.models import Game, Outbox

log = logging.getLogger(__name__)

# Rows due later than this are left to the minute sweep: no long countdowns in the broker.
LONGEST_COUNTDOWN_SECONDS = 300


def queue(
    game: Game | None, seq: int, recipient: str, kind: str, *, due_at=None, **payload
) -> Outbox:
    """Queue an email once per (game, seq, recipient, kind); it is sent after commit."""
    row, created = Outbox.objects.get_or_create(
        game=game,
        seq=seq,
        recipient=recipient,
        kind=kind,
        defaults={"payload": payload, "due_at": due_at or timezone.now()},
    )
    if created:
        transaction.on_commit(partial(enqueue, row.pk, row.due_at))
    return row


def enqueue(outbox_id: int, due_at: datetime) -> None:
    """Ask a worker to send the row when it is due. A broker that cannot be reached is
    logged, never raised: the move that queued the email is already committed."""
    delay = max(0.0, (due_at - timezone.now()).total_seconds())
    if delay > LONGEST_COUNTDOWN_SECONDS:
        return
    try:
        with app.pool.acquire(block=True) as connection:
            # One quick try: a move must not wait seconds for a broker that is down.
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            app.send_task(
                "games.tasks.send_outbox",
                args=[outbox_id],
                countdown=delay or None,
                retry=False,
                connection=connection,
            )
    except (OperationalError, OSError) as error:
        log.warning("outbox %s: broker unreachable (%s); the sweep will send it", outbox_id, error)
