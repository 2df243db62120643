"""What each player chose (``PlayerSettings``) and the downloads of their data they asked
for (``DataExport``, issue 45)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PlayerSettings(models.Model):
    """A player's preferences and standing: notices wanted and by which channel, digest,
    vacation, suspension."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_settings"
    )
    # The channels chosen per notice kind (``{"reminder": ["email"]}``); a kind not named
    # goes to its channels' defaults (``games.notify.preferences``).
    channels = models.JSONField(default=dict, blank=True)
    unsubscribed_at = models.DateTimeField(null=True, blank=True)
    daily_digest = models.BooleanField(default=False)
    last_digest_at = models.DateTimeField(null=True, blank=True)
    vacation_days_per_year = models.PositiveSmallIntegerField(default=14)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_seconds_used = models.PositiveIntegerField(default=0)
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspended_reason = models.TextField(blank=True, default="")
    profile_hidden = models.BooleanField(
        default=False, help_text="Only signed-in players may see the profile (issue 16)."
    )
    # Chosen on the account page; empty: pages follow the browser, emails ``last_language``.
    language = models.CharField(max_length=8, blank=True, default="")
    # The browser's language at the last sign-in: emails to a player who chose none.
    last_language = models.CharField(max_length=8, blank=True, default="")
    # An IANA zone name such as "Europe/Warsaw"; empty: UTC.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # The daily playing hours offered when the player takes a seat in a game with playing
    # hours (issue 32), "HH:MM" on their wall clock; an end before the start wraps midnight.
    hours_start = models.CharField(max_length=5, default="08:00")
    hours_end = models.CharField(max_length=5, default="22:00")
    # Closing an account (issue 45): sign-in stops at ``closed_at``; ``forgotten_at`` is
    # when the person's data was erased (the account row stays, empty, so that games and
    # ratings keep their ids).
    closed_at = models.DateTimeField(null=True, blank=True)
    forgotten_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"settings of {self.user}"


class DataExport(models.Model):
    """A player's download of their data (issue 45): built by a task, kept as one archive
    for ``DATA_EXPORT_DAYS``, readable by its owner alone."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        BUILDING = "building", _("Being built")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    requested_at = models.DateTimeField(default=timezone.now)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)
    archive = models.BinaryField(null=True, blank=True)
    size = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-requested_at", "-pk"]

    def __str__(self) -> str:
        return f"data export {self.pk} of {self.user_id} ({self.status})"
