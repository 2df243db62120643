"""Phase 3 (next round) and the end of the game: new wild colour, factories refilled from bag
and tower, corner tiles back beside the board, final bonuses, ties."""

import dataclasses
import random

from games.rules.summer_pavilion import (
    GameEnded,
    NextRoundPrepared,
    Pass,
    Phase,
    decide,
    evolve,
    is_over,
    outcome,
    to_move,
)
from games.rules.summer_pavilion.board import (
    BLUE,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    STAR_COLOUR,
    YELLOW,
    Side,
)
from games.rules.summer_pavilion.rules import number_points, star_points

from .tables import board, phase_two, tiles

RNG = random.Random(0)


def last_pass(state, keep=()):
    """Everybody but seat 0 has passed; seat 0 passes now."""
    players = tuple(dataclasses.replace(p, passed=True) for p in state.players[1:])
    state = dataclasses.replace(state, players=(state.players[0], *players))
    return state, decide(state, Pass(keep), RNG)


def fold(state, events):
    for event in events:
        state = evolve(state, event)
    return state


def test_phase_three_starts_the_next_round_with_the_token_holder_and_a_new_wild_colour():
    state = phase_two(beside=tiles(green=4, red=2), players=3, seat=0)
    state = dataclasses.replace(state, token_taker=2, start_player=1)
    state, events = last_pass(state, (GREEN,) * 4)
    prepared = events[1]
    assert isinstance(prepared, NextRoundPrepared)
    assert prepared.round == 2 and prepared.start_player == 2
    assert [len(d) for d in prepared.displays] == [4] * 7
    state = fold(state, events)
    assert state.wild == GREEN and state.phase is Phase.ACQUIRE
    assert to_move(state) == 2 and state.token_taker is None
    assert state.players[0].beside == tiles(green=4)
    assert state.players[0].corners == tiles()
    assert not any(p.passed for p in state.players)


def test_factories_are_filled_from_the_tower_when_the_bag_runs_out():
    state = phase_two(beside=tiles(), players=2)
    state = dataclasses.replace(state, bag=tiles(red=3), tower=tiles(blue=30))
    state, events = last_pass(state)
    prepared = events[1]
    assert prepared.bag_refilled_after == 3
    assert sum(map(len, prepared.displays)) == 20
    state = fold(state, events)
    assert state.bag == tiles(blue=13) and state.tower == tiles()


def test_factories_are_only_partly_filled_when_bag_and_tower_are_empty():
    """Rulebook phase 3: "In the rare case that the bag is empty and there are no more tiles
    in the tower, start the next round as usual even though all the Factory displays could
    not be filled." """
    state = phase_two(beside=tiles(), players=2)
    state = dataclasses.replace(state, bag=tiles(red=3), tower=tiles(blue=3))
    state, events = last_pass(state)
    assert [len(d) for d in events[1].displays] == [4, 2, 0, 0, 0]
    state = fold(state, events)
    assert state.phase is Phase.ACQUIRE and sum(map(sum, state.factories)) == 6


def test_a_round_without_tiles_to_take_goes_straight_to_placing():
    state = phase_two(beside=tiles(), players=2)
    state = dataclasses.replace(state, bag=tiles(), tower=tiles())
    state, events = last_pass(state)
    state = fold(state, events)
    assert state.round == 2 and state.phase is Phase.PLAY and to_move(state) == 0


def test_completed_coloured_stars_score_their_printed_bonus():
    """End of the game: multicolour 12, red 14, blue 15, yellow 16, orange 17, green 18,
    purple 20."""
    expected = {PURPLE: 20, ORANGE: 17, RED: 14, BLUE: 15, YELLOW: 16, GREEN: 18}
    for star in range(1, 7):
        colour = STAR_COLOUR[star]
        full = board({(star, space): colour for space in range(1, 7)})
        assert star_points(full) == expected[colour]
    centre = board({(0, space): space - 1 for space in range(1, 7)})
    assert star_points(centre) == 12


def test_coloured_number_bonuses_need_that_number_on_all_seven_stars():
    """End of the game: all 1s 4, all 2s 8, all 3s 12, all 4s 16."""
    ones = {(star, 1): STAR_COLOUR[star] or 0 for star in range(7)}
    assert number_points(Side.COLOURED, board(ones)) == 4
    all_four = {
        (star, space): STAR_COLOUR[star] if star else space - 1
        for star in range(7)
        for space in range(1, 5)
    }
    assert number_points(Side.COLOURED, board(all_four)) == 4 + 8 + 12 + 16


def test_the_game_ends_after_round_six_with_bonuses_and_corner_penalties():
    placed = {(1, space): PURPLE for space in range(1, 7)}
    state = phase_two(beside=tiles(orange=3), placed=placed, round=6, score=30)
    state, events = last_pass(state, (ORANGE, ORANGE))
    ended = events[1]
    assert isinstance(ended, GameEnded) and len(events) == 2
    assert ended.star_points[0] == 20 and ended.number_points[0] == 0
    assert ended.corner_points_lost[0] == 2
    assert ended.scores[0] == 30 - 1 + 20 - 2
    state = fold(state, events)
    assert is_over(state) and to_move(state) is None
    assert state.players[0].corners == tiles()
    assert outcome(state).winners == (0,)


def test_tied_players_share_the_victory():
    state = phase_two(beside=tiles(), round=6, score=9)
    others = tuple(dataclasses.replace(p, score=9) for p in state.players[1:])
    state = dataclasses.replace(state, players=(state.players[0], *others))
    state, events = last_pass(state)
    state = fold(state, events)
    assert outcome(state).scores == (9, 9) and outcome(state).winners == (0, 1)
