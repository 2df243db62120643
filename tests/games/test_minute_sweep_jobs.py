"""The minute sweep as a whole (issue 41): a finished game against computer players leaves
it running, and one job that fails never stops the others, above all the emails due."""

from datetime import timedelta
from importlib import import_module

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from games.models import Game, Outbox, ProcessBeat
from games.selectors.access import MODERATORS_GROUP
from games.services.bots import bot_move
from games.services.moves import move_submit
from games.services.sweep import JOBS, sweep
from games.services.tables import game_create, game_join
from tests.conftest import make_user
from tests.games.helpers import legal

# The sweep's module (``games.services.sweep`` names its function in the package).
RUNNER = import_module("games.services.sweep")


@pytest.fixture
def no_broker(monkeypatch):
    """No broker: what the services would queue waits for the sweep, as when it is down."""
    for module in ("reactions", "analysis"):
        monkeypatch.setattr(f"games.services.{module}.send_quickly", lambda *a, **kw: False)


def one_job_fails(monkeypatch, name: str, error: Exception) -> None:
    """The minute sweep's job ``name`` raises ``error``; the others run as they are."""

    def broken(*, now):
        raise error

    jobs = tuple((job_name, broken if job_name == name else job) for job_name, job in JOBS)
    monkeypatch.setattr(RUNNER, "JOBS", jobs)


def moderator():
    """Maud, who moderates: the status page is hers to read."""
    maud = make_user("maud", is_staff=True)
    maud.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return maud


def played_against_the_computer(alice) -> Game:
    """Alice's game of Azul against three computer players, played to its end, every
    computer move played as the worker's task plays it."""
    game = game_create(creator=alice, game="azul", players=4, bots=["easy", "easy", "easy"])
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        if game.seats.get(position=game.to_move).user_id == alice.pk:
            move_submit(game=game, user=alice, move=legal(game)[0])
        else:
            assert bot_move(game_id=game.pk)
        game.refresh_from_db()
    return game


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_against_the_computer_leaves_every_sweep_sending(alice, bob, no_broker):
    game = played_against_the_computer(alice)
    assert game.status == Game.Status.FINISHED
    waiting = game_create(creator=alice, game="azul", players=2)
    game_join(game=waiting, user=bob)
    now = timezone.now() + timedelta(minutes=5)
    for minute_passed in range(3):
        done = sweep(now=now + timedelta(minutes=minute_passed))
        assert done["jobs_failed"] == 0
    assert not Outbox.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True).exists()
    assert alice.email in {message.to[0] for message in mail.outbox}
    assert ProcessBeat.objects.get(name="sweep jobs").detail == {"failures": {}}


@pytest.mark.django_db(transaction=True)
def test_a_job_that_fails_is_logged_counted_and_the_emails_still_go(
    alice, bob, no_broker, monkeypatch, caplog
):
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    one_job_fails(
        monkeypatch, "tournaments_started", RuntimeError("the tournaments' table is locked")
    )
    now = timezone.now() + timedelta(minutes=5)
    first = sweep(now=now)
    second = sweep(now=now + timedelta(minutes=1))
    assert first["jobs_failed"] == second["jobs_failed"] == 1
    assert first["sent"] >= 1
    assert alice.email in {message.to[0] for message in mail.outbox}
    assert "tournaments_started" in caplog.text
    assert "the tournaments' table is locked" in caplog.text
    failures = ProcessBeat.objects.get(name="sweep jobs").detail["failures"]
    assert failures["tournaments_started"]["count"] == 2
    assert "RuntimeError" in failures["tournaments_started"]["error"]
    assert failures["tournaments_started"]["since"] == now.isoformat()


@pytest.mark.django_db
def test_the_status_page_says_which_job_failed_how_often_and_since_when(client, monkeypatch):
    one_job_fails(monkeypatch, "pushes", RuntimeError("the push service's keys are missing"))
    now = timezone.now()
    for minute_passed in range(3):
        sweep(now=now - timedelta(minutes=3 - minute_passed))
    client.force_login(moderator())
    page = client.get("/status/").content.decode()
    assert "Push notifications due" in page
    assert "failed 3 times since" in page
    assert "the push service&#x27;s keys are missing" in page
    monkeypatch.setattr(RUNNER, "JOBS", JOBS)
    sweep(now=now)
    page = client.get("/status/").content.decode()
    assert "failed 3 times from" in page
    assert "running again since" in page
