"""Pushing the deliveries, each at most once: whoever claims a row first (the Celery task
asked for at commit, or the minute sweep for a row due later or a task the broker lost)
sends it, with a conditional ``UPDATE … WHERE claimed_at IS NULL`` committed before the
request. What the push service answers:

- 201 (or any 2xx): sent.
- 404 or 410: the subscription is gone (the browser unsubscribed, the app was removed):
  it is deleted with its deliveries.
- 429, 5xx, no answer: released and tried again later with a growing wait (or the
  ``Retry-After`` the service asked for), up to ``MAX_ATTEMPTS``.
- Any other answer (400, 403, 413…): given up; the log says why.

A worker that stops between its claim and the answer may or may not have pushed: the
sweep gives such a row up after ``WEB_PUSH_CLAIM_STALE_SECONDS`` and never sends it again
(a lost push is covered by the next reminder, as a lost email is)."""

import json
import logging
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from pywebpush import WebPusher

from games.i18n import speaking_to
from games.models import Game, NoticeKind, PlayerSettings, PushDelivery
from games.notify import preferences, presence
from games.notify.channels import channel
from games.notify.channels.push import endpoints, texts, vapid

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
STOPPED = "the worker stopped while pushing: it may have gone out, so it is not sent again"
# How long a push service keeps each kind for a device that is offline (``TTL``, seconds)
# and how soon it should wake the device (``Urgency``, RFC 8030 5.3).
DELIVERY = {
    NoticeKind.GAME_STARTED: (86400, "normal"),
    NoticeKind.TOURNAMENT_ROUND: (86400, "normal"),
    NoticeKind.YOUR_TURN: (86400, "normal"),
    NoticeKind.REMINDER: (43200, "normal"),
    NoticeKind.DEADLINE_WARNING: (43200, "high"),
    NoticeKind.TIMEOUT: (3 * 86400, "normal"),
    NoticeKind.GAME_OVER: (7 * 86400, "low"),
    NoticeKind.TAKEBACK_REQUEST: (86400, "normal"),
    NoticeKind.PLAN_DROPPED: (86400, "normal"),
}
TURN_KINDS = (NoticeKind.YOUR_TURN, NoticeKind.REMINDER, NoticeKind.DEADLINE_WARNING)


def send(*, delivery_id: int, now: datetime | None = None) -> str:
    """Push one row if it is due and nobody claimed it: ``sent``, ``skipped`` (not wanted
    or out of date), ``gone`` (the subscription ended or expired), ``failed`` (tried again later, or
    given up), ``busy`` (claimed by another worker), ``not due`` or ``done``."""
    now = now or timezone.now()
    row = (
        PushDelivery.objects.select_related("game", "subscription__user")
        .filter(pk=delivery_id)
        .first()
    )
    if row is None or row.sent_at or row.cancelled_at or row.claimed_at:
        return "done"
    if row.due_at > now:
        return "not due"
    expires_at = row.subscription.expires_at
    if expires_at is not None and expires_at <= now:
        # The push service said when it would end the subscription: it has.
        row.subscription.delete()
        return "gone"
    reason = skip_reason(row, now)
    if reason:
        _unclaimed(row).update(cancelled_at=now, withdrawn_because=reason)
        return "skipped"
    with speaking_to(row.subscription.user):
        data = json.dumps(texts.message(row), ensure_ascii=False, separators=(",", ":"))
    if not _unclaimed(row).update(claimed_at=now, attempts=F("attempts") + 1):
        return "busy"
    ours = PushDelivery.objects.filter(pk=row.pk, claimed_at=now, sent_at__isnull=True)
    try:
        response = _post(row, data)
    except requests.RequestException as error:
        return _failed(ours, row, str(error) or type(error).__name__, now)
    except ValueError as error:
        # The device's keys cannot be encrypted for: no attempt will do better.
        log.error("push %s cannot be encrypted: %s", row.pk, error)
        ours.update(cancelled_at=now, last_error=f"cannot encrypt: {error}"[:500])
        return "failed"
    if response.status_code < 300:
        ours.update(sent_at=timezone.now(), last_error="")
        return "sent"
    said = f"{response.status_code} {response.reason}: {response.text[:200]}"
    if response.status_code in (404, 410):
        log.info("push subscription %s ended (%s)", row.subscription_id, said)
        row.subscription.delete()
        return "gone"
    if response.status_code == 429 or response.status_code >= 500:
        return _failed(ours, row, said, now, wait=_retry_after(response))
    log.error("push %s refused: %s", row.pk, said)
    ours.update(cancelled_at=now, last_error=said)
    return "failed"


