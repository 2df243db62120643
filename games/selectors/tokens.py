"""A person's API tokens, as the account page lists them (issue 53)."""

from dataclasses import dataclass
from datetime import datetime

from rest_framework.authtoken.models import Token

from games.models import ApiToken


@dataclass(frozen=True)
class TokenRow:
    """A token in the list: ``id`` 0 is the one ``POST /api/token/`` gave for the
    password (DRF's, one per account; ``name`` empty)."""

    id: int
    name: str
    hint: str
    created_at: datetime
    last_used_at: datetime | None


def tokens_of(user) -> list[TokenRow]:
    """The person's named tokens, newest first, then their password token if they have
    one."""
    rows = [
        TokenRow(t.pk, t.name, t.hint, t.created_at, t.last_used_at)
        for t in ApiToken.objects.filter(user=user)
    ]
    password = Token.objects.filter(user=user).first()
    if password is not None:
        rows.append(TokenRow(0, "", password.key[:4], password.created, None))
    return rows
