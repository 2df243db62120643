"""The REST API door (``/api/``): thin views that validate input, call one service or
selector, and render. Every error is JSON ``{"code", "message", …details}``
(``exception_handler``); the OpenAPI schema is at ``/api/schema/``, its docs at ``/api/docs/``.

Who sees what (``selectors.can_view``): players see their games; finished and aborted games
are public unless the game is private; staff see everything; a game waiting for players is
visible to anyone signed in, so they can join it. Anonymous callers get 401 wherever signing
in could help, 403 once signed in.
"""

import json
import logging
from collections.abc import Callable

from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    extend_schema_view,
)
from rest_framework import exceptions, parsers, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView, set_rollback

from games import selectors, services
from games import table as tbl
from games.errors import BadRequest, Forbidden, NotFound, ServiceError, TooManyRequests
from games.models import Game
from games.registry import GAME_TYPES, game_type
from games.throttles import AnonRateThrottle, FixedWindow

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
            "%(detail)s (send 'Authorization: Token <key>' from POST /api/token/)"
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
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


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
    """The game if the caller may see it. Anonymous callers see public records only; for
    anything else signing in may help, so they get 401 rather than 403."""
    anonymous = not request.user.is_authenticated
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except Forbidden:
        if anonymous:
            raise exceptions.NotAuthenticated(_("sign in to see this game")) from None
        raise
    if anonymous and game.status == Game.Status.OPEN:
        raise exceptions.NotAuthenticated(_("sign in to see and join games waiting for players"))
    return game


@extend_schema_serializer(component_name="Seat")
class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="play order from 0, once started")
    player = serializers.CharField(allow_null=True, help_text="display name; null while open")
    bot = serializers.CharField(
        allow_null=True, help_text="a computer player's level (easy, medium, hard); null for people"
    )
    status = serializers.CharField(help_text="open, invited, joined or resigned")


@extend_schema_serializer(component_name="Event")
class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField(help_text="a rules event, or table.* for the service's own")
    version = serializers.IntegerField()
    data = serializers.JSONField()
    actor = serializers.CharField(help_text="user:<id>, bot:<level>, system or moderator:<id>")
    reason = serializers.CharField(allow_blank=True)
    recorded_at = serializers.DateTimeField()


@extend_schema_serializer(component_name="GameSummary")
class GameSummarySerializer(serializers.Serializer):
    """A game in a list: who plays, where it stands."""

    id = serializers.IntegerField()
    game = serializers.CharField(source="game_type", help_text="the game's slug")
    title = serializers.SerializerMethodField()
    players = serializers.IntegerField()
    status = serializers.CharField(help_text="open, active, finished, cancelled or aborted")
    private = serializers.BooleanField()
    seats = serializers.SerializerMethodField()
    to_move = serializers.IntegerField(allow_null=True, help_text="the seat to move")
    deadline = serializers.DateTimeField(allow_null=True)
    last_seq = serializers.IntegerField(help_text="the seq of the game's last event")
    last_move_at = serializers.DateTimeField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField())

    def get_title(self, game: Game) -> str:
        return game_type(game.game_type).title

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict]:
        return selectors.players_of(game)


@extend_schema_serializer(component_name="Takeback")
class TakebackSerializer(serializers.Serializer):
    request = serializers.IntegerField(help_text="the request's id (its seq)")
    seat = serializers.IntegerField(help_text="the seat asking")
    to_seq = serializers.IntegerField(help_text="the game goes back to the state after this")
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="seats agreed")


@extend_schema_serializer(component_name="You")
class YouSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="null until the game starts")
    your_turn = serializers.BooleanField()
    can_undo = serializers.BooleanField(help_text="POST undo/ would take back your last move")
    takeback_points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the to_seq values a takeback request may name now, newest first",
    )
    can_answer_takeback = serializers.BooleanField()
    takeback_points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the to_seq values a takeback request may name now, newest first",
    )
    can_grant_time = serializers.BooleanField(
        help_text="POST grant-day/ would give the player to move one more day"
    )
    can_resign = serializers.BooleanField()


