"""Time control, reminders, timeouts, vacation and digests, on a clock the test moves
(``now`` passed to the sweep)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from games.errors import BadRequest, Conflict, Forbidden
from games.models import Game, NoticeKind, Outbox, PlayerSettings, SeatClock
from games.repository import game_table
from games.selectors.access import MODERATORS_GROUP
from games.services.deadlines import vacation_end, vacation_start
from games.services.moderation import moderate_pause, moderate_resume
from games.services.moves import deadline_grant, move_submit, move_undo
from games.services.sweep import sweep
from games.services.tables import game_create
from tests.conftest import make_user
from tests.games.helpers import every_player_moved
from tests.mail.conftest import kind_of, player_to_move, start_game

HOUR = timedelta(hours=1)


def kinds_to(smtp, user) -> list[str]:
    """The kinds of the emails ``user`` got, in order (every subject is the game's)."""
    return [kind_of(m) for m in smtp.to(user.email)]


def opponent_of(game, user):
    return next(seat.user for seat in game.seats.all() if seat.user != user)


def play_first_legal(game, user) -> None:
    table = game_table(game)
    move_submit(
        game=game, user=user, move=table.engine.format(table.engine.legal_commands(table.state)[0])
    )


@pytest.mark.django_db(transaction=True)
def test_reminders_every_day_a_warning_before_the_deadline_then_the_default_move(
    alice, bob, smtp, clock
):
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 3})
    start = clock.now
    player = player_to_move(game)
    sweep(now=start + HOUR)
    assert not [s for s in kinds_to(smtp, player) if s == "reminder"]
    for hours in (24, 24.5, 48, 48.2):
        sweep(now=start + hours * HOUR)
    reminders = [s for s in kinds_to(smtp, player) if s == "reminder"]
    assert len(reminders) == 2, "one after 24 hours, one after 48, never twice"
    sweep(now=start + 61 * HOUR)
    sweep(now=start + 62 * HOUR)
    warnings = [s for s in kinds_to(smtp, player) if s == "deadline_warning"]
    assert len(warnings) == 1, "12 hours before the 72-hour deadline"
    seq = Game.objects.get(pk=game.pk).last_seq
    table = game_table(game)
    default = table.engine.format(table.engine.default_command(table.state))
    counts = sweep(now=start + 73 * HOUR)
    assert counts["timeouts"] == 1
    game.refresh_from_db()
    assert game.last_seq > seq and game.status == Game.Status.ACTIVE
    assert player_to_move(game) != player
    (timeout,) = [m for m in smtp.to(player.email) if kind_of(m) == "timeout"]
    assert default in timeout.get_body(preferencelist=("plain",)).get_content()
    assert any(s == "your_turn" for s in kinds_to(smtp, opponent_of(game, player)))


@pytest.mark.django_db(transaction=True)
def test_with_the_forfeit_policy_the_player_out_of_time_loses(alice, bob, smtp, clock):
    game = start_game(
        alice, bob, time_control={"kind": "per_move", "days": 1}, timeout_policy="forfeit"
    )
    every_player_moved(game)
    player = player_to_move(game)
    sweep(now=clock.advance(hours=25))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [1 - game.seats.get(user=player).position]
    assert any(s == "timeout" for s in kinds_to(smtp, player))
    assert any(s == "game_over" for s in kinds_to(smtp, opponent_of(game, player)))


@pytest.mark.django_db(transaction=True)
def test_without_a_time_control_nothing_times_out_but_reminders_come(alice, bob, smtp, clock):
    game = start_game(alice, bob)
    player = player_to_move(game)
    assert sweep(now=clock.advance(days=30))["timeouts"] == 0
    game.refresh_from_db()
    assert game.deadline is None and player_to_move(game) == player
    assert any(s == "reminder" for s in kinds_to(smtp, player))


