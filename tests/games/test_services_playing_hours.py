"""Playing hours through the services (issue 32): each seat's hours recorded in the game's
events, deadlines, reminders and warnings counted only inside them, the minute sweep
leaving a resting clock alone, time zones followed, and bad hours refused.

The game starts at the real time, so each test chooses hours relative to it: the window
opens an hour after the start and lasts eight hours (players in UTC unless said)."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.clock import PlayingHours
from games.errors import BadRequest
from games.models import Game, NoticeKind, Outbox, PlayerSettings, SeatClock
from games.repository import game_table, records
from games.services.accounts import player_preferences_set
from games.services.moderation import moderate_replace_seat
from games.services.moves import deadline_grant, game_resign, move_submit
from games.services.rematch import game_rematch
from games.services.sweep import sweep
from games.services.tables import game_create, game_join
from games.table_events import HoursChanged, Started, codec
from tests.conftest import make_user
from tests.games.helpers import open_with_playing_hours

HOUR = timedelta(hours=1)


def window_after(moment: datetime, *, hours: int = 8) -> tuple[dict, datetime]:
    """Hours opening on the whole minute an hour or so after ``moment`` (UTC), and that
    opening."""
    opening = (
        (moment + HOUR + timedelta(minutes=1)).astimezone(UTC).replace(second=0, microsecond=0)
    )
    closing = opening + timedelta(hours=hours)
    return {"start": f"{opening:%H:%M}", "end": f"{closing:%H:%M}"}, opening


def started(alice, bob, hours: dict, **options) -> Game:
    options.setdefault("time_control", {"kind": "per_move", "days": 2})
    game = game_create(
        creator=alice, game="azul", players=2, playing_hours=True, hours=hours, **options
    )
    game_join(game=game, user=bob, hours=hours)
    game.refresh_from_db()
    return game


def start_event(game: Game) -> Started:
    return next(r.event for r in records(game) if isinstance(r.event, Started))


def clock_of(game: Game) -> SeatClock:
    return SeatClock.objects.get(seat__game=game, seat__position=game.to_move)


@pytest.mark.django_db
def test_each_seats_hours_and_time_zone_are_recorded_in_the_start_event(alice, bob):
    player_preferences_set(user=alice, time_zone="Europe/Warsaw")
    player_preferences_set(user=bob, time_zone="America/New_York")
    player_preferences_set(user=bob, hours={"start": "18:00", "end": "02:00"})
    game = game_create(
        creator=alice,
        game="azul",
        players=2,
        time_control={"kind": "bank", "bank_hours": 48, "increment_hours": 8, "cap_hours": 72},
        playing_hours=True,
        hours={"start": "07:30", "end": "21:00"},
    )
    game_join(game=game, user=bob)
    game.refresh_from_db()
    seats = {seat.user: seat.position for seat in game.seats.all()}
    hours = start_event(game).hours
    assert hours[seats[alice]] == PlayingHours("07:30", "21:00", "Europe/Warsaw")
    assert hours[seats[bob]] == PlayingHours("18:00", "02:00", "America/New_York")
    assert game.time_control["playing_hours"] is True


@pytest.mark.django_db
def test_the_deadline_reminder_and_warning_count_only_the_seats_hours(alice, bob):
    hours, opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    # Two days per move are two days of eight playing hours: the second day's closing.
    assert game.deadline == opening + timedelta(days=1, hours=8)
    row = clock_of(game)
    # The first reminder after 24 hours is a day of the seat's time: the first window.
    assert row.next_reminder_at == opening + timedelta(hours=8)
    # The warning 12 hours before is half a day of its time: 4 of its 8 hours.
    assert row.warning_at == opening + timedelta(days=1, hours=4)


@pytest.mark.django_db
def test_outside_the_hours_nothing_times_out_and_no_reminder_is_sent(alice, bob):
    hours, opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    player = game.seats.get(position=game.to_move).user
    seq = game.last_seq
    # The night after the first window: a whole calendar day has passed, and yet no
    # timeout nor a second reminder: the clock rests until the window opens again.
    counts = sweep(now=opening + timedelta(hours=20))
    assert counts["timeouts"] == 0
    reminders = Outbox.objects.filter(kind=NoticeKind.REMINDER, user=player)
    assert reminders.count() == 1
    assert clock_of(game).next_reminder_at == opening + timedelta(days=1, hours=8)
    game.refresh_from_db()
    assert game.last_seq == seq
    counts = sweep(now=opening + timedelta(days=1, hours=8, minutes=1))
    assert counts["timeouts"] == 1


@pytest.mark.django_db
def test_an_opponents_day_is_a_day_of_the_players_hours(alice, bob):
    hours, opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    other = next(seat.user for seat in game.seats.all() if seat.position != game.to_move)
    deadline_grant(game=game, user=other)
    game.refresh_from_db()
    assert game.deadline == opening + timedelta(days=2, hours=8)


@pytest.mark.django_db
def test_a_player_in_another_time_zone_plays_on_their_own_wall_clock(alice, bob):
    player_preferences_set(user=alice, time_zone="Asia/Tokyo")
    player_preferences_set(user=bob, time_zone="Asia/Tokyo")
    game = started(alice, bob, {"start": "09:00", "end": "17:00"})
    last_second = (game.deadline - timedelta(seconds=1)).astimezone(ZoneInfo("Asia/Tokyo"))
    assert 9 <= last_second.hour < 17
    assert start_event(game).hours[0].zone == "Asia/Tokyo"


@pytest.mark.django_db
def test_a_new_time_zone_moves_the_hours_from_the_end_of_the_players_turn(alice, bob):
    hours, _opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    to_move = game.seats.get(position=game.to_move)
    waiting = game.seats.exclude(pk=to_move.pk).get()
    deadline = game.deadline
    player_preferences_set(user=to_move.user, time_zone="Asia/Tokyo")
    player_preferences_set(user=waiting.user, time_zone="Asia/Tokyo")
    game.refresh_from_db()
    assert game.deadline == deadline, "nobody stops their running clock by moving"
    clock = game_table(game).clock
    assert clock.hours_of(waiting.position).zone == "Asia/Tokyo"
    assert clock.hours_of(to_move.position).zone == "UTC"
    assert clock.pending_hours(to_move.position).zone == "Asia/Tokyo"
    changed = [r.event for r in records(game) if isinstance(r.event, HoursChanged)]
    assert {event.seat for event in changed} == {0, 1}
    table = game_table(game)
    move_submit(
        game=game,
        user=to_move.user,
        move=table.engine.format(table.engine.legal_commands(table.state)[0]),
    )
    game.refresh_from_db()
    assert game_table(game).clock.hours_of(to_move.position).zone == "Asia/Tokyo"


@pytest.mark.django_db
def test_a_moderators_replacement_brings_their_own_hours(alice, bob):
    from tests.games.api_helpers import moderator_user

    hours, _opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    carol = make_user("carol")
    PlayerSettings.objects.create(
        user=carol, time_zone="Europe/Lisbon", hours_start="10:00", hours_end="20:00"
    )
    seat = game.seats.get(user=bob).position
    moderate_replace_seat(
        game=game, moderator=moderator_user(), reason="bob vanished", seat=seat, user=carol
    )
    game.refresh_from_db()
    assert game_table(game).clock.hours_of(seat) == PlayingHours("10:00", "20:00", "Europe/Lisbon")
    assert game.seats.get(user=carol).playing_hours["zone"] == "Europe/Lisbon"


@pytest.mark.django_db
def test_a_game_without_playing_hours_records_none_and_counts_plain_days(alice, bob):
    game = game_create(
        creator=alice, game="azul", players=2, time_control={"kind": "per_move", "days": 1}
    )
    game_join(game=game, user=bob)
    game.refresh_from_db()
    assert start_event(game).hours == ()
    assert game.seats.filter(playing_hours__isnull=False).count() == 0
    since = game_table(game).clock.since
    assert game.deadline == since + timedelta(days=1)


@pytest.mark.django_db
def test_hours_across_midnight_are_accepted(alice):
    game = open_with_playing_hours(alice, hours={"start": "20:00", "end": "02:00"})
    assert game.seats.get(user=alice).playing_hours == {
        "start": "20:00",
        "end": "02:00",
        "zone": "UTC",
    }


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"hours": {"start": "08:00", "end": "08:00"}}, "are empty"),
        ({"hours": {"start": "8am", "end": "22:00"}}, "is not a time of day"),
        ({"hours": {"start": "08:00", "end": "24:00"}}, "is not a time of day"),
        ({"hours": {"start": "٠٩:٠٠", "end": "22:00"}}, "with the digits 0 to 9"),
        ({"hours": {"start": "08:00", "end": "２２:００"}}, "with the digits 0 to 9"),
        ({"hours": {"start": "0８:00", "end": "22:00"}}, "with the digits 0 to 9"),
        ({"hours": {"start": "08:00\n", "end": "22:00"}}, "is not a time of day"),
        ({"hours": {"start": "08:00"}}, 'hours are {"start": "HH:MM", "end": "HH:MM"}'),
        ({"hours": "08:00-22:00"}, 'hours are {"start": "HH:MM", "end": "HH:MM"}'),
        ({"hours": {"start": "23:00", "end": "01:00"}}, "too short"),
        ({"playing_hours": "yes"}, "playing_hours is true or false"),
        (
            {"playing_hours": True, "time_control": {"kind": "none"}},
            "a game without a time control",
        ),
        ({"playing_hours": False, "hours": {"start": "08:00", "end": "22:00"}}, "leave hours out"),
    ],
)
@pytest.mark.django_db
def test_bad_playing_hours_are_refused_saying_what_is_accepted(alice, options, says):
    chosen = {"playing_hours": True, "time_control": {"kind": "per_move", "days": 1}, **options}
    with pytest.raises(BadRequest) as refused:
        game_create(creator=alice, game="azul", players=2, **chosen)
    assert says in str(refused.value)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_joining_a_game_without_playing_hours_with_hours_is_refused(alice, bob):
    game = game_create(creator=alice, game="azul", players=2)
    with pytest.raises(BadRequest, match="no playing hours"):
        game_join(game=game, user=bob, hours={"start": "08:00", "end": "22:00"})


@pytest.mark.django_db
def test_the_deadline_warning_comes_inside_the_hours_half_a_day_of_them_before(alice, bob):
    hours, opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    player = game.seats.get(position=game.to_move).user
    warnings = Outbox.objects.filter(kind=NoticeKind.DEADLINE_WARNING, user=player)
    # 12 calendar hours before the deadline is outside the hours: no warning yet.
    sweep(now=opening + timedelta(hours=20))
    assert warnings.count() == 0
    sweep(now=opening + timedelta(days=1, hours=3, minutes=59))
    assert warnings.count() == 0
    sweep(now=opening + timedelta(days=1, hours=4))
    assert warnings.count() == 1


@pytest.mark.django_db
def test_a_rematch_keeps_playing_hours_and_seats_the_players_with_their_own(alice, bob):
    player_preferences_set(user=bob, hours={"start": "06:00", "end": "12:00"})
    hours, _opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    rematch = game_rematch(game=game, user=bob)
    assert rematch.time_control["playing_hours"] is True
    assert rematch.seats.get(user=bob).playing_hours == {
        "start": "06:00",
        "end": "12:00",
        "zone": "UTC",
    }


def test_a_start_event_stored_before_playing_hours_reads_as_a_game_without():
    stored = {"type": "Started", "version": 1, "game": "azul", "options": {}, "players": ["a", "b"]}
    assert codec.decode(stored).hours == ()
    replaced = {"type": "SeatReplaced", "version": 1, "seat": 0, "replaced": "a", "by": "c"}
    assert codec.decode(replaced).hours is None


@pytest.mark.django_db
def test_a_table_with_playing_hours_is_stored_and_read_back_as_a_snapshot(alice, bob):
    from games import table_storage as storage

    player_preferences_set(user=bob, time_zone="Europe/Warsaw")
    hours, _opening = window_after(timezone.now())
    game = started(alice, bob, hours)
    table = game_table(game)
    again = storage.loads(storage.dumps(table), table.engine)
    assert again.clock == table.clock
    assert again.clock.deadline() == game.deadline
