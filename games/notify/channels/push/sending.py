"""Pushing one delivery the loop (``channels.loop``) claimed, and whether it should still
go. What the push service answers:

- 201 (or any 2xx): sent.
- 404 or 410: the subscription is gone (the browser unsubscribed, the app was removed):
  it is deleted with its deliveries.
- 429, 5xx, no answer: tried again later with a growing wait (or the ``Retry-After`` the
  service asked for), up to the channel's ``max_attempts``.
- Any other answer (400, 403, 413…): given up; the log says why.

A worker that stops between its claim and the answer may or may not have pushed: the
sweep gives such a row up after ``WEB_PUSH_CLAIM_STALE_SECONDS`` and never sends it again
(the channel's claim is its hand-over)."""

import logging
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils import timezone
from pywebpush import WebPusher

from games.models import Delivery, Game, NoticeKind, PlayerSettings
from games.notify import preferences, presence
from games.notify.channels import channel
from games.notify.channels.loop import Gone, Refused
from games.notify.channels.push import endpoints, texts, vapid
from games.notify.notice import TURN_KINDS

log = logging.getLogger(__name__)

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


def push(row: Delivery, data: str) -> None:
    """Post ``data`` to the device of ``row`` and read the push service's answer (see the
    module doc)."""
    try:
        response = _post(row, data)
    except requests.RequestException as error:
        raise Refused(_unnamed(str(error) or type(error).__name__, row)) from error
    except ValueError as error:
        # The device's keys cannot be encrypted for: no attempt will do better.
        log.error("push %s cannot be encrypted: %s", row.pk, _unnamed(str(error), row))
        raise Refused(_unnamed(f"cannot encrypt: {error}", row), permanent=True) from error
    if response.status_code < 300:
        return
    said = _unnamed(f"{response.status_code} {response.reason}: {response.text[:200]}", row)
    if response.status_code in (404, 410):
        log.info("push subscription %s ended (%s)", row.subscription_id, said)
        row.subscription.delete()
        raise Gone(said)
    if response.status_code == 429 or response.status_code >= 500:
        raise Refused(said, wait=_retry_after(response))
    log.error("push %s refused: %s", row.pk, said)
    raise Refused(said, permanent=True)


def _unnamed(said: str, row: Delivery) -> str:
    """``said`` (an error, a push service's answer) with the device's endpoint, or its
    path, named by the subscription's id instead: an endpoint is a device's own address,
    and neither the log nor the delivery's ``last_error`` keeps one (docs/privacy.md)."""
    endpoint = row.subscription.endpoint
    parts = urlsplit(endpoint)
    named = f"subscription {row.subscription_id}"
    for shown in (endpoint, parts.path + (f"?{parts.query}" if parts.query else ""), parts.path):
        if len(shown) > 1:
            said = said.replace(shown, named)
    return said


def _post(row: Delivery, data: str) -> requests.Response:
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


def skip_reason(row: Delivery, now: datetime) -> str:
    """Why this push should not go out any more, or ``""``; ``Gone`` when the push
    service ended the subscription at the time it said it would (``expires_at``)."""
    expires_at = row.subscription.expires_at
    if expires_at is not None and expires_at <= now:
        row.subscription.delete()
        raise Gone("the subscription expired")
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
    later = Delivery.objects.filter(
        subscription=row.subscription_id, game=game, kind__in=TURN_KINDS, key__gt=row.key
    )
    if row.kind == NoticeKind.YOUR_TURN and later.filter(kind=NoticeKind.YOUR_TURN).exists():
        return "a later turn push shows this turn"
    if row.kind != NoticeKind.DEADLINE_WARNING and presence.looking(game, seat, now):
        return "the player is on the game's page"
    return ""


def _retry_after(response: requests.Response) -> timedelta | None:
    wait = response.headers.get("Retry-After", "")
    return timedelta(seconds=min(int(wait), 86400)) if wait.isdigit() else None
