"""Email addresses: the one spelling of an account's, the player an address belongs to,
and the addresses that refused all email from the site."""

import unicodedata

from django.contrib.auth import get_user_model

from games.models import RefusedAddress


def account_identity(address: str | None) -> str:
    """The one spelling of an account's address: the username it is stored under, the
    name every sign-in looks it up by, and the key of every limit on it. Unicode's
    compatibility form (NFKC, as Django's sign-in form reads a username: the fullwidth
    ``ｐ３４`` is ``p34``), lower case, no surrounding space. Normalised before and after
    lowering, since lowering may undo the compatibility form (``ℌ``)."""
    value = unicodedata.normalize("NFKC", str(address or "")).strip().lower()
    return unicodedata.normalize("NFKC", value)


def player_by_address(address: str | None):
    """The player whose address this is, or ``None``. Accounts use the lowercased address as
    their username (a unique index), so this is one index lookup whatever the number of
    players."""
    if not address:
        return None
    return get_user_model().objects.filter(username=address.strip().lower()).first()


def address_refused(address: str) -> bool:
    """Whether ``address`` refused all email from the site (the unsubscribe link of an
    email to an address without an account)."""
    return RefusedAddress.objects.filter(address=account_identity(address)).exists()
