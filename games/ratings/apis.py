"""The API's reads of ratings, profiles and the archive (issue 16), paginated with
``limit``/``offset`` like ``/api/games/``. Names only, never email addresses."""

import json

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.toolkit import (
    MAX_SEQ,
    Api,
    JsonLinesApi,
    NdjsonRenderer,
    errors,
    invalid_input,
    validated,
)
from games.errors import NotFound
from games.ratings import selectors
from games.ratings.forms import SIDES
from games.registry import GAME_TYPES
from games.replica import LagTolerant
from games.selectors.names import display_name

PLAYER_ID = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH)
GAME = OpenApiParameter(
    "game", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(GAME_TYPES), description="the game"
)


class PageSerializer(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)


def paginated(rows, query: dict) -> tuple[int, list]:
    return rows.count(), list(rows[query["offset"] : query["offset"] + query["limit"]])


def known_game(game: str) -> str:
    if game not in GAME_TYPES:
        raise NotFound(
            _("no game %(game)s; the games are: %(games)s")
            % {"game": repr(game), "games": ", ".join(GAME_TYPES)}
        )
    return game


@extend_schema_serializer(component_name="LadderRating")
class LadderRatingSerializer(serializers.Serializer):
    game = serializers.CharField(help_text="the game's slug")
    rating = serializers.IntegerField(help_text="conservative: the player is likely this strong")
    uncertainty = serializers.IntegerField(help_text='shown as "rating ± uncertainty"')
    games = serializers.IntegerField(help_text="rated games on this ladder")
    provisional = serializers.BooleanField()
    mu = serializers.FloatField(help_text="OpenSkill (Plackett-Luce) mean")
    sigma = serializers.FloatField(help_text="OpenSkill standard deviation")


@extend_schema_serializer(component_name="Placing")
class PlacingSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="play order from 0")
    player_id = serializers.IntegerField(allow_null=True)
    player = serializers.CharField(help_text="display name")
    place = serializers.IntegerField(help_text="1 = first; equal places share")
    score = serializers.IntegerField()
    won = serializers.BooleanField()
    resigned = serializers.BooleanField()
    timed_out = serializers.BooleanField(help_text="ran out of time: placed last")


@extend_schema_serializer(component_name="FinishedGame")
class FinishedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="game_id")
    game = serializers.CharField(source="game_type")
    side = serializers.CharField(help_text="the board side played, if the game has one")
    players = serializers.IntegerField()
    ended_at = serializers.DateTimeField()
    rated = serializers.SerializerMethodField()
    seats = PlacingSerializer(many=True, source="seat_rows")

    def get_rated(self, result) -> bool:
        return result.excluded == ""


@extend_schema_serializer(component_name="Stats")
class StatsSerializer(serializers.Serializer):
    game = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    average_score = serializers.FloatField()


@extend_schema_serializer(component_name="HeadToHead")
class HeadToHeadSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    games = serializers.IntegerField(help_text="finished games together")
    ahead = serializers.IntegerField(help_text="games this player finished ahead")
    behind = serializers.IntegerField(help_text="games the opponent finished ahead")
    level = serializers.IntegerField(help_text="games with equal places")


@extend_schema_serializer(component_name="CurrentGame")
class CurrentGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField(source="game_type")
    status = serializers.CharField()


class PlayerApi(Api):
    """A player's profile: ratings, games played and won, average score, current and
    latest finished games, head to head."""

    @extend_schema_serializer(component_name="Player")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField(help_text="display name")
        ratings = LadderRatingSerializer(many=True)
        stats = StatsSerializer(many=True)
        current_games = CurrentGameSerializer(many=True)
        finished_games = FinishedGameSerializer(many=True)
        head_to_head = HeadToHeadSerializer(many=True)

    @extend_schema(
        summary="A player's profile",
        operation_id="player_get",
        parameters=[PLAYER_ID],
        responses={200: OutputSerializer, **errors(401, 404)},
    )
    def get(self, request, player_id):
        player = visible_player(request, player_id)
        data = {
            "id": player.pk,
            "name": display_name(player),
            "ratings": selectors.ratings_of(player),
            "stats": selectors.stats_of(player),
            "current_games": selectors.current_games(player, request.user)[:50],
            "finished_games": selectors.finished_games(player, request.user),
            "head_to_head": selectors.head_to_head(player, request.user),
        }
        return Response(self.OutputSerializer(data).data)


def visible_player(request, player_id):
    player = selectors.player_get(player_id)
    if not selectors.profile_visible(player, request.user):
        raise exceptions.NotAuthenticated(_("this player shows their profile to signed-in players"))
    return player


