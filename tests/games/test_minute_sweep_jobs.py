"""The minute sweep as a whole (issue 41): a finished game against computer players leaves
it running, and one job that fails never stops the others, above all the emails due."""

import time
from datetime import timedelta
from importlib import import_module

import psycopg
import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.models import Game, Outbox, ProcessBeat, SweepFailure
from games.selectors.access import MODERATORS_GROUP
from games.services.bots import bot_move
from games.services.deadlines import timeouts_apply
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


def timed_out_games(alice, bob, count: int) -> list[Game]:
    """``count`` games of Alice and Bob whose turn's time ran out a minute ago, oldest
    first."""
    games = []
    for number in range(count):
        game = game_create(
            creator=alice,
            game="azul",
            players=2,
            time_control={"kind": "per_move", "days": 1},
            timeout_policy="forfeit",
        )
        game_join(game=game, user=bob)
        Game.objects.filter(pk=game.pk).update(
            deadline=timezone.now() - timedelta(minutes=10 - number)
        )
        games.append(game)
    return games


@pytest.mark.django_db
def test_a_game_whose_timeout_always_fails_rests_and_never_starves_the_others(
    alice, bob, monkeypatch, settings
):
    """Two games whose timeout raises every time, first in the queue, and a batch of two:
    they are tried, set to rest for a minute, then two, and the game behind them is timed
    out in the next pass instead of waiting behind them for ever."""
    settings.MAIL_SWEEP_BATCH = 2
    poison, other_poison, healthy = timed_out_games(alice, bob, 3)
    timeout = import_module("games.services.deadlines").game_timeout

    def fails_for_poison(*, game_id, now):
        if game_id in (poison.pk, other_poison.pk):
            raise RuntimeError("a game that cannot be timed out")
        return timeout(game_id=game_id, now=now)

    monkeypatch.setattr("games.services.deadlines.game_timeout", fails_for_poison)
    now = timezone.now()

    assert sweep(now=now, jobs=[("timeouts", timeouts_apply)])["timeouts"] == 0
    resting = SweepFailure.objects.get(kind="game", item=poison.pk)
    assert resting.job == "timeouts" and resting.failures == 1
    assert resting.next_try_at == now + timedelta(minutes=1)
    assert "a game that cannot be timed out" in resting.error

    assert sweep(now=now + timedelta(seconds=30), jobs=[("timeouts", timeouts_apply)]) == {
        "timeouts": 1,
        "jobs_failed": 0,
    }
    healthy.refresh_from_db()
    assert healthy.status != Game.Status.ACTIVE

    sweep(now=now + timedelta(minutes=1), jobs=[("timeouts", timeouts_apply)])
    resting.refresh_from_db()
    assert resting.failures == 2
    assert resting.next_try_at == now + timedelta(minutes=3)
    client = Client()
    client.force_login(moderator())
    page = client.get("/status/").content.decode()
    assert f'<a href="/games/{poison.pk}/">game #{poison.pk}</a>' in page
    assert "failed 2 times in a row since" in page

    monkeypatch.setattr("games.services.deadlines.game_timeout", timeout)
    sweep(now=now + timedelta(minutes=3), jobs=[("timeouts", timeouts_apply)])
    assert not SweepFailure.objects.exists()
    poison.refresh_from_db()
    assert poison.status != Game.Status.ACTIVE


@pytest.mark.django_db
def test_a_job_that_hangs_is_stopped_at_its_bound_and_the_jobs_after_it_run(
    settings, monkeypatch, caplog
):
    settings.SWEEP_JOB_SECONDS = 0.5
    ran = []

    def hangs(*, now):
        time.sleep(30)

    def after(*, now):
        ran.append(now)
        return 1

    began = time.monotonic()
    done = sweep(jobs=[("hangs", hangs), ("after", after)])

    assert time.monotonic() - began < 5
    assert done == {"after": 1, "jobs_failed": 1} and ran
    failure = ProcessBeat.objects.get(name="sweep jobs").detail["failures"]["hangs"]
    assert "ran past its time bound of 0.5 s" in failure["error"]


def test_the_deliveries_are_a_beat_entry_of_their_own():
    """A job of the sweep that hangs cannot hold the emails and pushes: beat sends them by
    a task of its own, which runs only the channels' jobs."""
    schedule = import_module("azulsite.celery").app.conf.beat_schedule
    tasks = {entry["task"] for entry in schedule.values()}
    assert {"games.tasks.sweep", "games.tasks.deliveries_sweep"} <= tasks
    assert set(JOBS) == set(RUNNER.SWEEP_JOBS) | set(RUNNER.DELIVERY_JOBS)
    assert {name for name, _ in RUNNER.DELIVERY_JOBS} == {"emails", "pushes"}
    assert not set(RUNNER.SWEEP_JOBS) & set(RUNNER.DELIVERY_JOBS)


@pytest.mark.django_db(transaction=True)
def test_a_connection_dropped_in_one_game_does_not_fail_the_games_after_it(alice, bob, monkeypatch):
    """The server drops the sweep's connection while it times out the first game (a real
    ``pg_terminate_backend``): that game rests, and the next games open a new connection
    and are timed out in the same pass."""
    first, *others = timed_out_games(alice, bob, 3)
    timeout = import_module("games.services.deadlines").game_timeout

    def dropped_in_the_first(*, game_id, now):
        if game_id == first.pk:
            pid = connection.connection.info.backend_pid
            with psycopg.connect(settings_dsn(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        return timeout(game_id=game_id, now=now)

    monkeypatch.setattr("games.services.deadlines.game_timeout", dropped_in_the_first)
    done = sweep(jobs=[("timeouts", timeouts_apply)])

    assert done == {"timeouts": 2, "jobs_failed": 0}
    assert SweepFailure.objects.get().item == first.pk
    for game in others:
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE


def settings_dsn() -> str:
    """The test database's address, for a second connection of the test's own."""
    params = connection.get_connection_params()
    return psycopg.conninfo.make_conninfo(
        **{k: v for k, v in params.items() if k in ("host", "port", "user", "dbname", "password")}
    )
