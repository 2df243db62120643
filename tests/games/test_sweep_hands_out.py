"""The minute sweep hands out what it has no time for (issue 44): past ``SWEEP_SECONDS``
(its jobs' time together) the timeouts still due, the turns a computer plays for a player
out of time and the emails due go to the workers as tasks, through the real broker, and
each is done once, however often it was handed out; with the broker down the sweep does
them itself."""

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import sweeping
from games.models import Game, Outbox
from games.notify.channels.loop import send_due
from games.services import bots, deadlines
from tests.community.world import Broker, FakeClock
from tests.conftest import make_user
from tests.games.helpers import every_player_moved
from tests.mail.conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)

TASK = "games.tasks.games_handed_out"
SEND = "games.tasks.send_delivery"


@pytest.fixture
def broker():
    broker = Broker(FakeClock(timezone.now()))
    yield broker
    broker.close()


@pytest.fixture
def out_of_time():
    """Five games of two whose player to move ran out of time a minute ago (policy
    ``forfeit``), and the time now."""
    return games_out_of_time("forfeit")


def games_out_of_time(policy: str, **options):
    games = []
    for number in range(5):
        game = start_game(
            make_user(f"first{number}"),
            make_user(f"second{number}"),
            time_control={"kind": "per_move", "days": 1},
            timeout_policy=policy,
            **options,
        )
        every_player_moved(game)
        games.append(game)
    now = timezone.now() + timedelta(days=2)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(deadline=now - timedelta(minutes=1))
    return games, now


def timeout_notices() -> int:
    return Outbox.objects.filter(kind="timeout").count()


def test_past_its_time_the_sweep_hands_the_timeouts_to_the_workers_and_each_is_done_once(
    settings, broker, out_of_time
):
    settings.SWEEP_SECONDS, settings.SWEEP_HAND_OUT = 0, 2
    games, now = out_of_time
    assert deadlines.timeouts_apply(now=now) == 5
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 5
    broker.take()
    handed = [(name, args) for name, args in broker.due() if name == TASK]
    assert {job for _, (job, _ids, _now) in handed} == {"timeouts"}
    assert sorted(len(ids) for _, (_job, ids, _now) in handed) == [1, 2, 2]
    assert sorted(i for _, (_job, ids, _now) in handed for i in ids) == [g.pk for g in games]
    for name, args in handed + handed:
        broker.run(name, args)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 5
    assert timeout_notices() == 5
    assert deadlines.timeouts_apply(now=now) == 0


def test_with_the_broker_down_the_sweep_does_every_timeout_itself(settings, broker, out_of_time):
    settings.SWEEP_SECONDS, settings.SWEEP_HAND_OUT = 0, 2
    _games, now = out_of_time
    broker.set_down(True)
    assert deadlines.timeouts_apply(now=now) == 5
    broker.set_down(False)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 5
    assert timeout_notices() == 5
    broker.take()
    assert [name for name, _ in broker.due() if name == TASK] == []


def test_the_turns_a_computer_plays_for_players_out_of_time_are_handed_out_too(settings, broker):
    settings.SWEEP_SECONDS, settings.SWEEP_HAND_OUT = 0, 2
    games, now = games_out_of_time("bot", timeout_bot="easy")
    seqs = {game.pk: Game.objects.get(pk=game.pk).last_seq for game in games}
    assert bots.bots_sweep(now=now) == 5
    assert all(Game.objects.get(pk=pk).last_seq == seq for pk, seq in seqs.items())
    broker.take()
    handed = [args for name, args in broker.due() if name == TASK]
    assert {job for job, _ids, _now in handed} == {"bot_moves"}
    for args in handed + handed:
        broker.run(TASK, args)
    for game in Game.objects.filter(pk__in=seqs):
        assert game.last_seq > seqs[game.pk]
        assert game.deadline > now
    assert timeout_notices() == 5
    assert bots.bots_sweep(now=now) == 0


def test_past_its_time_the_sweep_hands_the_emails_due_to_the_workers_each_sent_once(
    settings, broker, out_of_time
):
    _games, now = out_of_time
    deadlines.timeouts_apply(now=now)
    broker.take()
    broker.due()
    unsent = Outbox.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    due = unsent.filter(due_at__lte=now).count()
    assert unsent.filter(kind="timeout").count() == 5
    settings.SWEEP_SECONDS = 0
    counts = send_due(now=now, name="email")
    assert (counts["sent"], counts["emails_handed"]) == (0, due), "none sent, all handed"
    assert len(mail.outbox) == 0
    broker.take()
    handed = [args for name, args in broker.due() if name == SEND]
    assert len(handed) == due
    for args in handed + handed:
        broker.run(SEND, args)
    # The workers send at their own time: the timeouts' emails (due at once), each once.
    assert unsent.filter(kind="timeout").count() == 0
    assert len(mail.outbox) == Outbox.objects.filter(sent_at__isnull=False).count() >= 5


def test_a_sweeps_jobs_share_its_time(settings, broker, out_of_time):
    settings.SWEEP_SECONDS = 0.5
    _games, now = out_of_time
    started = time.monotonic()
    with sweeping.sweep_pass():
        time.sleep(0.5)
        assert sweeping.out_of_time(started + 0.5)
        assert deadlines.timeouts_apply(now=now) == 5
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 5
    assert not sweeping.out_of_time(time.monotonic())
