"""The results of finished games and the ratings they make: projections of the events,
rebuilt by ``rebuild_projections``."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.games import Game


class GameResult(models.Model):
    """How a finished game ended, as the ratings and the archive read it: written when the
    game finishes, rebuilt from its events by ``rebuild_projections``. ``excluded`` says why
    it does not count for the ratings ("" when it counts)."""

    class Excluded(models.TextChoices):
        COUNTED = "", _("counted")
        UNRATED = "unrated", _("unrated game")
        BOT = "bot", _("a computer player took part")

        @classmethod
        def ruling(cls, *, rated: bool, computer_players: int) -> "GameResult.Excluded":
            """Issue 16: a game counts for the ratings unless it was created unrated or a
            computer player sits at it. Decided at the end (``ratings_game_finished``) and
            foretold on the new-game form and the game's page."""
            if not rated:
                return cls.UNRATED
            if computer_players:
                return cls.BOT
            return cls.COUNTED

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="result"
    )
    game_type = models.CharField(max_length=32)
    side = models.CharField(max_length=16, blank=True, default="")
    players = models.PositiveSmallIntegerField()
    ended_at = models.DateTimeField()
    end_seq = models.PositiveIntegerField()
    private = models.BooleanField(default=False)
    shared_win = models.BooleanField(default=False)
    excluded = models.CharField(max_length=16, choices=Excluded.choices, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["-ended_at", "-game"], name="result_recent"),
            models.Index(fields=["game_type", "-ended_at", "-game"], name="result_game_recent"),
            models.Index(
                fields=["game_type", "ended_at", "game"],
                condition=models.Q(excluded=""),
                name="result_ladder_order",
            ),
        ]

    def __str__(self) -> str:
        return f"result of {self.game_id}"


class ResultSeat(models.Model):
    """One seat of a finished game: who, its place (1 = first; timed-out seats last), its
    score and whether it won. Copies the result's date and game so that a player's archive
    is one index range."""

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    actor = models.CharField(max_length=100)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    won = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    timed_out = models.BooleanField(default=False)
    game_type = models.CharField(max_length=32)
    ended_at = models.DateTimeField()

    class Meta:
        ordering = ["result", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["result", "seat"], name="result_seat_unique"),
        ]
        indexes = [
            models.Index(fields=["user", "-ended_at", "-result"], name="result_seat_player_recent"),
            models.Index(fields=["user", "game_type", "-ended_at"], name="result_seat_player_game"),
            models.Index(fields=["game_type", "ended_at", "result"], name="result_seat_ladder"),
        ]

    def __str__(self) -> str:
        return f"{self.result} seat {self.seat}: place {self.place}"


class Rating(models.Model):
    """A player's current rating on one game's ladder (OpenSkill's Plackett-Luce ``mu`` and
    ``sigma``) and ``display``, the conservative rating people see."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game_type = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_type"], name="rating_one_per_ladder"),
        ]
        indexes = [
            models.Index(fields=["game_type", "-display", "user"], name="rating_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.game_type}: {self.display}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history the chart draws and the
    point a recomputation restarts from."""

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game_type = models.CharField(max_length=32)
    ended_at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "user"], name="rating_change_unique"),
        ]
        indexes = [
            models.Index(fields=["game_type", "ended_at", "result"], name="rating_change_order"),
            models.Index(fields=["user", "game_type", "ended_at"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} after {self.result_id}: {self.display}"


class RatingLadder(models.Model):
    """One row per game's ladder: its lock serialises rating updates, so they are applied in
    game-end order however transactions interleave."""

    game_type = models.CharField(max_length=32, unique=True)

    def __str__(self) -> str:
        return f"ladder of {self.game_type}"
