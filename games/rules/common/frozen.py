"""Frozen dataclasses built fast, for the hot paths of ``evolve`` and ``decide``.

A frozen dataclass's ``__init__`` stores every field through ``object.__setattr__`` (its own
``__setattr__`` refuses), several times the cost of an ordinary attribute store: for a
state of 13 fields, more than all the rest of folding an event, and bots fold millions.
``fast_constructor(cls)`` gives a twin class with the same fields and slots whose
``__init__`` stores them the ordinary way and then turns the new object into a ``cls``: the
very object ``cls(...)`` builds (equal, hashable, frozen, ``dataclasses.replace`` works),
for about half the cost.
"""

import dataclasses
from typing import Any


def fast_constructor(cls: type) -> Any:
    """A callable taking the arguments of ``cls`` (a frozen dataclass with slots, no base
    class and no ``__post_init__``) and returning an instance of ``cls``."""
    fields = dataclasses.fields(cls)
    names = tuple(field.name for field in fields)
    if not (
        cls.__dataclass_params__.frozen
        and cls.__dict__.get("__slots__") == names
        and cls.__bases__ == (object,)
        and not hasattr(cls, "__post_init__")
    ):
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots and no base class")

    def __post_init__(self) -> None:
        # The twin has the same slots in the same order, so Python lets the object change
        # class; from here on it is frozen like any other ``cls``.
        self.__class__ = cls

    return dataclasses.make_dataclass(
        f"Fast{cls.__name__}",
        [(field.name, field.type, _same_default(field)) for field in fields],
        namespace={"__post_init__": __post_init__},
        repr=False,
        eq=False,
        match_args=False,
        slots=True,
    )


def _same_default(field: dataclasses.Field) -> dataclasses.Field:
    if field.default_factory is not dataclasses.MISSING:
        raise TypeError(f"{field.name}: default factories are not copied")
    return dataclasses.field(default=field.default)
