"""Appending to and loading from the event store.

``append`` runs inside the caller's transaction, so a service writes its events, its read
model and its outbox rows all together or not at all. Optimistic concurrency: the caller
says which seq it saw last; if someone else has appended since, ``ConcurrencyConflict``.
"""

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from events.cursors import execute, kept_cursor
from events.models import Event
from events.shredding import unseal
from events.upcasting import upcast


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its type, data and (for old writers) version."""

    type: str
    data: dict = field(default_factory=dict)
    version: int = 1


@dataclass(frozen=True)
class StoredEvent:
    """An event as read back: upcast to its latest version."""

    stream: str
    seq: int
    type: str
    version: int
    data: dict
    actor: str
    reason: str
    recorded_at: datetime


class ConcurrencyConflict(Exception):
    """The stream has moved on since the caller read it."""

    def __init__(self, stream: str, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            f"stream {stream} is at seq {current_seq}, not {expected_seq}: reload and retry"
        )
        self.stream = stream
        self.expected_seq = expected_seq
        self.current_seq = current_seq


def current_seq(stream: str) -> int:
    """The seq of the stream's last event (0 for a new stream)."""
    with connection.cursor() as cursor:
        cursor.execute(_LAST_SEQ, [stream])
        return cursor.fetchone()[0]


_LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM events_event WHERE stream = %s"
_KEY_USED = "EXISTS (SELECT 1 FROM events_event WHERE stream = %s AND idempotency_key = %s)"
_SEQ_USED = "EXISTS (SELECT 1 FROM events_event WHERE stream = %s AND seq = %s)"
_SEQ_BEFORE_NEW = (
    "EXISTS (SELECT 1 FROM events_event e WHERE e.stream = new.stream AND e.seq = new.seq - 1)"
)
_KEY_OF_NEW = (
    "EXISTS (SELECT 1 FROM events_event e WHERE e.stream = new.stream"
    " AND e.idempotency_key = new.idempotency_key)"
)
# Why an append wrote nothing: the stream's last seq and whether the key was used.
_REFUSED = f"SELECT ({_LAST_SEQ}), {_KEY_USED}"
_COLUMNS = "stream, seq, type, version, data, actor, reason, recorded_at, batch, idempotency_key"
# PostgreSQL types the columns of a VALUES list from its parameters, so JSON and time need
# a cast there; SQLite takes them as they come.
_ROW = {
    "postgresql": "(%s, %s, %s, %s, CAST(%s AS jsonb), %s, %s, CAST(%s AS timestamptz), %s, %s)",
    "sqlite": "(" + ", ".join(["%s"] * 10) + ")",
}


def append(
    stream: str,
    expected_seq: int,
    events: Sequence[NewEvent],
    *,
    actor: str,
    reason: str = "",
    idempotency_key: str | None = None,
    recorded_at: datetime | None = None,
) -> list[StoredEvent]:
    """Append ``events`` after ``expected_seq`` and return them as stored (``recorded_at``:
    when they happened, if the writer knows better than the clock now — a sweep applying
    a deadline that passed a moment ago).

    With an ``idempotency_key`` already used on this stream, returns what that first append
    wrote and writes nothing, whatever ``expected_seq`` says now.
    """
    if not events:
        raise ValueError("nothing to append")
    now = recorded_at or timezone.now()
    stored = [
        StoredEvent(
            stream, expected_seq + offset, event.type, event.version, event.data, actor, reason, now
        )
        for offset, event in enumerate(events, start=1)
    ]
    # One statement and no savepoint: the insert itself checks the stream's last seq and
    # that the idempotency key is new, and a writer racing us makes ON CONFLICT skip our
    # rows instead of raising, so the caller's transaction stays usable.
    # The connection once: every attribute read through Django's ``connection`` proxy
    # costs a lookup of the thread's connection, and this runs for every move.
    database = connections[DEFAULT_DB_ALIAS]
    if database.in_atomic_block or len(stored) == 1:
        written, refused = _insert(database, stored, idempotency_key)
    else:
        with transaction.atomic():
            written, refused = _insert(database, stored, idempotency_key)
            if 0 < written < len(stored):
                transaction.set_rollback(True)
    if 0 < written < len(stored):
        # Only a writer that does not hold the stream's lock (services lock the game row)
        # can race us row by row; what we wrote must not stay, so the caller's transaction
        # can only roll back.
        transaction.set_rollback(True)
    if written == len(stored):
        return stored
    if idempotency_key is not None and (refused is None or refused.key_used):
        earlier = appended_with(stream, idempotency_key)
        if earlier:
            return earlier
    last_seq = current_seq(stream) if refused is None else refused.last_seq
    raise ConcurrencyConflict(stream, expected_seq, last_seq)


@dataclass(frozen=True)
class _Refused:
    """Why an INSERT wrote nothing, read right after it: the stream's last seq and
    whether the idempotency key was already used."""

    last_seq: int
    key_used: bool


