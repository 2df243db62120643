"""Reads that tolerate lag go to a streaming replica (issue 33): the replay, the archive,
the exports and the leaderboards. A player's own game page, every write, and every read in a
transaction read the primary, so nobody acts on a position older than the one they moved.

``DATABASE_REPLICA_URL`` names the replica (``settings.READ_REPLICA``); without it the
``replica`` alias is the primary's configuration and nothing is routed to it. A door marks
its reads with ``lag_tolerant`` (a function view) or ``LagTolerant`` (a DRF view);
``ReplicaRouter`` (``DATABASE_ROUTERS``) sends them to the ``replica`` alias. A streamed
response's rows are read after the view returns, from the primary."""

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"
_tolerating_lag: ContextVar[bool] = ContextVar("tolerating_lag", default=False)


@contextmanager
def reading_lagging() -> Iterator[None]:
    """Within: reads outside a transaction may come from the replica."""
    token = _tolerating_lag.set(True)
    try:
        yield
    finally:
        _tolerating_lag.reset(token)


def lag_tolerant(view: Callable) -> Callable:
    """A function view whose reads may lag behind the primary."""

    @functools.wraps(view)
    def reading(*args, **kwargs):
        with reading_lagging():
            return view(*args, **kwargs)

    return reading


class LagTolerant:
    """A DRF view (mixed in first) whose reads may lag behind the primary."""

    def dispatch(self, request, *args, **kwargs):
        with reading_lagging():
            return super().dispatch(request, *args, **kwargs)


class ReplicaRouter:
    """Lag-tolerant reads to the replica; everything else to the primary."""

    def db_for_read(self, model, **hints) -> str:
        if (
            _tolerating_lag.get()
            and settings.READ_REPLICA
            and not connections[DEFAULT_DB_ALIAS].in_atomic_block
        ):
            return REPLICA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, first, second, **hints) -> bool:
        # The replica holds the primary's rows: an object read from either is the same row.
        return True

    def allow_migrate(self, db, app_label, **hints) -> bool:
        return db == DEFAULT_DB_ALIAS
