"""Queries on the move path, compiled once per process instead of once per call.

Django's ORM turns a queryset into SQL afresh every time it runs, and for the joined,
locked read of a game and its seats that costs several times the CPU of sending the SQL
(``bench/reads.py`` and a profile of ``POST /moves``; the figures are in docs/service.md,
"What a move costs"). ``Prepared`` builds
the queryset once, keeps its SQL, its column converters and how it fills related objects
(``select_related``), and then only runs that SQL with the call's values: the instances
it gives back are the ones the queryset would have given. ``save_fields`` is the same
for ``Model.save(update_fields=…)`` on a model without signals or ``auto_now`` fields.
``writes_together`` holds the writes whose answers nobody reads (``write``) and runs them
as one statement.
"""

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

from events.cursors import execute, fetchall, kept_cursor

# Stand-ins for the call's values while the queryset is compiled: their places in the
# compiled parameters are where each call's values go.
_PLACEHOLDERS = (-7_351_902_461, -7_351_902_462, -7_351_902_463)


class Prepared:
    """A queryset of model instances, compiled on first use and run with new values.

    ``build`` takes the values (at most three, each a number or text) and returns the
    queryset; it is called once, with stand-ins, so it must not branch on them. A
    ``select_for_update`` queryset is compiled and run inside a transaction, as Django
    requires."""

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self._build = build
        self._model: type[Model] | None = None
        self._compiled: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: Any) -> list[Model]:
        if self._model is None:
            self._model = self._build(*_PLACEHOLDERS[: len(values)]).model
        alias = router.db_for_read(self._model)
        compiled = self._compiled.get(alias) or self._compile(alias, len(values))
        sql, slots, params, compiler, init_list, start, end, populators, converters = compiled
        params = list(params)
        for slot, index in slots:
            params[slot] = values[index]
        rows = _rows(connections[alias], sql, params)
        if converters:
            rows = compiler.apply_converters(rows, converters)
        model = compiler.klass_info["model"]
        found = []
        for row in rows:
            instance = model.from_db(alias, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            found.append(instance)
        return found

    def _compile(self, alias: str, count: int) -> tuple:
        with self._lock:
            if alias in self._compiled:
                return self._compiled[alias]
            queryset = self._build(*_PLACEHOLDERS[:count])
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            # A text field's lookup gets the stand-in as text.
            stand_ins = [str(value) for value in _PLACEHOLDERS[:count]]
            slots = [
                (slot, stand_ins.index(str(value)))
                for slot, value in enumerate(params)
                if str(value) in stand_ins
            ]
            if sorted({index for _, index in slots}) != list(range(count)):
                raise ValueError("every value must reach the query as a parameter")
            select, klass_info = compiler.select, compiler.klass_info
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            init_list = [column[0].target.attname for column in select[start:end]]
            populators = get_related_populators(klass_info, select, alias)
            converters = compiler.get_converters([column[0] for column in select])
            compiled = (sql, slots, tuple(params), compiler, init_list, start, end, populators)
            compiled += (converters,)
            self._compiled[alias] = compiled
            return compiled


def _rows(database: BaseDatabaseWrapper, sql: str, params: list) -> list[tuple]:
    """The rows ``sql`` answers, on PostgreSQL by the connection's cursor for these reads
    (``events.cursors``: a new cursor finds the loaders of every column afresh)."""
    if database.vendor != "postgresql":
        with database.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    cursor = kept_cursor(database, "prepared")
    execute(database, cursor, sql, params)
    return fetchall(database, cursor)


def _write(database: BaseDatabaseWrapper, sql: str, params: list) -> None:
    """Run a write whose answer nobody reads, on PostgreSQL by the connection's cursor for
    these writes (a new cursor finds the dumpers of every parameter afresh)."""
    if database.vendor != "postgresql":
        with database.cursor() as cursor:
            cursor.execute(sql, params)
        return
    execute(database, kept_cursor(database, "written"), sql, params)


_UPDATES: dict[tuple, tuple[str, list]] = {}


def save_fields(instance: Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)`` with the UPDATE's SQL built once per model
    and fields. For models without ``pre_save``/``post_save`` receivers and fields that
    change nothing on save (no ``auto_now``)."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    key = (model, tuple(fields), alias)
    if key not in _UPDATES:
        meta = model._meta
        targets = [meta.get_field(name) for name in fields]
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in targets)
        _UPDATES[key] = (
            f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s",
            targets,
        )
    sql, targets = _UPDATES[key]
    params = [
        field.get_db_prep_save(getattr(instance, field.attname), connection) for field in targets
    ]
    params.append(instance.pk)
    write(sql, params, alias)


class _Held(threading.local):
    """The writes held by the thread's ``writes_together`` block (``None``: no block) and
    the database they go to."""

    statements: list[tuple[str, list]] | None = None
    alias: str = DEFAULT_DB_ALIAS


_held = _Held()


def write(sql: str, params: list, alias: str = DEFAULT_DB_ALIAS) -> None:
    """Run a write whose answer nobody reads (no rows, no row count): now, or, inside
    ``writes_together`` (on its database), with the block's other writes at its end (and
    then it must not change a row that another of them changes)."""
    if _held.statements is not None and alias == _held.alias:
        _held.statements.append((sql, params))
        return
    _write(connections[alias], sql, params)


@contextmanager
def writes_together(alias: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Hold the block's ``write`` calls and run them when it ends, on PostgreSQL as one
    statement: each becomes a data-modifying ``WITH`` query of it, which PostgreSQL always
    runs to completion. A move's clocks, game row and turn email then cost one round trip
    instead of three (what that saves a move: docs/service.md, "What a move costs").

    They run on one snapshot, so none sees another's changes: two held writes must not
    change the same row. Reads inside the block do not see them either, and a savepoint
    rolled back inside it does not undo them. The ORM is never held (it reads an UPDATE's
    row count to decide whether to INSERT). If the block raises, the held writes are
    dropped (its transaction is rolled back); one that fails raises at the end of the
    block. A block inside another leaves the writing to the outer one. Elsewhere (SQLite)
    they run one by one."""
    if _held.statements is not None:
        yield
        return
    _held.statements, _held.alias = [], alias
    try:
        yield
        statements = _held.statements
    finally:
        _held.statements = None
    if not statements:
        return
    database = connections[alias]
    if database.vendor != "postgresql" or len(statements) == 1:
        for sql, params in statements:
            _write(database, sql, params)
        return
    held = ", ".join(f"held_{index} AS ({sql})" for index, (sql, _) in enumerate(statements))
    _write(
        database, f"WITH {held} SELECT 1", [value for _, values in statements for value in values]
    )
