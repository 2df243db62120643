"""The bot API's requests (issue 55, docs/bot-api.md): who am I, the bots one may challenge,
challenges (make, list, accept, decline, cancel) and a game's chat. Moves and resigning go
through the game endpoints every player uses; the streams are ``games.bot_streams``."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.toolkit import Api, errors, validated, viewable_game
from games.models import BotAccount, Game
from games.registry import GAME_TYPES
from games.selectors.bot_world import challenge_json, world_of
from games.selectors.names import display_name, is_bot_account
from games.services.challenges import (
    DECLINE_REASONS,
    MOST_SECONDS,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
)
from games.services.chat import chat_post

CHALLENGE_ID = OpenApiParameter("challenge_id", OpenApiTypes.INT, OpenApiParameter.PATH)


def bot_json(bot: BotAccount) -> dict:
    return {
        "id": bot.user_id,
        "name": display_name(bot.user),
        "games": bot.games,
        "accepts_people": bot.accepts_people,
        "accepts_bots": bot.accepts_bots,
        "paused": bot.paused_at is not None,
        "paused_reason": bot.paused_reason or None,
        "on_ladder": bot.on_ladder,
    }


class AccountApi(Api):
    """Who the token signs in as: a bot (with its settings) or a person."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The account of the token",
        operation_id="bot_account",
        responses={200: OpenApiTypes.OBJECT, **errors(401)},
    )
    def get(self, request):
        user = request.user
        bot = BotAccount.objects.filter(user=user).first() if is_bot_account(user) else None
        body = {"id": user.pk, "name": display_name(user), "bot": bot is not None}
        if bot is not None:
            body |= bot_json(bot)
        return Response(body)


class BotListApi(Api):
    """The bots that take challenges now (not paused), with the games they play and whom
    they accept challenges from."""

    @extend_schema(
        summary="Bots to challenge",
        operation_id="bot_list",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        bots = BotAccount.objects.filter(paused_at__isnull=True, user__is_active=True)
        return Response({"bots": [bot_json(bot) for bot in bots.select_related("user")]})


class ChallengeListApi(Api):
    """``GET``: your open challenges, made and received. ``POST``: challenge a player (a
    person or a bot) to a game of two; they accept or decline (their event stream hears of
    it)."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ChallengeCreate")
    class InputSerializer(serializers.Serializer):
        opponent = serializers.IntegerField(min_value=1, help_text="the player's id")
        game = serializers.ChoiceField(choices=list(GAME_TYPES))
        options = serializers.DictField(required=False, help_text="the game's options")
        seconds_per_move = serializers.IntegerField(
            required=False,
            allow_null=True,
            max_value=MOST_SECONDS,
            help_text="a clock of seconds per move (5 at least); left out: none",
        )
        timeout_policy = serializers.ChoiceField(
            choices=Game.TimeoutPolicy.values,
            required=False,
            default=Game.TimeoutPolicy.FORFEIT,
            help_text="when a move's time runs out: forfeit (the game is lost), default_move "
            "or bot (the site's computer player moves)",
        )

    @extend_schema(
        summary="Your open challenges",
        operation_id="challenge_list",
        responses={200: OpenApiTypes.OBJECT, **errors(401)},
    )
    def get(self, request):
        challenges = world_of(request.user)["challenges"].values()
        return Response(
            {
                "made": [c for c in challenges if c["challenger"]["id"] == request.user.pk],
                "received": [c for c in challenges if c["opponent"]["id"] == request.user.pk],
            }
        )

    @extend_schema(
        summary="Challenge a player",
        operation_id="challenge_create",
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT, **errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        challenge = challenge_create(
            challenger=request.user,
            opponent_id=data["opponent"],
            game=data["game"],
            options=data.get("options"),
            seconds_per_move=data.get("seconds_per_move"),
            timeout_policy=data["timeout_policy"],
        )
        return Response(challenge_json(challenge), status=status.HTTP_201_CREATED)


class ChallengeAcceptApi(Api):
    """Accept a challenge made to you: the game starts (its id in ``game_id``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Accept a challenge",
        operation_id="challenge_accept",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={200: OpenApiTypes.OBJECT, **errors(401, 403, 404, 409)},
    )
    def post(self, request, challenge_id):
        game = challenge_accept(user=request.user, challenge_id=challenge_id)
        return Response({"id": challenge_id, "status": "accepted", "game_id": game.pk})


class ChallengeDeclineApi(Api):
    """Decline a challenge made to you, with a reason (``generic`` if none)."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ChallengeDecline")
    class InputSerializer(serializers.Serializer):
        reason = serializers.ChoiceField(choices=DECLINE_REASONS, required=False, default="generic")

    @extend_schema(
        summary="Decline a challenge",
        operation_id="challenge_decline",
        parameters=[CHALLENGE_ID],
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, **errors(400, 401, 404, 409)},
    )
    def post(self, request, challenge_id):
        data = validated(self.InputSerializer, request.data)
        challenge = challenge_decline(
            user=request.user, challenge_id=challenge_id, reason=data["reason"]
        )
        return Response(challenge_json(challenge))


class ChallengeCancelApi(Api):
    """Take back a challenge you made."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Cancel a challenge",
        operation_id="challenge_cancel",
        parameters=[CHALLENGE_ID],
        request=None,
        responses={200: OpenApiTypes.OBJECT, **errors(401, 404, 409)},
    )
    def post(self, request, challenge_id):
        return Response(
            challenge_json(challenge_cancel(user=request.user, challenge_id=challenge_id))
        )


class ChatApi(Api):
    """Say something in a game's chat (its players' stream hears it as ``chatLine``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ChatPost")
    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=2000)

    @extend_schema(
        summary="Write in a game's chat",
        operation_id="game_chat",
        parameters=[OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT, **errors(400, 401, 403, 404)},
    )
    def post(self, request, game_id):
        data = validated(self.InputSerializer, request.data)
        message = chat_post(
            game=viewable_game(request, game_id), user=request.user, text=data["text"]
        )
        return Response({"id": message.pk, "text": message.text}, status=status.HTTP_201_CREATED)
