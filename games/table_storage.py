"""The table's infrastructure: how its events are stored and read back, and snapshots.

Events are stored as ``table.<Event>`` (the table's own) and ``<game namespace>.<Event>``
(the engine's), each with a version; old forms are upcast on read. A snapshot is a folded
table pickled (``dumps``/``loads``), read only by the code that wrote it (``code_version``),
so a read folds just the events after it. Importing it registers the upcasters of the
table's old events: every read of a game's stream comes through here (``games.repository``).
Standard library only.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from events import upcasting
from events.upcasting import Renamed, upcast, upcaster
from games import clock as clocks
from games import table as tbl
from games import table_events
from games.table import TABLE, Record, Table
from games.table_events import TABLE_EVENTS, codec

# --- reading the stored form -------------------------------------------------------------


def stored_type(table: Table, event: Any) -> str:
    """The namespaced type an event is stored under: ``table.Moved``, ``azul.TilesTaken``."""
    namespace = TABLE if isinstance(event, TABLE_EVENTS) else table.namespace
    return f"{namespace}.{type(event).__name__}"


def encode(table: Table, event: Any) -> tuple[str, int, dict]:
    """(stored type, version, data) of a table or rules event."""
    data = (codec if isinstance(event, TABLE_EVENTS) else table.engine).encode(event)
    data.pop("type")
    return stored_type(table, event), data.pop("version"), data


def read(table: Table, rows: Iterable[dict]) -> list[Record]:
    """Exported events (``{"seq", "type", "version", "data", "actor"}``, old forms
    included) as the table reads them: upcast as the event store reads them, decoded."""
    records = []
    for row in rows:
        kind, version, data = upcast(
            row["type"], row.get("version", 1), row["data"], legacy_namespace=table.namespace
        )
        event = decode(table, kind, version, data)
        records.append(Record(row["seq"], event, row.get("actor", "system")))
    return records


def decode(table: Table, type_name: str, version: int, data: dict) -> Any:
    """The event stored as ``type_name`` (already upcast to its latest version)."""
    namespace, _, name = type_name.rpartition(".")
    if namespace == TABLE:
        return codec.decode({"type": name, "version": version, **data})
    if namespace != table.namespace:
        raise ValueError(f"{type_name} is not an event of this game ({table.namespace})")
    return table.engine.decode({"type": name, "version": version, **data})


# --- snapshots: a folded table stored, to fold only the events after it ---------------------


@cache
def code_version(engine: ModuleType) -> str:
    """A digest of the code that folds a table of ``engine``: the engine's package, the
    rules' shared helpers, the table, its events and their stored form (this module), the
    clock and the upcasters. A snapshot written by other code (another version, or an edit
    anywhere in these) is not read."""
    rules = Path(engine.__file__).parent
    sources = sorted(rules.rglob("*.py")) + sorted((rules.parent / "common").rglob("*.py"))
    sources += [Path(tbl.__file__), Path(table_events.__file__), Path(__file__)]
    sources += [Path(clocks.__file__)]
    sources += [Path(upcasting.__file__)]
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> str | None:
        # The engine is a module: stored by name, given back by the reader.
        return obj.__name__ if isinstance(obj, ModuleType) else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, engine: ModuleType) -> None:
        super().__init__(io.BytesIO(data))
        self.engine = engine

    def persistent_load(self, pid: Any) -> ModuleType:
        if pid != self.engine.__name__:
            raise pickle.UnpicklingError(f"a snapshot of {pid}, not of {self.engine.__name__}")
        return self.engine

    def find_class(self, module: str, name: str) -> Any:
        # Only the values a table is made of (classes defined where the snapshot says),
        # never a function or anything a module merely imports: a snapshot read from the
        # database must not be able to call anything.
        if (module, name) in _SNAPSHOT_NAMES:
            return super().find_class(module, name)
        if "." not in name and (
            module in _SNAPSHOT_MODULES or module.startswith(_SNAPSHOT_PACKAGES)
        ):
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


# The modules a table's values are defined in, and the packages (the engines'): by name,
# so that no other module whose name starts alike (this one) is let in.
_SNAPSHOT_MODULES = ("games.table", "games.clock", "datetime")
_SNAPSHOT_PACKAGES = ("games.rules.",)
_SNAPSHOT_NAMES = {
    ("builtins", "frozenset"),
    ("builtins", "set"),
    ("zoneinfo", "ZoneInfo._unpickle"),
}


def compact(table: Table) -> Table:
    """The table with the rules state of its last step only: what it folds to is the same
    (a void folds the state it goes back to again from the steps' events), in a fraction
    of the objects."""
    if not table.steps:
        return table
    *earlier, last = table.steps
    return replace(table, steps=(*(replace(step, state=None) for step in earlier), last))


def expand(table: Table) -> Table:
    """The table with the rules state of every step, folded again where a compact table
    (``compact``) dropped it: for reads that look at every position (the analysis)."""
    state, steps = None, []
    for step in table.steps:
        if step.state is None:
            for event in step.events:
                state = table.engine.evolve(state, event)
            step = replace(step, state=state)
        state = step.state
        steps.append(step)
    return replace(table, steps=tuple(steps))


def dumps(table: Table) -> bytes:
    """The table, compact (``compact``), as bytes for ``loads`` (its engine named, not
    copied)."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(compact(table))
    return zlib.compress(buffer.getvalue(), 1)


def loads(data: bytes, engine: ModuleType) -> Table:
    """The table ``dumps`` gave these bytes for; a table of another engine, or holding
    anything but a table's values, is a ``pickle.UnpicklingError``."""
    table = _Unpickler(zlib.decompress(data), engine).load()
    if not isinstance(table, Table):
        raise pickle.UnpicklingError(f"a snapshot of {type(table).__name__}, not of a table")
    return table


# --- events written before the table had one event per act ------------------------------


@upcaster(TABLE, "Moderated", 1)
def _moderated_as_its_own_event(data: dict) -> Renamed:
    """Until November 2026 every moderator's act (and a player's "+1 day") was one
    ``table.Moderated`` event with an action name: read each as its own event."""
    details = data.get("details", {})
    match data["action"]:
        case "pause":
            return Renamed("Paused", 1, {})
        case "resume":
            return Renamed("Resumed", 1, {})
        case "extend_deadline":
            return Renamed("DeadlineExtended", 1, {"seconds": details["hours"] * 3600})
        case "grant_time":
            return Renamed("TimeGranted", 1, details)
        case "replace_seat":
            return Renamed(
                "SeatReplaced",
                1,
                {"seat": details["seat"], "replaced": details["from"], "by": details["to"]},
            )
        case "abort":
            return Renamed("Aborted", 1, {})
        case "hide_message":
            return Renamed("MessageHidden", 1, {"message": details["message"]})
    raise ValueError(f"unknown moderator's act {data['action']!r}")


@upcaster(TABLE, "Aborted", 1)
def _aborted_by_a_moderator(data: dict) -> dict:
    """Until issue 29 only a moderator aborted a game: version 1 names no seat."""
    return {**data, "seat": None}
