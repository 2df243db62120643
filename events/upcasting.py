"""Upcasters: functions that turn an old version of an event's data into the next one.

They are applied on read, so stored rows never change and records written years ago stay
readable. Register one per ``(type, from_version)``; chains run until no upcaster applies.
"""

from collections.abc import Callable

Upcaster = Callable[[dict], dict]

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``function(data) -> data`` upgrading ``type_name`` from ``from_version``
    to ``from_version + 1`` (a decorator)."""

    def register(function: Upcaster) -> Upcaster:
        key = (type_name, from_version)
        if key in _UPCASTERS and _UPCASTERS[key] is not function:
            raise ValueError(f"an upcaster for {type_name} v{from_version} already exists")
        _UPCASTERS[key] = function
        return function

    return register


def upcast(type_name: str, version: int, data: dict) -> tuple[int, dict]:
    """The latest version of an event's data and its version number."""
    while (type_name, version) in _UPCASTERS:
        data = _UPCASTERS[(type_name, version)](data)
        version += 1
    return version, data
