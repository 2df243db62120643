"""The game as the API's endpoints show it: in a list, in detail (with what the caller may
do), its seats, events and moves."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games import repository
from games import table as tbl
from games.clock import TimeLeft
from games.durations import time_left_text
from games.models import Game
from games.registry import game_type
from games.selectors.access import seat_of
from games.selectors.names import players_of
from games.selectors.seats import actions_of
from games.selectors.seats import time_left as game_time_left


@extend_schema_serializer(component_name="Seat")
class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True, help_text="play order from 0, once started")
    player = serializers.CharField(allow_null=True, help_text="display name; null while open")
    bot = serializers.CharField(
        allow_null=True, help_text="a computer player's level (easy, medium, hard); null for people"
    )
    status = serializers.CharField(help_text="open, invited, joined or resigned")
    deleted = serializers.BooleanField(
        help_text="the player closed their account and their data was erased"
    )


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
        return players_of(game)


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
    can_answer_takeback = serializers.BooleanField()
    takeback_points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the to_seq values a takeback request may name now, newest first",
    )
    can_grant_time = serializers.BooleanField(
        help_text="POST grant-day/ would give the player to move one more day"
    )
    can_resign = serializers.BooleanField()


@extend_schema_serializer(component_name="PlayingHours")
class PlayingHoursSerializer(serializers.Serializer):
    start = serializers.CharField(help_text='"HH:MM"')
    end = serializers.CharField(help_text='"HH:MM"; before the start: the next day')
    zone = serializers.CharField(help_text="the player's time zone, e.g. Europe/Warsaw")


@extend_schema_serializer(component_name="TimeLeft")
class TimeLeftSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="the seat to move")
    seconds = serializers.IntegerField(
        help_text="what its clock has left; in a game with playing hours, of playing time"
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="when that runs out on the wall clock; null while the clock is stopped "
        "(a moderator's pause, a vacation)",
    )
    resting_until = serializers.DateTimeField(
        allow_null=True,
        help_text="while the clock rests outside the seat's playing hours: when it runs "
        "again; else null",
    )
    text = serializers.CharField(
        help_text="the same in words, in your language: what the pages and emails say"
    )


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
    playing_hours = serializers.SerializerMethodField(
        help_text="in a game with playing hours, each seat's daily hours on its player's "
        "wall clock (null for a computer player); empty in a game without"
    )
    resting_until = serializers.SerializerMethodField(
        help_text="while the clock of the seat to move rests outside its playing hours: "
        "when it runs again; else null"
    )
    time_left = serializers.SerializerMethodField(
        help_text="the time left to the seat to move, as the pages and emails say it; "
        "null without a clock or a seat to move"
    )

    @extend_schema_field(PlayingHoursSerializer(many=True, allow_null=True))
    def get_playing_hours(self, game: Game) -> list[dict | None]:
        clock = self._table(game).clock
        return [
            None if hours is None else {"start": hours.start, "end": hours.end, "zone": hours.zone}
            for hours in clock.hours
        ]

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_resting_until(self, game: Game) -> str | None:
        left = self._time_left(game)
        if left is None or left.resting_until is None:
            return None
        return serializers.DateTimeField().to_representation(left.resting_until)

    @extend_schema_field(TimeLeftSerializer(allow_null=True))
    def get_time_left(self, game: Game) -> dict | None:
        left = self._time_left(game)
        if left is None:
            return None
        return TimeLeftSerializer(
            {
                "seat": left.seat,
                "seconds": left.seconds,
                "deadline": left.deadline,
                "resting_until": left.resting_until,
                "text": time_left_text(left),
            }
        ).data

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
        seat = seat_of(game, self.context["user"])
        if seat is None:
            return None
        actions = actions_of(game, self._table(game), seat)
        return {
            "seat": seat.position,
            "your_turn": actions.move,
            "can_undo": actions.undo,
            "can_answer_takeback": actions.answer_takeback,
            "takeback_points": list(actions.takeback_points),
            "can_grant_time": actions.grant_time,
            "can_resign": actions.resign,
        }

    def _time_left(self, game: Game) -> TimeLeft | None:
        """One reading of the clock for every field of the answer."""
        if "time_left" not in self.context:
            self.context["time_left"] = game_time_left(game, timezone.now())
        return self.context["time_left"]

    def _table(self, game: Game) -> tbl.Table:
        if "table" not in self.context:
            self.context["table"] = repository.row_table(game)
        return self.context["table"]


def game_detail(game: Game, user) -> dict:
    return GameDetailSerializer(game, context={"user": user}).data


@extend_schema_serializer(component_name="Move")
class MoveSerializer(serializers.Serializer):
    move = serializers.CharField(help_text="notation, as accepted by moves/")
    command = serializers.JSONField(help_text="the same move, structured")
