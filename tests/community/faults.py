"""Faults in the middle of a step (issue 58), each at a point the seed chooses: a worker
killed between claiming a delivery and handing it over, or after handing it over and
before recording it; a database connection dropped, or a serialization failure, inside a
write; the process of the minute sweep restarted in the middle of its pass; the clock
jumping an hour. They are set by hooks around the site's own functions (the delivery
loop's hand-over, a channel's send, the event store's append), never by changing them;
and what reaches the SMTP server and the push service is counted, a row at a time, so
that nothing lost and nothing doubled is checked at the wire."""

import random
from collections import Counter
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from unittest import mock

import psycopg
from django.db import OperationalError, connection

from events import store
from games.notify.channels import every_channel, loop

KINDS = (
    "worker killed before the hand-over",
    "worker killed after the hand-over",
    "connection dropped in a write",
    "serialization failure in a write",
    "sweep restarted",
    "clock jumped an hour",
)
# In a step, the chance that one of ``KINDS`` is armed; it strikes at the first to the
# third time its point is reached (in this step or a later one).
CHANCE = 0.04
MOST_COUNT = 3
# A killed task's message comes back when the broker's visibility timeout has passed
# (azulsite/settings.py, ``CELERY_BROKER_TRANSPORT_OPTIONS``): Celery acknowledges late.
REDELIVERED_AFTER = timedelta(hours=1)


class WorkerKilled(BaseException):
    """The process running a task died here: nothing after this point ran, its open
    transaction is rolled back, its connection gone. A ``BaseException``, so that no
    ``except Exception`` of the site takes it for an error it handles."""


class InjectedSerializationFailure(OperationalError):
    """PostgreSQL's "could not serialize access" (SQLSTATE 40001), raised in a write."""


class MidStep:
    """The faults armed and struck, and the tally of what reached the wire."""

    def __init__(self, push_service) -> None:
        self.push = push_service
        self.armed: tuple[str, int] | None = None
        self.struck: Counter = Counter()
        # Whether a database fault struck since ``take_struck`` last looked.
        self.db_struck = False
        self.in_sweep = False
        # Rows whose worker was killed before the hand-over: when (their claim goes stale
        # and the sweep sends them again).
        self.killed_before: dict[int, datetime] = {}
        # Rows whose worker was killed after it: in doubt, never sent again, yet taken.
        self.killed_after: set[int] = set()
        # Pushes the push service accepted, by row.
        self.pushed: Counter = Counter()

    def arm(self, rng: random.Random) -> str | None:
        """Maybe arm a fault for this step (drawn by the step's ``rng``); its kind."""
        if self.armed is not None or rng.random() >= CHANCE:
            return None
        self.armed = (rng.choice(KINDS), rng.randint(1, MOST_COUNT))
        return self.armed[0]

    def strikes(self, kind: str) -> bool:
        """Whether the armed fault is ``kind`` and this is its moment (it is then spent)."""
        if self.armed is None or self.armed[0] != kind:
            return False
        left = self.armed[1] - 1
        self.armed = (kind, left) if left else None
        if not left:
            self.struck[kind] += 1
        return not left

    def db_faults(self) -> int:
        """How many database faults have struck."""
        return (
            self.struck["connection dropped in a write"]
            + self.struck["serialization failure in a write"]
        )

    def take_db_struck(self) -> bool:
        struck, self.db_struck = self.db_struck, False
        return struck

    @contextmanager
    def installed(self, now):
        """The hooks, for the run; ``now`` reads the simulated time."""
        real_hand_over = loop.HandOver.__call__
        real_append = store.append
        faults = self

        def hand_over(self) -> None:
            if faults.strikes("worker killed before the hand-over") or (
                faults.in_sweep and faults.strikes("sweep restarted")
            ):
                faults.killed_before[self.row.pk] = now()
                raise WorkerKilled(f"before handing over delivery {self.row.pk}")
            real_hand_over(self)

        def append(*args, **kwargs):
            if faults.strikes("serialization failure in a write"):
                faults.db_struck = True
                raise InjectedSerializationFailure(
                    "could not serialize access due to concurrent update"
                )
            if faults.strikes("connection dropped in a write"):
                faults.db_struck = True
                _drop(connection)
            if faults.in_sweep and faults.strikes("sweep restarted"):
                raise WorkerKilled("in the middle of the sweep's pass")
            return real_append(*args, **kwargs)

        with ExitStack() as stack:
            stack.enter_context(mock.patch.object(loop.HandOver, "__call__", hand_over))
            stack.enter_context(mock.patch.object(store, "append", append))
            for way in every_channel():
                stack.enter_context(
                    mock.patch.object(type(way), "send", self._counted(type(way).send))
                )
            yield self

    def _counted(self, real_send):
        """A channel's ``send``, with the pushes the service accepted counted for the row,
        and maybe the worker killed after it returned."""
        faults = self

        def send(way, row, composed, hand_over) -> None:
            received, refused = len(faults.push.received), faults.push.answers.failed
            try:
                real_send(way, row, composed, hand_over)
            finally:
                taken = (
                    len(faults.push.received) - received - (faults.push.answers.failed - refused)
                )
                faults.pushed[row.pk] += taken
            if faults.strikes("worker killed after the hand-over"):
                faults.killed_after.add(row.pk)
                raise WorkerKilled(f"after handing over delivery {row.pk}")

        return send


def _drop(connection) -> None:
    """The server ends the connection's session, as a restart or a network cut does: its
    next statement fails."""
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(
        **{key: value for key, value in params.items() if key != "cursor_factory"},
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
