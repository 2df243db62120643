"""The tournament formats, one module each, behind the ``Format`` protocol (``base``) and
found by name in ``FORMATS`` (as each game is behind ``registry.GameType``). Adding a
format: a module with a class that follows ``Format``, and one line in ``FORMATS``."""

from importlib import import_module

from games.tournaments.formats.base import Format


def _format(path: str) -> Format:
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)()


FORMATS: dict[str, Format] = {
    name: _format(path)
    for name, path in {
        "swiss": "games.tournaments.formats.swiss.Swiss",
        "round_robin": "games.tournaments.formats.round_robin.RoundRobin",
        "knockout": "games.tournaments.formats.knockout.Knockout",
    }.items()
}
