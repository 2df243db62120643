"""The REST API's toolkit (``/api/``), shared by every endpoint module: errors as JSON
``{"code", "message", …details}`` (``exception_handler``, REST_FRAMEWORK's handler) and their
schema (``errors()``), input checks (``validated``, ``invalid_input``, ``KnownFieldsOnly``),
the ``Api`` base view, who may see a game (``viewable_game``) and JSON lines.

Who sees what (``selectors.access.can_view``): a public game is seen by anyone, in play too
(spectators), though a game waiting for players only by those signed in (401 otherwise), so
they can join it; a private game by its players, those invited to it and the moderators,
and to anyone else it is a game that does not exist (404).
"""

import json
import logging
from collections.abc import Mapping
from functools import cache

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_serializer
from rest_framework import exceptions, parsers, serializers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback

from games.errors import BadRequest, ServiceError, TooManyRequests
from games.models import Game
from games.selectors.access import game_for_viewer

logger = logging.getLogger(__name__)

# The largest seq a client may name: PostgreSQL's integer, so no lookup overflows.
MAX_SEQ = 2**31 - 1
IDEMPOTENCY_KEY_LENGTH = 128


# --- errors -------------------------------------------------------------------------------


def exception_handler(exc: Exception, context: dict) -> Response:
    """Every error as JSON ``{"code", "message", …details}``: a service's refusal with its
    status, bad input as 400 ``invalid_input`` naming the field, 401 with a
    ``WWW-Authenticate`` header when signing in would help, and even an unexpected error
    as JSON (logged) rather than an HTML page."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or _("not found"))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    headers = {}
    if isinstance(exc, ServiceError):
        # Messages may be lazy (said in the request's Accept-Language): rendered as text.
        code, body = exc.status, {"code": exc.code, "message": str(exc.message), **exc.details}
        if isinstance(exc, TooManyRequests):
            headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, exceptions.ValidationError):
        code, body = status.HTTP_400_BAD_REQUEST, _invalid_input(exc.detail)
    elif isinstance(exc, exceptions.ParseError):
        code = status.HTTP_400_BAD_REQUEST
        body = {
            "code": "invalid_body",
            # Translators: %(detail)s is the parser's reason, e.g. "JSON parse error".
            "message": _("%(detail)s (send a JSON object)") % {"detail": exc.detail},
        }
    elif isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        code, body = status.HTTP_401_UNAUTHORIZED, _body(exc)
        body["message"] = _(
            "%(detail)s (send 'Authorization: Token <key>' with a token made on your account "
            "page, /account/#api-tokens)"
        ) % {"detail": body["message"]}
        headers["WWW-Authenticate"] = 'Token realm="api"'
    elif isinstance(exc, exceptions.APIException):
        code, body = exc.status_code, _body(exc)
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))
    elif isinstance(exc, RequestDataTooBig):
        code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
        body = {"code": "body_too_large", "message": _("the request body is too large")}
    elif isinstance(exc, SuspiciousOperation):
        code, body = status.HTTP_400_BAD_REQUEST, {"code": "bad_request", "message": str(exc)}
    else:
        logger.exception("unexpected error in %s", context.get("view"), exc_info=exc)
        code = status.HTTP_500_INTERNAL_SERVER_ERROR
        body = {"code": "server_error", "message": _("something went wrong on our side")}
    set_rollback()
    return Response(body, status=code, headers=headers)


def _body(exc: exceptions.APIException) -> dict:
    detail = exc.detail
    return {"code": getattr(detail, "code", None) or exc.default_code, "message": str(detail)}


def _invalid_input(detail) -> dict:
    errors = _flatten(detail)
    field, messages = next(iter(errors.items()), ("body", [_("invalid input")]))
    return {
        "code": "invalid_input",
        # Translators: %(field)s is the name of a field of the request (never translated).
        "message": _("%(field)s: %(errors)s") % {"field": field, "errors": " ".join(messages)},
        "field": field,
        "errors": errors,
    }


def _flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail as ``{"invite.1": ["Enter a valid email address."]}``;
    errors about the body as a whole are filed under ``body``."""
    if isinstance(detail, dict):
        items = detail.items()
    elif isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        items = ((str(index), item) for index, item in enumerate(detail) if item)
    else:
        messages = detail if isinstance(detail, list) else [detail]
        return {prefix or "body": [str(message) for message in messages]}
    errors: dict[str, list[str]] = {}
    for key, value in items:
        name = "body" if key in ("non_field_errors", "detail") else str(key)
        errors.update(_flatten(value, f"{prefix}.{name}" if prefix else name))
    return errors


