"""The push channel against a real push service on 127.0.0.1 (``conftest.PushService``):
a notice becomes one push per device, encrypted for it (RFC 8291) and signed with the key
the pages serve (RFC 8292), sent once; a busy service is tried again later, and a
subscription the service says is gone is forgotten."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, NoticeKind, PushDelivery, PushSubscription
from games.notify.channels import channel, loop
from games.repository import game_table
from games.selectors.moves import legal_moves_of
from games.services.moves import game_resign, move_submit, move_undo
from games.services.notices import notices_choose
from games.services.push import push_subscribe
from games.services.sweep import sweep
from tests.games.helpers import every_player_moved
from tests.mail.conftest import player_to_move, start_game

pytestmark = pytest.mark.django_db


def subscribe(user, device, service, name: str) -> PushSubscription:
    keys = device.subscription(service.endpoint(name))["keys"]
    subscription, _new = push_subscribe(
        user=user, endpoint=service.endpoint(name), p256dh=keys["p256dh"], auth=keys["auth"]
    )
    return subscription


def delivery(user, kind: str) -> PushDelivery:
    return PushDelivery.objects.get(subscription__user=user, kind=kind)


def later(**delta):
    return timezone.now() + timedelta(**delta)


def test_a_started_game_is_pushed_encrypted_and_signed_to_the_players_device(
    alice, bob, push_service, device
):
    subscribe(alice, device, push_service, "alice-phone")
    game = start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)

    assert loop.send(delivery_id=row.pk) == "sent"

    [push] = push_service.received
    assert push.path == "/push/alice-phone"
    assert push.headers["Content-Encoding"] == "aes128gcm"
    assert push.headers["TTL"] == "86400"
    assert push.headers["Urgency"] == "normal"
    assert push.headers["Topic"] == f"game-{game.pk}"
    assert push.claims["aud"] == f"http://127.0.0.1:{push_service.port}"
    assert len(push.body) < 4096
    message = device.decrypt(push.body)
    assert message["title"] == f"Azul #{game.pk} has started"
    assert message["url"].endswith(f"/games/{game.pk}/")
    assert message["tag"] == f"game-{game.pk}"
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1


def test_nothing_is_pushed_twice_for_one_notice(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)

    assert loop.send(delivery_id=row.pk) == "sent"
    assert loop.send(delivery_id=row.pk) == "done"
    sweep(now=later(minutes=1))

    assert [push.path for push in push_service.received].count("/push/alice-phone") == 1


def test_your_turn_says_the_move_that_made_it_and_reaches_every_device(alice, bob, push_service):
    from tests.push.conftest import Device

    phone, laptop, bobs = Device(), Device(), Device()
    subscribe(alice, phone, push_service, "alice-phone")
    subscribe(alice, laptop, push_service, "alice-laptop")
    subscribe(bob, bobs, push_service, "bob-phone")
    game = start_game(alice, bob)
    mover = player_to_move(game)
    move = legal_moves_of(game_table(game))[0]["move"]
    move_submit(game=game, user=mover, move=move)
    other = player_to_move(game)

    # "Your turn" waits for the grace period; then the sweep pushes it.
    done = sweep(now=later(seconds=150))

    assert done["pushed"] >= 2
    devices = {"alice-phone": phone, "alice-laptop": laptop, "bob-phone": bobs}
    turns = [
        (push.path.rsplit("/", 1)[1], devices[push.path.rsplit("/", 1)[1]].decrypt(push.body))
        for push in push_service.received
    ]
    turns = [(name, message) for name, message in turns if message["kind"] == "your_turn"]
    assert {name.split("-")[0] for name, _ in turns} == {other.first_name.lower()}
    assert len(turns) == (2 if other == alice else 1)
    for _name, message in turns:
        assert message["title"] == f"Your turn in Azul #{game.pk}"
        assert message["body"].startswith(f"{mover.first_name} took ")
        assert "bag" not in str(message) and game.rng_secret not in str(message)


def test_a_gone_subscription_is_forgotten(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    push_service.answers = [(410, {})]

    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_STARTED).pk) == "gone"

    assert not PushSubscription.objects.filter(user=alice).exists()
    assert not PushDelivery.objects.filter(subscription__user=alice).exists()


def test_an_expired_subscription_is_forgotten_without_a_request(alice, bob, push_service, device):
    subscription = subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    PushSubscription.objects.filter(pk=subscription.pk).update(expires_at=later(seconds=-1))

    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_STARTED).pk) == "gone"

    assert not PushSubscription.objects.exists() and not push_service.received


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_busy_push_service_is_tried_again_later(alice, bob, push_service, device, status):
    subscribe(alice, device, push_service, "alice-phone")
    game = start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)
    push_service.answers = [(status, {"Retry-After": "300"} if status == 429 else {})]
    now = later(seconds=1)

    assert loop.send(delivery_id=row.pk, now=now) == "failed"
    row.refresh_from_db()
    assert row.claimed_at is None and row.sent_at is None and row.cancelled_at is None
    assert row.due_at == now + (timedelta(seconds=300) if status == 429 else timedelta(minutes=2))
    assert str(status) in row.last_error
    assert sweep(now=now + timedelta(seconds=30))["pushed"] == 0

    sweep(now=row.due_at + timedelta(seconds=1))

    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    started = [device.decrypt(push.body) for push in push_service.received]
    started = [message for message in started if message["kind"] == "game_started"]
    assert len(started) == 2 and started[-1]["url"].endswith(f"/{game.pk}/")


def test_a_push_service_that_keeps_failing_is_given_up(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)
    push_service.answers = [(500, {})] * channel("push").max_attempts
    now = later(seconds=1)

    for _attempt in range(channel("push").max_attempts):
        assert loop.send(delivery_id=row.pk, now=now) == "failed"
        row.refresh_from_db()
        now = row.due_at

    assert row.cancelled_at is not None and row.sent_at is None
    assert loop.send(delivery_id=row.pk, now=now) == "done"


def test_a_push_the_service_refuses_is_not_tried_again(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)
    push_service.answers = [(413, {})]

    assert loop.send(delivery_id=row.pk) == "failed"

    row.refresh_from_db()
    assert row.cancelled_at is not None and "413" in row.last_error


def test_a_worker_lost_while_pushing_leaves_the_push_unsent_for_good(
    alice, bob, push_service, device, settings
):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    row = delivery(alice, NoticeKind.GAME_STARTED)
    claimed = timezone.now()
    PushDelivery.objects.filter(pk=row.pk).update(claimed_at=claimed, attempts=1)

    done = sweep(now=claimed + timedelta(seconds=settings.WEB_PUSH_CLAIM_STALE_SECONDS + 1))

    assert done["pushes_lost"] == 1
    pushed = [device.decrypt(push.body)["kind"] for push in push_service.received]
    assert NoticeKind.GAME_STARTED not in pushed
    row.refresh_from_db()
    assert row.cancelled_at is not None and row.sent_at is None


def test_a_kind_turned_off_for_push_is_not_pushed_but_still_emailed(
    alice, bob, push_service, device
):
    subscribe(alice, device, push_service, "alice-phone")
    notices_choose(user=alice, channel_name="push", wanted_kinds=[], daily_digest=False)
    start_game(alice, bob)

    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_STARTED).pk) == "skipped"
    assert not push_service.received
    assert alice.player_settings.channels[NoticeKind.GAME_STARTED] == ["email"]


def test_a_move_taken_back_withdraws_its_turn_push(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    subscribe(bob, device, push_service, "bob-phone")
    game = start_game(alice, bob)
    mover = player_to_move(game)
    move_submit(game=game, user=mover, move=legal_moves_of(game_table(game))[0]["move"])
    move_undo(game=game, user=mover)

    other = bob if mover == alice else alice
    turn = PushDelivery.objects.filter(subscription__user=other, kind=NoticeKind.YOUR_TURN)
    assert turn.get().cancelled_at is not None


def test_an_endpoint_no_longer_allowed_is_not_posted_to(alice, bob, push_service, device, settings):
    subscribe(alice, device, push_service, "alice-phone")
    start_game(alice, bob)
    settings.WEB_PUSH_ALLOWED_HOSTS = ["fcm.googleapis.com"]

    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_STARTED).pk) == "skipped"
    assert not push_service.received


def test_a_finished_game_pushes_the_final_score(alice, bob, push_service, device):
    subscribe(alice, device, push_service, "alice-phone")
    game = every_player_moved(start_game(alice, bob))
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_OVER).pk) == "sent"

    message = device.decrypt(push_service.received[-1].body)
    assert message["title"] == f"Azul #{game.pk} is over"
    assert message["body"].startswith("Final score: ")
    assert push_service.received[-1].headers["Urgency"] == "low"


@pytest.mark.django_db
def test_a_game_aborted_by_an_early_resignation_pushes_that_it_is_unrated(
    alice, bob, push_service, device
):
    subscribe(alice, device, push_service, "alice-phone")
    game = start_game(alice, bob)
    game_resign(game=game, user=bob)
    assert loop.send(delivery_id=delivery(alice, NoticeKind.GAME_OVER).pk) == "sent"
    message = device.decrypt(push_service.received[-1].body)
    assert message["body"] == ("The game is aborted and unrated: not every player had made a move.")
