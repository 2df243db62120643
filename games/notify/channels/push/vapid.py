"""The site's VAPID key pair (RFC 8292): the private key signs every push request, and its
public half is what a browser's ``pushManager.subscribe`` takes as
``applicationServerKey``, so the push service accepts only pushes the site signed. From
``WEB_PUSH_VAPID_PRIVATE_KEY`` (the raw key, base64url, as web-push tools print it; or
DER), else made once per installation and kept in ``var/`` like the secret key."""

import base64
from contextlib import suppress
from functools import cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid

KEY_FILE = "vapid_private_key"


@cache
def signer() -> Vapid:
    return Vapid.from_string(settings.WEB_PUSH_VAPID_PRIVATE_KEY or _generated())


def public_key() -> str:
    """The public key as the browser wants it: the uncompressed P-256 point, base64url."""
    point = signer().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def _generated() -> str:
    path = settings.VAR_DIR / KEY_FILE
    if not path.exists():
        number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        raw = base64.urlsafe_b64encode(number.to_bytes(32, "big")).decode()
        # Exclusive: of two processes starting at once, the first one's key is kept.
        with suppress(FileExistsError), path.open("x") as file:
            path.chmod(0o600)
            file.write(raw)
    return path.read_text().strip()