def _insert(
    database: BaseDatabaseWrapper, events: list[StoredEvent], idempotency_key: str | None
) -> tuple[int, _Refused | None]:
    """Insert the rows if the stream's last seq is still the one before them, skipping any
    that a unique constraint refuses: how many were written and, when none were, why
    (PostgreSQL; ``None`` elsewhere)."""
    operations = database.ops
    batch = events[0].seq
    params: list = []
    for event in events:
        params += [
            event.stream,
            event.seq,
            event.type,
            event.version,
            # Serialised here, and cast by the statement: cheaper than an adapter's object.
            json.dumps(event.data),
            event.actor,
            event.reason,
            operations.adapt_datetimefield_value(event.recorded_at),
            batch,
            idempotency_key if event.seq == batch else None,
        ]
    stream = events[0].stream
    expected = batch - 1
    params += _guard_params(database.vendor, stream, expected, len(events), idempotency_key)
    sql = _insert_sql(database.vendor, len(events), idempotency_key is not None, expected == 0)
    if database.vendor != "postgresql":
        with database.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount, None
    # Bound on the server (settings: ``server_side_binding``), so psycopg prepares this
    # statement once per connection and PostgreSQL skips planning it on every append
    # (``prepare_threshold``; see ``bench/store.py``).
    # The connection's cursor for appends (``cursors.kept_cursor``): it only ever runs
    # appends (and asks why one wrote nothing), so nothing else runs between an append
    # and the read of its row count.
    cursor = kept_cursor(database, "append")
    execute(database, cursor, sql, params)
    written = cursor.rowcount
    if written:
        return written, None
    # Nothing written: a conflict, rare where writers lock the stream first (services
    # lock the game row). Why costs a second statement here rather than a part of every
    # append's (a third of its server time when the insert itself answered it).
    execute(database, cursor, _REFUSED, [stream, stream, idempotency_key])
    last_seq, key_used = cursor.fetchone()
    return 0, _Refused(last_seq, key_used)


def _guard_params(
    vendor: str, stream: str, expected: int, rows: int, idempotency_key: str | None
) -> list:
    """The parameters of ``_insert_sql``'s guard, in its order (none where the statement
    reads them from its one row)."""
    if rows == 1 and vendor == "postgresql":
        return []
    params = [] if expected == 0 else [stream, expected]
    if rows > 1:
        params += [stream, expected + 1]
    if idempotency_key is not None:
        params += [stream, idempotency_key]
    return params


@functools.cache
def _insert_sql(vendor: str, rows: int, keyed: bool, first: bool) -> str:
    """The append's statement for ``rows`` events, with or without an idempotency key,
    the stream's first append or not.

    The guard: the event before the first new one is there (``first``: none is needed),
    and the seq after it is free. The unique (stream, seq) index makes the first new
    row's seq free or skips it (``ON CONFLICT DO NOTHING``, so a racing writer leaves the
    caller's transaction usable); the seqs are gapless, so an event at the expected seq
    and none after it is the stream's last seq being the expected one, found by two index
    lookups where ``MAX(seq)`` walked the index. An append of several rows checks its
    first row's seq before writing (were that row skipped, the others would go in), and
    the key for the same reason."""
    values = ", ".join([_ROW[vendor]] * rows)
    if rows == 1 and vendor == "postgresql":
        # One row: the guard reads the stream, seq and key from it (two parameters fewer
        # to send and bind on every move).
        guard = [] if first else [_SEQ_BEFORE_NEW]
        if keyed:
            guard.append(f"NOT {_KEY_OF_NEW}")
        if not guard:
            return f"INSERT INTO events_event ({_COLUMNS}) VALUES {values} ON CONFLICT DO NOTHING"
        return (
            f"INSERT INTO events_event ({_COLUMNS}) SELECT * FROM (VALUES {values})"
            f" AS new ({_COLUMNS}) WHERE {' AND '.join(guard)} ON CONFLICT DO NOTHING"
        )
    guard = [] if first else [_SEQ_USED]
    if rows > 1:
        guard.append(f"NOT {_SEQ_USED}")
    if keyed:
        guard.append(f"NOT {_KEY_USED}")
    if not guard:
        return f"INSERT INTO events_event ({_COLUMNS}) VALUES {values} ON CONFLICT DO NOTHING"
    return (
        f"INSERT INTO events_event ({_COLUMNS}) SELECT * FROM (VALUES {values}) AS new"
        f" WHERE {' AND '.join(guard)} ON CONFLICT DO NOTHING"
    )


def load(
    stream: str, after: int = 0, upto: int | None = None, *, legacy_namespace: str | None = None
) -> list[StoredEvent]:
    """The stream's events with ``after < seq <= upto`` in order, upcast to their latest
    versions (``legacy_namespace``: the namespace of bare, pre-namespace type names)."""
    rows = Event.objects.filter(stream=stream, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    keys: dict[str, str | None] = {}
    return [_stored(row, legacy_namespace, keys) for row in rows.order_by("seq")]


def appended_with(
    stream: str, idempotency_key: str, *, legacy_namespace: str | None = None
) -> list[StoredEvent]:
    """What the append that used ``idempotency_key`` on ``stream`` wrote (or nothing)."""
    first = Event.objects.filter(stream=stream, idempotency_key=idempotency_key).first()
    if first is None:
        return []
    batch = Event.objects.filter(stream=stream, batch=first.batch).order_by("seq")
    keys: dict[str, str | None] = {}
    return [_stored(row, legacy_namespace, keys) for row in batch]


def _stored(
    row: Event, legacy_namespace: str | None = None, keys: dict[str, str | None] | None = None
) -> StoredEvent:
    """A row as read: upcast, and its reason unsealed (``events.shredding``: "" once the
    stream's key is shredded)."""
    type_name, version, data = upcast(
        row.type, row.version, row.data, legacy_namespace=legacy_namespace
    )
    return StoredEvent(
        stream=row.stream,
        seq=row.seq,
        type=type_name,
        version=version,
        data=data,
        actor=row.actor,
        reason=unseal(row.stream, row.reason, keys),
        recorded_at=row.recorded_at,
    )
