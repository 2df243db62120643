"""No address where the site keeps counts and logs (issue 52): rate limits count under
hashed keys; the push channel's log and errors name a device by its subscription's id,
never by its endpoint (a device's own address), and the email channel's a refused
recipient by the delivery, never by the address."""

import logging

import pytest
from rest_framework.test import APIClient

from games.models import NoticeKind, Outbox, PushDelivery
from games.notify.channels import loop
from games.services.accounts import sign_in_request
from games.services.push import push_subscribe
from tests.mail.conftest import start_game
from tests.privacy.traces import found_in, redis_dump

pytestmark = pytest.mark.django_db


def test_the_token_doors_rate_limits_name_no_address_in_redis(alice):
    client = APIClient(REMOTE_ADDR="203.0.113.77")
    for _try in range(3):
        client.post("/api/token/", {"email": alice.email, "password": "wrong"}, format="json")
    client.post("/signin/password/", {"username": alice.email, "password": "wrong"})

    keys = redis_dump()
    assert keys  # counted
    assert found_in(keys, [alice.email, "203.0.113.77"]) == []


def test_a_push_that_fails_is_logged_by_its_subscription_never_its_endpoint(
    alice, bob, push_service, device, caplog
):
    endpoint = push_service.endpoint("alice-phone-7f3a")
    keys = device.subscription(endpoint)["keys"]
    subscription, _new = push_subscribe(
        user=alice, endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )
    start_game(alice, bob)
    row = PushDelivery.objects.get(subscription=subscription, kind=NoticeKind.GAME_STARTED)
    push_service.server.shutdown()
    push_service.server.server_close()  # the service is unreachable

    with caplog.at_level(logging.DEBUG):
        assert loop.send(delivery_id=row.pk) == "failed"

    row.refresh_from_db()
    logged = caplog.text + row.last_error
    assert f"subscription {subscription.pk}" in logged
    assert "alice-phone-7f3a" not in logged


def test_a_recipient_the_mail_server_refuses_is_logged_by_the_delivery_never_its_address(
    alice, smtp, caplog
):
    def busy(address):
        raise RuntimeError("mailbox busy")  # the server answers the recipient with an error

    smtp.on_recipient = busy
    sign_in_request(email=alice.email)
    row = Outbox.objects.get(kind=NoticeKind.SIGN_IN, recipient=alice.email)

    with caplog.at_level(logging.DEBUG):
        assert loop.send(delivery_id=row.pk) == "failed"

    row.refresh_from_db()
    logged = caplog.text + row.last_error
    assert "recipient refused" in row.last_error and f"delivery {row.pk}" in caplog.text
    assert alice.email not in logged and "alice@" not in logged
