"""Appending to and loading from the event store.

``append`` runs inside the caller's transaction, so a service writes its events, its read
model and its outbox rows all together or not at all. Optimistic concurrency: the caller
says which seq it saw last; if someone else has appended since, ``ConcurrencyConflict``.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from events.models import Event
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
    return Event.objects.filter(stream=stream).aggregate(last=Max("seq"))["last"] or 0


def append(
    stream: str,
    expected_seq: int,
    events: Sequence[NewEvent],
    *,
    actor: str,
    reason: str = "",
    idempotency_key: str | None = None,
) -> list[StoredEvent]:
    """Append ``events`` after ``expected_seq`` and return them as stored.

    With an ``idempotency_key`` already used on this stream, returns what that first append
    wrote and writes nothing, whatever ``expected_seq`` says now.
    """
    if not events:
        raise ValueError("nothing to append")
    if idempotency_key is not None:
        earlier = _appended_with(stream, idempotency_key)
        if earlier:
            return earlier
    now = timezone.now()
    rows = [
        Event(
            stream=stream,
            seq=expected_seq + offset,
            type=event.type,
            version=event.version,
            data=event.data,
            actor=actor,
            reason=reason,
            recorded_at=now,
            batch=expected_seq + 1,
            idempotency_key=idempotency_key if offset == 1 else None,
        )
        for offset, event in enumerate(events, start=1)
    ]
    last = current_seq(stream)
    if last != expected_seq:
        raise ConcurrencyConflict(stream, expected_seq, last)
    try:
        with transaction.atomic():
            Event.objects.bulk_create(rows)
    except IntegrityError as race:
        # Another writer committed between our check and our insert.
        if idempotency_key is not None:
            earlier = _appended_with(stream, idempotency_key)
            if earlier:
                return earlier
        raise ConcurrencyConflict(stream, expected_seq, current_seq(stream)) from race
    return [_stored(row) for row in rows]


def load(stream: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
    """The stream's events with ``after < seq <= upto`` in order, upcast to their latest
    versions."""
    rows = Event.objects.filter(stream=stream, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return [_stored(row) for row in rows.order_by("seq")]


def _appended_with(stream: str, idempotency_key: str) -> list[StoredEvent]:
    first = Event.objects.filter(stream=stream, idempotency_key=idempotency_key).first()
    if first is None:
        return []
    batch = Event.objects.filter(stream=stream, batch=first.batch).order_by("seq")
    return [_stored(row) for row in batch]


def _stored(row: Event) -> StoredEvent:
    version, data = upcast(row.type, row.version, row.data)
    return StoredEvent(
        stream=row.stream,
        seq=row.seq,
        type=row.type,
        version=version,
        data=data,
        actor=row.actor,
        reason=row.reason,
        recorded_at=row.recorded_at,
    )
