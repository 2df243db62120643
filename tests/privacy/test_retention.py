"""Retention (issue 45): what is needed only for a while goes by itself after
``RETENTION_DAYS`` (``services.retention``, the minute sweep's job ``retention``): rows past
the limit lose what they should, younger rows are untouched, the facts stay, and a second
pass does nothing."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.mail import services as mail
from games.models import (
    DataExport,
    Game,
    InboundMessage,
    NoticeKind,
    Outbox,
    PushDelivery,
    PushSubscription,
)
from games.notify.channels.email import tokens
from games.notify.channels.email.tokens import sign_in_code
from games.services import retention
from games.services.moves import game_resign
from games.services.sweep import JOBS
from tests.mail.conftest import fixture_reply, player_to_move, start_game

pytestmark = pytest.mark.django_db

NOTHING = {
    "replies_forgotten": 0,
    "sign_ins_deleted": 0,
    "emails_emptied": 0,
    "pushes_emptied": 0,
    "emails_deleted": 0,
    "pushes_deleted": 0,
    "downloads_deleted": 0,
}


@pytest.fixture
def now():
    return timezone.now()


def days_ago(now, days: float):
    return now - timedelta(days=days)


def received(message_id: str, at) -> InboundMessage:
    return InboundMessage.objects.create(
        message_id=message_id, sender="alice@example.com", received_at=at, outcome="played 1"
    )


def test_the_job_runs_in_the_minute_sweep():
    assert ("retention", retention.forget_expired) in JOBS


def test_received_emails_past_the_limit_lose_sender_and_outcome_but_keep_their_message_id(now):
    old = received("<old@mail.example>", days_ago(now, 31))
    young = received("<young@mail.example>", days_ago(now, 29))
    assert retention.forget_expired(now=now)["replies_forgotten"] == 1
    old.refresh_from_db()
    assert (old.sender, old.outcome) == ("", "")
    assert (old.message_id, old.received_at) == ("<old@mail.example>", days_ago(now, 31))
    young.refresh_from_db()
    assert (young.sender, young.outcome) == ("alice@example.com", "played 1")
    assert retention.forget_expired(now=now) == NOTHING


def test_a_repeat_of_a_forgotten_reply_is_still_ignored(alice, bob, now):
    game = start_game(alice, bob)
    player = player_to_move(game)
    raw = fixture_reply(
        "gmail.eml",
        FROM=player.email,
        TO=tokens.reply_address(game.pk, game.to_move, game.last_seq),
        MOVE="1",
        MESSAGE_ID="<once@mail.example>",
    )
    assert mail.reply_receive(raw=raw).startswith("played")
    InboundMessage.objects.update(received_at=days_ago(now, 31))
    retention.forget_expired(now=now)
    assert InboundMessage.objects.get().sender == ""
    assert mail.reply_receive(raw=raw) == "ignored: duplicate"


def test_a_pass_forgets_at_most_a_batch_and_the_next_pass_the_rest(now, monkeypatch):
    monkeypatch.setattr(retention, "RETENTION_BATCH", 150)
    InboundMessage.objects.bulk_create(
        InboundMessage(message_id=f"<{n}@x>", sender="a@example.com", received_at=days_ago(now, 40))
        for n in range(160)
    )
    assert retention.forget_expired(now=now)["replies_forgotten"] == 150
    assert retention.forget_expired(now=now)["replies_forgotten"] == 10
    assert retention.forget_expired(now=now) == NOTHING


def test_sign_in_emails_past_the_limit_are_deleted_and_their_link_says_so_plainly(client, now):
    client.post("/signin/", {"email": "dora@example.com"})
    old = Outbox.objects.get(kind=NoticeKind.SIGN_IN)
    code = sign_in_code(old)
    Outbox.objects.filter(pk=old.pk).update(created_at=days_ago(now, 3))
    client.post("/signin/", {"email": "erin@example.com"})
    young = Outbox.objects.get(kind=NoticeKind.SIGN_IN, recipient="erin@example.com")
    Outbox.objects.filter(pk=young.pk).update(created_at=days_ago(now, 1))
    assert retention.forget_expired(now=now)["sign_ins_deleted"] == 1
    assert not Outbox.objects.filter(pk=old.pk).exists()
    assert Outbox.objects.filter(pk=young.pk).exists()
    response = client.post("/signin/link/", {"code": code})
    assert response.status_code == 400
    assert "This sign-in link is not valid: ask for a new one." in response.text
    assert "Ask for a new link" in response.text
    assert retention.forget_expired(now=now) == NOTHING


def test_sent_emails_past_the_limit_lose_their_body_and_keep_the_fact(alice, bob, now):
    game = start_game(alice, bob)
    Outbox.objects.create(
        game=game, key=0, recipient="stranger@example.com", kind=NoticeKind.INVITATION,
        payload={"token": "t"},
    )  # fmt: skip
    Outbox.objects.update(created_at=days_ago(now, 95), sent_at=days_ago(now, 91))
    players = list(Outbox.objects.filter(user__isnull=False).order_by("pk"))
    bodies = sum(bool(row.payload) for row in players)
    assert bodies
    young = Outbox.objects.create(
        game=game, key=99, recipient=alice.email, user=alice, kind=NoticeKind.YOUR_TURN,
        payload={"seat": 0}, created_at=days_ago(now, 89), sent_at=days_ago(now, 89),
    )  # fmt: skip
    done = retention.forget_expired(now=now)
    assert done["emails_emptied"] == bodies + 1
    assert not Outbox.objects.filter(recipient="stranger@example.com").exists()
    for row in players:
        kept = Outbox.objects.get(pk=row.pk)
        assert kept.payload == {}
        facts = ("kind", "game_id", "key", "recipient", "user_id", "sent_at", "message_id")
        assert [getattr(kept, name) for name in facts] == [getattr(row, name) for name in facts]
    young.refresh_from_db()
    assert young.payload == {"seat": 0}
    assert retention.forget_expired(now=now) == NOTHING


def test_an_email_still_being_sent_keeps_its_body_and_holds_the_later_ones(alice, now):
    waiting = Outbox.objects.create(
        recipient=alice.email, user=alice, kind=NoticeKind.DIGEST, payload={"day": 1},
        created_at=days_ago(now, 95),
    )  # fmt: skip
    later = Outbox.objects.create(
        recipient=alice.email, user=alice, kind=NoticeKind.DIGEST, payload={"day": 2},
        created_at=days_ago(now, 94), sent_at=days_ago(now, 94),
    )  # fmt: skip
    assert retention.forget_expired(now=now)["emails_emptied"] == 0
    Outbox.objects.filter(pk=waiting.pk).update(cancelled_at=days_ago(now, 93))
    assert retention.forget_expired(now=now)["emails_emptied"] == 2
    later.refresh_from_db()
    assert later.payload == {}


def test_a_reply_to_an_email_whose_body_was_emptied_is_still_played(alice, bob, now):
    game = start_game(alice, bob)
    Outbox.objects.update(created_at=days_ago(now, 95), sent_at=days_ago(now, 91))
    assert retention.forget_expired(now=now)["emails_emptied"] > 0
    player = player_to_move(game)
    raw = fixture_reply(
        "gmail.eml",
        FROM=player.email,
        TO=tokens.reply_address(game.pk, game.to_move, game.last_seq),
        MOVE="1",
        MESSAGE_ID=f"<{uuid.uuid4().hex}@mail.example>",
    )
    assert mail.reply_receive(raw=raw).startswith("played")
    game.refresh_from_db()
    assert game.last_seq > 0 and game.status == Game.Status.ACTIVE


def pushes_sent(alice, bob, now, ages: tuple[int, int]) -> list[PushDelivery]:
    """Two "your turn" pushes to Alice's device, sent ``ages`` days ago (keys 1 and 2)."""
    game = start_game(alice, bob)
    device = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    return [
        PushDelivery.objects.create(
            subscription=device,
            game=game,
            key=key,
            kind=NoticeKind.YOUR_TURN,
            payload={"seat": 0, "seq": key},
            created_at=days_ago(now, age),
            sent_at=days_ago(now, age),
        )
        for key, age in zip((1, 2), ages, strict=True)
    ]