@extend_schema_serializer(component_name="GameDetail")
class GameDetailSerializer(GameSummarySerializer):
    """A game with its settings, the open takeback and what the caller may do."""

    options = serializers.JSONField()
    time_control = serializers.JSONField()
    timeout_policy = serializers.CharField()
    timeout_bot = serializers.CharField(
        allow_blank=True, help_text="with the timeout policy bot: the computer player's level"
    )
    self_undo = serializers.BooleanField()
    rated = serializers.BooleanField(help_text="whether the result counts for the ratings")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    takeback = serializers.SerializerMethodField()
    you = serializers.SerializerMethodField()

    @extend_schema_field(TakebackSerializer(allow_null=True))
    def get_takeback(self, game: Game) -> dict | None:
        pending = self._table(game).takeback
        if pending is None:
            return None
        return {
            "request": pending.request,
            "seat": pending.seat,
            "to_seq": pending.to_seq,
            "accepted": sorted(pending.accepted),
        }

    @extend_schema_field(YouSerializer(allow_null=True))
    def get_you(self, game: Game) -> dict | None:
        """The caller's seat and what it may do now; null for someone not at the table."""
        seat = selectors.seat_of(game, self.context["user"])
        if seat is None:
            return None
        actions = selectors.actions_of(game, self._table(game), seat)
        return {
            "seat": seat.position,
            "your_turn": actions.move,
            "can_undo": actions.undo,
            "can_answer_takeback": actions.answer_takeback,
            "takeback_points": list(actions.takeback_points),
            "can_grant_time": actions.grant_time,
            "can_resign": actions.resign,
        }

    def _table(self, game: Game) -> tbl.Table:
        if "table" not in self.context:
            self.context["table"] = selectors.game_table(game)
        return self.context["table"]


def game_detail(game: Game, user) -> dict:
    return GameDetailSerializer(game, context={"user": user}).data


@extend_schema_serializer(component_name="Move")
class MoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="notation, as accepted by moves/")
    command = serializers.JSONField(help_text="the same move, structured")


