"""A tournament's notices through the channels: registration confirmed (email), your game
in a new round (email and push, instead of the plain "game started"), the tournament
finished with your standing (email); each one a kind the player may turn off per
channel."""

import pytest
from django.utils import timezone

from games.models import NoticeKind, Outbox, PlayerSettings, PushDelivery, PushSubscription
from games.notify.channels.email import render
from games.notify.channels.email.smtp import skip_reason
from games.notify.channels.push import texts
from games.services.notices import notices_choose
from games.services.tournaments.entry import tournament_withdraw
from tests.tournaments.test_services import finish_round, opened, organiser_starts, players

pytestmark = pytest.mark.django_db


def emails(kind: str) -> list[Outbox]:
    return list(Outbox.objects.filter(kind=kind).order_by("pk"))


def said(row: Outbox) -> tuple[str, str]:
    message = render.message(row, timezone.now())
    return message.subject, message.body


def test_registration_is_confirmed_by_email():
    (alice,) = players(1)
    opened([alice], format="swiss", per_game=2, rounds=1)
    (row,) = emails(NoticeKind.TOURNAMENT_JOINED)
    assert row.recipient == alice.email and row.game is None
    subject, body = said(row)
    assert subject == "You are registered for Autumn cup"
    assert "/tournaments/" in body


def test_each_player_is_told_their_game_of_the_new_round_has_started():
    alice, bob = players(2)
    PushSubscription.objects.create(
        user=bob, endpoint="https://fcm.googleapis.com/fcm/send/bob", p256dh="key", auth="secret"
    )
    tournament = opened([alice, bob], format="swiss", per_game=2, rounds=1)
    organiser_starts(tournament, alice)
    assert not emails(NoticeKind.GAME_STARTED)
    rows = emails(NoticeKind.TOURNAMENT_ROUND)
    assert sorted(row.recipient for row in rows) == sorted([alice.email, bob.email])
    subject, body = said(rows[0])
    assert body.splitlines()[0].startswith("Round 1 of Autumn cup: ")
    assert f"/tournaments/{tournament.pk}/" in body
    push = PushDelivery.objects.get(kind=NoticeKind.TOURNAMENT_ROUND)
    assert texts.message(push)["title"] == "Round 1 of Autumn cup: your game has started"


def test_every_player_is_told_their_final_standing():
    alice, bob = players(2)
    tournament = opened([alice, bob], format="swiss", per_game=2, rounds=1)
    organiser_starts(tournament, alice)
    finish_round(tournament)
    rows = {row.recipient: row for row in emails(NoticeKind.TOURNAMENT_FINISHED)}
    subject, body = said(rows[bob.email])
    assert subject == "Autumn cup is over"
    assert "you finished 2 of 2" in body and "Your points: 0." in body
    assert "you finished 1 of 2" in said(rows[alice.email])[1]


def test_a_player_may_turn_off_a_tournament_notice_by_channel():
    (alice,) = players(1)
    notices_choose(
        user=alice,
        channel_name="email",
        wanted_kinds=[NoticeKind.TOURNAMENT_ROUND],
        daily_digest=False,
    )
    opened([alice], format="swiss", per_game=2, rounds=1)
    (row,) = emails(NoticeKind.TOURNAMENT_JOINED)
    assert skip_reason(row, timezone.now()) == "turned off in the preferences"


def test_when_a_round_is_over_the_players_still_in_are_told_their_standing():
    alice, bob, carol, dan = players(4)
    tournament = opened([alice, bob, carol, dan], format="swiss", per_game=2, rounds=2)
    organiser_starts(tournament, alice)
    tournament_withdraw(tournament=tournament, user=dan)
    finish_round(tournament)
    rows = {row.recipient: row for row in emails(NoticeKind.TOURNAMENT_RESULTS)}
    assert sorted(rows) == sorted([alice.email, bob.email, carol.email])
    subject, body = said(rows[carol.email])
    assert subject == "Round 1 of Autumn cup is over"
    assert "you are 2 of 3" in body and "Your points: 1." in body


def test_a_player_knocked_out_is_told_they_are_out_and_their_final_places():
    alice, bob, carol, dan = players(4)
    tournament = opened([alice, bob, carol, dan], format="knockout", per_game=2)
    organiser_starts(tournament, alice)
    finish_round(tournament)
    rows = {row.recipient: row for row in emails(NoticeKind.TOURNAMENT_RESULTS)}
    assert sorted(rows) == sorted(user.email for user in (alice, bob, carol, dan))
    subject, body = said(rows[dan.email])
    assert subject == "You are out of Autumn cup"
    assert (
        "You lost your game in round 1 of Autumn cup and are out of the tournament: you "
        "finish 3–4 of 4." in body.replace("\n", " ")
    )
    assert "next round" not in body and "Your points: 0." in body
    subject, body = said(rows[alice.email])
    assert subject == "You go through to round 2 of Autumn cup"
    assert (
        "Round 1 of Autumn cup is over: you go through to round 2, one of 2 players still in."
        in body.replace("\n", " ")
    )
    assert " of 2." not in body.replace("\n", " "), "no place that reads as the last"


def test_a_knockout_tells_a_polish_player_in_polish_that_they_go_through():
    """Needs the catalogs: the translators' Polish."""
    alice, bob, carol, dan = players(4)
    PlayerSettings.objects.create(user=alice, language="pl")
    tournament = opened([alice, bob, carol, dan], format="knockout", per_game=2)
    organiser_starts(tournament, alice)
    finish_round(tournament)
    row = Outbox.objects.get(kind=NoticeKind.TOURNAMENT_RESULTS, recipient=alice.email)
    subject, body = said(row)
    assert subject == "Przechodzisz do rundy 2 turnieju Autumn cup"
    assert "przechodzisz do rundy 2 jako jeden z 2 graczy" in body.replace("\n", " ")
