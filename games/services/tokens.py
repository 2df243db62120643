"""API tokens (issue 53): made on the account page, each named by its owner, shown once,
revoked there. A person who signed up by an emailed link has no password to give
``POST /api/token/`` (which stays, for password accounts), so this is their way into the
API. The key is 240 random bits; only its SHA-256 is stored (a slow hash buys nothing
against a key this long), so the key cannot be shown again and a copy of the database
signs nobody in."""

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from games.errors import BadRequest, NotFound
from games.models import ApiToken

# Every named key begins so: the API's authentication tells it from a password token
# (``POST /api/token/``) without a second query, and a secret scanner can find one
# pasted where it should not be.
KEY_PREFIX = "azs_"
HINT_LENGTH = len(KEY_PREFIX) + 4
NAME_LENGTH = ApiToken._meta.get_field("name").max_length
# Ruling: enough for a person's scripts and devices; a list longer than this is one
# nobody reads, and each is one more key to leak.
MOST_TOKENS = 20
# ``last_used_at`` is written at most this often per token, so that a script's every
# call does not write a row.
LAST_USED_EVERY = timedelta(hours=1)


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token named ``name`` for ``user`` and its key, which nothing keeps: the
    caller shows it once. Refuses an empty name, a name already used, a name too long, and
    more than ``MOST_TOKENS``."""
    name = " ".join((name or "").split())
    if not name:
        raise BadRequest(
            _("give the token a name, such as the program or device that will use it"),
            code="token_name_missing",
        )
    if len(name) > NAME_LENGTH:
        raise BadRequest(
            _("a token's name has at most %(count)s characters") % {"count": NAME_LENGTH},
            code="token_name_too_long",
        )
    # Locked so that two tabs at once cannot pass the limit together.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user).count() >= MOST_TOKENS:
        raise BadRequest(
            _("you have %(count)s tokens, the most there may be: revoke one you no longer use")
            % {"count": MOST_TOKENS},
            code="too_many_tokens",
        )
    key = KEY_PREFIX + secrets.token_urlsafe(30)
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user, name=name, digest=key_digest(key), hint=key[:HINT_LENGTH]
            )
    except IntegrityError:
        raise BadRequest(
            _("you already have a token named “%(name)s”: choose another name") % {"name": name},
            code="token_name_taken",
        ) from None
    return token, key


def api_token_revoke(*, user, token_id: int) -> str:
    """Revoke ``user``'s token ``token_id`` (0: the one ``POST /api/token/`` gave for their
    password): calls with it are refused from now on. Returns its name."""
    if token_id == 0:
        deleted, _kinds = Token.objects.filter(user=user).delete()
        name = _("password token")
    else:
        token = ApiToken.objects.filter(user=user, pk=token_id).first()
        deleted, name = (token.delete()[0], token.name) if token else (0, "")
    if not deleted:
        raise NotFound(_("no such token of yours (it may be revoked already)"), code="no_token")
    return name


def api_token_used(token: ApiToken, now: datetime | None = None) -> None:
    """Note that ``token`` was used now, at most once per ``LAST_USED_EVERY`` (one
    conditional UPDATE, which finds nothing to do on all other calls)."""
    now = now or timezone.now()
    last = token.last_used_at
    if last is not None and last > now - LAST_USED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk, last_used_at=last).update(last_used_at=now)
    token.last_used_at = now
