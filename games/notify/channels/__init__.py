"""The channels a notice can travel by, one folder each (``channels/<name>/``), found by
name in ``CHANNELS`` (dotted paths, as healthchecks keeps its transports). Adding a
channel: a folder with a ``Channel`` subclass and one line in ``CHANNELS``."""

from abc import ABC, abstractmethod
from functools import cache
from importlib import import_module

from games.models import Game, NoticeKind

CHANNELS = {
    "email": "games.notify.channels.email.EmailChannel",
    "push": "games.notify.channels.push.PushChannel",
}

# The notices about a game of one of its players, which a player may turn off by channel.
# The others (answers to what the player asked for: a sign-in link, an emailed reply) are
# email's and always go.
GAME_KINDS = (
    NoticeKind.GAME_STARTED,
    NoticeKind.YOUR_TURN,
    NoticeKind.REMINDER,
    NoticeKind.DEADLINE_WARNING,
    NoticeKind.TIMEOUT,
    NoticeKind.GAME_OVER,
    NoticeKind.TAKEBACK_REQUEST,
    NoticeKind.PLAN_DROPPED,
)
# The notices of a tournament (issue 31): registration confirmed, a round's game of yours
# started (about that game), a round's results with your standing, the tournament
# finished with your standing.
TOURNAMENT_KINDS = (
    NoticeKind.TOURNAMENT_JOINED,
    NoticeKind.TOURNAMENT_ROUND,
    NoticeKind.TOURNAMENT_RESULTS,
    NoticeKind.TOURNAMENT_FINISHED,
)


class Channel(ABC):
    """What every channel does: keep a notice in the writer's transaction and deliver it
    after commit, at most once per (game, key, reader, kind); withdraw what no longer
    applies before it leaves. A channel that lacks one of these cannot be made."""

    name: str = ""
    # The kinds a player may turn off on this channel; the others (answers to what the
    # player asked for: a sign-in link, an emailed reply) always go.
    optional_kinds: tuple[str, ...] = ()

    @abstractmethod
    def deliver(self, notice) -> bool:
        """Keep ``notice`` for delivery; whether it is new."""

    @abstractmethod
    def withdraw(self, *, game: Game, kind: str, after_seq: int, reason: str, now) -> int:
        """Withdraw the waiting notices of ``kind`` about events after ``after_seq``."""

    def send_due(self, *, now) -> dict[str, int]:
        """The minute sweep's part: send what is due and no task sent (counts by name).
        A channel whose door sends its rows (email: the mail door's ``outbox_sweep``)
        has nothing to do here."""
        return {}


@cache
def channel(name: str) -> Channel:
    """The channel called ``name`` (``KeyError`` for an unknown one)."""
    module, _, attribute = CHANNELS[name].rpartition(".")
    return getattr(import_module(module), attribute)()


def every_channel() -> list[Channel]:
    return [channel(name) for name in CHANNELS]
