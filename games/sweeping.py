"""The minute sweep's own time (issue 44). The jobs that do things one at a time (a game's
timeout, a computer's or a plan's move, a delivery) do them themselves while the pass has
time left, then hand the rest to the workers, so that a pass costs about the same however
much is due. The time is the pass's, shared by its jobs in their order: a job called on
its own (a test, a command) has ``SWEEP_SECONDS`` from its start.

Every job also has a time bound (``time_bound``, ``SWEEP_JOB_SECONDS``): a job that hangs
(a lock never given, a server that never answers) is interrupted, its item rolled back,
and the jobs after it go on (issue 58)."""

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

_pass_ends: ContextVar[float | None] = ContextVar("sweep_pass_ends", default=None)


@contextmanager
def sweep_pass() -> Iterator[None]:
    """A pass of the minute sweep: its jobs share ``SWEEP_SECONDS`` from now."""
    token = _pass_ends.set(time.monotonic() + settings.SWEEP_SECONDS)
    try:
        yield
    finally:
        _pass_ends.reset(token)


def out_of_time(began: float) -> bool:
    """Whether a job that began at ``began`` (``time.monotonic()``) must hand what is left
    to the workers: the pass has used its time (alone: the job has used ``SWEEP_SECONDS``)."""
    ends = _pass_ends.get()
    return time.monotonic() > (began + settings.SWEEP_SECONDS if ends is None else ends)


class JobOverran(BaseException):
    """A job of the sweep ran past its time bound. A ``BaseException``, so that the jobs'
    own ``except Exception`` around each item does not take it for one item's failure and
    go on with the next: the whole job stops, as bounded."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Interrupt the block with ``JobOverran`` after ``seconds`` (0: no bound). By the
    ``SIGALRM`` timer, which interrupts a wait on a socket as well as Python code: only in
    a process's main thread (a Celery worker's task, a command) on a system that has it;
    elsewhere the block runs unbounded."""
    if (
        seconds <= 0
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def overran(signum, frame):
        raise JobOverran(f"ran past its time bound of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
