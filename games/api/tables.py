"""The API at the table: games (list, open, detail, state, legal moves), seats (join, leave,
cancel, resign, one more day), moves (play, undo) and takebacks. Thin views: each validates
its input, calls one service or selector, and answers with JSON."""

from collections.abc import Callable

from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games import repository
from games.api.serializers import (
    EventSerializer,
    GameDetailSerializer,
    GameSummarySerializer,
    MoveSerializer,
    game_detail,
)
from games.api.toolkit import (
    GAME_ID,
    IDEMPOTENCY_KEY_LENGTH,
    MAX_SEQ,
    Api,
    KnownFieldsOnly,
    errors,
    idempotency_key,
    invalid_input,
    validated,
    viewable_game,
)
from games.errors import ServiceError
from games.models import Game
from games.registry import GAME_TYPES
from games.selectors.access import can_view, not_visible, seat_of
from games.selectors.lists import games_for_user, games_to_watch, open_games
from games.selectors.moves import legal_moves_etag, legal_moves_of, public_event
from games.services.moves import (
    deadline_grant,
    game_resign,
    move_submit,
    move_undo,
    takeback_answer,
    takeback_request,
)
from games.services.tables import game_cancel, game_create, game_join, game_leave


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
    """Your games (or the games you may join or watch), and opening a new one."""

    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer):
        filter = serializers.ChoiceField(
            choices=["waiting", "active", "finished", "open", "watch"],
            required=False,
            help_text="waiting: your turn; active: started or waiting for players; "
            "finished: over or called off; open: other people's games you can join; "
            "watch: other people's public games in play, the latest move first",
        )
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        offset = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)

    @extend_schema_serializer(component_name="GameCreate")
    class InputSerializer(KnownFieldsOnly):
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
        playing_hours = serializers.BooleanField(
            default=False,
            help_text="each seat's clock runs only during its player's daily hours (needs a "
            "time control); days per move and reminders then count days of those hours",
        )
        hours = serializers.DictField(
            required=False,
            child=serializers.CharField(),
            help_text='with playing_hours: your hours in this game, {"start": "08:00", "end": '
            '"22:00"} on your time zone\'s clock (an end before the start runs past '
            "midnight; at least 4 hours); left out: your settings' hours",
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
            games = open_games(request.user)
        elif which == "watch":
            games = games_to_watch(request.user)
        else:
            games = games_for_user(request.user, which)
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
        game = game_create(creator=request.user, **data)
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
        table = repository.game_table(game, upto=at)
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
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="the ETag of the answer you have: 304 while it still holds",
            ),
        ],
        responses={
            200: OutputSerializer,
            304: OpenApiResponse(description="unchanged since the ETag sent in If-None-Match"),
            **errors(401, 403, 404),
        },
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        table = repository.game_table(game)
        seat = seat_of(game, request.user)
        mine = seat is not None and seat.status == seat.Status.JOINED
        listed_for = seat.position if mine and table.to_move() == seat.position else None
        etag = legal_moves_etag(game, table, listed_for)
        # A client polling for its turn asks with the ETag it has: nothing has changed
        # is answered without listing the moves.
        answer = get_conditional_response(request, etag=etag)
        if answer is None:
            moves = legal_moves_of(table) if listed_for is not None else []
            # Already in OutputSerializer's shape (the schema's): a client polls this URL,
            # and running the serializer over every move costs more than listing them.
            body = {"to_move": table.to_move(), "last_seq": table.last_seq, "moves": moves}
            answer = Response(body)
        answer["ETag"] = etag
        # Each player's own answer, to be asked again (with the ETag) before it is used.
        answer["Cache-Control"] = "private, no-cache"
        return answer


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
        hours = serializers.DictField(
            required=False,
            child=serializers.CharField(),
            help_text='in a game with playing hours: your hours, {"start": "08:00", "end": '
            '"22:00"}; left out: your settings\' hours',
        )

    @game_only("game_join", "Join a game", request=InputSerializer, codes=(400, 401, 403, 404, 409))
    def post(self, request, game_id):
        # Not ``viewable_game``: someone following an invitation to a game that has just
        # filled up should hear that it started without them, not that it is hidden.
        game = repository.game_get(game_id)
        try:
            data = validated(self.InputSerializer, request.data)
        except APIException:
            # To an outsider a private game's door answers as a missing game's, whatever
            # was posted to it (unparsable, of another media type, invalid): a complaint
            # about the input would tell that it exists.
            if not can_view(game, request.user):
                raise not_visible(game) from None
            raise
        game = game_join(
            game=game, user=request.user, token=data.get("token"), hours=data.get("hours")
        )
        return Response(game_detail(game, request.user))


@extend_schema_view(post=game_only("game_leave", "Leave a game before it starts"))
class LeaveApi(GameActionApi):
    """Give up your seat before the game starts."""

    service = staticmethod(game_leave)


@extend_schema_view(post=game_only("game_cancel", "Cancel a game you created"))
class CancelApi(GameActionApi):
    """Call off a game you created, before it starts."""

    service = staticmethod(game_cancel)


@extend_schema_view(post=game_only("game_resign", "Resign"))
class ResignApi(GameActionApi):
    """Leave a game in play: with two players the other wins; with more, your turns are
    played for you and you cannot win."""

    service = staticmethod(game_resign)


@extend_schema_view(post=game_only("deadline_grant", "Give the player to move one more day"))
class GrantDayApi(GameActionApi):
    """An opponent's courtesy: the player to move gets one more day before the deadline."""

    service = staticmethod(deadline_grant)


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
        to_move = serializers.IntegerField(allow_null=True, help_text="the seat to move now")
        moves = MoveSerializer(
            many=True,
            help_text="your legal moves when you are to move again (as legal-moves/ lists "
            "them), else none: a client asks legal-moves/ only when the turn comes back",
        )

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
            result = move_submit(
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
        # The table the move left: kept by the move (no load); for a retry, as it was then,
        # so that a retry is answered as the first time.
        table = repository.game_table(result.game, upto=events[-1].seq if result.replayed else None)
        seat = seat_of(result.game, request.user)
        again = (
            seat is not None
            and seat.status == seat.Status.JOINED
            and table.to_move() == seat.position
        )
        # Already in OutputSerializer's shape (the schema's), as public_event gives events.
        body = {
            "events": [public_event(e) for e in events],
            "last_seq": events[-1].seq,
            "to_move": table.to_move(),
            "moves": legal_moves_of(table) if again else [],
        }
        return Response(body, status=answer)


@extend_schema_view(post=game_only("move_undo", "Undo your last move"))
class MoveUndoApi(GameActionApi):
    """Take back your own last move, while nobody else has acted and no new tiles were
    drawn since (beyond that, ask for a takeback)."""

    service = staticmethod(move_undo)


# --- takebacks ------------------------------------------------------------------------------


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
        number = takeback_request(game=game, user=request.user, to_seq=to_seq)
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
        game = takeback_answer(game=game, user=request.user, request=request_id, accept=accept)
        return Response(game_detail(game, request.user))
