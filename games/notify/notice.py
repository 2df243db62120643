"""The notice: one thing to tell one reader, whatever channel carries it."""

from dataclasses import dataclass, field
from datetime import datetime

from games.models import Game, NoticeKind

# The notices that ask the seat to move to play: out of date once that seat's turn has passed.
TURN_KINDS = (NoticeKind.YOUR_TURN, NoticeKind.REMINDER, NoticeKind.DEADLINE_WARNING)


@dataclass(frozen=True)
class Notice:
    """``kind`` (a ``NoticeKind``) about ``game`` at ``key`` (the seq of the event it
    reports, or another number that makes it unique: a minute, a day, a request), for
    ``user`` at their address, or at ``address`` where no account exists yet (or where the
    address itself is asked for: a sign-in link). A channel gives one notice
    per (game, key, reader, kind) at most once. ``due_at``: not before (``None``: now)."""

    kind: str
    key: int
    game: Game | None = None
    user: object = None
    address: str = ""
    due_at: datetime | None = None
    payload: dict = field(default_factory=dict)

    @property
    def recipient(self) -> str:
        """The address the notice names, else the player's."""
        return self.address or self.user.email
