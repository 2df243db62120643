"""The operator's status page: moderators only; the outbox backlog, emails in doubt, the
last sweep and worker heartbeat (recorded by the Celery tasks), games waiting on a bot,
the day's errors."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from games import tasks
from games.models import InboundMessage, Outbox, PushDelivery, PushSubscription
from games.selectors.access import MODERATORS_GROUP
from tests.conftest import make_user
from tests.games.helpers import started

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = make_user("maud", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


def test_only_moderators_see_the_status_page(client, alice):
    assert client.get("/status/").status_code == 302
    client.force_login(alice)
    assert client.get("/status/").status_code == 403
    client.force_login(make_user("stella", is_staff=True))
    assert client.get("/status/").status_code == 403


def test_the_page_counts_the_backlog_the_doubts_and_the_errors(client, moderator):
    now = timezone.now()
    for number, extra in enumerate(
        [
            {"due_at": now - timedelta(minutes=3)},
            {"due_at": now + timedelta(hours=1)},
            {"claimed_at": now, "cancelled_at": now, "last_error": "in doubt: claimed by…"},
            {"last_error": "421 try later"},
        ]
    ):
        Outbox.objects.create(key=number, recipient="x@example.com", kind="digest", **extra)
    InboundMessage.objects.create(message_id="<1@x>", sender="x@example.com", outcome="refused: x")
    client.force_login(moderator)
    response = client.get("/status/")
    assert response.status_code == 200
    context = response.context
    emails = context["emails"]
    assert (emails["backlog"], emails["scheduled"], emails["in_doubt"]) == (2, 1, 1)
    assert context["errors"] == {
        "failing": 1,
        "given_up": 1,
        "replies_refused": 1,
        "replies_ignored": 0,
    }
    assert context["late"] == {"sweep": True, "deliveries": True, "heartbeat": True}
    assert "never" in response.text and "late: is beat running?" in response.text


def test_an_email_no_longer_needed_is_counted_apart_not_as_an_error(client, moderator):
    now = timezone.now()
    Outbox.objects.create(
        key=1,
        recipient="x@example.com",
        kind="your_turn",
        cancelled_at=now,
        withdrawn_because="the player is on the game's page",
    )
    client.force_login(moderator)
    response = client.get("/status/")
    assert response.context["emails"]["withdrawn"] == 1
    assert response.context["errors"]["given_up"] == 0
    assert "Not needed in the last 24 hours" in response.text


def test_the_tasks_record_the_sweep_and_the_heartbeat(client, moderator):
    tasks.heartbeat()
    tasks.sweep()
    tasks.deliveries_sweep()
    client.force_login(moderator)
    response = client.get("/status/")
    assert response.context["late"] == {"sweep": False, "deliveries": False, "heartbeat": False}
    assert "timeouts" in response.context["sweep"].detail
    assert response.context["deliveries"].detail["sent"] == 0
    assert "late:" not in response.text


def test_the_pushes_are_counted_apart_from_the_emails(client, moderator, alice):
    now = timezone.now()
    game = started("azul", alice, make_user("bob"))
    device = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    for key, extra in enumerate(
        [{"due_at": now - timedelta(minutes=1)}, {"last_error": "in doubt: claimed by…"}]
    ):
        PushDelivery.objects.create(
            subscription=device, user=alice, game=game, key=key, kind="your_turn", **extra
        )
    client.force_login(moderator)
    response = client.get("/status/")
    pushes, emails = response.context["pushes"], response.context["emails"]
    assert (pushes["backlog"], pushes["in_doubt"]) == (2, 1)
    assert emails["in_doubt"] == 0
    assert 'id="push-in-doubt">1<' in response.text
