"""What every tournament format is (``Format``), and what a knockout says of a player out."""

from dataclasses import dataclass
from typing import Any, Protocol

from games.tournaments import pairing

# What a format reads: the organiser's ``core.Settings`` and the folded ``core.Tournament``
# (named here, not imported: the decider is above its formats).
Settings = Any
Tournament = Any


@dataclass(frozen=True)
class KnockedOut:
    """A knockout's player who lost a game: the round they lost it in and the places they
    finish in, level with everyone out in that round (``first`` to ``last``)."""

    round: int
    first: int
    last: int

    @property
    def places(self) -> str:
        """The places as one reads them: one place, or a range for a place shared."""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


class Format(Protocol):
    """How a tournament of one format is played: which settings suit it, how many players
    it starts with, who meets whom each round, and who is out."""

    name: str

    def refusal(self, settings: Settings) -> tuple[str, dict[str, Any]] | None:
        """Why ``settings`` do not suit the format (a refusal's code and facts), or None."""

    def needed(self, settings: Settings) -> int:
        """The fewest players a tournament of ``settings`` starts with."""

    def pairing(self, state: Tournament) -> pairing.Round | None:
        """The next round's tables and byes, or None when the tournament is over."""

    def knocked_out(self, state: Tournament) -> dict[int, KnockedOut]:
        """Every player out of the tournament by a game they lost, with their places."""
