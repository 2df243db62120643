"""Accounts: signing in by a link sent by email."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction

from games.errors import BadRequest, Forbidden

User = get_user_model()


SIGN_IN_SALT = "azulsite.sign-in"
SIGN_IN_MAX_AGE = timedelta(minutes=30)


def sign_in_token(*, email: str) -> str:
    """A signed, time-limited token for the sign-in link sent to ``email``. It names the
    address and the account's last sign-in, so it stops working once used."""
    email = email.strip().lower()
    user = User.objects.filter(username=email).first()
    return signing.dumps({"email": email, "last": _last_login(user)}, salt=SIGN_IN_SALT)


def _last_login(user) -> str:
    return user.last_login.isoformat() if user is not None and user.last_login else ""


@transaction.atomic
def account_sign_in(*, token: str):
    """The account a sign-in link opens. Ruling (issue 6): an address with no account gets
    one here, when its owner follows the link, since the link proves the address is theirs;
    asking for a link creates nothing. Raises ``BadRequest`` for a forged, expired or used
    link."""
    try:
        data = signing.loads(token, salt=SIGN_IN_SALT, max_age=SIGN_IN_MAX_AGE)
        email, last = str(data["email"]), str(data["last"])
    except signing.SignatureExpired:
        raise BadRequest(
            "this sign-in link has expired (links last 30 minutes): ask for a new one",
            code="link_expired",
        ) from None
    except (signing.BadSignature, KeyError, TypeError):
        raise BadRequest(
            "this sign-in link is not valid: ask for a new one", code="link_invalid"
        ) from None
    user, _ = User.objects.select_for_update().get_or_create(
        username=email, defaults={"email": email}
    )
    if _last_login(user) != last:
        raise BadRequest(
            "this sign-in link has already been used: ask for a new one", code="link_used"
        )
    if not user.is_active:
        raise Forbidden("this account is disabled", code="account_disabled")
    return user
