"""The tournament decider: registration, the three formats run to the end, points by
placement, tie-breaks, byes, withdrawals and time-outs. Pure: no database."""

from collections import Counter
from fractions import Fraction

import pytest

from games.tournaments import core, decider
from games.tournaments.standings import Result, competition_places, place_points, table_points
from tests.tournaments.helpers import apply, by_rating, opened, run


def test_four_player_swiss_standings_match_a_hand_computed_table():
    # Ratings 400 > 300 > 200 > 100. Round 1 pairs neighbours: 1-2 and 3-4; 1 beats 2, 3
    # and 4 share the win (half a point each). Round 2 ranks 1 (1), 3 (0.5, seed before 4),
    # 4 (0.5), 2 (0) and pairs 1-3 and 2-4 (no repeats, smallest gaps); 3 beats 1, 2 beats 4.
    # Points 3: 1.5, 1: 1, 2: 1, 4: 0.5. Buchholz 1: 1 + 1.5 = 2.5, 2: 1 + 0.5 = 1.5, so
    # 1 ranks above 2. Sonneborn-Berger 3: 0.5 x 0.5 + 1 x 1 = 1.25.
    state, _ = opened(
        {1: 400, 2: 300, 3: 200, 4: 100}, format="swiss", per_game=2, game="azul", rounds=2
    )
    state, _ = apply(state, decider.Start())
    assert state.round_tables()[0].players == (1, 2)
    assert state.round_tables()[1].players == (3, 4)
    state, _ = apply(state, decider.StartRound(1, (11, 12)))
    state, _ = apply(state, decider.RecordResult(11, (1, 2), (60, 40)))
    state, events = apply(state, decider.RecordResult(12, (1, 1), (50, 50)))
    assert core.RoundPaired(2, ((1, 3), (2, 4))) in events
    state, _ = apply(state, decider.StartRound(2, (21, 22)))
    state, _ = apply(state, decider.RecordResult(21, (2, 1), (30, 70)))
    state, events = apply(state, decider.RecordResult(22, (1, 2), (55, 45)))
    assert events[-1] == core.TournamentFinished((3, 1, 2, 4))
    lines = {s.player: s for s in state.standings()}
    assert [lines[p].points for p in (1, 2, 3, 4)] == [1, 1, 1.5, 0.5]
    assert [lines[p].tie_breaks[0] for p in (1, 2, 3, 4)] == [2.5, 1.5, 1.5, 2.5]
    assert [lines[p].tie_breaks[1] for p in (1, 2, 3, 4)] == [1, 0.5, 1.25, 0.75]


def test_places_follow_the_scores_and_a_shared_place_skips_the_next():
    assert competition_places((50, 70, 50, 20)) == (2, 1, 2, 4)
    with pytest.raises(core.TournamentRefused):
        state, _ = opened({1: 2, 2: 1}, format="swiss", per_game=2, game="azul", rounds=1)
        state, _ = apply(state, decider.Start())
        state, _ = apply(state, decider.StartRound(1, (5,)))
        decider.decide(state, decider.RecordResult(5, (2, 2), (0, 0)))


def test_points_by_place_are_shared_by_tied_players_and_spread_over_a_short_table():
    assert table_points((4, 2, 0), Result((7, 8, 9), (1, 1, 3), (50, 50, 20))) == {
        7: 3,
        8: 3,
        9: 0,
    }
    assert [place_points((6, 4, 2, 0), 3, place) for place in (1, 2, 3)] == [6, 3, 0]
    assert [place_points((6, 4, 2, 0), 2, place) for place in (1, 2)] == [6, 0]
    assert table_points((1, 0), Result((1, 2), (1, 1), (9, 9))) == {
        1: Fraction(1, 2),
        2: Fraction(1, 2),
    }


def test_eight_player_swiss_of_three_rounds_ranks_the_best_rated_first_with_no_repeat():
    ratings = {player: 100 * (9 - player) for player in range(1, 9)}
    state, _ = opened(ratings, format="swiss", per_game=2, game="azul", rounds=3)
    state, log = run(state, by_rating(ratings))
    assert state.status == core.FINISHED
    assert state.ranking[0] == 1
    pairs = Counter(frozenset(t.players) for t in state.tables)
    assert max(pairs.values()) == 1
    assert [s.points for s in state.standings()][:1] == [3]


def test_nine_player_swiss_for_three_seats_groups_the_leaders_on_the_first_table():
    ratings = {player: 100 * (10 - player) for player in range(1, 10)}
    state, _ = opened(ratings, format="swiss", per_game=3, game="azul", rounds=3)
    state, _ = run(state, by_rating(ratings))
    first_round = state.round_tables(1)
    assert [t.players for t in first_round] == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    # Round 2: the three winners (4 points each) sit together.
    assert set(state.round_tables(2)[0].players) == {1, 4, 7}
    assert state.ranking[0] == 1
    assert [s.points for s in state.standings()][0] == 12
    assert not state.byes


def test_a_player_gets_at_most_one_bye_and_the_lowest_ranked_gets_it():
    ratings = {player: 100 * (6 - player) for player in range(1, 6)}
    state, _ = opened(ratings, format="swiss", per_game=2, game="azul", rounds=4)
    state, _ = run(state, by_rating(ratings))
    byes = [bye.player for bye in state.byes]
    assert len(byes) == 4 and len(set(byes)) == 4
    assert byes[0] == 5


