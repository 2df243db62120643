"""Signed tokens carried by emails: the reply address of a seat and the links to the
preferences and unsubscribe pages, made with ``django.core.signing``, and the code of a
sign-in link, a keyed hash of its row."""

import base64
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import salted_hmac

REPLY_PREFIX = "play+"
REPLY_SALT = "azulsite.mail.reply"
ADDRESS_SALT = "azulsite.mail.address"


class LowercaseSigner(signing.Signer):
    """A signer whose signature survives mail systems that lowercase the local part of an
    address: base32 of a truncated HMAC (120 bits), in lowercase letters and digits. It
    keeps the address well under the 64 characters a local part may have (RFC 5321)."""

    def signature(self, value, key=None):
        digest = salted_hmac(
            self.salt + "signer", value, key or self.key, algorithm=self.algorithm
        ).digest()
        return base64.b32encode(digest[:15]).decode().lower()


_reply_signer = LowercaseSigner(salt=REPLY_SALT, sep=".")
_player_signer = LowercaseSigner(salt=ADDRESS_SALT)


@dataclass(frozen=True)
class ReplyTo:
    """What a reply address names: the game, the seat, and the event the email showed."""

    game_id: int
    seat: int
    seq: int


def reply_address(game_id: int, seat: int, seq: int) -> str:
    """``play+<game>-<seat>-<seq>.<signature>@MAIL_REPLY_DOMAIN``."""
    token = _reply_signer.sign(f"{game_id}-{seat}-{seq}")
    return f"{REPLY_PREFIX}{token}@{settings.MAIL_REPLY_DOMAIN}"


def read_reply_address(address: str) -> ReplyTo | None:
    """The seat a reply address names, or ``None`` for any other, forged or mangled one."""
    local, _, domain = address.strip().lower().rpartition("@")
    if domain != settings.MAIL_REPLY_DOMAIN.lower() or not local.startswith(REPLY_PREFIX):
        return None
    try:
        value = _reply_signer.unsign(local[len(REPLY_PREFIX) :])
        game_id, seat, seq = (int(part) for part in value.split("-"))
    except (signing.BadSignature, ValueError):
        return None
    return ReplyTo(game_id, seat, seq)


def player_token(user_id: int, email: str) -> str:
    """A short token naming a player, for the preferences and unsubscribe links: the id and
    a signature of the id with the address (a changed address voids old links), so the
    link fits a 78-character line of a plain text email."""
    return f"{user_id}-{_player_signer.signature(f'{user_id}:{email.lower()}')}"


def read_player_token(token: str) -> int | None:
    """The player id a short token claims (checked by ``selectors.player_by_token``)."""
    user_id, dash, signature = token.partition("-")
    return int(user_id) if dash and user_id.isdigit() and signature.isalnum() else None


def address_token(email: str) -> str:
    """A token naming an email address, for its preferences and unsubscribe links (the
    long form of earlier emails; still read)."""
    return signing.dumps(email.lower(), salt=ADDRESS_SALT, compress=True)


def read_address_token(token: str) -> str | None:
    """The address a token names, or ``None`` for a forged one."""
    try:
        return signing.loads(token, salt=ADDRESS_SALT)
    except signing.BadSignature:
        return None


SIGN_IN_SALT = "azulsite.sign-in"


def sign_in_code(row) -> str:
    """The code of the sign-in email ``row``: ``<row>.<keyed hash>`` (of the row, the
    address and the account's last sign-in, so that it works once: ``services.accounts``)."""
    return f"{row.pk}.{sign_in_mac(row)}"


def sign_in_mac(row) -> str:
    value = f"{row.pk}|{row.recipient}|{(row.payload or {}).get('last', '')}"
    return salted_hmac(SIGN_IN_SALT, value, algorithm="sha256").hexdigest()[:32]
