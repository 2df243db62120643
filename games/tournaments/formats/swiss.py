"""The Swiss system: a set number of rounds, each pairing players of like points who have
not met (at tables of three or four: groups of like points), the lowest-ranked without a
bye sitting out an odd round."""

from games.tournaments import pairing
from games.tournaments.formats.base import KnockedOut


class Swiss:
    name = "swiss"

    def refusal(self, settings) -> tuple[str, dict] | None:
        if not 1 <= settings.rounds < settings.max_players:
            return "invalid_rounds", {"most": settings.max_players - 1}
        return None

    def needed(self, settings) -> int:
        # Ruling: a Swiss of as many rounds as players would have to repeat pairings.
        return max(settings.min_players, settings.rounds + 1)

    def pairing(self, state) -> pairing.Round | None:
        if state.round + 1 > state.settings.rounds:
            return None
        active = set(state.active())
        ranked = [s.player for s in state.standings() if s.player in active]
        per_game, met = state.settings.per_game, state.met()
        if per_game > 2:
            return pairing.Round(pairing.swiss_groups(ranked, per_game, met))
        byes: tuple[int, ...] = ()
        if len(ranked) % 2:
            had = {bye.player for bye in state.byes}
            # The lowest-ranked player without a bye yet; if everyone has had one, the
            # lowest-ranked sits out with nothing (a bye is once per player).
            eligible = [player for player in ranked if player not in had]
            sitting = eligible[-1] if eligible else ranked[-1]
            ranked.remove(sitting)
            byes = (sitting,) if eligible else ()
        points = {s.player: s.points for s in state.standings()}
        return pairing.Round(pairing.swiss_pairs(ranked, points, met), byes)

    def knocked_out(self, state) -> dict[int, KnockedOut]:
        return {}
