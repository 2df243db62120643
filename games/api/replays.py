"""The API's game records: the events, the export as JSON lines, and the computer's
analysis of a finished game (read it, or ask for it)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.serializers import EventSerializer
from games.api.toolkit import (
    GAME_ID,
    MAX_SEQ,
    Api,
    JsonLinesApi,
    NdjsonRenderer,
    errors,
    validated,
    viewable_game,
)
from games.errors import NotFound
from games.models import Game
from games.replica import LagTolerant
from games.selectors.analysis import analysis_report
from games.selectors.history import events_after, export_record
from games.selectors.names import players_of
from games.services.analysis import analysis_request


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
        return Response(events_after(game, after))


class ExportApi(LagTolerant, JsonLinesApi):
    """The game record as JSON lines: a header (game, options, seats, result), then every
    event's public form. ``manage.py verify_game`` replays it through the rules."""

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
        response = Response(export_record(game))
        response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.jsonl"'
        return response


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
        allow_null=True,
        help_text="0 to 100: from the winning chances its moves gave away (docs/bots.md)",
    )
    dubious = serializers.IntegerField()
    clearly_worse = serializers.IntegerField()


class GameAnalysisApi(Api):
    """The hard computer player's analysis of a finished game: its progress while it runs,
    then per move where the seat had a choice the move played, the move the computer
    preferred, their estimated values for the mover (0 to 1) and the mark (``?`` dubious,
    ``??`` clearly worse, or empty), and each seat's accuracy (from the winning chances its
    moves gave away, as lichess computes it). POST asks for it (signed in; asking again
    does nothing twice)."""

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
        names = [p["player"] or "" for p in players_of(game) if p["seat"] is not None]
        report = analysis_report(game, names)
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
        analysis_request(game=game)
        return Response(
            self.OutputSerializer(self._report(game)).data, status=status.HTTP_202_ACCEPTED
        )