def invalid_input(field: str, message: str, **details) -> BadRequest:
    """A refusal of one input field, shaped like DRF's validation errors."""
    return BadRequest(
        _("%(field)s: %(errors)s") % {"field": field, "errors": message},
        code="invalid_input",
        field=field,
        errors={field: [message]},
        **details,
    )


def validated(serializer_class: type[serializers.Serializer], data) -> dict:
    """``data`` as ``serializer_class`` validates it; its ``ValidationError`` otherwise.
    One instance of the class checks every request, as a nested serializer's one instance
    checks every item: checking keeps nothing in it, while a new instance builds and
    deep-copies its fields again (a twentieth of a move's CPU)."""
    return _checker(serializer_class).run_validation(data)


class KnownFieldsOnly(serializers.Serializer):
    """An input that refuses a field it does not know, naming those it accepts: a misspelt
    option dropped in silence opens something else than was meant (a game waiting for a
    second person where a computer player was asked for)."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            accepted = ", ".join(self.fields)
            unknown = [name for name in data if name not in self.fields]
            if unknown:
                # Translators: %(fields)s lists the request's field names (never translated).
                said = _("unknown field; accepted: %(fields)s") % {"fields": accepted}
                raise serializers.ValidationError({name: [said] for name in unknown})
        return super().to_internal_value(data)


@cache
def _checker(serializer_class: type[serializers.Serializer]) -> serializers.Serializer:
    checker = serializer_class()
    # Built now, before any request thread reads them.
    checker.fields  # noqa: B018
    return checker


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable, machine-readable: stale, not_your_turn…")
    message = serializers.CharField(help_text="for people: what was wrong, what is accepted")
    field = serializers.CharField(required=False, help_text="the input refused (invalid_input)")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="every refused input field and why (invalid_input)",
    )
    current_seq = serializers.IntegerField(required=False, help_text="409 stale: where it is")
    legal_moves = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="400 illegal or unreadable move"
    )
    line = serializers.IntegerField(required=False, help_text="400 invalid_plan: the line (from 1)")
    step = serializers.IntegerField(
        required=False, help_text="400 invalid_plan: the move of the line (from 1)"
    )
    accepted = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="400 invalid_plan: moves the rules accept at that step (the first few)",
    )


ERROR_DESCRIPTIONS = {
    400: "invalid input (names the field) or a move the rules refuse",
    401: "not signed in: send a token (POST /api/token/) or a session",
    403: "not your game, not your seat or not your turn",
    404: "no such game (or request)",
    409: "the game has moved on (stale expected_seq, with current_seq) or is not in that state",
    429: "too many requests: wait the seconds of the Retry-After header",
}


def errors(*codes: int) -> dict:
    return {
        code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
        for code in codes
    }


GAME_ID = OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH)


# --- shared pieces ------------------------------------------------------------------------


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested too deeply for Python's parser (which
    raises ``RecursionError``, not a parse error) like any other unreadable body."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - nested too deeply")) from None


class Api(APIView):
    """The API's views: JSON bodies (or forms, for the browsable API)."""

    parser_classes = [JSONParser, parsers.FormParser, parsers.MultiPartParser]


def viewable_game(request, game_id) -> Game:
    """The game if the caller may see it (``NotFound`` otherwise). Anonymous callers see
    public games in play and over; a game waiting for players asks them to sign in (401)."""
    game = game_for_viewer(game_id, request.user)
    if not request.user.is_authenticated and game.status == Game.Status.OPEN:
        raise exceptions.NotAuthenticated(_("sign in to see and join games waiting for players"))
    return game


def idempotency_key(request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key or len(key) > IDEMPOTENCY_KEY_LENGTH or not key.isprintable():
        raise invalid_input(
            "Idempotency-Key",
            _("must be 1 to %(most)s printable characters, e.g. a UUID")
            % {"most": IDEMPOTENCY_KEY_LENGTH},
        )
    return key


class NdjsonRenderer(BaseRenderer):
    """JSON lines: one object per line (a list of objects, or a single one)."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        rows = data if isinstance(data, list) else [data]
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()


class JsonLinesApi(Api):
    """A view answering JSON lines (or JSON, if asked); its errors are JSON whatever the
    format."""

    renderer_classes = [NdjsonRenderer, JSONRenderer]

    def handle_exception(self, exc):
        """Errors are JSON whatever the record's format."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response
