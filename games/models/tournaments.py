"""Tournaments (issue 31): their games, and snapshots of their state."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models.games import Game


class Tournament(models.Model):
    """A tournament's read model, rebuilt from its stream ``tournament:<id>`` (the events
    of ``games.tournaments.core``): what lists and the sweep need in columns, the rest in
    the encoded ``settings``."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("open for registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(max_length=120)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    format = models.CharField(max_length=16)
    game_type = models.CharField(max_length=32)
    per_game = models.PositiveSmallIntegerField()
    public = models.BooleanField(default=True)
    settings = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    entry_closes = models.DateTimeField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    last_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="tournament_list"),
            models.Index(fields=["status", "entry_closes"], name="tournament_entry_closes"),
        ]

    def __str__(self) -> str:
        return f"{self.title} (#{self.pk})"

    @property
    def title(self) -> str:
        """The name its organiser gave it, or, once the organiser is forgotten (the name
        erased, issue 52), "Tournament" and its number."""
        return self.name or gettext("Tournament %(number)s") % {"number": self.pk}

    @property
    def stream(self) -> str:
        """The event stream holding this tournament's history."""
        return f"tournament:{self.pk}"


class TournamentGame(models.Model):
    """A tournament's game: which round it belongs to (so a game that ends finds its
    tournament)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    round = models.PositiveSmallIntegerField()

    def __str__(self) -> str:
        return f"tournament {self.tournament_id}, round {self.round}: game {self.game_id}"


class TournamentSnapshot(models.Model):
    """A tournament folded up to event ``seq`` (``games.tournaments.storage``), so that a
    read folds only the events after it: written by the write path every
    ``storage.SNAPSHOT_EVERY`` events, discarded and rewritten by ``rebuild_projections``;
    one folded by other code (``code``) is never read."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    code = models.CharField(max_length=16)
    state = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "seq"], name="tournament_snapshot_seq_unique"
            )
        ]

    def __str__(self) -> str:
        return f"tournament {self.tournament_id} at event {self.seq}"