@pytest.mark.django_db(transaction=True)
def test_a_bank_gains_the_increment_per_move_up_to_its_cap(alice, bob, smtp):
    control = {"kind": "bank", "bank_hours": 72, "increment_hours": 12, "cap_hours": 80}
    game = start_game(alice, bob, time_control=control)
    game.refresh_from_db()
    assert abs(game.deadline - (timezone.now() + 72 * HOUR)) < timedelta(minutes=1)
    player = player_to_move(game)
    play_first_legal(game, player)
    bank = SeatClock.objects.get(seat__game=game, seat__user=player).bank_seconds
    assert bank == 80 * 3600, "72 hours less a few seconds, plus 12, capped at 80"
    other = player_to_move(game)
    game.refresh_from_db()
    assert abs(game.deadline - (timezone.now() + 72 * HOUR)) < timedelta(minutes=1)
    assert SeatClock.objects.get(seat__game=game, seat__user=other).bank_seconds == 72 * 3600


@pytest.mark.django_db(transaction=True)
def test_a_day_granted_past_the_cap_is_kept_when_the_player_moves(alice, bob, smtp):
    """A bank at its cap, a day granted on top by the opponent: the player's move keeps
    that day and gains nothing more (it used to take the day away, and the move failed)."""
    control = {"kind": "bank", "bank_hours": 20, "increment_hours": 12, "cap_hours": 20}
    game = start_game(alice, bob, time_control=control)
    player = player_to_move(game)
    deadline_grant(game=game, user=opponent_of(game, player))
    play_first_legal(game, player)
    bank = SeatClock.objects.get(seat__game=game, seat__user=player).bank_seconds
    assert 44 * 3600 - 60 < bank <= 44 * 3600, "20 hours, a few seconds used, a day granted"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and player_to_move(game) != player


@pytest.mark.django_db(transaction=True)
def test_moving_and_taking_the_move_back_gains_no_time(alice, bob, smtp):
    control = {"kind": "bank", "bank_hours": 10, "increment_hours": 12, "cap_hours": 20}
    game = start_game(alice, bob, time_control=control)
    player = player_to_move(game)
    other = opponent_of(game, player)
    for _ in range(3):
        play_first_legal(game, player)
        move_undo(game=game, user=player)
    clocks = {c.seat.user: c.bank_seconds for c in SeatClock.objects.filter(seat__game=game)}
    assert 10 * 3600 - 60 < clocks[player] <= 10 * 3600
    assert 10 * 3600 - 60 < clocks[other] <= 10 * 3600
    game.refresh_from_db()
    assert game.deadline - timezone.now() <= timedelta(hours=10)


@pytest.mark.django_db(transaction=True)
def test_vacation_stops_the_clocks_in_every_game_until_the_player_is_back(
    alice, bob, carol, smtp, clock
):
    games = [
        start_game(alice, bob, time_control={"kind": "per_move", "days": 3}),
        start_game(alice, carol, time_control={"kind": "per_move", "days": 3}),
    ]
    for game in games:
        if player_to_move(game) != alice:
            play_first_legal(game, player_to_move(game))
    started = clock.advance(hours=1)
    vacation_start(user=alice, now=started)
    for game in games:
        game.refresh_from_db()
        assert game.deadline is None
    back = clock.advance(days=10)
    assert sweep(now=back)["timeouts"] == 0
    assert not [s for s in kinds_to(smtp, alice) if s == "reminder"]
    vacation_end(user=alice, now=back)
    prefs = PlayerSettings.objects.get(user=alice)
    assert prefs.vacation_seconds_used == int((back - started).total_seconds())
    for game in games:
        game.refresh_from_db()
        left = game.deadline - back
        assert timedelta(hours=70) < left <= timedelta(hours=72), left
    assert sweep(now=back + 4 * 24 * HOUR)["timeouts"] == 2


@pytest.mark.django_db(transaction=True)
def test_vacation_ends_by_itself_when_the_days_of_the_year_run_out(alice, bob, smtp, clock):
    PlayerSettings.objects.create(user=alice, vacation_days_per_year=2)
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 3})
    if player_to_move(game) != alice:
        play_first_legal(game, bob)
    started = clock.advance(hours=1)
    vacation_start(user=alice, now=started)
    assert sweep(now=started + 47 * HOUR)["vacations_ended"] == 0
    assert sweep(now=started + 49 * HOUR)["vacations_ended"] == 1
    game.refresh_from_db()
    assert abs(game.deadline - (started + 48 * HOUR + 71 * HOUR)) < timedelta(minutes=2)
    with pytest.raises(Conflict):
        vacation_start(user=alice, now=started + 50 * HOUR)


