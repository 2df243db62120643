"""The round robin: everyone meets everyone, by a schedule fixed at the start (the circle
method); a withdrawn player's tables go on without them, a player left alone at one has a
walkover."""

from games.tournaments import pairing
from games.tournaments.formats.base import KnockedOut


class RoundRobin:
    name = "round_robin"

    def refusal(self, settings) -> tuple[str, dict] | None:
        if settings.rounds:
            return "rounds_for_swiss_only", {}
        return None

    def needed(self, settings) -> int:
        return settings.min_players

    def pairing(self, state) -> pairing.Round | None:
        schedule = pairing.round_robin_schedule(state.seeds, state.settings.per_game)
        number = state.round + 1
        if number > len(schedule):
            return None
        return _without_withdrawn(schedule[number - 1], set(state.active()))

    def knocked_out(self, state) -> dict[int, KnockedOut]:
        return {}


def _without_withdrawn(scheduled: pairing.Round, active: set[int]) -> pairing.Round:
    """A scheduled round without the withdrawn: one left alone at a table has a walkover."""
    tables, walkovers = [], []
    for table in scheduled.tables:
        staying = tuple(player for player in table if player in active)
        if len(staying) >= 2:
            tables.append(staying)
        elif staying:
            walkovers.append(staying[0])
    byes = tuple(player for player in scheduled.byes if player in active)
    return pairing.Round(tuple(tables), byes, tuple(walkovers))