def test_six_player_round_robin_everyone_meets_everyone_once():
    ratings = {player: 100 * (7 - player) for player in range(1, 7)}
    state, _ = opened(ratings, format="round_robin", per_game=2, game="azul")
    state, _ = run(state, by_rating(ratings))
    assert state.round == 5
    pairs = Counter(frozenset(t.players) for t in state.tables)
    assert len(pairs) == 15 and set(pairs.values()) == {1}
    assert [s.points for s in state.standings()] == [5, 4, 3, 2, 1, 0]
    firsts = Counter(t.players[0] for t in state.tables)
    assert max(firsts.values()) - min(firsts.values()) <= 1


def test_eight_player_knockout_has_three_rounds_and_the_top_seed_wins():
    ratings = {player: 100 * (9 - player) for player in range(1, 9)}
    state, _ = opened(ratings, format="knockout", per_game=2, game="azul")
    state, _ = run(state, by_rating(ratings))
    assert [len(state.round_tables(r)) for r in (1, 2, 3)] == [4, 2, 1]
    assert [t.players for t in state.round_tables(1)] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert set(state.round_tables(3)[0].players) == {1, 2}
    assert state.ranking[0] == 1


def test_a_knockout_places_each_player_out_level_with_the_others_out_in_that_round():
    ratings = {player: 100 * (9 - player) for player in range(1, 9)}
    state, _ = opened(ratings, format="knockout", per_game=2, game="azul")
    state, _ = run(state, by_rating(ratings))
    places = {player: (out.round, out.places) for player, out in core.knocked_out(state).items()}
    assert places == {
        2: (3, "2"),
        3: (2, "3–4"),
        4: (2, "3–4"),
        **{player: (1, "5–8") for player in (5, 6, 7, 8)},
    }


def test_no_player_is_knocked_out_of_a_swiss():
    ratings = {player: 100 * (5 - player) for player in range(1, 5)}
    state, _ = opened(ratings, format="swiss", per_game=2, game="azul", rounds=2)
    state, _ = run(state, by_rating(ratings))
    assert core.knocked_out(state) == {}


def test_knockout_of_five_gives_the_three_top_seeds_a_bye():
    ratings = {player: 100 * (6 - player) for player in range(1, 6)}
    state, _ = opened(ratings, format="knockout", per_game=2, game="azul")
    state, _ = apply(state, decider.Start())
    assert sorted(bye.player for bye in state.byes) == [1, 2, 3]
    assert [t.players for t in state.round_tables()] == [(4, 5)]


def test_a_player_out_of_time_in_two_games_in_a_row_is_withdrawn_and_skipped():
    ratings = {player: 100 * (7 - player) for player in range(1, 7)}
    state, _ = opened(ratings, format="swiss", per_game=2, game="azul", rounds=4)
    state, log = run(state, by_rating(ratings), timed_out=lambda t: (6,) if 6 in t.players else ())
    assert core.PlayerWithdrew(6, core.TIMED_OUT) in log
    assert all(6 not in t.players for t in state.tables if t.round > 2)
    assert state.entrant(6).withdrawn


def test_a_withdrawn_round_robin_player_gives_the_rest_walkovers():
    ratings = {player: 100 * (5 - player) for player in range(1, 5)}
    state, _ = opened(ratings, format="round_robin", per_game=2, game="azul")

    def leaves(state):
        return [decider.Withdraw(4)] if state.round == 1 else []

    state, _ = run(state, by_rating(ratings), between=leaves)
    walkovers = sorted(bye.player for bye in state.byes if bye.walkover)
    assert len(walkovers) == 2 and set(walkovers) < {1, 2, 3}
    assert all(4 not in t.players for t in state.tables if t.round > 1)


def test_registration_refuses_the_full_the_unrated_and_the_twice_registered():
    state, _ = opened(
        {1: 1500, 2: 1500},
        format="swiss",
        per_game=2,
        game="azul",
        rounds=1,
        max_players=2,
        min_rating=1400,
    )
    with pytest.raises(core.TournamentRefused) as full:
        decider.decide(state, decider.Register(3, 1600))
    assert full.value.code == "full"
    with pytest.raises(core.TournamentRefused) as twice:
        decider.decide(state, decider.Register(1, 1500))
    assert twice.value.code == "already_registered"
    state, _ = apply(state, decider.Withdraw(2))
    with pytest.raises(core.TournamentRefused) as low:
        decider.decide(state, decider.Register(3, 1300))
    assert low.value.code == "rating_too_low"


@pytest.mark.parametrize(
    ("chosen", "code"),
    [
        ({"format": "ladder", "per_game": 2}, "invalid_format"),
        ({"format": "knockout", "per_game": 3}, "knockout_for_two"),
        ({"format": "swiss", "per_game": 2, "rounds": 0}, "invalid_rounds"),
        ({"format": "swiss", "per_game": 2, "rounds": 2, "points": (0, 1)}, "invalid_points"),
        ({"format": "round_robin", "per_game": 4, "min_players": 3}, "too_few_for_a_table"),
    ],
)
def test_settings_that_cannot_run_are_refused_with_a_code(chosen, code):
    with pytest.raises(core.TournamentRefused) as refused:
        decider.decide(
            core.Tournament(),
            decider.CreateTournament("Cup", 1, core.Settings(game="azul", **chosen)),
        )
    assert refused.value.code == code


def test_a_tournament_replays_from_its_encoded_events_to_the_same_state():
    ratings = {player: 100 * (8 - player) for player in range(1, 8)}
    state, log = opened(ratings, format="swiss", per_game=3, game="azul", rounds=2)
    finished, played = run(state, by_rating(ratings))
    stored = [core.CODEC.encode(event) for event in log + played]
    assert core.fold([core.CODEC.decode(data) for data in stored]) == finished
