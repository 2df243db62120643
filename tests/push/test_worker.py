"""Pushing from a real Celery worker: the change commits first (its transaction only wrote
the delivery row), then the task queued at commit pushes it, once."""

import pytest

from games.models import NoticeKind, PushDelivery
from tests.mail.conftest import start_game
from tests.mail.test_services_outbox import wait_until
from tests.push.test_sending import subscribe


@pytest.mark.django_db(transaction=True)
def test_the_worker_pushes_a_started_game_once_after_commit(
    alice, bob, push_service, device, smtp, start_worker, monkeypatch
):
    monkeypatch.setenv("WEB_PUSH_ALLOWED_HOSTS", f"127.0.0.1:{push_service.port}")
    start_worker()
    subscribe(alice, device, push_service, "alice-phone")

    game = start_game(alice, bob)

    row = PushDelivery.objects.get(kind=NoticeKind.GAME_STARTED)
    wait_until(lambda: PushDelivery.objects.filter(pk=row.pk, sent_at__isnull=False).exists())
    started = [device.decrypt(push.body) for push in push_service.received]
    started = [message for message in started if message["kind"] == NoticeKind.GAME_STARTED]
    assert [message["title"] for message in started] == [f"Azul #{game.pk} has started"]
    assert not push_service.refused
