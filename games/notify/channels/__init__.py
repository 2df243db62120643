"""The channels a notice can travel by, one folder each (``channels/<name>/``), found by
name in ``CHANNELS`` (dotted paths, as healthchecks keeps its transports). Adding a
channel: a folder with a ``Channel`` subclass and one line in ``CHANNELS``."""

from functools import cache
from importlib import import_module

from games.models import Game

CHANNELS = {
    "email": "games.notify.channels.email.EmailChannel",
}


class Channel:
    """What every channel does: keep a notice in the writer's transaction and deliver it
    after commit, at most once per (game, key, reader, kind); withdraw what no longer
    applies before it leaves."""

    name: str = ""
    # The kinds a player may turn off on this channel; the others (answers to what the
    # player asked for: a sign-in link, an emailed reply) always go.
    optional_kinds: tuple[str, ...] = ()

    def deliver(self, notice) -> bool:
        """Keep ``notice`` for delivery; whether it is new."""
        raise NotImplementedError

    def withdraw(self, *, game: Game, kind: str, after_seq: int, reason: str, now) -> int:
        """Withdraw the waiting notices of ``kind`` about events after ``after_seq``."""
        raise NotImplementedError


@cache
def channel(name: str) -> Channel:
    """The channel called ``name`` (``KeyError`` for an unknown one)."""
    module, _, attribute = CHANNELS[name].rpartition(".")
    return getattr(import_module(module), attribute)()


def every_channel() -> list[Channel]:
    return [channel(name) for name in CHANNELS]
