"""PostgreSQL connections read ``timestamptz`` columns with the C parser of
``datetime.fromisoformat``, many times faster than Django's loader (psycopg's parser, in
Python; the figures are in docs/service.md, "What a move costs"). A move's locked read of
the game with its seats, players and clocks holds some twenty of them, and so does a
poll's read of the game. Values it does not read (``infinity``, dates BC, years past 9999)
go to Django's loader, so every value comes back as Django's would have given it."""

from datetime import datetime
from functools import cache

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg.postgres import types
from psycopg.pq import Format

TIMESTAMPTZ = types["timestamptz"].oid


class IsoTzLoader(BaseTzLoader):
    """Django's loader (``timezone``: the zone its values are given in, or None for naive
    ones), the usual values read by ``fromisoformat``."""

    def load(self, data) -> datetime:
        try:
            moment = datetime.fromisoformat(bytes(data).decode())
        except ValueError:
            return super().load(data)
        # As psycopg's parser: in the connection's zone; then as Django's, in its own.
        moment = moment.astimezone(self._timezone)
        return moment if moment.tzinfo is self.timezone else moment.replace(tzinfo=self.timezone)


@cache
def iso_loader(zone) -> type[IsoTzLoader]:
    """The loader giving values in ``zone`` (one class per zone, as Django's are)."""
    return type("IsoTzLoader", (IsoTzLoader,), {"timezone": zone})


def read_timestamps_faster(sender, connection: BaseDatabaseWrapper, **kwargs) -> None:
    """On every new PostgreSQL connection (``connection_created``): its timestamps read by
    ``IsoTzLoader``, in the zone Django's loader gave them (so that Django, which compares
    the zones when it makes a cursor, never registers its own again)."""
    if connection.vendor != "postgresql":
        return
    adapters = connection.connection.adapters
    zone = adapters.get_loader(TIMESTAMPTZ, Format.TEXT).timezone
    adapters.register_loader(TIMESTAMPTZ, iso_loader(zone))
