"""The API's token authentication: DRF's, with its one query compiled once per process
(``games.prepared``), since every API call of a client runs it."""

from rest_framework import authentication
from rest_framework.authtoken.models import Token

from games.prepared import Prepared

_TOKEN_WITH_USER = Prepared(lambda key: Token.objects.select_related("user").filter(key=key))


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, answered as DRF answers it."""

    def authenticate_credentials(self, key):
        found = _TOKEN_WITH_USER(key)
        if not found or not found[0].user.is_active:
            # DRF's refusal, in its words and its translations: one more query, for a
            # refused call only.
            return super().authenticate_credentials(key)
        return found[0].user, found[0]
