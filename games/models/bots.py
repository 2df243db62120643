"""Bot accounts and challenges (issue 55): a program someone wrote plays as an account of its
own, flagged as a bot and owned by the person who made it; players challenge each other, and a
bot game may have a clock of seconds per move.

Not to be confused with ``games.bots``, the site's own computer players."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.games import Game

# A bot's account has this username prefix (and no address): no sign-in link can reach it,
# and ``selectors.names`` tells a bot's name from a person's without a query.
BOT_USERNAME_PREFIX = "bot-"


class BotAccount(models.Model):
    """A bot: its own user account (``user``, which its API tokens sign in as), the person
    who made it (``owner``), which games it plays and whom it accepts challenges from."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots_owned"
    )
    games = models.JSONField(default=list, help_text="the game types it plays")
    accepts_people = models.BooleanField(default=True)
    accepts_bots = models.BooleanField(default=True)
    # A paused bot is offered no challenge and paired in no ladder game; its games go on.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_reason = models.CharField(max_length=200, blank=True, default="")
    on_ladder = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"bot {self.user_id} of {self.owner_id}"


class Challenge(models.Model):
    """One player asks another to play a game: open until the other accepts (a game
    starts), declines, or the challenger cancels it."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELLED = "cancelled", "cancelled"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game_type = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    # Seconds per move (a bot game's clock, ``services.move_clock``); null: the game's
    # ordinary correspondence clock alone.
    seconds_per_move = models.PositiveIntegerField(null=True, blank=True)
    timeout_policy = models.CharField(
        max_length=16, choices=Game.TimeoutPolicy.choices, default=Game.TimeoutPolicy.FORFEIT
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    decline_reason = models.CharField(max_length=40, blank=True, default="")
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status"], name="challenge_status")]

    def __str__(self) -> str:
        return f"challenge {self.pk}: {self.challenger_id} to {self.opponent_id}"


class MoveClock(models.Model):
    """A game's clock of seconds per move: the seat to move must move by ``due_at``, or the
    game's timeout policy plays for it (``services.move_clock``). One row per game, moved
    on by every change of the game."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="move_clock")
    seconds = models.PositiveIntegerField()
    # The game's last event when the clock was set: a move after it makes the row stale.
    at_seq = models.PositiveIntegerField(default=0)
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The seats (places) that ran out of time in this game, for the three-in-a-row rule.
    timed_out = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"move clock of game {self.game_id}"


class BotRating(models.Model):
    """A bot's rating on the bot ladder of one game (issue 55): apart from the people's
    ratings (``Rating``), by the same model (``services.bot_ladder``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_ratings"
    )
    game_type = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_type"], name="bot_rating_unique"),
        ]

    def __str__(self) -> str:
        return f"bot rating of {self.user_id} in {self.game_type}"


class LadderMatch(models.Model):
    """Two bots' match on the ladder: two games on the same deal (one secret, so the same
    draws), seats swapped. The secret is published once both games are over."""

    game_type = models.CharField(max_length=32)
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    secret = models.CharField(max_length=64)
    games = models.ManyToManyField(Game, related_name="ladder_matches")
    created_at = models.DateTimeField(default=timezone.now)
    # Set when both games are over: the ratings moved and the secret is published.
    settled_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"ladder match {self.pk}: {self.first_id} and {self.second_id}"
