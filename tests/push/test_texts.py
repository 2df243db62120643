"""What a push says for each kind of notice, in the reader's language, and nothing the
players may not see."""

import json

import pytest
from django.utils import timezone
from django.utils.text import capfirst

from games.durations import time_left_text
from games.i18n import speaking_to
from games.models import Game, NoticeKind, PlayerSettings, PushDelivery, PushSubscription
from games.notify.channels.push import texts
from games.selectors.seats import time_left
from tests.mail.conftest import start_game

pytestmark = pytest.mark.django_db

TITLES = {
    NoticeKind.GAME_STARTED: "Azul #{game} has started",
    NoticeKind.YOUR_TURN: "Your turn in Azul #{game}",
    NoticeKind.REMINDER: "Azul #{game} is waiting for your move",
    NoticeKind.DEADLINE_WARNING: "Your time is running out in Azul #{game}",
    NoticeKind.TIMEOUT: "Your time ran out in Azul #{game}",
    NoticeKind.GAME_OVER: "Azul #{game} is over",
    NoticeKind.TAKEBACK_REQUEST: "Takeback asked in Azul #{game}",
}


def said(user, game: Game, kind: str, **payload) -> dict:
    subscription = PushSubscription.objects.get_or_create(
        user=user, endpoint=f"https://fcm.googleapis.com/{user.pk}", p256dh="k", auth="a"
    )[0]
    row = PushDelivery(
        subscription=subscription, game=game, key=game.last_seq, kind=kind, payload=payload
    )
    with speaking_to(user):
        return texts.message(row)


@pytest.mark.parametrize("kind", list(TITLES))
def test_every_kind_says_the_game_what_happened_and_opens_the_game(alice, bob, kind):
    game = start_game(alice, bob)

    message = said(alice, game, kind, seat=0, seq=game.last_seq, policy="default_move", move="F1")

    assert message["title"] == TITLES[kind].format(game=game.pk)
    assert message["body"]
    assert message["url"] == f"http://127.0.0.1:8000/games/{game.pk}/"
    assert len(json.dumps(message).encode()) < 1000
    assert game.rng_secret not in json.dumps(message)


def test_a_push_is_written_in_the_readers_language(alice, bob):
    PlayerSettings.objects.create(user=alice, language="pl")
    game = start_game(alice, bob)

    message = said(alice, game, NoticeKind.YOUR_TURN, seq=game.last_seq)

    assert message["title"] == f"Twoja tura: Azul nr {game.pk}"
    assert message["body"] == "Wykonaj pierwszy ruch."


def test_a_forfeit_says_the_game_is_lost_and_a_takeback_has_its_own_topic(alice, bob):
    game = start_game(alice, bob)

    forfeit = said(alice, game, NoticeKind.TIMEOUT, policy=Game.TimeoutPolicy.FORFEIT)
    takeback = said(alice, game, NoticeKind.TAKEBACK_REQUEST)

    assert forfeit["body"] == "You forfeited the game."
    assert (forfeit["tag"], takeback["tag"]) == (f"game-{game.pk}", f"game-{game.pk}-takeback")


def test_a_takeback_push_names_the_player_asking(alice, bob):
    game = start_game(alice, bob)
    bob_seat = game.seats.get(user=bob).position

    takeback = said(alice, game, NoticeKind.TAKEBACK_REQUEST, seat=bob_seat, to_seq=3)

    assert takeback["body"] == "Bob asks to take back moves: answer on the game's page."


def test_a_deadline_warning_says_the_time_left_as_the_page_and_the_api_do(alice, bob):
    game = start_game(alice, bob, time_control={"kind": "per_move", "days": 2})
    left = time_left(game, timezone.now())

    warning = said(alice, game, NoticeKind.DEADLINE_WARNING, seat=0)

    assert warning["body"] == capfirst(time_left_text(left))
    assert warning["body"].endswith("left")
