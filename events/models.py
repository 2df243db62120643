"""One table for every stream's events. Rows are only ever inserted: triggers installed by
migration 0002 make the database itself refuse UPDATE and DELETE."""

from django.db import models
from django.utils import timezone


class Event(models.Model):
    """An event of a stream (for games: the game's id), numbered 1, 2, 3… without gaps."""

    stream = models.CharField(max_length=64)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(default=dict)
    actor = models.CharField(
        max_length=100, help_text="Who caused it: user:<id>, system, bot or moderator:<id>."
    )
    reason = models.TextField(blank=True, default="")
    recorded_at = models.DateTimeField(default=timezone.now)
    batch = models.PositiveIntegerField(
        help_text="The seq of the first event written by the same append."
    )
    # NULL, not "", so that the partial unique constraint ignores events without a key.
    idempotency_key = models.CharField(max_length=128, null=True, blank=True)  # noqa: DJ001

    class Meta:
        ordering = ["stream", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["stream", "seq"], name="event_stream_seq_unique"),
            models.UniqueConstraint(
                fields=["stream", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_stream_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.stream}#{self.seq} {self.type}"


class StreamKey(models.Model):
    """A key that encrypts free text in events (``events.shredding``), named for what it
    belongs to: a stream (``game:<id>``: the reasons of its events), a person
    (``person:<id>``: reasons naming them, the names they gave, their invited address) or an
    address with no account (``address:<keyed hash>``). Deleting it when its person is
    forgotten (issues 45, 52) leaves that text unreadable while the events themselves never
    change: crypto-shredding. ``stream`` is the key's name."""

    stream = models.CharField(max_length=64, unique=True)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"key of {self.stream}"
