"""Crypto-shredding of a stream's free text (issue 45). Events are never changed, yet what
people wrote in them by hand — a moderator's reason, which may name a player or quote
their chat — must become unreadable once that player is forgotten. Such text is stored
sealed: encrypted (Fernet: AES-128-CBC with an HMAC) under a key kept per stream in
``StreamKey``, a row that may be deleted. ``shred`` deletes the keys; the sealed text in
the log then reads as nothing, for ever, in every copy of the log (backups included once
they age out). Codes the site itself writes (``time_ran_out``) are never sealed: rules
and ratings read them."""

from collections.abc import Iterable

from cryptography.fernet import Fernet, InvalidToken

from events.models import StreamKey

SEALED = "sealed:1:"


def seal(stream: str, text: str) -> str:
    """``text`` sealed under ``stream``'s key (made on first use); "" stays ""."""
    if not text:
        return ""
    key, _created = StreamKey.objects.get_or_create(
        stream=stream, defaults={"key": Fernet.generate_key().decode()}
    )
    return SEALED + Fernet(key.key.encode()).encrypt(text.encode()).decode()


def is_sealed(text: str) -> bool:
    return text.startswith(SEALED)


def unseal(stream: str, text: str, keys: dict[str, str | None] | None = None) -> str:
    """The text as written, or "" when its stream's key was shredded; text that was
    never sealed (written before sealing existed, or a code) as it is. ``keys``: a
    cache of keys by stream, for a caller unsealing many events."""
    if not is_sealed(text):
        return text
    if keys is None or stream not in keys:
        found = StreamKey.objects.filter(stream=stream).values_list("key", flat=True).first()
        if keys is None:
            keys = {}
        keys[stream] = found
    key = keys[stream]
    if key is None:
        return ""
    try:
        return Fernet(key.encode()).decrypt(text.removeprefix(SEALED).encode()).decode()
    except InvalidToken:
        return ""


def shred(streams: Iterable[str]) -> int:
    """Destroy the keys of ``streams``: their sealed text can never be read again. How
    many keys there were."""
    deleted, _by_model = StreamKey.objects.filter(stream__in=list(streams)).delete()
    return deleted
