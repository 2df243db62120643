"""What surrounds the site in the simulated community: a fake clock, the real broker (Redis)
drained by a worker in this process, a real SMTP server and a real push service, each of
which can fail for a while."""

import logging
import random
from contextlib import contextmanager
from datetime import datetime, timedelta
from unittest import mock

from aiosmtpd.controller import Controller
from django.apps import apps
from django.utils import timezone
from kombu.simple import SimpleQueue

from azulsite.celery import app
from games import tasks  # noqa: F401 (the tasks the worker runs are registered by name)
from games.models import Game
from tests.mail.conftest import Sink, free_port
from tests.push.conftest import PushService

# Where nothing listens: a broker "unreachable" refuses every connection at once.
UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"


class FakeClock:
    """The site's time: ``django.utils.timezone.now`` and every model's "now" default read
    it while it is installed; the community moves it on."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    @contextmanager
    def installed(self, secrets: random.Random):
        """Time is this clock's, and games' secrets come from ``secrets`` (so a seed replays
        the same draws)."""
        real_now = timezone.now
        moved = [
            field
            for model in apps.get_models()
            for field in model._meta.concrete_fields
            if field.default is real_now
        ]
        secret = Game._meta.get_field("rng_secret")
        real_secret = secret.default
        changed = [(field, real_now, self) for field in moved]
        changed.append((secret, real_secret, lambda: f"{secrets.getrandbits(256):064x}"))
        with mock.patch.object(timezone, "now", self):
            for field, _real, fake in changed:
                _set_default(field, fake)
            try:
                yield self
            finally:
                for field, real, _fake in changed:
                    _set_default(field, real)


def _set_default(field, default) -> None:
    field.default = default
    # Django caches the callable it reads the default from.
    field.__dict__.pop("_get_default", None)


class Broker:
    """The site's real broker, with this process as its worker: what was queued is taken
    off and run by name (a task with a countdown when the fake clock reaches it).
    ``down`` makes it unreachable, as a stopped Redis is: ``send_quickly`` then reports
    failure and only the minute sweep finds the work."""

    QUEUES = ("celery", "analysis")

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.url = app.conf.broker_url
        self.waiting: list[tuple[datetime, int, str, list]] = []
        self.taken = 0
        self.down = False
        # The worker's own connection, as a worker keeps one open.
        self.connection = app.connection_for_read()
        self.connection.default_channel.client.flushdb()
        # Declared before anything is sent, as a worker declares them: Redis keeps a
        # message only for a queue bound to its exchange.
        self.queues = [
            SimpleQueue(self.connection.default_channel, name, no_ack=True) for name in self.QUEUES
        ]

    def close(self) -> None:
        self.set_down(False)
        for queue in self.queues:
            queue.close()
        self.connection.release()

    def set_down(self, down: bool) -> None:
        self.down = down
        app.conf.broker_url = UNREACHABLE_BROKER if down else self.url
        # Celery keeps one pool of connections per broker address: the next send takes
        # the pool of the address now configured.
        app._pool = None

    def take(self) -> None:
        """Move every message the broker holds to the worker's list of due work."""
        if self.down:
            return
        for queue in self.queues:
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    break
                self.taken += 1
                args, _kwargs, _embed = message.decode()
                due = self.clock.now
                if eta := message.headers.get("eta"):
                    at = datetime.fromisoformat(eta)
                    due += max(at - datetime.now(at.tzinfo), timedelta(0))
                self.waiting.append((due, self.taken, message.headers["task"], args))

    def due(self) -> list[tuple[str, list]]:
        """The tasks due now, in the order they were queued, taken off the list."""
        now = self.clock.now
        ready = sorted(job for job in self.waiting if job[0] <= now)
        self.waiting = [job for job in self.waiting if job[0] > now]
        return [(name, args) for _due, _order, name, args in ready]

    @staticmethod
    def run(name: str, args: list):
        return app.tasks[name](*args)


class MailServer(Sink):
    """A real SMTP server (the suite's sink) that can refuse for a while: a temporary
    refusal (4xx) at a recipient or at the end of the message."""

    def __init__(self) -> None:
        super().__init__()
        self.refusing = ""
        self.refused = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options) -> str:
        if self.refusing == "recipient":
            self.refused += 1
            return "451 4.3.2 busy, try again later"
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.refusing == "data":
            self.refused += 1
            return "451 4.3.0 busy, try again later"
        return await super().handle_DATA(server, session, envelope)


@contextmanager
def mail_server():
    server = MailServer()
    server.port = free_port()
    controller = Controller(server, hostname="127.0.0.1", port=server.port)
    controller.start()
    try:
        yield server
    finally:
        controller.stop()


class Outage:
    """What the push service answers: 201, or 500 while ``down`` (the suite's push
    service answers each push with the next of its ``answers``)."""

    def __init__(self) -> None:
        self.down = False
        self.failed = 0

    def __bool__(self) -> bool:
        return self.down

    def pop(self, _index: int) -> tuple[int, dict]:
        self.failed += 1
        return 500, {}


@contextmanager
def push_service():
    service = PushService()
    service.answers = Outage()
    service.thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()


class ErrorLog(logging.Handler):
    """Every record at ERROR or above, from any logger: a job of the sweep that failed and
    was isolated, a task or a door that logged its failure."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    @contextmanager
    def installed(self):
        root = logging.getLogger()
        root.addHandler(self)
        try:
            yield self
        finally:
            root.removeHandler(self)
