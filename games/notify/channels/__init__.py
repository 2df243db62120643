"""The channels a notice can travel by, one folder each (``channels/<name>/``), found by
name in the setting ``NOTICE_CHANNELS`` (dotted paths, as healthchecks keeps its
transports). Adding a channel: a folder with a ``Channel`` subclass and one line in
``NOTICE_CHANNELS``. A channel says only who a notice reaches (``deliver``, which writes
its rows with ``loop.keep``), whether a row should still go (``skip_reason``), and how one
row is sent (``send``, which raises ``loop.Refused`` or ``loop.InDoubt`` when it did not
go); the one delivery loop (``loop``) claims, sends, retries, recovers lost claims and
withdraws, for every channel alike."""

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cache
from importlib import import_module

from django.conf import settings

from games.models import Delivery, NoticeKind

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
# finished with your standing, or called off.
TOURNAMENT_KINDS = (
    NoticeKind.TOURNAMENT_JOINED,
    NoticeKind.TOURNAMENT_ROUND,
    NoticeKind.TOURNAMENT_RESULTS,
    NoticeKind.TOURNAMENT_FINISHED,
    NoticeKind.TOURNAMENT_CANCELLED,
)


class Channel(ABC):
    """What every channel does: keep a notice in the writer's transaction (``deliver``)
    and send one of its rows when the loop asks (``send``). A channel that lacks one of
    these cannot be made."""

    name: str = ""
    # The kinds a player may turn off on this channel; the others (answers to what the
    # player asked for: a sign-in link, an emailed reply) always go.
    optional_kinds: tuple[str, ...] = ()
    # Attempts before a row that keeps failing is given up.
    max_attempts = 8
    # Whether a claim is already the hand-over (nothing tells when the row leaves): a
    # worker that stops after claiming may have sent it, so its row is never sent again.
    # Otherwise the channel calls ``hand_over`` as the row leaves, and a claim that went
    # stale before that is tried again.
    claim_is_hand_over = False
    # The minute sweep's job that sends this channel's rows due (its name, if empty), and
    # its counts: sent, in doubt, tried again.
    job = ""
    tally = ("sent", "in_doubt", "retried")

    @abstractmethod
    def deliver(self, notice) -> bool:
        """Keep ``notice`` for delivery (``loop.keep``); whether it is new."""

    @abstractmethod
    def send(self, row: Delivery, composed, hand_over: Callable[[], None]) -> None:
        """Send ``row`` (claimed for us), as ``compose`` wrote it, calling ``hand_over``
        just before it leaves. Raises ``loop.Refused`` when it did not go (tried again
        later, or given up), ``loop.InDoubt`` when it may have gone and nobody answered,
        ``loop.Gone`` when the reader is gone with the row."""

    def skip_reason(self, row: Delivery, now: datetime) -> str:
        """Why ``row`` should not go out any more, or ``""`` (``loop.Gone`` when the
        reader is gone with the row)."""
        return ""

    def waits(self, row: Delivery) -> timedelta | None:
        """How long ``row``, due, waits for another row still to be sent, or ``None``."""
        return None

    def compose(self, row: Delivery, now: datetime):
        """What ``send`` sends, written before the claim: what fails here counts as an
        attempt, and the row is tried again."""
        return None

    def stale_after(self) -> timedelta:
        """How long a claim lasts before the sweep takes its worker for stopped."""
        return timedelta(seconds=settings.MAIL_CLAIM_STALE_SECONDS)


@cache
def _made(path: str) -> Channel:
    module, _, attribute = path.rpartition(".")
    return getattr(import_module(module), attribute)()


def channel(name: str) -> Channel:
    """The channel called ``name`` (``KeyError`` for an unknown one)."""
    return _made(settings.NOTICE_CHANNELS[name])


def names() -> list[str]:
    """The names of the channels, email first."""
    return list(settings.NOTICE_CHANNELS)


def every_channel() -> list[Channel]:
    return [channel(name) for name in names()]
