"""What every pairing must hold, stated as properties (hypothesis): no player twice in a
round, no repeat pairing while one can be avoided, at most one bye per player, a round
robin meets everyone exactly once, a knockout's bracket halves each round."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments import core, pairing
from games.tournaments.standings import competition_places
from tests.tournaments.helpers import opened, run


def _can_pair_without_repeat(players: list[int], met: set[frozenset[int]]) -> bool:
    """Brute force, independent of the matching library: can ``players`` all be paired
    with nobody meeting again?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met
        and _can_pair_without_repeat([p for p in rest if p != other], met)
        for other in rest
    )


@st.composite
def swiss_positions(draw):
    size = draw(st.integers(1, 5)) * 2
    players = list(range(1, size + 1))
    pairs = [frozenset(pair) for pair in combinations(players, 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=len(pairs))))
    points = {p: draw(st.integers(0, 6)) / 2 for p in players}
    ranked = sorted(players, key=lambda p: -points[p])
    return ranked, points, met


@settings(deadline=None)
@given(swiss_positions())
def test_no_repeat_pairing_while_avoidable_and_no_player_twice(position):
    ranked, points, met = position
    pairs = pairing.swiss_pairs(ranked, points, met)
    seated = [player for pair in pairs for player in pair]
    assert sorted(seated) == sorted(ranked)
    if any(frozenset(pair) in met for pair in pairs):
        assert not _can_pair_without_repeat(ranked, met)


@given(st.integers(2, 14))
def test_round_robin_for_two_meets_everyone_exactly_once(size):
    players = list(range(1, size + 1))
    rounds = pairing.round_robin_schedule(players, 2)
    met = Counter(frozenset(table) for r in rounds for table in r.tables)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    byes = Counter(player for r in rounds for player in r.byes)
    assert all(count == 1 for count in byes.values())
    for r in rounds:
        seated = [p for table in r.tables for p in table] + list(r.byes)
        assert sorted(seated) == players


@given(st.integers(3, 13), st.sampled_from([3, 4]))
def test_round_robin_for_three_or_four_brings_every_pair_together(size, per_game):
    players = list(range(1, size + 1))
    rounds = pairing.round_robin_schedule(players, per_game)
    met = {frozenset(pair) for r in rounds for table in r.tables for pair in combinations(table, 2)}
    assert met == {frozenset(pair) for pair in combinations(players, 2)}
    for r in rounds:
        seated = [p for table in r.tables for p in table]
        assert sorted(seated) == players
        assert all(2 <= len(table) <= per_game for table in r.tables)
        assert max(map(len, r.tables)) - min(map(len, r.tables)) <= 1


@given(st.integers(2, 64))
def test_knockout_bracket_halves_each_round_with_byes_to_the_top_seeds(size):
    seeds = {player: player for player in range(1, size + 1)}
    first = pairing.knockout_round(seeds, set(seeds), 1)
    bracket = pairing.bracket_size(size)
    assert bracket // 2 < size <= bracket
    assert len(first.tables) + len(first.byes) == bracket // 2
    assert sorted(first.byes) == list(range(1, bracket - size + 1))
    assert pairing.knockout_rounds(size) == bracket.bit_length() - 1


@settings(max_examples=25, deadline=None)
@given(
    st.integers(4, 11),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["swiss", "round_robin", "knockout"]),
    st.randoms(use_true_random=False),
)
def test_whole_tournaments_seat_nobody_twice_and_give_at_most_one_bye_each(
    size, per_game, format, random
):
    if format == "knockout":
        per_game = 2
    ratings = {player: random.randint(1000, 2000) for player in range(1, size + 1)}
    rounds = {"rounds": min(4, size - 1)} if format == "swiss" else {}
    state, _ = opened(ratings, format=format, per_game=per_game, game="azul", **rounds)

    def random_result(table):
        scores = tuple(random.randint(0, 8) for _ in table.players)
        return competition_places(scores), scores

    state, _ = run(state, random_result)
    assert state.status == core.FINISHED
    for number in range(1, state.round + 1):
        seated = [p for t in state.round_tables(number) for p in t.players]
        seated += [bye.player for bye in state.byes if bye.round == number]
        assert len(seated) == len(set(seated))
    byes = Counter(bye.player for bye in state.byes if not bye.walkover)
    assert all(count == 1 for count in byes.values())
    assert sorted(state.ranking) == sorted(ratings)
