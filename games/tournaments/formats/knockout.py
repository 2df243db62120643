"""The knockout: two players a game, seeded into a bracket; the loser of each game is out,
level with everyone out in the same round."""

from games.tournaments import pairing
from games.tournaments.formats.base import KnockedOut

# Ruling (the rulebooks have no draws, but a shared victory is possible): in a knockout,
# a game whose two players share the win sends the higher seed on.
SHARED_WIN_ADVANCES_HIGHER_SEED = True


class Knockout:
    name = "knockout"

    def refusal(self, settings) -> tuple[str, dict] | None:
        if settings.per_game != 2:
            return "knockout_for_two", {}
        if settings.rounds:
            return "rounds_for_swiss_only", {}
        return None

    def needed(self, settings) -> int:
        return settings.min_players

    def pairing(self, state) -> pairing.Round | None:
        seeds = {player: index for index, player in enumerate(state.seeds, start=1)}
        alive = set(state.active()) - set(self.knocked_out(state))
        if len(alive) < 2:
            return None
        return pairing.knockout_round(seeds, alive, state.round + 1)

    def knocked_out(self, state) -> dict[int, KnockedOut]:
        """Every player who lost a game, with their final places: behind all who went
        further (still in, or out in a later round), level with the others out in the same
        round."""
        seeds = {player: index for index, player in enumerate(state.seeds, start=1)}
        out_in = {
            _loser(table, seeds): table.round for table in state.tables if table.result is not None
        }
        still_in = [player for player in state.active() if player not in out_in]
        exits = {}
        for player, number in out_in.items():
            further = len(still_in) + sum(later > number for later in out_in.values())
            level = sum(same == number for same in out_in.values())
            exits[player] = KnockedOut(number, further + 1, further + level)
        return exits


def _loser(table, seeds: dict[int, int]) -> int:
    """The player a finished knockout game sends out."""
    (a, b), (place_a, place_b) = table.players, table.result.places
    if place_a == place_b and SHARED_WIN_ADVANCES_HIGHER_SEED:
        return a if seeds[a] > seeds[b] else b
    return a if place_a > place_b else b