@pytest.mark.django_db(transaction=True)
def test_an_opponent_can_grant_the_player_to_move_one_more_day(alice, bob, smtp):
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 2})
    player = player_to_move(game)
    game.refresh_from_db()
    deadline = game.deadline
    deadline_grant(game=game, user=opponent_of(game, player))
    game.refresh_from_db()
    assert game.deadline == deadline + timedelta(days=1)
    with pytest.raises(Forbidden):
        deadline_grant(game=game, user=player)


@pytest.mark.django_db(transaction=True)
def test_a_digest_player_gets_one_email_a_day_for_all_games(alice, bob, carol, smtp, clock):
    PlayerSettings.objects.create(user=alice, daily_digest=True)
    PlayerSettings.objects.create(user=bob, daily_digest=True)
    games = [start_game(alice, bob), start_game(alice, carol)]
    for game in games:
        if player_to_move(game) != alice:
            play_first_legal(game, player_to_move(game))
    for hours in (0, 1, 25, 26, 49):
        sweep(now=clock.now + hours * HOUR)
    subjects = kinds_to(smtp, alice)
    assert not [s for s in subjects if s in ("your_turn", "reminder")]
    digests = [m for m in smtp.to(alice.email) if "waiting for your move" in str(m["Subject"])]
    assert len(digests) == 3, "hours 0, 25 and 49"
    text = digests[0].get_body(preferencelist=("plain",)).get_content()
    assert all(f"#{game.pk}" in text for game in games)
    assert not [m for m in smtp.to(bob.email) if "waiting" in str(m["Subject"])], (
        "no digest when no game waits for the player"
    )
    assert (
        Outbox.objects.filter(kind=NoticeKind.YOUR_TURN, recipient=alice.email)
        .exclude(last_error="in the daily digest")
        .filter(sent_at__isnull=False)
        .count()
        == 0
    )


@pytest.mark.django_db(transaction=True)
def test_a_game_can_have_its_own_reminder_policy(alice, bob, smtp, clock):
    game = start_game(
        alice,
        bob,
        time_control={"kind": "per_move", "days": 2},
        reminders={"first_hours": 2, "every_hours": 6, "warning_hours": 30},
    )
    player = player_to_move(game)
    for hours in (1, 2.1, 3, 8.2, 18.1):
        sweep(now=clock.now + hours * HOUR)
    subjects = kinds_to(smtp, player)
    assert len([s for s in subjects if s == "reminder"]) == 3, "after 2, 8 and 14 hours"
    assert len([s for s in subjects if s == "deadline_warning"]) == 1, "30 hours before 48"


@pytest.mark.django_db
def test_a_reminder_policy_with_unknown_names_or_odd_hours_is_refused(alice):
    for reminders in ({"first": 2}, {"first_hours": 0}, {"every_hours": "daily"}):
        with pytest.raises(BadRequest) as refused:
            game_create(creator=alice, game="azul", players=2, reminders=reminders)
        assert "first_hours" in refused.value.message or "hours" in refused.value.message


@pytest.mark.django_db(transaction=True)
def test_a_moderator_pause_stops_timeouts_and_the_clock_runs_again_after(alice, bob, smtp, clock):
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 1})
    moderate_pause(game=game, moderator=moderator, reason="a dispute")
    assert sweep(now=clock.advance(days=3))["timeouts"] == 0
    play_first_legal(game, player_to_move(game))
    game.refresh_from_db()
    assert game.deadline is None, "the turn passed while paused: the clock waits"
    moderate_resume(game=game, moderator=moderator, reason="settled")
    game.refresh_from_db()
    assert abs(game.deadline - (timezone.now() + 24 * HOUR)) < timedelta(minutes=1)
