"""The minute sweep hands out what it has no time for (issue 44): past ``SWEEP_SECONDS``
the timeouts still due go to the workers as tasks, through the real broker, and each game
is timed out once, however often it was handed out; with the broker down the sweep does
them itself."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Outbox
from games.services import deadlines
from tests.community.world import Broker, FakeClock
from tests.conftest import make_user
from tests.games.helpers import every_player_moved
from tests.mail.conftest import start_game

pytestmark = pytest.mark.django_db(transaction=True)

TASK = "games.tasks.timeouts_handed_out"


@pytest.fixture
def broker():
    broker = Broker(FakeClock(timezone.now()))
    yield broker
    broker.close()


@pytest.fixture
def out_of_time():
    """Five games of two whose player to move ran out of time a minute ago (policy
    ``forfeit``), and the time now."""
    games = []
    for number in range(5):
        game = start_game(
            make_user(f"first{number}"),
            make_user(f"second{number}"),
            time_control={"kind": "per_move", "days": 1},
            timeout_policy="forfeit",
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
    assert sorted(len(ids) for _, (ids, _now) in handed) == [1, 2, 2]
    assert sorted(i for _, (ids, _now) in handed for i in ids) == [g.pk for g in games]
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
