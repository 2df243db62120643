"""The read model of games (rebuilt from the event store by ``rebuild_projections``), the
seats and the email outbox. The event stream of a game is the truth; these rows are
projections kept in the same transaction as every append."""

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def new_rng_secret() -> str:
    return secrets.token_hex(32)


def new_message_id() -> str:
    """A Message-ID unique across resets and installs (RFC 5322 3.6.4): random, not a row
    number."""
    return f"<{uuid.uuid4().hex}@{settings.MAIL_REPLY_DOMAIN}>"


class BotLevel(models.TextChoices):
    """The computer players' levels (``games.bots.LEVELS``), named for players."""

    EASY = "easy", _("easy")
    MEDIUM = "medium", _("medium")
    HARD = "hard", _("hard")


class NoticeKind(models.TextChoices):
    """What a notice tells its reader (``games.notify``), whatever channel carries it."""

    INVITATION = "invitation"
    GAME_STARTED = "game_started"
    YOUR_TURN = "your_turn"
    REMINDER = "reminder"
    DEADLINE_WARNING = "deadline_warning"
    TIMEOUT = "timeout"
    GAME_OVER = "game_over"
    TAKEBACK_REQUEST = "takeback_request"
    MOVE_CONFIRMED = "move_confirmed"
    REPLY_REFUSED = "reply_refused"
    DIGEST = "digest"
    TOURNAMENT_JOINED = "tournament_joined"
    TOURNAMENT_ROUND = "tournament_round"
    TOURNAMENT_RESULTS = "tournament_results"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_INVITATION = "tournament_invitation"
    SIGN_IN = "sign_in"
    PLAN_DROPPED = "plan_dropped"
    DATA_EXPORT_READY = "data_export_ready"


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


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its ``PushSubscription.toJSON()``): where the
    push service takes messages for one device of ``user`` (``endpoint``), and the keys the
    messages are encrypted for (RFC 8291: ``p256dh``, the device's public key, and
    ``auth``, the shared secret). An endpoint belongs to one device, so to one player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=1024, unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    # When the push service will end it (``expirationTime``), if it said.
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"push to {self.user_id} at {self.endpoint[:60]}"


class Delivery(models.Model):
    """A notice on its way to one reader by one channel (``channel``, a name of
    ``games.notify.channels.CHANNELS``), written in the transaction of what caused it and
    sent once by the one delivery loop (``games.notify.channels.loop``). The reader is an
    address (``recipient``: an email address, or what another channel calls its reader)
    or a device (``subscription``, Web Push); ``user`` is the player, empty only where no
    account exists yet (a sign-in link or an invitation to a new address). At most one row
    per (channel, game, key, recipient, kind), or per (device, game, key, kind): the same
    notice cannot be written twice.

    How far its sending got: ``claimed_at`` (a worker took it), ``handed_over_at`` (the
    worker was about to hand it over: email's DATA), ``sent_at`` (it was taken). A row
    whose worker stopped after the hand-over but before ``sent_at`` may or may not have
    gone out: it is "in doubt" (``in_doubt_at``) and never sent again without an
    operator."""

    channel = models.CharField(max_length=24)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, related_name="+")
    # The seq of the event it reports, or another number that makes it unique (``Notice``).
    key = models.PositiveIntegerField(default=0)
    recipient = models.CharField(max_length=254, blank=True, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    subscription = models.ForeignKey(
        PushSubscription,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
    )
    kind = models.CharField(max_length=24, choices=NoticeKind.choices)
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    handed_over_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    in_doubt_at = models.DateTimeField(null=True, blank=True)
    # An email's Message-ID (threading, answers to a reply); none for other channels.
    message_id = models.CharField(max_length=255, unique=True, null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    # Why it was cancelled before it left because it no longer applied (the turn passed,
    # the reader was looking, turned it off…): not an error.
    withdrawn_because = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["channel", "game", "key", "recipient", "kind"],
                condition=models.Q(subscription__isnull=True),
                name="delivery_once_per_address",
            ),
            models.UniqueConstraint(
                fields=["subscription", "game", "key", "kind"],
                condition=models.Q(subscription__isnull=False),
                name="delivery_once_per_device",
            ),
        ]
        indexes = [
            models.Index(
                fields=["channel", "due_at"],
                condition=models.Q(sent_at__isnull=True, cancelled_at__isnull=True),
                name="delivery_pending",
            ),
            models.Index(
                fields=["in_doubt_at"],
                condition=models.Q(in_doubt_at__isnull=False),
                name="delivery_in_doubt",
            ),
        ]

    def __str__(self) -> str:
        reader = self.recipient or f"device {self.subscription_id}"
        return f"{self.kind} by {self.channel} to {reader} (game {self.game_id}, {self.key})"


class OfChannel(models.Manager):
    """The deliveries of the model's ``CHANNEL`` only."""

    def get_queryset(self):
        return super().get_queryset().filter(channel=self.model.CHANNEL)


class OfOneChannel(models.Model):
    """What a delivery model of one channel adds (with ``Delivery``, a proxy of it): its
    rows only, for the code and the admin that read them; a row saved through it is of
    that channel."""

    CHANNEL = ""
    objects = OfChannel()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        self.channel = self.CHANNEL
        super().save(*args, **kwargs)


class Outbox(OfOneChannel, Delivery):
    """The emails (the email channel), each with its Message-ID."""

    CHANNEL = "email"

    class Meta:
        proxy = True

    def save(self, *args, **kwargs):
        self.message_id = self.message_id or new_message_id()
        super().save(*args, **kwargs)


class PushDelivery(OfOneChannel, Delivery):
    """The Web Push deliveries, one per device of the reader."""

    CHANNEL = "push"

    class Meta:
        proxy = True


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


class RefusedAddress(models.Model):
    """An address without an account that refused all email from the site (the link in an
    invitation, ``mail.services.unsubscribe``): nothing is sent to it any more but a
    sign-in link asked for on the site. Once someone signs in with it, the account's own
    choices govern (its emails carry their own unsubscribe link)."""

    address = models.EmailField(unique=True)
    refused_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"no email to {self.address}"


class InboundMessage(models.Model):
    """An email reply already handled, by its Message-ID: a repeat is ignored."""

    message_id = models.CharField(max_length=255, unique=True)
    sender = models.EmailField()
    received_at = models.DateTimeField(default=timezone.now)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    outcome = models.CharField(max_length=255, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender}"


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


class ProcessBeat(models.Model):
    """When a background job last ran (``heartbeat``: the worker; ``sweep``: the minute
    sweep) and what it reported, for the operator's status page."""

    name = models.CharField(max_length=32, unique=True)
    at = models.DateTimeField()
    detail = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


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


# --- ratings and the game archive (issue 16): projections of the event stream ------------


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


# --- post-game analysis (issue 15): a projection of the event stream and the hard bot ------


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


# --- tournaments (issue 31): a projection of each tournament's event stream --------------


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
        return f"{self.name} (#{self.pk})"

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
