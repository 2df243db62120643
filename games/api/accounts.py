"""The API's way in: your password token for ``Authorization: Token <key>`` (named tokens
are made on the account page); your data (issue 45):
asking for the archive of everything the site keeps about you, following it, downloading
it; and a JSON 404 for any path under /api/ that is no endpoint."""

from django.contrib.auth import authenticate
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from games.api.toolkit import Api, errors, validated
from games.errors import BadRequest, NotFound
from games.models import DataExport
from games.notify.channels.email.addresses import account_identity
from games.services import data_export
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
        email = account_identity(data.get("email", ""))
        return self.cache_format % {"scope": self.scope, "ident": email} if email else None


class TokenApi(Api):
    """Your password token, for ``Authorization: Token <key>`` (the same token every
    time), for an account with a password. Any account, one made by an emailed sign-in
    link too, makes named tokens on its account page (``/account/#api-tokens``,
    ``services.tokens``), each shown once. Rate-limited per client address and per
    account (429 with ``Retry-After``)."""

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
        summary="Get your API token (accounts with a password)",
        description="Signed up by an emailed link, you have no password: make a token on "
        "your account page (/account/#api-tokens) instead. Any token is sent as "
        "'Authorization: Token <key>'.",
        operation_id="token_get",
        request=InputSerializer,
        responses={200: OutputSerializer, **errors(400, 429)},
        auth=[],
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        email = account_identity(data["email"])
        user = authenticate(request, username=email, password=data["password"])
        if user is None:
            raise BadRequest(_("wrong email address or password"), code="invalid_credentials")
        # DRF's own token table, written as DRF's ObtainAuthToken writes it.
        token, _created = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)


@extend_schema_serializer(component_name="DataExport")
class DataExportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["queued", "building", "ready", "failed", "expired"],
        help_text="expired: it was ready, and its time to download it is over",
    )
    done = serializers.IntegerField(help_text="games written into the archive so far")
    total = serializers.IntegerField(help_text="games to write (0 until the build starts)")
    message = serializers.CharField(help_text="the state in words, for people")
    requested_at = serializers.DateTimeField()
    ready_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="once ready: until when it can be downloaded"
    )
    size = serializers.IntegerField(help_text="bytes of the archive, once ready")
    download_url = serializers.CharField(
        allow_null=True, help_text="while ready: GET it (with the same authentication)"
    )


def data_export_data(export: DataExport) -> dict:
    progress = data_export.data_export_progress(export)
    kept = progress.status in (DataExport.Status.READY, "expired")
    return {
        "id": export.pk,
        "status": progress.status,
        "done": progress.done,
        "total": progress.total,
        "message": progress.text,
        "requested_at": export.requested_at,
        "ready_at": export.ready_at,
        # While it is being built the column is the build's lease: nothing to tell.
        "expires_at": export.expires_at if kept else None,
        "size": export.size,
        "download_url": (
            reverse("api-data-export-archive", args=[export.pk])
            if progress.status == DataExport.Status.READY
            else None
        ),
    }


class DataExportApi(Api):
    """Your data (issue 45; docs/data-export.md): one ZIP archive of JSON files holding
    everything the site keeps about you. POST asks for it (built in the background; asking
    while one is being built gives that one); GET follows your latest one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your latest archive of your data",
        operation_id="data_export_get",
        responses={200: DataExportSerializer, **errors(401, 404)},
    )
    def get(self, request):
        export = data_export.data_export_latest(request.user)
        if export is None:
            raise NotFound(
                _("you have not asked for your data yet: POST to ask for it"),
                code="no_data_export",
            )
        return Response(DataExportSerializer(data_export_data(export)).data)

    @extend_schema(
        summary="Ask for an archive of your data",
        description="202 with the archive being built (the one already queued or being "
        "built, if any); follow it with GET. 429 data_export_limit once you asked for "
        "DATA_EXPORTS_PER_DAY (3) in the last 24 hours: the message and Retry-After say when "
        "you may ask again. An email tells you when it is ready.",
        operation_id="data_export_request",
        request=None,
        responses={202: DataExportSerializer, **errors(401, 429)},
    )
    def post(self, request):
        export = data_export.data_export_request(user=request.user)
        return Response(
            DataExportSerializer(data_export_data(export)).data, status=status.HTTP_202_ACCEPTED
        )


class ZipRenderer(BaseRenderer):
    """The archive, as it is stored."""

    media_type = "application/zip"
    format = "zip"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return data


class DataExportArchiveApi(Api):
    """The archive of your data while it is ready (``download_url``); 404 for an archive
    that is not yours, not ready or expired."""

    permission_classes = [IsAuthenticated]
    renderer_classes = [ZipRenderer, JSONRenderer]

    def handle_exception(self, exc):
        """Errors are JSON, whatever the client accepts."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response

    @extend_schema(
        summary="Download the archive of your data",
        operation_id="data_export_archive",
        parameters=[OpenApiParameter("export_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        responses={
            (200, ZipRenderer.media_type): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="a ZIP of JSON files and a README.txt (docs/data-export.md)",
            ),
            **errors(401, 404),
        },
    )
    def get(self, request, export_id):
        export = data_export.data_export_for_download(request.user, export_id)
        if export is None:
            raise NotFound(
                _("no such archive of your data (it may have expired: ask for a new one)"),
                code="no_data_export",
            )
        response = HttpResponse(bytes(export.archive), content_type=ZipRenderer.media_type)
        response["Content-Disposition"] = (
            f'attachment; filename="{data_export.archive_filename(export)}"'
        )
        return response


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
