"""The API of conditional moves (issue 32): your plan for your seat in a game — read it,
replace it, delete it. A plan is its player's alone: nobody else's request reaches it, and
nothing else in the API (the game, its events, its export, its replay) shows it."""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.toolkit import GAME_ID, MAX_SEQ, Api, errors, validated, viewable_game
from games.errors import Forbidden, ServiceError
from games.plan_lines import MOST_LINES, MOST_STEPS
from games.selectors.access import seat_of
from games.selectors.seats import plan_of
from games.services.plans import plan_delete, plan_replace


@extend_schema_serializer(component_name="Plan")
class PlanSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="your seat (from 0)")
    lines = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="each line: the moves you expect from the others and your answers, in the "
        "order they would be played, in the notation",
    )
    next_move = serializers.CharField(
        allow_blank=True,
        help_text='your move for your next turn, played then if the rules still allow it ("if '
        'those tiles are still there"); empty: none',
    )
    at_seq = serializers.IntegerField(
        allow_null=True, help_text="the event after which the plan's lines start"
    )


def plan_body(game, user) -> dict:
    plan = plan_of(game, user)
    seat = seat_of(game, user)
    if plan is None:
        position = seat.position if seat is not None else None
        return {"seat": position, "lines": [], "next_move": "", "at_seq": None}
    return {
        "seat": plan.seat,
        "lines": plan.lines,
        "next_move": plan.next_move,
        "at_seq": plan.at_seq,
    }


class PlanApi(Api):
    """Your conditional moves in a game: lines of expected moves and your answers, played
    for you as soon as the game reaches them, and a move for your next turn played if it is
    still legal then. Stored while it is not your turn; every line is checked by playing it
    on the position, and a line ends with the move that draws new tiles."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PlanReplace")
    class InputSerializer(serializers.Serializer):
        lines = serializers.ListField(
            child=serializers.ListField(
                child=serializers.CharField(max_length=200, allow_blank=True),
                max_length=MOST_STEPS,
            ),
            max_length=MOST_LINES,
            default=list,
            help_text='e.g. [["F1 blue 3", "C red floor"], ["F2 red 1", "F4 black 2"]]: '
            "another player's move, your answer, and so on",
        )
        next_move = serializers.CharField(
            max_length=200, allow_blank=True, default="", help_text="e.g. F2 blue 4"
        )
        expected_seq = serializers.IntegerField(
            min_value=0, max_value=MAX_SEQ, required=False, help_text="the last_seq you saw"
        )

    @extend_schema(
        summary="Your plan (conditional moves)",
        operation_id="plan_get",
        parameters=[GAME_ID],
        responses={200: PlanSerializer, **errors(401, 403, 404)},
    )
    def get(self, request, game_id):
        game = viewable_game(request, game_id)
        if seat_of(game, request.user) is None:
            # A spectator of a public game sees the game, never anyone's plan.
            raise Forbidden(gettext("you are not playing in this game"), code="not_a_player")
        return Response(plan_body(game, request.user))

    @extend_schema(
        summary="Replace your plan",
        operation_id="plan_replace",
        parameters=[GAME_ID],
        request=InputSerializer,
        responses={200: PlanSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def put(self, request, game_id):
        data = validated(self.InputSerializer, request.data)
        try:
            plan_replace(game=game_id, user=request.user, **data)
        except ServiceError:
            # Who may not see the game learns no more than that.
            viewable_game(request, game_id)
            raise
        return Response(plan_body(viewable_game(request, game_id), request.user))

    @extend_schema(
        summary="Delete your plan",
        operation_id="plan_delete",
        parameters=[GAME_ID],
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request, game_id):
        game = viewable_game(request, game_id)
        plan_delete(game=game, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
