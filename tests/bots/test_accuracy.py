"""Accuracy as lichess computes it, from the analysis's values (issue 30): the curves, the
marks, and a random player judged far below the hard level on a fixed seeded game."""

import random

import pytest

from games.bots import HARD, appraise, choose, knowledge_for
from games.bots.accuracy import (
    CLEARLY_WORSE,
    CLEARLY_WORSE_DROP,
    DUBIOUS,
    DUBIOUS_DROP,
    STRETCH,
    game_accuracy,
    judgement,
    move_accuracy,
    stretch_of,
    win_drop,
    win_percent,
)


def test_an_even_position_is_even_chances_and_a_lead_is_better():
    assert win_percent(0.5, 1) == pytest.approx(50)
    assert 50 < win_percent(0.6, 1) < win_percent(0.9, 1) < 100
    assert win_percent(0.0, 1) > 0 and win_percent(1.0, 1) < 100


def test_the_preferred_move_gives_nothing_away_and_scores_full_accuracy():
    assert win_drop(0.7, 0.7, 1) == 0
    assert win_drop(0.6, 0.7, 1) == 0, "a move valued above the preferred one loses nothing"
    assert move_accuracy(0) == 100


def test_lichess_accuracy_curve_falls_with_the_winning_chances_given_away():
    # lichess: Accuracy% = 103.1668 * exp(-0.04354 * drop) - 3.1669 (+1 for uncertainty)
    assert move_accuracy(10) == pytest.approx(103.1668 * 2.71828**-0.4354 - 2.1669, abs=1e-3)
    assert move_accuracy(50) < move_accuracy(20) < move_accuracy(5) < 100
    assert move_accuracy(100) == 0


def test_the_same_points_given_away_cost_the_same_however_far_behind():
    """Measured as if the game were even: a player far behind still gives away chances."""
    close = win_drop(0.5, 0.3, 1)
    behind = win_drop(0.02, 0.0085, 1)  # about the same lead lost, in a lost position
    assert close == pytest.approx(behind, rel=0.05)
    assert win_percent(0.02, 1) - win_percent(0.0085, 1) < close / 2, "lichess's drop would vanish"


@pytest.mark.parametrize(
    ("drop", "mark"),
    [
        (0, ""),
        (DUBIOUS_DROP - 0.1, ""),
        (DUBIOUS_DROP, DUBIOUS),
        (CLEARLY_WORSE_DROP, CLEARLY_WORSE),
    ],
)
def test_marks_follow_the_winning_chances_given_away(drop, mark):
    assert judgement(drop) == mark


def test_two_or_three_points_given_away_earn_no_mark_but_cost_most_of_the_accuracy():
    """An even game of Azul (its search's scale: 8 points of lead make one unit of the
    logistic): a move the search values 2.5 points below its own choice is no mistake by
    the calibrated winning chances, while a game of such moves scores under half."""
    best, played = 0.5, 1 / (1 + 2.71828 ** (2.5 / 8))
    assert judgement(win_drop(best, played, STRETCH["azul"])) == ""
    assert game_accuracy([(best, played)] * 25, STRETCH["azul"]) < 50
    assert game_accuracy([(best, best)] * 25, STRETCH["azul"]) == pytest.approx(100)


def test_a_few_bad_moves_weigh_on_the_whole_game():
    perfect = [(0.5, 0.5)] * 30
    assert game_accuracy(perfect, 1) == pytest.approx(100)
    assert game_accuracy([], 1) is None
    spoiled = perfect[:27] + [(0.5, 0.1)] * 3
    assert game_accuracy(spoiled, 1) < 85, "the harmonic mean: 3 blunders in 30 moves show"


def test_a_random_player_is_judged_far_less_accurate_than_the_hard_level():
    """A fixed seeded game of Azul, seat 1 moving at random, seat 2 the hard level; every
    move where a seat had a choice judged as the analysis judges it (few simulations)."""
    engine = knowledge_for("azul").engine
    rng = random.Random(5)
    state = engine.replay(engine.start(2, {}, rng))
    judged = {0: [], 1: []}
    number = 0
    while not engine.is_over(state):
        seat, commands = engine.to_move(state), engine.legal_commands(state)
        if seat == 0:
            command = rng.choice(commands)
        else:
            command = choose(engine, state, seat, HARD, seed=number, simulations=40)
        if len(commands) > 1:
            found = appraise(engine, state, command, seed=number, simulations=40)
            judged[seat].append((found.best_value, found.played_value))
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
        number += 1
    random_player, hard = (game_accuracy(judged[seat], stretch_of("azul")) for seat in (0, 1))
    assert random_player < 50 and hard > 95
