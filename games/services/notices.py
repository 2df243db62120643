"""Notices the clock causes (reminders, deadline warnings, the daily digest), found by the
minute sweep, and each player's choice of channels per kind of notice. What a notice says
and who gets it is ``games.notify``'s; this module claims the due rows, once each.

Keys. Reminders and deadline warnings, which can fall many times on one position, use the
minute they were scheduled for; a digest the day (and no game)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext as _

from games import notify
from games.errors import BadRequest
from games.models import Game, NoticeKind, PlayerSettings, Seat, SeatClock
from games.notify import preferences
from games.notify.channels import channel, loop
from games.services import clocks


def warnings_queue(*, now: datetime) -> int:
    """Warn every seat whose warning time has come that its time is running out."""
    due = SeatClock.objects.filter(warning_at__lte=now).values_list("pk", "warning_at")
    queued = 0
    for pk, at in list(due[: settings.MAIL_SWEEP_BATCH]):
        with transaction.atomic():
            if SeatClock.objects.filter(pk=pk, warning_at=at).update(warning_at=None):
                queued += _turn_waiting(pk, at, NoticeKind.DEADLINE_WARNING, now)
    return queued


def reminders_queue(*, now: datetime) -> int:
    """Remind every seat whose reminder time has come, and schedule the next reminder (the
    game's ``every_hours`` later)."""
    due = SeatClock.objects.filter(next_reminder_at__lte=now).select_related("seat__game")
    queued = 0
    for clock in list(due[: settings.MAIL_SWEEP_BATCH]):
        pk, at = clock.pk, clock.next_reminder_at
        following = clocks.reminder_following(clock.seat.game, clock.seat.position, at, now)
        with transaction.atomic():
            if SeatClock.objects.filter(pk=pk, next_reminder_at=at).update(
                next_reminder_at=following
            ):
                queued += _turn_waiting(pk, at, NoticeKind.REMINDER, now)
    return queued


def _turn_waiting(clock_id: int, at: datetime, kind: str, now: datetime) -> int:
    clock = SeatClock.objects.select_related("seat__user", "seat__game").get(pk=clock_id)
    seat, game = clock.seat, clock.seat.game
    if game.status != Game.Status.ACTIVE or game.to_move != seat.position or seat.user is None:
        SeatClock.objects.filter(pk=clock_id).update(next_reminder_at=None, warning_at=None)
        return 0
    if game.paused_at is not None:
        return 0
    notify.turn_waiting(game, int(at.timestamp() // 60), seat, kind, now=now)
    return 1


def digests_queue(*, now: datetime) -> int:
    """Today's digest for every player who chose it and has a game waiting."""
    day_ago = now - timedelta(days=1)
    due = (
        PlayerSettings.objects.filter(daily_digest=True, unsubscribed_at__isnull=True)
        .filter(Q(last_digest_at__isnull=True) | Q(last_digest_at__lte=day_ago))
        .filter(
            user__seats__status=Seat.Status.JOINED,
            user__seats__game__status=Game.Status.ACTIVE,
            user__seats__position=F("user__seats__game__to_move"),
        )
        .distinct()
        .select_related("user")
    )
    queued = 0
    for prefs in list(due[: settings.MAIL_SWEEP_BATCH]):
        with transaction.atomic():
            claimed = PlayerSettings.objects.filter(
                pk=prefs.pk, last_digest_at=prefs.last_digest_at
            ).update(last_digest_at=now)
            if claimed:
                notify.digest(prefs.user, int(now.timestamp() // 86400))
                queued += 1
    return queued


@transaction.atomic
def notices_choose(
    *, user, channel_name: str, wanted_kinds: list[str], daily_digest: bool
) -> PlayerSettings:
    """Choose the kinds of notice wanted by a channel (any of its ``optional_kinds``) and
    the daily digest. Choosing also undoes an unsubscribe."""
    by = channel(channel_name)
    unknown = sorted(set(wanted_kinds) - set(by.optional_kinds))
    if unknown:
        raise BadRequest(
            # Translators: %(unknown)s and %(accepted)s list kinds of email by their codes.
            _("unknown email kinds %(unknown)s; accepted: %(accepted)s")
            % {"unknown": ", ".join(unknown), "accepted": ", ".join(by.optional_kinds)},
            code="invalid_kinds",
            unknown=unknown,
        )
    prefs, _created = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    prefs.channels = preferences.chosen(prefs, by, wanted_kinds)
    prefs.daily_digest = bool(daily_digest)
    prefs.unsubscribed_at = None
    prefs.save()
    return prefs


def delivery_send(*, delivery_id: int) -> str:
    """Send one delivery, of any channel (asked for when the transaction that wrote it
    committed): what became of it (``channels.loop.send``)."""
    return loop.send(delivery_id=delivery_id)
