"""A Celery worker outlives a restart of its broker: Redis stopped for ten seconds and
started again, the worker is still running and the email that was due in between goes
out. Its own Redis server on a free port, so the shared one at 6379 is never restarted."""

import subprocess
import time

import pytest
from celery import Celery
from django.utils import timezone

from azulsite.celery import app, send_quickly
from games.models import NoticeKind, Outbox
from tests.games.helpers import play
from tests.mail.conftest import Worker, free_port, start_game

pytestmark = pytest.mark.django_db(transaction=True)

# Long enough for the email to be still waiting when the broker stops and starts again
# (a task held under a countdown, before the worker kept none); short enough for the test
# to stay under a minute.
GRACE_SECONDS = 15
BROKER_DOWN_SECONDS = 10


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


class RedisServer:
    """``redis-server`` on ``port`` in the foreground, without persistence (a restart
    loses every queued and unacknowledged message, as a crash of an unsaved server would)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
        )
        assert wait_for(self.answers, timeout=10), "redis-server did not start"

    def answers(self) -> bool:
        ping = ["redis-cli", "-p", str(self.port), "ping"]
        return subprocess.run(ping, capture_output=True, text=True).stdout.strip() == "PONG"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def broker():
    """A Redis server of the test's own, the broker of the site's Celery app and of the
    worker for the length of the test."""
    server = RedisServer(free_port())
    server.start()
    shared = app.conf.broker_url
    app.conf.broker_url = server.url
    # Drops the app's pool of connections: the next one is made to the broker now set.
    app.close()
    yield server
    app.conf.broker_url = shared
    app.close()
    server.stop()


def wait_until_answering(worker: Worker, broker: RedisServer) -> None:
    """Wait until ``worker`` answers a ping sent through ``broker``: by an app of its own,
    since the site's app keeps sending its control messages to the broker it had when it
    first sent one."""
    with Celery(broker=broker.url, set_as_current=False) as own:
        worker.wait_until_ready(own)


def test_worker_outlives_a_broker_restart_and_sends_the_turn_email_due_meanwhile(
    alice, bob, smtp, broker, settings
):
    """A move's "your turn" is due ``GRACE_SECONDS`` after it; two seconds after the move
    the broker stops, and it starts again ``BROKER_DOWN_SECONDS`` later. The worker is
    still running, and the email leaves once, when the sweep runs after it is due."""
    worker = Worker(smtp.port, broker.url)
    try:
        wait_until_answering(worker, broker)
        game = start_game(alice, bob)
        settings.YOUR_TURN_GRACE_SECONDS = GRACE_SECONDS
        play(game)
        due = time.monotonic() + GRACE_SECONDS
        turn = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN, due_at__gt=timezone.now())

        def sent() -> list:
            emails = smtp.to(turn.recipient)
            return [e for e in emails if str(e["Message-ID"]).strip() == turn.message_id]

        time.sleep(2)
        broker.stop()
        time.sleep(BROKER_DOWN_SECONDS)
        broker.start()
        restarted = time.monotonic()
        time.sleep(2)
        assert worker.process.poll() is None, "the worker stopped with its broker"
        assert not sent(), "sent before its grace period was over"
        time.sleep(max(0.0, due - time.monotonic()))
        # What beat asks for every minute, sent as the site sends every task.
        assert send_quickly("games.tasks.deliveries_sweep", []), "the broker refused the sweep"
        assert wait_for(sent, timeout=30), "the email due meanwhile never left"
        assert time.monotonic() - restarted < 60
        assert worker.process.poll() is None
        assert len(sent()) == 1
    finally:
        worker.stop()
