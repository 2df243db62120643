"""Writing the push deliveries: one row per device of the reader, in the writer's
transaction and in one statement, and a Celery task (asked for by name) per row due now
once that transaction commits. Rows due later, like a move's "your turn" after its grace
period, are left to the minute sweep, never to a countdown, as for email
(``channels.email.outbox``)."""

import logging
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from azulsite.celery import send_quickly
from games.models import PushDelivery, PushSubscription
from games.notify.notice import Notice
from games.prepared import write

log = logging.getLogger(__name__)


def queue(notice: Notice) -> bool:
    """A delivery of ``notice`` to every device of its reader, once per (device, game,
    key, kind); whether the statement may have written one (a held write is not read)."""
    now = timezone.now()
    due_at = notice.due_at or now
    due_now = due_at <= now
    operations = connection.ops
    # The move that led here, so the push can say what happened even if more follow.
    payload = {**notice.payload, "seq": notice.game.last_seq}
    sql = (
        f"INSERT INTO {PushDelivery._meta.db_table} (subscription_id, game_id, key, kind,"
        " payload, created_at, due_at, attempts, last_error, withdrawn_because)"
        f" SELECT id, %s, %s, %s, %s, %s, %s, 0, '', '' FROM {PushSubscription._meta.db_table}"
        " WHERE user_id = %s ON CONFLICT DO NOTHING"
    )
    params = [
        notice.game.pk,
        notice.key,
        notice.kind,
        operations.adapt_json_value(payload, None),
        operations.adapt_datetimefield_value(now),
        operations.adapt_datetimefield_value(due_at),
        notice.user.pk,
    ]
    if not due_now:
        # Nobody reads the answer: held, it goes out with the move's other writes.
        write(sql, params)
        return True
    with connection.cursor() as cursor:
        cursor.execute(sql + " RETURNING id", params)
        ids = [row[0] for row in cursor.fetchall()]
    for delivery_id in ids:
        transaction.on_commit(partial(enqueue, delivery_id))
    return bool(ids)


def enqueue(delivery_id: int) -> None:
    """Ask a worker to push the row now; a broker out of reach is logged, never raised (the
    change is committed, and the sweep sends the row)."""
    if not send_quickly("games.tasks.send_push", [delivery_id]):
        log.warning("push %s: broker unreachable; the sweep will send it", delivery_id)