def test_sent_pushes_past_the_limit_lose_their_body(alice, bob, now):
    old, young = pushes_sent(alice, bob, now, (91, 89))
    assert retention.forget_expired(now=now)["pushes_emptied"] == 1
    old.refresh_from_db()
    young.refresh_from_db()
    assert old.payload == {} and (old.kind, old.key, old.sent_at) == (
        NoticeKind.YOUR_TURN,
        1,
        days_ago(now, 91),
    )
    assert young.payload == {"seat": 0, "seq": 2}
    assert retention.forget_expired(now=now) == NOTHING


def test_sent_emails_past_the_row_limit_go_but_those_of_a_game_in_play(alice, bob, carol, now):
    """Half a year after it went out an email's record goes too (issue 44), unless its game
    is still in play: its next emails thread to the game's first one."""
    over = start_game(alice, bob)
    game_resign(game=over, user=alice)
    playing = start_game(alice, carol)
    Outbox.objects.create(
        recipient=alice.email, user=alice, kind=NoticeKind.DIGEST, payload={"day": 1}
    )
    Outbox.objects.update(created_at=days_ago(now, 185), sent_at=days_ago(now, 181))
    young = Outbox.objects.create(
        game=over, key=99, recipient=alice.email, user=alice, kind=NoticeKind.GAME_OVER,
        payload={}, created_at=days_ago(now, 179), sent_at=days_ago(now, 179),
    )  # fmt: skip
    kept = set(Outbox.objects.filter(game=playing).values_list("pk", flat=True))
    gone = Outbox.objects.exclude(pk__in=[*kept, young.pk]).count()
    assert kept and gone >= 2
    assert retention.forget_expired(now=now)["emails_deleted"] == gone
    assert set(Outbox.objects.values_list("pk", flat=True)) == {*kept, young.pk}
    assert retention.forget_expired(now=now)["emails_deleted"] == 0


