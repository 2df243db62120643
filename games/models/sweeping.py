"""The minute sweep's items that failed (issue 58): a game or a tournament whose part of a
job raised is tried again after a growing wait, so that an item that always fails never
stays first in its job's queue and never starves the items behind it."""

from django.db import models


class SweepFailure(models.Model):
    """Item ``item`` of ``kind`` (``game``, ``tournament``) whose part of the sweep's job
    ``job`` failed ``failures`` times in a row, the last error kept; the job leaves it
    alone until ``next_try_at``. Deleted when the job next does it."""

    job = models.CharField(max_length=40)
    kind = models.CharField(max_length=20)
    item = models.BigIntegerField()
    failures = models.PositiveIntegerField(default=1)
    first_failed_at = models.DateTimeField()
    last_failed_at = models.DateTimeField()
    next_try_at = models.DateTimeField()
    error = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "kind", "item"], name="one_failure_an_item")
        ]
        indexes = [models.Index(fields=["job", "next_try_at"], name="sweep_failures_resting")]

    def __str__(self) -> str:
        return f"{self.job}: {self.kind} {self.item} ({self.failures})"
