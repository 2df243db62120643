"""The minute sweep's own time (issue 44). The jobs that do things one at a time (a game's
timeout, a computer's or a plan's move, a delivery) do them themselves while the pass has
time left, then hand the rest to the workers, so that a pass costs about the same however
much is due. The time is the pass's, shared by its jobs in their order: a job called on
its own (a test, a command) has ``SWEEP_SECONDS`` from its start."""

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