class RatingHistoryApi(Api):
    """A player's rating after each rated game of one game, oldest first."""

    @extend_schema_serializer(component_name="RatingHistoryPage")
    class OutputSerializer(serializers.Serializer):
        @extend_schema_serializer(component_name="RatingPoint")
        class PointSerializer(serializers.Serializer):
            game_id = serializers.IntegerField()
            ended_at = serializers.DateTimeField()
            rating = serializers.IntegerField()
            uncertainty = serializers.IntegerField()
            change = serializers.IntegerField(help_text="change of the shown rating")

        count = serializers.IntegerField()
        results = PointSerializer(many=True)

    @extend_schema(
        summary="A player's rating history",
        operation_id="player_ratings",
        parameters=[PLAYER_ID, GAME, PageSerializer],
        responses={200: OutputSerializer, **errors(400, 401, 404)},
    )
    def get(self, request, player_id, game):
        player = visible_player(request, player_id)
        query = validated(PageSerializer, request.query_params)
        count, page = paginated(selectors.rating_history(player, known_game(game)), query)
        points = [selectors.history_point(change) for change in page]
        return Response(self.OutputSerializer({"count": count, "results": points}).data)


class LeaderboardApi(LagTolerant, Api):
    """The ladder of one game: active players past their provisional games, best first."""

    @extend_schema_serializer(component_name="LeaderboardPage")
    class OutputSerializer(serializers.Serializer):
        @extend_schema_serializer(component_name="LeaderboardRow")
        class RowSerializer(serializers.Serializer):
            rank = serializers.IntegerField()
            player_id = serializers.IntegerField(allow_null=True, help_text="null: private")
            player = serializers.CharField(allow_null=True, help_text="null: private profile")
            rating = serializers.IntegerField()
            uncertainty = serializers.IntegerField()
            games = serializers.IntegerField()

        count = serializers.IntegerField()
        results = RowSerializer(many=True)

    @extend_schema(
        summary="A game's leaderboard",
        operation_id="leaderboard",
        parameters=[GAME, PageSerializer],
        responses={200: OutputSerializer, **errors(400, 404)},
    )
    def get(self, request, game):
        query = validated(PageSerializer, request.query_params)
        count, page = paginated(selectors.leaderboard(known_game(game)), query)
        rows = [
            selectors.leaderboard_row(rating, query["offset"] + index, request.user)
            for index, rating in enumerate(page, start=1)
        ]
        return Response(self.OutputSerializer({"count": count, "results": rows}).data)


class ArchiveApi(LagTolerant, Api):
    """Search finished games; ``won``/``lost`` are about ``player`` (or you)."""

    class QuerySerializer(PageSerializer):
        player = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SEQ)
        player_name = serializers.CharField(required=False, max_length=150)
        game = serializers.ChoiceField(choices=list(GAME_TYPES), required=False)
        side = serializers.ChoiceField(choices=SIDES, required=False)
        players = serializers.IntegerField(required=False, min_value=2, max_value=4)
        date_from = serializers.DateField(required=False, help_text="ended on or after")
        date_to = serializers.DateField(required=False, help_text="ended on or before")
        result = serializers.ChoiceField(choices=selectors.RESULTS, required=False)
        rated = serializers.BooleanField(required=False, allow_null=True, default=None)

    @extend_schema_serializer(component_name="ArchivePage")
    class OutputSerializer(serializers.Serializer):
        count = serializers.IntegerField(help_text="matches, counted up to 1000")
        count_exact = serializers.BooleanField(help_text="false: more than count match")
        results = FinishedGameSerializer(many=True)

    @extend_schema(
        summary="Search finished games",
        operation_id="archive_search",
        parameters=[QuerySerializer],
        responses={200: OutputSerializer, **errors(400)},
    )
    def get(self, request):
        data = validated(self.QuerySerializer, request.query_params)
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise invalid_input("date_to", _("must not be before date_from"))
        player = data.get("player")
        if data.get("result") in ("won", "lost") and not player and not data.get("player_name"):
            if not request.user.is_authenticated:
                raise invalid_input("result", _("name a player (or sign in) for won or lost"))
            player = request.user.pk
        query = selectors.ArchiveQuery(
            player=player,
            player_name=data.get("player_name", ""),
            game=data.get("game", ""),
            side=data.get("side", ""),
            players=data.get("players"),
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            result=data.get("result", ""),
            rated=data.get("rated"),
        )
        results = selectors.archive_search(query, request.user)
        count, exact = selectors.capped_count(results)
        page = selectors.with_seats(results[data["offset"] : data["offset"] + data["limit"]])
        body = {"count": count, "count_exact": exact, "results": page}
        return Response(self.OutputSerializer(body).data)


class ArchiveExportApi(LagTolerant, JsonLinesApi):
    """All your games as JSON lines: each game's export (a header line, then its events)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="All your games (JSON lines)",
        operation_id="archive_export",
        responses={
            (200, NdjsonRenderer.media_type): OpenApiResponse(
                OpenApiTypes.STR, description="per game: a header line, then one per event"
            ),
            **errors(401),
        },
    )
    def get(self, request):
        lines = (
            json.dumps(row, separators=(",", ":")) + "\n"
            for row in selectors.export_lines(request.user)
        )
        response = StreamingHttpResponse(lines, content_type=NdjsonRenderer.media_type)
        response["Content-Disposition"] = 'attachment; filename="my-games.jsonl"'
        return response
