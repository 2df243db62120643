"""A player's devices for Web Push: a browser's subscription stored (``push_subscribe``) or
removed (``push_unsubscribe``); pushing is the delivery loop's (``notices.delivery_send``).
The endpoint must be a known push service (``notify.channels.push.endpoints``): the site
posts, signed, to whatever address is stored."""

import base64
import binascii
from datetime import UTC, datetime

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from games.errors import BadRequest, Conflict
from games.models import PushSubscription
from games.notify.channels.push import endpoints

# RFC 8291: the device's key is an uncompressed P-256 point, its secret 16 bytes.
P256DH_BYTES = 65
AUTH_BYTES = 16
# A player's devices at most: each notice is a push to every one of them, so the oldest
# goes when one more subscribes (a device long replaced, most likely).
MAX_DEVICES = 20
# The largest expirationTime taken (milliseconds since 1970): year 9999.
LATEST_EXPIRY_MS = 253_402_300_799_000


@transaction.atomic
def push_subscribe(
    *, user, endpoint: str, p256dh: str, auth: str, expiration_time: int | None = None
) -> tuple[PushSubscription, bool]:
    """Store a device's subscription for ``user`` (a browser's ``PushSubscription``);
    whether it is new for them. A player keeps their ``MAX_DEVICES`` latest devices.

    An endpoint names one device, so it belongs to one player at a time. Stored for
    another player, it moves to ``user`` only when the request carries the keys stored
    with it (``_same_device``): the device itself, signed in as someone else, whose
    former player's notices must not show on the new one's screen. Any other caller is
    refused (``Conflict``), never moved: an endpoint is no secret (a push service's URL
    in a page, a log, a proxy), and moving it on a request that merely names it would
    let anyone cut a player off their notices. Keeping both apart (the endpoint stored
    for each) is no answer either: one device would show two players' notices, and a
    stranger's keys could never be decrypted there anyway."""
    refused = endpoints.refusal(endpoint)
    if refused:
        raise BadRequest(
            # Translators: %(reason)s says why, e.g. "example.com is not a known push service".
            _("this push endpoint is refused: %(reason)s") % {"reason": refused},
            code="push_endpoint_refused",
        )
    point = _check_key("keys.p256dh", p256dh, P256DH_BYTES)
    _check_key("keys.auth", auth, AUTH_BYTES)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise _invalid("keys.p256dh", _("not a P-256 public key")) from None
    expires_at = None
    if expiration_time is not None:
        if not 0 <= expiration_time <= LATEST_EXPIRY_MS:
            raise _invalid("expirationTime", _("milliseconds since 1970, or null"))
        expires_at = datetime.fromtimestamp(expiration_time / 1000, tz=UTC)
    known = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    new = known is None or known.user_id != user.pk
    if new and known is not None and not _same_device(known, p256dh=p256dh, auth=auth):
        raise Conflict(
            _(
                "this device already gets notifications for another account: turn "
                "notifications off and on again on this device to get them here"
            ),
            code="push_endpoint_taken",
        )
    defaults = {"user": user, "p256dh": p256dh, "auth": auth, "expires_at": expires_at}
    if new:
        # A device moved to another player is their newest.
        defaults["created_at"] = timezone.now()
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults=defaults
    )
    if new:
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        PushSubscription.objects.filter(
            pk__in=list(kept.values_list("pk", flat=True)[MAX_DEVICES:])
        ).delete()
    return subscription, new


def push_unsubscribe(*, user, endpoint: str) -> bool:
    """Forget one of ``user``'s devices (and the pushes waiting for it); whether it was
    stored."""
    deleted, _by_model = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def _same_device(known: PushSubscription, *, p256dh: str, auth: str) -> bool:
    """Whether a request for ``known``'s endpoint comes from the browser that holds it: it
    carries the same public key and the same ``auth`` secret (RFC 8291), which only that
    browser and this site know (no answer of ours ever shows them)."""
    return known.p256dh == p256dh and constant_time_compare(known.auth, auth)


def _check_key(field: str, value: str, length: int) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != length:
        raise _invalid(field, _("%(bytes)s bytes in base64url expected") % {"bytes": length})
    return raw


def _invalid(field: str, message: str) -> BadRequest:
    return BadRequest(
        _("%(field)s: %(errors)s") % {"field": field, "errors": message},
        code="invalid_input",
        field=field,
        errors={field: [message]},
    )