def test_sent_pushes_past_the_row_limit_are_deleted(alice, bob, now):
    _old, young = pushes_sent(alice, bob, now, (181, 179))
    assert retention.forget_expired(now=now)["pushes_deleted"] == 1
    assert list(PushDelivery.objects.values_list("pk", flat=True)) == [young.pk]


def test_ready_downloads_past_their_expiry_are_deleted(alice, now):
    expired = DataExport.objects.create(
        user=alice, status=DataExport.Status.READY, expires_at=days_ago(now, 0.01), archive=b"z"
    )
    ready = DataExport.objects.create(
        user=alice, status=DataExport.Status.READY, expires_at=now + timedelta(days=1), archive=b"z"
    )
    stalled = DataExport.objects.create(
        user=alice, status=DataExport.Status.BUILDING, expires_at=days_ago(now, 0.01)
    )
    assert retention.forget_expired(now=now)["downloads_deleted"] == 1
    assert not DataExport.objects.filter(pk=expired.pk).exists()
    assert DataExport.objects.filter(pk=ready.pk).exists()
    # A build whose lease ran out is built again, not deleted.
    assert DataExport.objects.filter(pk=stalled.pk).exists()
    assert retention.forget_expired(now=now) == NOTHING


def test_the_limits_follow_the_settings(settings, now):
    settings.RETENTION_DAYS = {**settings.RETENTION_DAYS, "inbound": 5}
    received("<six@mail.example>", days_ago(now, 6))
    assert retention.forget_expired(now=now)["replies_forgotten"] == 1
