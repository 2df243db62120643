"""Timestamps read from PostgreSQL (``games.database``): the values Django's own loader
gives, whatever the offset, precision or range."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.backends.postgresql.psycopg_any import register_tzloader

from games.database import TIMESTAMPTZ, IsoTzLoader

pytestmark = pytest.mark.django_db

LITERALS = [
    "2026-11-26 09:52:39.123456+00",
    "2026-11-26 09:52:39+00",
    "2026-11-26 09:52:39.5+05:30",
    "1999-12-31 23:59:59.999999-08",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "9999-12-31 23:59:59+00 BC",
]


def read(literal: str, *, django_loader: bool):
    """The value of ``literal`` as read back (or the error reading it raised)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            if django_loader:
                register_tzloader(connection.timezone, cursor.cursor)
            cursor.execute("SELECT CAST(%s AS timestamptz)", [literal])
            return cursor.fetchone()[0]
    except DatabaseError as error:
        return type(error)


def test_every_connection_reads_timestamps_as_django_would():
    with connection.cursor() as cursor:
        assert issubclass(cursor.cursor.adapters.get_loader(TIMESTAMPTZ, 0), IsoTzLoader)
    for literal in LITERALS:
        ours, django = read(literal, django_loader=False), read(literal, django_loader=True)
        assert ours == django, literal
        assert getattr(ours, "tzinfo", None) is getattr(django, "tzinfo", None), literal