def _post(row: PushDelivery, data: str) -> requests.Response:
    """Encrypt ``data`` for the device (``aes128gcm``) and post it with the site's VAPID
    signature. Redirects are not followed: the endpoint checked is the one posted to."""
    subscription = row.subscription
    ttl, urgency = DELIVERY.get(row.kind, (86400, "normal"))
    endpoint = subscription.endpoint
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "sub": settings.WEB_PUSH_CONTACT,
        "exp": int(timezone.now().timestamp()) + 12 * 3600,
    }
    headers = {**vapid.signer().sign(claims), "Urgency": urgency, "Topic": texts.topic(row)}
    pusher = WebPusher(
        {"endpoint": endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
        requests_session=_NoRedirects(),
    )
    return pusher.send(data, headers, ttl=ttl, timeout=settings.WEB_PUSH_TIMEOUT)


class _NoRedirects:
    """What ``WebPusher`` posts through: ``requests``, never following a redirect."""

    def post(self, url: str, **options) -> requests.Response:
        return requests.post(url, allow_redirects=False, **options)


def skip_reason(row: PushDelivery, now: datetime) -> str:
    """Why this push should not go out any more, or ``""``."""
    refused = endpoints.refusal(row.subscription.endpoint)
    if refused:
        return f"endpoint no longer allowed: {refused}"[:200]
    prefs = PlayerSettings.objects.filter(user=row.subscription.user_id).first()
    if not preferences.wants(prefs, row.kind, channel("push")):
        return "turned off in the preferences"
    started = (NoticeKind.GAME_STARTED, NoticeKind.TOURNAMENT_ROUND)
    if row.kind not in TURN_KINDS and row.kind not in started:
        return ""
    game, seat = row.game, (row.payload or {}).get("seat")
    if row.kind in started:
        return "" if game.status == Game.Status.ACTIVE else "the game is no longer on"
    if game.status != Game.Status.ACTIVE or game.to_move != seat:
        return "no longer this player's turn"
    later = PushDelivery.objects.filter(
        subscription=row.subscription_id, game=game, kind__in=TURN_KINDS, key__gt=row.key
    )
    if row.kind == NoticeKind.YOUR_TURN and later.filter(kind=NoticeKind.YOUR_TURN).exists():
        return "a later turn push shows this turn"
    if row.kind != NoticeKind.DEADLINE_WARNING and presence.looking(game, seat, now):
        return "the player is on the game's page"
    return ""


def _unclaimed(row: PushDelivery):
    return PushDelivery.objects.filter(
        pk=row.pk, sent_at__isnull=True, cancelled_at__isnull=True, claimed_at__isnull=True
    )


def _retry_after(response: requests.Response) -> timedelta | None:
    wait = response.headers.get("Retry-After", "")
    return timedelta(seconds=min(int(wait), 86400)) if wait.isdigit() else None


def _failed(ours, row: PushDelivery, said: str, now: datetime, *, wait=None) -> str:
    """Release our claim to try again later (the push did not go out), or give up after
    ``MAX_ATTEMPTS``."""
    row.refresh_from_db(fields=["attempts"])
    backoff = wait or timedelta(minutes=2 ** min(row.attempts, 10))
    log.warning("push %s failed (attempt %s): %s", row.pk, row.attempts, said)
    ours.update(
        claimed_at=None,
        last_error=said[:500],
        due_at=now + backoff,
        cancelled_at=now if row.attempts >= MAX_ATTEMPTS else None,
    )
    return "failed"


def send_due(*, now: datetime) -> dict[str, int]:
    """The minute sweep's part: give up the claims of workers that stopped, then push
    every due row nobody claimed."""
    pending = PushDelivery.objects.filter(
        sent_at__isnull=True, cancelled_at__isnull=True, due_at__lte=now
    )
    stale = now - timedelta(seconds=settings.WEB_PUSH_CLAIM_STALE_SECONDS)
    lost = pending.filter(claimed_at__lte=stale).update(cancelled_at=now, last_error=STOPPED)
    if lost:
        log.error("%s push(es) lost with their worker; not sent again", lost)
    ids = list(
        pending.filter(claimed_at__isnull=True)
        .order_by("due_at")
        .values_list("pk", flat=True)[: settings.MAIL_SWEEP_BATCH]
    )
    sent = sum(send(delivery_id=pk, now=now) == "sent" for pk in ids)
    return {"pushed": sent, "pushes_lost": lost}
