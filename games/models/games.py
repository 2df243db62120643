"""The read model of games (rebuilt from the event store by ``rebuild_projections``): the
games, their seats and clocks, the players' plans, the chat and its reports, the table
snapshots, and the background jobs' beats. The event stream of a game is the truth; these
rows are projections kept in the same transaction as every append."""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def new_rng_secret() -> str:
    return secrets.token_hex(32)


class BotLevel(models.TextChoices):
    """The computer players' levels (``games.bots.LEVELS``), named for players."""

    EASY = "easy", _("easy")
    MEDIUM = "medium", _("medium")
    HARD = "hard", _("hard")


# A game's stream: this and its id.
GAME_STREAM = "game-"


class Game(models.Model):
    """A table: its game, options, seats, and where the game stands."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("game status", "waiting for players")
        ACTIVE = "active", pgettext_lazy("game status", "in play")
        FINISHED = "finished", pgettext_lazy("game status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("game status", "cancelled")
        ABORTED = "aborted", pgettext_lazy("game status", "aborted")

    class TimeoutPolicy(models.TextChoices):
        DEFAULT_MOVE = "default_move", _("the seat plays its default move")
        FORFEIT = "forfeit", _("the seat forfeits the game")
        BOT = "bot", _("a computer player plays for the absent player")

    game_type = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveSmallIntegerField()
    time_control = models.JSONField(default=dict, blank=True)
    timeout_policy = models.CharField(
        max_length=16, choices=TimeoutPolicy.choices, default=TimeoutPolicy.DEFAULT_MOVE
    )
    timeout_bot = models.CharField(
        max_length=8,
        choices=BotLevel.choices,
        blank=True,
        default="",
        help_text="The level of the computer player that plays a turn whose time ran out "
        "(timeout policy bot).",
    )
    self_undo = models.BooleanField(default=True)
    private = models.BooleanField(
        default=False, help_text="Keep state, events and replay private even once finished."
    )
    rated = models.BooleanField(
        default=True, help_text="The result counts for the players' ratings (issue 16)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    last_seq = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    scores = models.JSONField(default=list, blank=True)
    winners = models.JSONField(default=list, blank=True)
    # Seeds every draw of this game; it never leaves the server.
    rng_secret = models.CharField(max_length=64, default=new_rng_secret, editable=False)
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="Clocks stopped by a moderator since this time."
    )
    # Whether a seat keeps a plan (conditional moves, ``Plan``) for this game: a move reads
    # the plans only then, so the moves of games without one cost no statement more.
    planned = models.BooleanField(default=False)

    class Meta:
        # The status alone: every move sets last_move_at, and an index holding it made
        # PostgreSQL write every move's row anew with an entry in each of the table's
        # indexes; with none of its columns indexed the row is updated in place (a HOT
        # update). The lists ordered by the last move sort the games of one status.
        indexes = [models.Index(fields=["status"], name="game_status")]

    def __str__(self) -> str:
        return f"{self.game_type} #{self.pk}"

    @property
    def stream(self) -> str:
        """The event stream holding this game's history."""
        return f"{GAME_STREAM}{self.pk}"


class Seat(models.Model):
    """A place at a table: a player who joined, a computer player (``bot``: its level, and
    no user), an invitation, or an open seat. ``position`` is the seat number in play (from
    0), drawn when the game starts."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("seat status", "open")
        INVITED = "invited", pgettext_lazy("seat status", "invited")
        JOINED = "joined", pgettext_lazy("seat status", "joined")
        RESIGNED = "resigned", pgettext_lazy("seat status", "resigned")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    invited_email = models.EmailField(blank=True, default="")
    bot = models.CharField(max_length=8, choices=BotLevel.choices, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # In a game with playing hours (issue 32): the hours the player chose when taking the
    # seat, ``{"start": "08:00", "end": "22:00", "zone": "Europe/Warsaw"}``, recorded in
    # the game's ``Started`` event when it begins.
    playing_hours = models.JSONField(null=True, blank=True)
    # The facts of the notice that dropped the player's plan (``notify.plan_dropped``),
    # said on the game page until the player has seen them (issue 42).
    plan_dropped = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=models.Q(position__isnull=False),
                name="seat_position_unique",
            ),
        ]

    def __str__(self) -> str:
        who = (
            self.user.email
            if self.user
            else (f"bot:{self.bot}" if self.bot else self.invited_email or "open")
        )
        return f"{self.game} seat {self.position}: {who}"


class SeatClock(models.Model):
    """Time bookkeeping of a seat: its bank (bank time control), when it was last seen on
    the game's page, and reminder times. Swept by the periodic jobs."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="clock")
    bank_seconds = models.PositiveIntegerField(default=0)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    next_reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)
    warning_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The increment the seat's last move added to its bank (capped): an undo gives it back.
    increment_earned_seconds = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"clock of {self.seat}"


class Plan(models.Model):
    """A seat's conditional moves (issue 32), private to its player and kept apart from the
    game's public stream, like lichess keeps its forecasts: ``lines``, each the moves
    expected from the others and the player's answers in turn (notation, from the position
    after event ``at_seq``), and ``next_move``, a move for the player's next turn played
    if it is still legal then ("if those tiles are still there"). ``due_at``: an answer
    is owed since then (its task was queued; the minute sweep plays it if the task was
    lost)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plans")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    lines = models.JSONField(default=list, blank=True)
    next_move = models.CharField(max_length=200, blank=True, default="")
    at_seq = models.PositiveIntegerField()
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="plan_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"plan of seat {self.seat} in {self.game}"


class ChatMessage(models.Model):
    """A message in a game's chat. Moderators hide, never delete (the hiding is logged as
    an event of the game)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_reason = models.TextField(blank=True, default="")
    # Set when the author's data was erased (their account closed and forgotten): the
    # text is gone, the message's place in the chat stays.
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.author} in {self.game}: {self.text[:40]}"


class Report(models.Model):
    """A player's report of a game or a chat message, for the moderators."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "open")
        HANDLED = "handled", pgettext_lazy("report status", "handled")
        DISMISSED = "dismissed", pgettext_lazy("report status", "dismissed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, null=True, blank=True, related_name="reports"
    )
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    reason = models.TextField(max_length=2000)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_handled",
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["status", "-created_at"]

    def __str__(self) -> str:
        return f"report on {self.game} by {self.reporter}: {self.status}"


class TableSnapshot(models.Model):
    """A game's table folded up to event ``seq`` (``games.table.dumps``), so that a read
    folds only the events after it. A projection like the game row: written by the write
    path every ``TABLE_SNAPSHOT_EVERY`` events, discarded and rebuilt by
    ``rebuild_projections``; one folded by other code (``code``: ``table.code_version``) is
    never read."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    code = models.CharField(max_length=16)
    table = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="table_snapshot_game_seq_unique")
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} at event {self.seq}"


class ProcessBeat(models.Model):
    """When a background job last ran (``heartbeat``: the worker; ``sweep``: the minute
    sweep) and what it reported, for the operator's status page."""

    name = models.CharField(max_length=32, unique=True)
    at = models.DateTimeField()
    detail = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
