"""Play-by-email fixtures: a real SMTP sink (aiosmtpd), a real Celery worker on Redis,
games between alice and bob, and a clock the tests move by hand (``now`` passed to the
sweep services; nothing patches time)."""

import asyncio
import email
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from games.models import Game, Outbox
from games.services.tables import game_create, game_join

logging.getLogger("mail.log").setLevel(logging.WARNING)
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Sink:
    """Every message the SMTP server accepted, parsed. ``on_recipient`` and ``on_message``
    are called (in the server's thread) before DATA and once a message is in;
    ``answer_after`` seconds pass before the server answers a message."""

    messages: list[EmailMessage] = field(default_factory=list)
    on_message: object = None
    on_recipient: object = None
    answer_after: float = 0
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if self.on_recipient:
            self.on_recipient(address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=policy.default)
        with self.lock:
            self.messages.append(message)
        if self.on_message:
            self.on_message(message)
        await asyncio.sleep(self.answer_after)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp(settings):
    """A real SMTP server on a free port; Django sends through it."""
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.YOUR_TURN_GRACE_SECONDS = 0
    settings.MAIL_REPLY_DOMAIN = "play.example"
    # The board pictures have tests of their own (test_render.py); the rest stay fast.
    settings.MAIL_BOARD_PICTURES = False
    sink.port = port
    yield sink
    controller.stop()


class Worker:
    """``celery -A azulsite worker`` in its own process, on the test database and Redis."""

    def __init__(self, smtp_port: int, broker_url: str, *, number: int = 0) -> None:
        self.name = f"test-{number}@{socket.gethostname()}"
        database = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": (
                f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
                f"{database['NAME']}"
            ),
            "CELERY_BROKER_URL": broker_url,
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
            "MAIL_REPLY_DOMAIN": "play.example",
            "YOUR_TURN_GRACE_SECONDS": "0",
            "CONN_MAX_AGE": "0",
            "MAIL_BOARD_PICTURES": "0",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "azulsite",
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
                "--loglevel=warning",
                f"--hostname={self.name}",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def wait_until_ready(self, app, timeout: float = 120.0) -> None:
        """Wait until the worker answers a ping: on a busy machine, starting Django and
        Celery takes longer than the tests' waits for an email."""
        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[self.name], timeout=1.0):
            assert self.process.poll() is None, "the worker stopped"
            assert time.monotonic() < deadline, "the worker did not start"

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_worker(smtp):
    """Start (and at the end stop) real Celery workers against the test database."""
    from azulsite.celery import app

    workers = []
    app.connection_for_write().default_channel.client.flushdb()

    def start() -> Worker:
        worker = Worker(smtp.port, django_settings.CELERY_BROKER_URL, number=len(workers))
        workers.append(worker)
        worker.wait_until_ready(app)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def clock():
    """The time the tests pass to the sweep services as ``now``."""

    class Clock:
        def __init__(self) -> None:
            # A little ahead, so what the test queues just after is already due.
            self.now = timezone.now() + timedelta(seconds=30)

        def advance(self, **delta) -> object:
            self.now += timedelta(**delta)
            return self.now

    return Clock()


def start_game(creator, *others, game="azul", **options) -> Game:
    """A started game of ``creator`` and ``others`` (seat order drawn by the service)."""
    table = game_create(creator=creator, game=game, players=1 + len(others), **options)
    for other in others:
        game_join(game=table, user=other)
    table.refresh_from_db()
    return table


def player_to_move(game: Game):
    game.refresh_from_db()
    return game.seats.get(position=game.to_move).user


def fixture_reply(name: str, **values) -> bytes:
    """A fixture .eml with its $PLACEHOLDERS filled in."""
    from string import Template

    text = (FIXTURES / name).read_text()
    return Template(text).substitute(values).replace("\n", "\r\n").encode()


def body_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def moves_in(message: EmailMessage) -> list[str]:
    """The numbered moves an email lists (several to a line, in columns), in order."""
    moves = []
    for line in body_of(message).splitlines():
        for cell in re.split(r"\s{2,}", line.strip()):
            head, dot, rest = cell.partition(". ")
            if dot and head.isdigit() and int(head) == len(moves) + 1:
                moves.append(rest)
    return moves


def kind_of(message: EmailMessage) -> str:
    """The kind of outbox row an email was sent for (its subject is the game's)."""
    return Outbox.objects.get(message_id=str(message["Message-ID"]).strip()).kind


def of_kind(messages: list[EmailMessage], *kinds: str) -> list[EmailMessage]:
    return [message for message in messages if kind_of(message) in kinds]
