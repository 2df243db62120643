"""A new channel is a folder and one line (``NOTICE_CHANNELS``): the pager of
``tests/notify/pager`` gets a "your turn" notice in the mover's transaction, and the one
delivery loop sends it once, tries it again after a busy answer, gives it up after a
refusal, leaves it in doubt when the beep got no answer, and withdraws it when the move
is taken back."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import notify
from games.models import Delivery, NoticeKind
from games.services.moves import move_undo
from tests.games.helpers import play, started, to_move
from tests.notify.pager import PAGER

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def pager(settings):
    """The pager registered, by its one line, and its service reset."""
    settings.NOTICE_CHANNELS = {
        **settings.NOTICE_CHANNELS,
        "pager": "tests.notify.pager.PagerChannel",
    }
    PAGER.answers.clear()
    PAGER.beeped.clear()


def begun(alice, bob):
    """A game of Alice and Bob, without the beep of its first turn (the tests follow the
    beeps of a move)."""
    game = started("azul", alice, bob)
    Delivery.objects.filter(channel="pager").delete()
    return game


def moved(alice, bob):
    """A game where a move was just played: the next player's "your turn" beep waits for
    its grace period."""
    game = begun(alice, bob)
    play(game)
    game.refresh_from_db()
    return game


def beep_of(game) -> Delivery:
    return Delivery.objects.get(
        channel="pager", game=game, kind=NoticeKind.YOUR_TURN, key=game.last_seq
    )


def after_the_grace(settings, minutes: int = 0):
    return timezone.now() + timedelta(seconds=settings.YOUR_TURN_GRACE_SECONDS, minutes=minutes)


def test_the_notice_is_written_in_the_movers_transaction(alice, bob):
    game = begun(alice, bob)
    with pytest.raises(RuntimeError), transaction.atomic():
        play(game)
        assert Delivery.objects.filter(channel="pager", kind=NoticeKind.YOUR_TURN).exists()
        raise RuntimeError("the move's transaction rolls back")
    assert not Delivery.objects.filter(channel="pager", kind=NoticeKind.YOUR_TURN).exists()


def test_it_is_sent_once_by_the_loop_when_due(alice, bob, settings):
    game = moved(alice, bob)
    row = beep_of(game)
    assert row.recipient == f"pager:{to_move(game).pk}"
    assert notify.send_due(now=timezone.now())["beeped"] == 0, "not before its grace period"
    assert notify.send_due(now=after_the_grace(settings))["beeped"] == 1
    assert notify.send_due(now=after_the_grace(settings, minutes=1))["beeped"] == 0
    assert PAGER.beeped == [(row.recipient, NoticeKind.YOUR_TURN, game.last_seq)]
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 1


def test_a_busy_service_is_tried_again_later(alice, bob, settings):
    game = moved(alice, bob)
    PAGER.answers[:] = ["busy"]
    assert notify.send_due(now=after_the_grace(settings))["beeped"] == 0
    row = beep_of(game)
    assert row.claimed_at is None and row.cancelled_at is None and "busy" in row.last_error
    assert notify.send_due(now=after_the_grace(settings, minutes=1))["beeped"] == 0, "waits"
    assert notify.send_due(now=after_the_grace(settings, minutes=5))["beeped"] == 1
    assert len(PAGER.beeped) == 1


def test_a_refusal_for_good_gives_up(alice, bob, settings):
    game = moved(alice, bob)
    PAGER.answers[:] = ["unknown"]
    notify.send_due(now=after_the_grace(settings))
    row = beep_of(game)
    assert row.cancelled_at is not None and row.sent_at is None
    assert notify.send_due(now=after_the_grace(settings, minutes=60))["beeped"] == 0
    assert PAGER.beeped == []


def test_no_answer_after_the_hand_over_leaves_it_in_doubt_never_sent_again(alice, bob, settings):
    game = moved(alice, bob)
    PAGER.answers[:] = ["silent"]
    notify.send_due(now=after_the_grace(settings))
    row = beep_of(game)
    assert row.in_doubt_at is not None and row.handed_over_at is not None
    assert "no answer from the pager service" in row.last_error
    assert notify.send_due(now=after_the_grace(settings, minutes=60))["beeped"] == 0
    assert PAGER.beeped == []


def test_it_is_withdrawn_when_the_move_is_taken_back(alice, bob, settings):
    game = begun(alice, bob)
    mover = to_move(game)
    play(game)
    game.refresh_from_db()
    row = beep_of(game)
    move_undo(game=game, user=mover)
    row.refresh_from_db()
    assert row.cancelled_at is not None and row.withdrawn_because
    notify.send_due(now=after_the_grace(settings))
    assert (row.recipient, row.kind, row.key) not in PAGER.beeped
