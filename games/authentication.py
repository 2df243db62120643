"""The API's token authentication: ``Authorization: Token <key>`` with a named token made
on the account page (``services.tokens``: its key begins ``azs_``, looked up by its hash)
or the password token of ``POST /api/token/`` (DRF's). Each is one query, compiled once per
process (``games.prepared``), since every API call of a client runs it."""

from rest_framework import authentication
from rest_framework.authtoken.models import Token

from games.models import ApiToken
from games.prepared import Prepared
from games.services.tokens import KEY_PREFIX, api_token_used, key_digest

_TOKEN_WITH_USER = Prepared(lambda key: Token.objects.select_related("user").filter(key=key))
_NAMED_WITH_USER = Prepared(
    lambda digest: ApiToken.objects.select_related("user").filter(digest=digest)
)


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, answered as DRF answers it."""

    def authenticate_credentials(self, key):
        named = key.startswith(KEY_PREFIX)
        found = _NAMED_WITH_USER(key_digest(key)) if named else _TOKEN_WITH_USER(key)
        if not found or not found[0].user.is_active:
            # DRF's refusal, in its words and its translations: one more query, for a
            # refused call only (a named key is in no DRF row: "Invalid token.").
            return super().authenticate_credentials(key)
        if named:
            api_token_used(found[0])
        return found[0].user, found[0]
