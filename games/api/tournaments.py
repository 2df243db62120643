"""The API of tournaments (issue 31): the lists (open, running, finished), creating one,
a tournament with its standings and rounds, joining, withdrawing (or removing a player)
and starting. Thin views: each validates its input, calls one service or selector, and
answers with JSON."""

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from games.api.toolkit import (
    MAX_SEQ,
    Api,
    KnownFieldsOnly,
    errors,
    invalid_input,
    validated,
)
from games.registry import GAME_TYPES
from games.selectors.tournaments import (
    TOURNAMENT_LISTS,
    tournament_get,
    tournament_list,
    tournament_view,
)
from games.services.tables import INVITATIONS_PER_DAY
from games.services.tournaments.entry import tournament_create, tournament_join, tournament_withdraw
from games.services.tournaments.organiser import (
    tournament_cancel,
    tournament_pause,
    tournament_resume,
    tournament_start,
)
from games.tournaments.core import MOST_PLAYERS, MOST_ROUND_DAYS
from games.tournaments.formats import FORMATS

TOURNAMENT_ID = OpenApiParameter("tournament_id", OpenApiTypes.INT, OpenApiParameter.PATH)


class TournamentPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


@extend_schema_serializer(component_name="TournamentSummary")
class SummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="title")
    status = serializers.CharField(help_text="registration, running, finished or cancelled")
    format = serializers.CharField(help_text="swiss, round_robin or knockout")
    game = serializers.CharField(source="game_type")
    per_game = serializers.IntegerField(help_text="players at each game")
    players = serializers.IntegerField(help_text="players in it (not withdrawn)")
    current_round = serializers.IntegerField()
    entry_closes = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = TournamentPlayerSerializer()
    points = serializers.FloatField()
    tie_breaks = serializers.ListField(
        child=serializers.FloatField(), help_text="in the order of the tournament's tie_breaks"
    )
    games = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="byes and walkovers, each worth a win")
    withdrawn = serializers.BooleanField()


class TournamentTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="the game's status")
    players = TournamentPlayerSerializer(
        many=True, help_text="in seat order: the first moves first"
    )
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="once the game ended"
    )
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    mine = serializers.BooleanField(help_text="whether you play at this table")


class TournamentByeSerializer(TournamentPlayerSerializer):
    walkover = serializers.BooleanField(help_text="the opponent withdrew")


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    tables = TournamentTableSerializer(many=True)
    byes = TournamentByeSerializer(many=True)


class TournamentEntrantSerializer(TournamentPlayerSerializer):
    rating = serializers.FloatField(help_text="at registration: the seeding")
    rating_now = serializers.IntegerField(
        allow_null=True,
        help_text="on the game's ladder now; null without a rated game (or, to visitors, for "
        "a hidden profile)",
    )
    withdrawn = serializers.BooleanField()


@extend_schema_serializer(component_name="Tournament")
class DetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    organiser = TournamentPlayerSerializer()
    settings = serializers.DictField(help_text="what the organiser chose (see the create body)")
    current_round = serializers.IntegerField()
    round_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="when the round in play ends: its unfinished games are lost by the player "
        "to move",
    )
    players = TournamentEntrantSerializer(many=True)
    tie_breaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="buchholz and sonneborn_berger (2 players a game), or opponents_points "
        "and game_score (3 or 4)",
    )
    standings = TournamentStandingSerializer(many=True)
    rounds = TournamentRoundSerializer(many=True)
    my_game = serializers.IntegerField(allow_null=True, help_text="your game in play")
    can_join = serializers.BooleanField()
    can_withdraw = serializers.BooleanField()
    can_start = serializers.BooleanField()
    can_remove = serializers.BooleanField(help_text="you may remove players (organiser)")
    paused = serializers.BooleanField(help_text="no new round starts until it is resumed")
    can_pause = serializers.BooleanField(help_text="organiser, moderators")
    can_resume = serializers.BooleanField(help_text="organiser, moderators")
    can_cancel = serializers.BooleanField(help_text="organiser, moderators")


def detail(tournament, user):
    return DetailSerializer(tournament_view(tournament, user)).data


