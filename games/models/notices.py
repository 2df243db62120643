"""The notices on their way (``games.notify``): one table of deliveries for every channel
(``Delivery``; ``Outbox`` and ``PushDelivery`` are its rows of email and of push), the
devices pushes go to, the addresses that refused all email, and the emailed replies
received."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.games import Game


def new_message_id() -> str:
    """A Message-ID unique across resets and installs (RFC 5322 3.6.4): random, not a row
    number."""
    return f"<{uuid.uuid4().hex}@{settings.MAIL_REPLY_DOMAIN}>"


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
    TOURNAMENT_CANCELLED = "tournament_cancelled"
    SIGN_IN = "sign_in"
    PLAN_DROPPED = "plan_dropped"
    DATA_EXPORT_READY = "data_export_ready"
    BOT_PAUSED = "bot_paused"


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
