"""Crypto-shredding of free text in events (issues 45, 52). Events are never changed, yet
what people wrote in them by hand — a moderator's reason, which may name a player or quote
their chat; a tournament's name; an address invited to a tournament — must become
unreadable once the person it is about is forgotten. Such text is stored sealed: encrypted
(Fernet: AES-128-CBC with an HMAC) under keys kept in ``StreamKey``, rows that may be
deleted. ``shred`` deletes keys; the sealed text in the log then reads as nothing, for
ever, in every copy of the log (backups included once they age out). Codes the site
itself writes (``time_ran_out``) are never sealed: rules and ratings read them.

A key is named for what it belongs to:

- ``game:<id>``, ``tournament:<id>``, ``account:<id>``: a stream (``seal``), shredded when
  any person who took part in it is forgotten;
- ``person:<id>``: an account (``person_key``), shredded when that person is forgotten;
- ``address:<keyed hash>``: an email address with no account (``address_key``), shredded
  when an account of that address is forgotten. The hash is keyed with the site's secret,
  so the log does not give the address to anyone who guesses it without the secret.

One text may be sealed under several keys at once (``seal_for``): a reason naming two
players is readable only while the game's key and both persons' keys exist. Its random
data key is split into shares (XOR), each share sealed under one of the keys; shredding any
one key loses its share, and with it the text. The sealed form grows by one short share a
key, whatever their number.

Formats: ``sealed:1:<token>`` (the event's stream's key; written until issue 52 and still
read), ``sealed:2:<name>=<share>,<name>=<share>…:<token>``."""

import base64
import os
from collections.abc import Iterable

from cryptography.fernet import Fernet, InvalidToken
from django.utils.crypto import salted_hmac

from events.models import StreamKey

SEALED = "sealed:1:"
SEALED_FOR = "sealed:2:"
PERSON_KEY = "person:{}"
ADDRESS_KEY = "address:{}"

Keys = dict[str, str | None]


def person_key(user_id: int) -> str:
    """The name of the key of a person's own data (an account)."""
    return PERSON_KEY.format(user_id)


def address_key(address: str) -> str:
    """The name of the key of an email address (for an address with no account)."""
    digest = salted_hmac("events.shredding.address", address.strip().lower()).hexdigest()
    return ADDRESS_KEY.format(digest[:40])


def seal(stream: str, text: str) -> str:
    """``text`` sealed under ``stream``'s key alone (made on first use); "" stays ""."""
    return seal_for([stream], text)


def seal_for(names: Iterable[str], text: str) -> str:
    """``text`` sealed under every key of ``names`` at once (each made on first use):
    readable while all of them exist; "" stays ""."""
    names = sorted(set(names))
    if not text or not names:
        return text
    data_key = os.urandom(32)
    shares = [os.urandom(32) for _name in names[1:]]
    shares.insert(0, _xor(data_key, *shares))
    sealed_shares = ",".join(
        f"{name}={_fernet(_key(name)).encrypt(share).decode()}"
        for name, share in zip(names, shares, strict=True)
    )
    token = _fernet(base64.urlsafe_b64encode(data_key).decode()).encrypt(text.encode())
    return f"{SEALED_FOR}{sealed_shares}:{token.decode()}"


def is_sealed(text: str) -> bool:
    return text.startswith((SEALED, SEALED_FOR))


def unseal(stream: str, text: str, keys: Keys | None = None) -> str:
    """The text as written, or "" when a key it was sealed under was shredded; text that
    was never sealed (written before sealing existed, or a code) as it is. ``stream``: the
    stream of the event holding it (the key of ``sealed:1:``). ``keys``: a cache of keys by
    name, for a caller unsealing many texts."""
    if not is_sealed(text):
        return text
    keys = {} if keys is None else keys
    try:
        if text.startswith(SEALED):
            key = _known(stream, keys)
            return _fernet(key).decrypt(text.removeprefix(SEALED).encode()).decode() if key else ""
        head, _colon, token = text.removeprefix(SEALED_FOR).rpartition(":")
        shares = []
        for part in head.split(","):
            name, _equals, sealed_share = part.partition("=")
            key = _known(name, keys)
            if key is None:
                return ""
            shares.append(_fernet(key).decrypt(sealed_share.encode()))
        data_key = base64.urlsafe_b64encode(_xor(*shares)).decode()
        return _fernet(data_key).decrypt(token.encode()).decode()
    except (InvalidToken, ValueError):
        return ""


def shred(names: Iterable[str]) -> int:
    """Destroy the keys named ``names``: what was sealed under any of them can never be
    read again. How many keys there were."""
    deleted, _by_model = StreamKey.objects.filter(stream__in=list(names)).delete()
    return deleted


def _key(name: str) -> str:
    found, _created = StreamKey.objects.get_or_create(
        stream=name, defaults={"key": Fernet.generate_key().decode()}
    )
    return found.key


def _known(name: str, keys: Keys) -> str | None:
    if name not in keys:
        keys[name] = StreamKey.objects.filter(stream=name).values_list("key", flat=True).first()
    return keys[name]


def _fernet(key: str) -> Fernet:
    return Fernet(key.encode())


def _xor(first: bytes, *others: bytes) -> bytes:
    result = bytearray(first)
    for other in others:
        for index, byte in enumerate(other):
            result[index] ^= byte
    return bytes(result)
