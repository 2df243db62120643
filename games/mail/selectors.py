"""Reads for the email doors."""

from django.contrib.auth import get_user_model

User = get_user_model()


def player_by_address(address: str | None):
    """The player whose address this is, or ``None``. Accounts use the lowercased address as
    their username (a unique index), so this is one index lookup whatever the number of
    players."""
    if not address:
        return None
    return User.objects.filter(username=address.strip().lower()).first()
