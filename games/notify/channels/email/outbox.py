"""Writing the outbox: a row per email in the writer's transaction, and, for an email due
already, a Celery task to send it once that transaction commits. If the broker is down or
loses the task, the minute sweep sends the row anyway: the row, not the task, is the
truth. The task is asked for by name: the mail door that sends it is above this layer."""

import logging
from datetime import datetime
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from azulsite.celery import send_quickly
from games.models import Game, Outbox, new_message_id
from games.prepared import write

log = logging.getLogger(__name__)


def queue(
    game: Game | None, seq: int, recipient: str, kind: str, *, user=None, due_at=None, **payload
) -> bool:
    """Queue an email to ``user`` at ``recipient`` once per (game, seq, recipient, kind): a
    worker is asked after commit to send it if it is due now, and the minute sweep sends
    it once due if it is due later. Whether it is new (``True`` too for a held write, whose
    answer nobody reads: ``_insert_once``)."""
    now = timezone.now()
    due_at = due_at or now
    # No countdown for a row due later, like a move's "your turn" after its grace period:
    # a task held in a worker's memory does not survive a broker restart (docs/service.md,
    # "The worker and its broker"), and the sweep sends it within a minute of its due_at.
    due_now = due_at <= now
    if game is None:
        # NULL never conflicts in a unique constraint: emails about no game are looked up.
        row, created = Outbox.objects.get_or_create(
            game=None,
            seq=seq,
            recipient=recipient,
            kind=kind,
            defaults={"payload": payload, "due_at": due_at, "user": user},
        )
        outbox_id = row.pk if created else None
    else:
        # Only an email due now needs its id, for the worker.
        user_id = user.pk if user is not None else None
        outbox_id = _insert_once(
            game, seq, recipient, user_id, kind, payload, due_at, returning=due_now
        )
        if not due_now:
            return True
    if outbox_id is not None and due_now:
        transaction.on_commit(partial(enqueue, outbox_id))
    return outbox_id is not None


def _insert_once(
    game: Game,
    seq: int,
    recipient: str,
    user_id: int | None,
    kind: str,
    payload: dict,
    due_at: datetime,
    *,
    returning: bool,
) -> int | None:
    """One statement: the row's id (``returning``), or ``None`` when the email was queued
    already. Without ``returning`` nobody reads its answer, so it can be held and sent
    with the move's other writes (``games.prepared.writes_together``)."""
    operations = connection.ops
    sql = (
        f"INSERT INTO {Outbox._meta.db_table} (game_id, seq, recipient, user_id, kind,"
        " payload, created_at, due_at, attempts, last_error, withdrawn_because, message_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 0, '', '', %s) ON CONFLICT DO NOTHING"
    )
    params = [
        game.pk,
        seq,
        recipient,
        user_id,
        kind,
        operations.adapt_json_value(payload, None),
        operations.adapt_datetimefield_value(timezone.now()),
        operations.adapt_datetimefield_value(due_at),
        new_message_id(),
    ]
    if not returning:
        write(sql, params)
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql + " RETURNING id", params)
        row = cursor.fetchone()
    return row[0] if row else None


def enqueue(outbox_id: int) -> None:
    """Ask a worker to send the row now. A broker that cannot be reached is logged, never
    raised: the move that queued the email is already committed."""
    if not send_quickly("games.tasks.send_outbox", [outbox_id]):
        log.warning("outbox %s: broker unreachable; the sweep will send it", outbox_id)
