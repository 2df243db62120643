"""The table's events, what happened at a game's table beside its engine's rules events
(stored as ``table.*``: seats taken, moves, voids, takebacks, resignations, the clocks,
moderators' acts), and their codec. ``games.table`` decides and folds them.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.clock import PlayingHours
from games.rules.common import Codec


@dataclass(frozen=True)
class Started:
    """The game began: players in seat order (shuffled by the service), the game and its
    options, and, when the game has playing hours (issue 32), each seat's hours (``None``
    for a computer player); a game without has none (``()``). The engine's opening events
    follow in the same append."""

    game: str
    options: dict
    players: tuple[str, ...]
    hours: tuple[PlayingHours | None, ...] = ()


@dataclass(frozen=True)
class Moved:
    """A seat gave a command; the rules events it caused follow in the same append.
    ``auto`` says why nobody typed it: ``forced``, ``resigned``, ``timeout``,
    ``moderator`` (or "")."""

    seat: int
    move: str
    command: dict
    auto: str = ""


@dataclass(frozen=True)
class MovesVoided:
    """Every step after ``back_to`` no longer counts (``cause``: undo, takeback, revert)."""

    back_to: int
    cause: str


@dataclass(frozen=True)
class TakebackRequested:
    """A seat asks the others to take the game back to the position after ``to_seq``."""

    request: int
    seat: int
    to_seq: int


@dataclass(frozen=True)
class TakebackAnswered:
    """A seat accepted or declined the open takeback request."""

    request: int
    seat: int
    accepted: bool


@dataclass(frozen=True)
class Resigned:
    """The seat left the game; its turns are then played for it (``AUTO_FOR_RESIGNED``)."""

    seat: int


@dataclass(frozen=True)
class SeatReplaced:
    """A moderator gave a seat to another player (with that player's ``hours`` in a game
    with playing hours)."""

    seat: int
    replaced: str
    by: str
    hours: PlayingHours | None = None


@dataclass(frozen=True)
class HoursChanged:
    """The player of the seat chose other playing hours or moved to another time zone
    (a game with playing hours): in force from the end of the seat's turn, if it is its
    turn, else at once."""

    seat: int
    hours: PlayingHours


@dataclass(frozen=True)
class Paused:
    """A moderator stopped every clock."""


@dataclass(frozen=True)
class Resumed:
    """A moderator started the clocks again."""


@dataclass(frozen=True)
class DeadlineExtended:
    """A moderator gave the seat to move more time."""

    seconds: int


@dataclass(frozen=True)
class TimeGranted:
    """A player gave the seat to move more time ("+1 day")."""

    seat: int
    by: int
    seconds: int


@dataclass(frozen=True)
class VacationStarted:
    """The player of the seat went on vacation: its clock stops."""

    seat: int


@dataclass(frozen=True)
class VacationEnded:
    """The player of the seat came back: its clock runs again."""

    seat: int


@dataclass(frozen=True)
class Aborted:
    """The game ended with no result: a moderator's act (``seat`` ``None``), or the
    resignation or forfeit of ``seat`` before every player had made a move of their own
    (``Table.yet_to_move``). Version 2 (version 1 had no ``seat``: always a
    moderator's act)."""

    seat: int | None = None


@dataclass(frozen=True)
class MessageHidden:
    """A moderator hid a chat message of the game."""

    message: int


TABLE_EVENTS = (
    Started,
    Moved,
    MovesVoided,
    TakebackRequested,
    TakebackAnswered,
    Resigned,
    SeatReplaced,
    HoursChanged,
    Paused,
    Resumed,
    DeadlineExtended,
    TimeGranted,
    VacationStarted,
    VacationEnded,
    Aborted,
    MessageHidden,
)
codec = Codec(*TABLE_EVENTS, versions={Aborted: 2})