def game_only(operation_id: str, summary: str, *, request=None, codes=(401, 403, 404, 409)):
    """The schema of a POST on a game that answers with the game's detail."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        parameters=[GAME_ID],
        request=request,
        responses={200: GameDetailSerializer, **errors(*codes)},
    )


# --- games --------------------------------------------------------------------------------


class GameListApi(Api):
    """Your games, and opening a new one."""

    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer):
        filter = serializers.ChoiceField(
            choices=["waiting", "active", "finished", "open"],
            required=False,
            help_text="waiting: your turn; active: started or waiting for players; "
            "finished: over or called off; open: other people's games you can join",
        )
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        offset = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)

    @extend_schema_serializer(component_name="GameCreate")
    class InputSerializer(serializers.Serializer):
        game = serializers.ChoiceField(choices=list(GAME_TYPES))
        players = serializers.IntegerField(min_value=2, max_value=4)
        options = serializers.DictField(
            required=False, help_text='the game\'s options, e.g. {"board": "grey"}'
        )
        time_control = serializers.DictField(
            required=False,
            help_text='{"kind": "none"}, {"kind": "per_move", "days": 3} or {"kind": "bank", '
            '"bank_hours": 72, "increment_hours": 12, "cap_hours": 120}',
        )
        invite = serializers.ListField(
            child=serializers.EmailField(), required=False, max_length=3, default=list
        )
        self_undo = serializers.BooleanField(default=True)
        private = serializers.BooleanField(default=False)
        rated = serializers.BooleanField(
            default=True, help_text="whether the result counts for the players' ratings"
        )
        timeout_policy = serializers.ChoiceField(
            choices=Game.TimeoutPolicy.values, default=Game.TimeoutPolicy.DEFAULT_MOVE
        )
        # Levels are checked by the service, whose refusal names the accepted ones.
        timeout_bot = serializers.CharField(
            required=False,
            help_text="with the timeout policy bot: the level of the computer player that "
            "plays a turn whose time ran out: easy, medium or hard (default medium)",
        )
        bots = serializers.ListField(
            child=serializers.CharField(),
            required=False,
            max_length=3,
            help_text="play against the computer: a level (easy, medium, hard) per seat, "
            'e.g. ["hard"]; with no seat left open the game starts at once',
        )
        reminders = serializers.DictField(
            required=False,
            child=serializers.IntegerField(),
            help_text='hours: {"first_hours": 24, "every_hours": 24, "warning_hours": 12}; '
            "left out: the site's defaults",
        )

    @extend_schema_serializer(component_name="GamePage")
    class OutputSerializer(serializers.Serializer):
        count = serializers.IntegerField()
        results = GameSummarySerializer(many=True)

    @extend_schema(
        summary="Your games",
        operation_id="games_list",
        parameters=[FilterSerializer],
        responses={200: OutputSerializer, **errors(400, 401)},
    )
    def get(self, request):
        query = validated(self.FilterSerializer, request.query_params)
        which = query.get("filter")
        if which == "open":
            games = selectors.open_games(request.user)
        else:
            games = selectors.games_for_user(request.user, which)
        page = games[query["offset"] : query["offset"] + query["limit"]]
        return Response(self.OutputSerializer({"count": games.count(), "results": page}).data)

    @extend_schema(
        summary="Open a new game",
        operation_id="games_create",
        request=InputSerializer,
        responses={201: GameDetailSerializer, **errors(400, 401)},
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        game = services.game_create(creator=request.user, **data)
        return Response(game_detail(game, request.user), status=status.HTTP_201_CREATED)


class GameDetailApi(Api):
    """One game: seats, scores, the seat to move, the deadline and what you may do."""

    @extend_schema(
        summary="A game",
        operation_id="game_get",
        parameters=[GAME_ID],
        responses={200: GameDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        return Response(game_detail(game, request.user))


class GameStateApi(Api):
    """The table after event ``at`` (default: the latest), as every player sees it: the bag
    only as a count."""

    class QuerySerializer(serializers.Serializer):
        at = serializers.IntegerField(
            min_value=0, max_value=MAX_SEQ, required=False, help_text="a seq (default: latest)"
        )

    @extend_schema_serializer(component_name="GameState")
    class OutputSerializer(serializers.Serializer):
        at = serializers.IntegerField()
        last_seq = serializers.IntegerField()
        started = serializers.BooleanField()
        state = serializers.JSONField(allow_null=True, help_text="the engine's public view")
        to_move = serializers.IntegerField(allow_null=True)
        scores = serializers.ListField(child=serializers.IntegerField())
        over = serializers.BooleanField()

    @extend_schema(
        summary="The state after an event",
        operation_id="game_state",
        parameters=[GAME_ID, QuerySerializer],
        responses={200: OutputSerializer, **errors(400, 401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        at = validated(self.QuerySerializer, request.query_params).get("at", game.last_seq)
        if at > game.last_seq:
            raise invalid_input(
                "at",
                _("must be between 0 and %(last)s (the game's last event)")
                % {"last": game.last_seq},
                accepted={"from": 0, "to": game.last_seq},
            )
        table = selectors.game_table(game, upto=at)
        body = {
            "at": at,
            "last_seq": game.last_seq,
            "started": False,
            "state": None,
            "to_move": None,
            "scores": [],
            "over": False,
        }
        # Event 1 (table.Started) comes before the engine's opening: no state until then.
        if table.steps and table.steps[0].events:
            body |= {
                "started": True,
                "state": table.engine.view(table.state),
                "to_move": table.to_move(),
                "scores": list(table.scores()),
                "over": table.over,
            }
        return Response(self.OutputSerializer(body).data)


class GameEventsApi(Api):
    """The public form of each event after ``after``, in order."""

    class QuerySerializer(serializers.Serializer):
        after = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)

    @extend_schema(
        summary="The game's events",
        operation_id="game_events",
        parameters=[GAME_ID, QuerySerializer],
        responses={200: EventSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        after = validated(self.QuerySerializer, request.query_params)["after"]
        return Response(selectors.events_after(game, after))


class LegalMovesApi(Api):
    """Every legal move of the seat to move, in notation and structured. Only the player
    to move gets the list: anyone else who may see the game gets an empty one (with
    ``to_move``), so a client can poll the same URL whoever's turn it is."""

    @extend_schema_serializer(component_name="LegalMoves")
    class OutputSerializer(serializers.Serializer):
        to_move = serializers.IntegerField(allow_null=True)
        last_seq = serializers.IntegerField(help_text="send it back as expected_seq")
        moves = MoveSerializer(many=True)

    @extend_schema(
        summary="Legal moves for the seat to move",
        operation_id="game_legal_moves",
        parameters=[GAME_ID],
        responses={200: OutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        table = selectors.game_table(game)
        seat = selectors.seat_of(game, request.user)
        mine = seat is not None and seat.status == seat.Status.JOINED
        moves = selectors.legal_moves_of(table) if mine and table.to_move() == seat.position else []
        # Already in OutputSerializer's shape (the schema's): a client polls this URL, and
        # running the serializer over every move costs more than listing them.
        return Response({"to_move": table.to_move(), "last_seq": table.last_seq, "moves": moves})


class NdjsonRenderer(BaseRenderer):
    """JSON lines: one object per line (a list of objects, or a single one)."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        rows = data if isinstance(data, list) else [data]
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows).encode()


class ExportApi(Api):
    """The game record as JSON lines: a header (game, options, seats, result), then every
    event's public form. ``manage.py verify_game`` replays it through the rules."""

    renderer_classes = [NdjsonRenderer, JSONRenderer]

    @extend_schema(
        summary="The game record (JSON lines)",
        operation_id="game_export",
        parameters=[GAME_ID],
        responses={
            (200, NdjsonRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, description="a header line, then one line per event"
            ),
            **errors(401, 403, 404),
        },
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        response = Response(selectors.export_record(game))
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.jsonl"'
        return response

    def handle_exception(self, exc):
        """Errors are JSON whatever the record's format."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response


# --- seats ----------------------------------------------------------------------------------


class GameActionApi(Api):
    """A POST that hands the game and the caller to one service (``service``) and answers
    with the game's detail."""

    permission_classes = [IsAuthenticated]
    service: Callable[..., Game]

    def post(self, request, game_id):
        game = self.service(game=viewable_game(request, game_id), user=request.user)
        return Response(game_detail(game, request.user))


class JoinApi(Api):
    """Take a seat: the one an invitation names, one invited under your address, or an
    open one. The game starts when the last seat is taken."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="Join")
    class InputSerializer(serializers.Serializer):
        token = serializers.CharField(
            required=False, max_length=1000, help_text="from the invitation link"
        )

    @game_only("game_join", "Join a game", request=InputSerializer, codes=(400, 401, 403, 404, 409))
    def post(self, request, game_id):
        # Not ``viewable_game``: someone following an invitation to a game that has just
        # filled up should hear that it started without them, not that it is hidden.
        game = selectors.game_get(game_id)
        data = validated(self.InputSerializer, request.data)
        game = services.game_join(game=game, user=request.user, token=data.get("token"))
        return Response(game_detail(game, request.user))


@extend_schema_view(post=game_only("game_leave", "Leave a game before it starts"))
class LeaveApi(GameActionApi):
    """Give up your seat before the game starts."""

    service = staticmethod(services.game_leave)


@extend_schema_view(post=game_only("game_cancel", "Cancel a game you created"))
class CancelApi(GameActionApi):
    """Call off a game you created, before it starts."""

    service = staticmethod(services.game_cancel)


@extend_schema_view(post=game_only("game_resign", "Resign"))
class ResignApi(GameActionApi):
    """Leave a game in play: with two players the other wins; with more, your turns are
    played for you and you cannot win."""

    service = staticmethod(services.game_resign)


@extend_schema_view(post=game_only("deadline_grant", "Give the player to move one more day"))
class GrantDayApi(GameActionApi):
    """An opponent's courtesy: the player to move gets one more day before the deadline."""

    service = staticmethod(services.deadline_grant)


# --- moves ----------------------------------------------------------------------------------


class MoveSubmitApi(Api):
    """Play a move for your seat. ``expected_seq`` (the ``last_seq`` you saw) makes a move
    on a position that has changed fail with 409 instead of landing somewhere unintended;
    an ``Idempotency-Key`` header makes a retry safe: it is answered 200 with the first
    answer and appends nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="MoveSubmit")
    class InputSerializer(serializers.Serializer):
        move = serializers.CharField(max_length=200, help_text="notation, see legal-moves/")
        expected_seq = serializers.IntegerField(
            min_value=0, max_value=MAX_SEQ, required=False, help_text="the last_seq you saw"
        )

    @extend_schema_serializer(component_name="MoveResult")
    class OutputSerializer(serializers.Serializer):
        events = EventSerializer(many=True, help_text="what the move appended")
        last_seq = serializers.IntegerField(help_text="the seq of the move's last event")

    @extend_schema(
        summary="Play a move",
        operation_id="move_submit",
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description=f"up to {IDEMPOTENCY_KEY_LENGTH} characters, e.g. a UUID",
            ),
        ],
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            200: OpenApiResponse(OutputSerializer, description="a retry, answered as before"),
            **errors(400, 401, 403, 404, 409),
        },
    )
    def post(self, request, game_id):
        data = validated(self.InputSerializer, request.data)
        key = idempotency_key(request)
        try:
            # The service reads the game once, locked.
            result = services.move_submit(
                game=game_id,
                user=request.user,
                move=data["move"],
                expected_seq=data.get("expected_seq"),
                idempotency_key=key,
            )
        except ServiceError:
            # Who may not see the game learns no more than that.
            viewable_game(request, game_id)
            raise
        events = result.events
        answer = status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        # Already in OutputSerializer's shape (the schema's), as public_event gives events.
        body = {"events": [selectors.public_event(e) for e in events], "last_seq": events[-1].seq}
        return Response(body, status=answer)


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


@extend_schema_view(post=game_only("move_undo", "Undo your last move"))
class MoveUndoApi(GameActionApi):
    """Take back your own last move, while nobody else has acted and no new tiles were
    drawn since (beyond that, ask for a takeback)."""

    service = staticmethod(services.move_undo)


# --- post-game analysis ---------------------------------------------------------------------


@extend_schema_serializer(component_name="AnalysedMove")
class AnalysedMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the move's table.Moved event")
    number = serializers.IntegerField(help_text="its number in the move list")
    seat = serializers.IntegerField()
    played = serializers.CharField(help_text="the move played, in notation")
    best = serializers.CharField(help_text="the move the computer preferred")
    played_value = serializers.FloatField(help_text="0 (a sure loss) to 1 (a sure win)")
    best_value = serializers.FloatField()
    judgement = serializers.ChoiceField(choices=["", "?", "??"])


@extend_schema_serializer(component_name="Accuracy")
class AccuracySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    moves = serializers.IntegerField(help_text="moves judged")
    percent = serializers.IntegerField(
        allow_null=True, help_text="share of the moves judged left unmarked"
    )
    dubious = serializers.IntegerField()
    clearly_worse = serializers.IntegerField()


class GameAnalysisApi(Api):
    """The hard computer player's analysis of a finished game: its progress while it runs,
    then per move where the seat had a choice the move played, the move the computer
    preferred, their estimated values for the mover (0 to 1) and the mark (``?`` dubious,
    ``??`` clearly worse, or empty), and each seat's accuracy (the share of its moves left
    unmarked). POST asks for it (signed in; asking again does nothing twice)."""

    @extend_schema_serializer(component_name="Analysis")
    class OutputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=["queued", "running", "done"])
        done = serializers.IntegerField(help_text="positions judged so far")
        total = serializers.IntegerField(help_text="positions to judge (0 until it starts)")
        simulations = serializers.IntegerField(help_text="the search's simulations per move")
        moves = AnalysedMoveSerializer(many=True, help_text="the moves judged so far")
        accuracy = AccuracySerializer(many=True, help_text="once done")

    def get_permissions(self):
        if self.request.method == "POST":
            return [IsAuthenticated()]
        return super().get_permissions()

    def _report(self, game: Game) -> dict | None:
        names = [p["player"] or "" for p in selectors.players_of(game) if p["seat"] is not None]
        report = selectors.analysis_report(game, names)
        return report and {**report, "moves": list(report["moves"].values())}

    @extend_schema(
        summary="A finished game's analysis",
        operation_id="game_analysis",
        parameters=[GAME_ID],
        responses={200: OutputSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        report = self._report(game)
        if report is None:
            raise NotFound(
                "this game has not been analysed: POST to ask for it", code="no_analysis"
            )
        return Response(self.OutputSerializer(report).data)

    @extend_schema(
        summary="Ask for a finished game's analysis",
        operation_id="game_analysis_request",
        parameters=[GAME_ID],
        request=None,
        responses={202: OutputSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request, game_id):
        game = viewable_game(request, game_id)
        services.analysis_request(game=game)
        return Response(
            self.OutputSerializer(self._report(game)).data, status=status.HTTP_202_ACCEPTED
        )


class TakebackRequestApi(Api):
    """Ask every other player to take the game back to the state after event ``to_seq``
    (the end of a move, with no draw of new tiles after it). A request lapses when anyone
    moves."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TakebackRequest")
    class InputSerializer(serializers.Serializer):
        to_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ)

    @extend_schema_serializer(component_name="TakebackRequested")
    class OutputSerializer(serializers.Serializer):
        request = serializers.IntegerField(help_text="answer it at takebacks/{request}/answer/")
        to_seq = serializers.IntegerField()

    @extend_schema(
        summary="Ask for a takeback",
        operation_id="takeback_request",
        parameters=[GAME_ID],
        request=InputSerializer,
        responses={201: OutputSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, game_id):
        game = viewable_game(request, game_id)
        to_seq = validated(self.InputSerializer, request.data)["to_seq"]
        number = services.takeback_request(game=game, user=request.user, to_seq=to_seq)
        return Response(
            self.OutputSerializer({"request": number, "to_seq": to_seq}).data,
            status=status.HTTP_201_CREATED,
        )


class TakebackAnswerApi(Api):
    """Accept or decline the open takeback request; once every other player has accepted,
    the moves after its point no longer count."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TakebackAnswer")
    class InputSerializer(serializers.Serializer):
        accept = serializers.BooleanField()

    @extend_schema(
        summary="Answer a takeback request",
        operation_id="takeback_answer",
        parameters=[
            GAME_ID,
            OpenApiParameter("request_id", OpenApiTypes.INT, OpenApiParameter.PATH),
        ],
        request=InputSerializer,
        responses={200: GameDetailSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, game_id, request_id):
        game = viewable_game(request, game_id)
        accept = validated(self.InputSerializer, request.data)["accept"]
        game = services.takeback_answer(
            game=game, user=request.user, request=request_id, accept=accept
        )
        return Response(game_detail(game, request.user))


# --- accounts -------------------------------------------------------------------------------


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
