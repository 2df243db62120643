"""The post-game analyses of finished games and their moves."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.games import Game


class Analysis(models.Model):
    """The hard computer player's judgement of a finished game's moves, made by a background
    job (``services.analysis``) and rebuilt by ``rebuild_projections``. ``end_seq`` is the
    game's last event when it was asked for (a game a moderator reopens gets a new one);
    ``done`` of ``total`` positions are judged so far; ``claim`` names the run that holds
    it and ``beat_at`` is when that run last reported progress (a silent one is taken over
    by the minute sweep)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the computer")
        RUNNING = "running", _("in progress")
        DONE = "done", _("done")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    end_seq = models.PositiveIntegerField()
    simulations = models.PositiveIntegerField()
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    claim = models.CharField(max_length=32, blank=True, default="")
    requested_at = models.DateTimeField(default=timezone.now)
    beat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "beat_at"], name="analysis_unfinished")]

    def __str__(self) -> str:
        return f"analysis of {self.game_id}: {self.done} of {self.total}"


class AnalysedMove(models.Model):
    """One move of an analysis, where its seat chose among several legal moves: the move
    played and the one the search preferred (notation), their estimated values for the
    mover (0 to 1) and the mark (``?``, ``??`` or none; ``games.bots.accuracy.judgement``).
    ``seq`` is the move's ``table.Moved`` event, ``number`` its place in the move list."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    played = models.CharField(max_length=64)
    best = models.CharField(max_length=64)
    played_value = models.FloatField()
    best_value = models.FloatField()
    judgement = models.CharField(max_length=2, blank=True, default="")

    class Meta:
        ordering = ["analysis", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "seq"], name="analysed_move_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.analysis_id} move {self.number}: {self.played}{self.judgement}"
