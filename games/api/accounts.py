"""The API's way in: your token for ``Authorization: Token <key>``, and a JSON 404 for any
path under /api/ that is no endpoint."""

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from games import services
from games.api.toolkit import Api, errors, validated
from games.errors import BadRequest
from games.throttles import AnonRateThrottle, FixedWindow


class TokenAddressThrottle(AnonRateThrottle):
    """Tries at ``POST /api/token/`` per client address."""

    scope = "token"
    fail_closed = True


class TokenAccountThrottle(FixedWindow, SimpleRateThrottle):
    """Tries at ``POST /api/token/`` per account asked for, from wherever they come."""

    scope = "token-account"
    fail_closed = True

    def get_cache_key(self, request, view) -> str | None:
        data = request.data if hasattr(request.data, "get") else {}
        email = services.account_identity(data.get("email", ""))
        return self.cache_format % {"scope": self.scope, "ident": email} if email else None


class TokenApi(Api):
    """Your API token, for ``Authorization: Token <key>`` (the same token every time).
    Rate-limited per client address and per account (429 with ``Retry-After``)."""

    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [TokenAddressThrottle, TokenAccountThrottle]

    @extend_schema_serializer(component_name="TokenRequest")
    class InputSerializer(serializers.Serializer):
        email = serializers.EmailField()
        password = serializers.CharField(max_length=4096, trim_whitespace=False)

    @extend_schema_serializer(component_name="Token")
    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

    @extend_schema(
        summary="Get your API token",
        operation_id="token_get",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 429)},
        auth=[],
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        email = services.account_identity(data["email"])
        user = authenticate(request, username=email, password=data["password"])
        if user is None:
            raise BadRequest(_("wrong email address or password"), code="invalid_credentials")
        # DRF's own token table, written as DRF's ObtainAuthToken writes it.
        token, _created = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)


class UnknownApi(Api):
    """Any other path under /api/: a JSON 404 rather than an HTML page."""

    permission_classes = [AllowAny]
    schema = None

    def get(self, request, *args, **kwargs):
        raise exceptions.NotFound(
            _("no such endpoint: %(path)s (see /api/docs/; paths end with a slash)")
            % {"path": request.path}
        )

    post = put = patch = delete = head = options = get
