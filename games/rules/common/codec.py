"""JSON-safe encoding of an engine's events and commands (frozen dataclasses).

``encode`` gives ``{"type": ClassName, "version": n, **fields}`` with tuples as lists;
``decode`` rebuilds the dataclass from its type hints. An engine's own upcasters (pure
functions it registers here, keyed by its own type names so one game's upcaster never
touches another game's events) turn an old version into the current one on decode, so
stored rows and exported records stay readable for ever without being rewritten.
"""

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Upcaster = Callable[[dict], dict]
"""Turns one version's data into the next version's."""


class Codec:
    """A registry of one engine's event and command classes."""

    def __init__(
        self,
        *classes: type,
        versions: Mapping[type, int] | None = None,
        upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
    ) -> None:
        """``versions``: the current version of a class (1 unless given); ``upcasters``:
        ``(type name, from_version) -> function(data) -> data`` of the next version."""
        self._by_name = {cls.__name__: cls for cls in classes}
        self._versions = {cls: (versions or {}).get(cls, 1) for cls in classes}
        self._hints = {cls: typing.get_type_hints(cls) for cls in classes}
        self._upcasters = dict(upcasters or {})

    def encode(self, obj: Any) -> dict:
        """The JSON-safe dict of a registered dataclass, tagged with type and version."""
        cls = type(obj)
        data = {"type": cls.__name__, "version": self._versions[cls]}
        for field in dataclasses.fields(obj):
            data[field.name] = _plain(getattr(obj, field.name))
        return data

    def decode(self, data: dict) -> Any:
        """Rebuild the dataclass from ``encode``'s output, upcasting an old version first."""
        try:
            cls = self._by_name[data["type"]]
        except KeyError as missing:
            raise ValueError(f"unknown type in {data!r}") from missing
        data = self.upcast(data)
        if data.get("version", 1) != self._versions[cls]:
            raise ValueError(
                f"{cls.__name__} version {data.get('version', 1)} needs upcasting to "
                f"version {self._versions[cls]} first"
            )
        hints = self._hints[cls]
        kwargs = {
            field.name: _typed(hints[field.name], data[field.name])
            for field in dataclasses.fields(cls)
            if field.name in data
        }
        return cls(**kwargs)

    def upcast(self, data: dict) -> dict:
        """The data of an event in its current version (unchanged if it is current)."""
        name, version = data["type"], data.get("version", 1)
        while (name, version) in self._upcasters:
            data = {**self._upcasters[name, version](data), "type": name, "version": version + 1}
            version += 1
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


def _typed(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        return _typed(next(arg for arg in args if arg is not type(None)), value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], item) for item in value)
        return tuple(_typed(arg, item) for arg, item in zip(args, value, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if dataclasses.is_dataclass(hint):
        nested = typing.get_type_hints(hint)
        return hint(**{name: _typed(nested[name], item) for name, item in value.items()})
    return value
