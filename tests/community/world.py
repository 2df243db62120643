"""What surrounds the site in the simulated community: a fake clock, the real broker (Redis)
drained by a worker in this process, a real SMTP server and a real push service, each of
which can fail for a while; and ``story_owned``, which gives the simulation every source of
chance and time the site reads, so that a seed is a story."""

import email.utils
import logging
import random
import time
import uuid
from contextlib import ExitStack, contextmanager
from datetime import datetime
from types import SimpleNamespace
from unittest import mock

from aiosmtpd.controller import Controller
from cryptography import fernet
from django.apps import apps
from django.core import signing
from django.core.mail import message as mail_message
from django.utils import timezone
from kombu.simple import SimpleQueue

from azulsite.celery import app
from events import shredding
from games import (
    bots,
    sweeping,
    tasks,  # noqa: F401 (the tasks the worker runs are registered by name)
)
from games.models import Game, notices
from games.notify.channels import loop
from games.services import analysis, common, tables
from games.services import bots as bot_service
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


# The hard computer player's search, in simulations rather than the machine's seconds.
HARD_SIMULATIONS = 24
# What a read of the site's own stopwatch (``time.monotonic``) costs in the simulation: each
# read moves it on by this much, so that a pass of the sweep or a computer's task "takes"
# as long as the reads it makes, whatever the machine.
TICK_SECONDS = 0.001
# The modules whose stopwatch is the simulation's: the sweep's time (``games.sweeping``)
# and its callers, a computer players' task, an analysis's slice.
TIMED_MODULES = (sweeping, common, loop, bot_service, analysis)


class Stopwatch:
    """``time.monotonic`` for the site in the simulation: one tick more at every read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * TICK_SECONDS


@contextmanager
def story_owned(clock: FakeClock, seed: int):
    """Every source of chance and time the site reads is the simulation's, drawn from
    ``seed``: the wall clock (``clock``, also for signed links and email dates), games'
    secrets, the seats' order, Message-IDs, sealed text's keys and IVs, the stopwatch of
    the sweep and the tasks, the hard computer's search, and the process's shared
    ``random`` (MIME boundaries)."""
    draws = random.Random(f"{seed}:site")
    stopwatch = Stopwatch()
    timed = SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if name[0] != "_"})
    timed.monotonic = stopwatch
    urandom = SimpleNamespace(urandom=draws.randbytes)
    ids = SimpleNamespace(
        uuid4=lambda: uuid.UUID(int=draws.getrandbits(128), version=4), UUID=uuid.UUID
    )
    real_choose = bots.choose

    def choose(game, state, seat, level, seed, **limits):
        if level == bots.HARD:
            limits = {"simulations": HARD_SIMULATIONS}
        return real_choose(game, state, seat, level, seed, **limits)

    shared = random.getstate()
    random.seed(f"{seed}:process")
    with ExitStack() as stack:
        stack.enter_context(clock.installed(random.Random(f"{seed}:secrets")))
        stack.enter_context(mock.patch.object(tables, "seating", random.Random(f"{seed}:seats")))
        for module in TIMED_MODULES:
            if hasattr(module, "time"):
                stack.enter_context(mock.patch.object(module, "time", timed))
        for module in (notices, analysis):
            stack.enter_context(mock.patch.object(module, "uuid", ids))
        wall = SimpleNamespace(time=lambda: clock.now.timestamp())
        stack.enter_context(mock.patch.object(signing, "time", wall))
        # Sealed text (events.shredding): its keys, shares and Fernet's IVs and times.
        stack.enter_context(mock.patch.object(shredding, "os", urandom))
        stack.enter_context(mock.patch.object(fernet, "os", urandom))
        stack.enter_context(mock.patch.object(fernet, "time", wall))
        stack.enter_context(
            mock.patch.object(
                mail_message,
                "formatdate",
                lambda localtime=False: email.utils.format_datetime(clock.now),
            )
        )
        stack.enter_context(mock.patch.object(bots, "choose", choose))
        try:
            yield
        finally:
            random.setstate(shared)


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
        # Declared before anything is sent, as a worker declares them: Redis keeps a
        # message only for a queue bound to its exchange. Emptied of an earlier story's.
        self.queues = [
            SimpleQueue(self.connection.default_channel, name, no_ack=True) for name in self.QUEUES
        ]
        for queue in self.queues:
            queue.clear()

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
                # The site asks for no countdowns (azulsite/celery.py): all is due now.
                self.waiting.append((self.clock.now, self.taken, message.headers["task"], args))

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
