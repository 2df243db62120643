"""Upcasters: functions that turn an old version of an event into the next one.

They are applied on read, so stored rows never change and records written years ago stay
readable. Stored types are namespaced (``table.Moved``, ``azul.TilesTaken``); an upcaster
is registered for one ``(namespace, type, from_version)``, so one written for a game can
never touch another game's history. Chains run until no upcaster applies.

Rows written before types were namespaced carry a bare rules-event name (``TilesTaken``):
the reader says which game the stream belongs to (``legacy_namespace``) and the name is
read as that game's.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Renamed:
    """What an upcaster returns when the event becomes another type of its namespace."""

    type: str
    version: int
    data: dict


Upcaster = Callable[[dict], "dict | Renamed"]

_UPCASTERS: dict[tuple[str, str, int], Upcaster] = {}


def upcaster(namespace: str, type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``function(data)`` upgrading ``namespace.type_name`` from ``from_version``
    (a decorator). It returns the data of version ``from_version + 1``, or ``Renamed`` when
    the event becomes another type of the same namespace."""

    def register(function: Upcaster) -> Upcaster:
        key = (namespace, type_name, from_version)
        if key in _UPCASTERS and _UPCASTERS[key] is not function:
            raise ValueError(f"an upcaster for {namespace}.{type_name} v{from_version} exists")
        _UPCASTERS[key] = function
        return function

    return register


def qualified(type_name: str, legacy_namespace: str | None) -> str:
    """The namespaced form of a stored type: a bare (pre-namespace) name belongs to the
    stream's game."""
    if "." in type_name or legacy_namespace is None:
        return type_name
    return f"{legacy_namespace}.{type_name}"


def upcast(
    type_name: str, version: int, data: dict, *, legacy_namespace: str | None = None
) -> tuple[str, int, dict]:
    """The latest (type, version, data) of a stored event."""
    namespace, _, name = qualified(type_name, legacy_namespace).rpartition(".")
    while (namespace, name, version) in _UPCASTERS:
        result = _UPCASTERS[(namespace, name, version)](data)
        if isinstance(result, Renamed):
            name, version, data = result.type, result.version, result.data
        else:
            data, version = result, version + 1
    return (f"{namespace}.{name}" if namespace else name), version, data