class TournamentListApi(Api):
    """Tournaments open for registration, running or finished; opening a new one."""

    class FilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=list(TOURNAMENT_LISTS), default="open")
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        offset = serializers.IntegerField(min_value=0, max_value=MAX_SEQ, default=0)

    @extend_schema_serializer(component_name="TournamentCreate")
    class InputSerializer(KnownFieldsOnly):
        name = serializers.CharField(max_length=120)
        format = serializers.ChoiceField(choices=list(FORMATS))
        game = serializers.ChoiceField(choices=list(GAME_TYPES))
        per_game = serializers.IntegerField(min_value=2, max_value=4)
        rounds = serializers.IntegerField(
            min_value=0, max_value=MOST_PLAYERS, default=0, help_text="a Swiss's rounds"
        )
        points = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=1000),
            required=False,
            max_length=4,
            help_text="points by place at a full table; default 1/0, 4/2/0 or 6/4/2/0",
        )
        options = serializers.DictField(required=False, help_text="the game's options")
        time_control = serializers.DictField(required=False, help_text="as for a game")
        rated = serializers.BooleanField(default=True)
        bots = serializers.BooleanField(
            default=False, help_text="whether bots (programs' accounts) may enter"
        )
        public = serializers.BooleanField(
            default=True, help_text="listed; otherwise only those with its address find it"
        )
        entry_closes = serializers.DateTimeField(
            required=False, allow_null=True, help_text="when it starts by itself"
        )
        min_players = serializers.IntegerField(min_value=0, max_value=MOST_PLAYERS, default=0)
        max_players = serializers.IntegerField(min_value=2, max_value=MOST_PLAYERS, default=64)
        min_rating = serializers.FloatField(required=False, allow_null=True)
        min_games = serializers.IntegerField(min_value=0, max_value=100000, default=0)
        round_days = serializers.IntegerField(
            min_value=0,
            max_value=MOST_ROUND_DAYS,
            default=0,
            help_text="each round's deadline in days from its start (0: none)",
        )
        invited = serializers.ListField(
            child=serializers.CharField(max_length=254),
            required=False,
            max_length=MOST_PLAYERS,
            help_text="invitation-only (public false): the email addresses it accepts, each "
            f"sent an invitation; at most {INVITATIONS_PER_DAY}, and they count with "
            f"your game invitations ({INVITATIONS_PER_DAY} emails in any 24 hours: "
            "429 invitations_throttled beyond)",
        )

    @extend_schema_serializer(component_name="TournamentPage")
    class OutputSerializer(serializers.Serializer):
        count = serializers.IntegerField()
        results = SummarySerializer(many=True)

    @extend_schema(
        summary="Tournaments",
        operation_id="tournaments_list",
        parameters=[FilterSerializer],
        responses={200: OutputSerializer, **errors(400)},
    )
    def get(self, request):
        query = validated(self.FilterSerializer, request.query_params)
        rows = tournament_list(query["status"], request.user)
        page = rows[query["offset"] : query["offset"] + query["limit"]]
        return Response(self.OutputSerializer({"count": rows.count(), "results": page}).data)

    @extend_schema(
        summary="Open a new tournament",
        operation_id="tournaments_create",
        request=InputSerializer,
        responses={201: DetailSerializer, **errors(400, 401, 429)},
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        tournament = tournament_create(organiser=request.user, **data)
        return Response(detail(tournament, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailApi(Api):
    """A tournament: settings, players, rounds and games, standings with tie-breaks."""

    @extend_schema(
        summary="A tournament",
        operation_id="tournament_get",
        parameters=[TOURNAMENT_ID],
        responses={200: DetailSerializer, **errors(404)},
    )
    def get(self, request, tournament_id):
        return Response(detail(tournament_get(tournament_id), request.user))


def tournament_action(operation_id: str, summary: str, *, request=None, codes=(401, 403, 404, 409)):
    """The schema of a POST on a tournament that answers with the tournament."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        parameters=[TOURNAMENT_ID],
        request=request,
        responses={200: DetailSerializer, **errors(*codes)},
    )


class TournamentActionApi(Api):
    """A POST calling one service with the tournament and the caller (``service``),
    answering with the tournament."""

    service: Callable

    def post(self, request, tournament_id):
        tournament = tournament_get(tournament_id)
        tournament = type(self).service(tournament=tournament, user=request.user)
        return Response(detail(tournament, request.user))


@extend_schema_view(post=tournament_action("tournament_join", "Register for a tournament"))
class TournamentJoinApi(TournamentActionApi):
    service = tournament_join


class TournamentWithdrawApi(Api):
    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=MAX_SEQ,
            help_text="the organiser or a moderator removing a player; left out: you leave",
        )

    @tournament_action(
        "tournament_withdraw", "Leave a tournament (or remove a player)", request=InputSerializer
    )
    def post(self, request, tournament_id):
        tournament = tournament_get(tournament_id)
        data = validated(self.InputSerializer, request.data)
        player = None
        if "player" in data:
            player = get_user_model().objects.filter(pk=data["player"]).first()
            if player is None:
                raise invalid_input("player", _("there is no such player"))
        tournament = tournament_withdraw(tournament=tournament, user=request.user, player=player)
        return Response(detail(tournament, request.user))


@extend_schema_view(
    post=tournament_action("tournament_start", "Start a tournament now (organiser, moderators)")
)
class TournamentStartApi(TournamentActionApi):
    service = tournament_start


@extend_schema_view(
    post=tournament_action(
        "tournament_pause", "Pause a tournament: no new round starts (organiser, moderators)"
    )
)
class TournamentPauseApi(TournamentActionApi):
    service = tournament_pause


@extend_schema_view(
    post=tournament_action(
        "tournament_resume", "Resume a paused tournament (organiser, moderators)"
    )
)
class TournamentResumeApi(TournamentActionApi):
    service = tournament_resume


@extend_schema_view(
    post=tournament_action(
        "tournament_cancel",
        "Cancel a tournament: its games in play count no more (organiser, moderators)",
    )
)
class TournamentCancelApi(TournamentActionApi):
    service = tournament_cancel
