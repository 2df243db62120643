"""Marks and accuracy from the loss in estimated winning chances, as lichess computes them
(https://lichess.org/page/accuracy and lila's ``AccuracyPercent``), on the values of the
post-game analysis (``appraise``: the mean reward of a command for the mover, 0 to 1).

1. **Win%**, a logistic of the evaluation. The search's reward for a position is
   ``1 / (1 + e^(−margin / scale))``, the margin being the mover's evaluated lead in points
   over the best opponent (``games.bots.search.rewards``), so the logit of a value is a
   lead in units of ``scale``. The win-probability model is the logistic of that logit
   over ``STRETCH``, fitted on our games (``bench/accuracy.py --calibrate``: the stretch
   that best predicts who won from the analysis's values of positions of games between
   two medium players).
2. **The Win% a move gives away**: the lead (logit) of the search's preferred move minus
   the lead of the move played, turned into winning chances *as if the game were even*:
   ``100 / (1 + e^(−lost / STRETCH)) − 50``. lichess subtracts the Win% after the move from
   the Win% before; in our games a player who falls behind early has lost by lichess's
   measure, so every later move would give away nothing and be perfect whatever it was
   (docs/bots.md, "Accuracy and marks", gives the game that showed it). Measured at an
   even game, the same points given away cost the same wherever they are given away: the
   most winning chances they can cost.
3. **A move's accuracy** from that drop: ``103.1668 · e^(−0.04354 · drop) − 3.1669``, plus
   lichess's point of uncertainty, between 0 and 100 — the drop measured here at
   ``ACCURACY_STRETCH``, sharper than the game's ``STRETCH``: lichess's curve was made for
   chess, where a careless move gives away tens of Win% at once; in our games it gives
   away two or three points, a few Win% at the calibrated stretch, and the curve would
   judge a game of random moves well over half accurate (``bench/accuracy.py``; the
   figures are in docs/bots.md).
4. **A game's accuracy** for a seat: the mean of the volatility-weighted mean and the
   harmonic mean of its moves' accuracies (lichess's ``gameAccuracy``): a move counts more
   where the seat's Win% swung, and a few bad moves weigh on the whole game.
5. **Marks**: a drop of ``DUBIOUS_DROP`` Win% or more is ``?``, of ``CLEARLY_WORSE_DROP``
   or more ``??`` (lichess's mistake and blunder).
"""

import math
from statistics import pstdev

STRETCH = {"azul": 1.0, "summer-pavilion": 2.2, "miyabi": 0.9}
"""Per game (its slug), the win-probability model's scale in units of the search's
``scale`` (the module's docstring; the fits are in ``docs/bots.md``): Azul's and Miyabi's
evaluations predict who wins as they are, Summer Pavilion's overstate a lead about
twofold."""
ACCURACY_STRETCH = 0.3
"""The stretch at which a move's drop is measured for its accuracy (its marks and the
Win% series keep the game's ``STRETCH``). A choice of severity, not a fit: two or three
points given away in an even game cost a move 20–25 Win% here, so that over a game a
player moving at random scores under half and the hard level near the top, easy and
medium between (``bench/accuracy.py``; its figures are in ``docs/bots.md``)."""
EDGE = 1e-6
"""Values are stored to six decimals: a value of 0 or 1 reads as this far from it."""
UNCERTAINTY_BONUS = 1.0
"""lila adds a point to every move's accuracy for the analysis's own imprecision."""
DUBIOUS = "?"
CLEARLY_WORSE = "??"
DUBIOUS_DROP = 10.0
"""A move that costs this many Win% or more is marked dubious, ``?`` (lichess's mistake:
0.2 of its winning chances from −1 to 1)."""
CLEARLY_WORSE_DROP = 15.0
"""From this many Win%, ``??`` (lichess's blunder: 0.3 of its winning chances)."""
WINDOW_FEWEST, WINDOW_MOST = 2, 8
"""The volatility window: a tenth of the seat's moves, within these bounds (lila)."""
WEIGHT_LEAST, WEIGHT_MOST = 0.5, 12.0
"""A window's weight is the standard deviation of its Win%, within these bounds (lila)."""


def lead(value: float) -> float:
    """The lead in units of the search's ``scale`` that a value (0 to 1) stands for."""
    value = min(max(value, EDGE), 1 - EDGE)
    return math.log(value / (1 - value))


def stretch_of(game: str) -> float:
    """The stretch of the game ``game`` (a slug); 1 for a game not calibrated yet."""
    return STRETCH.get(game, 1.0)


def win_percent(value: float, stretch: float) -> float:
    """The mover's winning chances in percent for a position the search values at
    ``value`` (0 to 1): the logistic of its lead over the game's ``stretch``."""
    return 100 / (1 + math.exp(-lead(value) / stretch))


def win_drop(best_value: float, played_value: float, stretch: float) -> float:
    """The Win% the move played gave away against the search's preferred move, as if the
    game were even (never negative: the preferred move is the reference)."""
    lost = max(0.0, lead(best_value) - lead(played_value))
    return 100 / (1 + math.exp(-lost / stretch)) - 50


def move_accuracy(drop: float) -> float:
    """A move's accuracy in percent from the Win% it gave away (lichess's curve)."""
    accuracy = 103.1668 * math.exp(-0.04354 * drop) - 3.1669 + UNCERTAINTY_BONUS
    return min(100.0, max(0.0, accuracy))


def judgement(drop: float) -> str:
    """The mark of a move that gave away ``drop`` Win%: ``"??"``, ``"?"`` or ``""``."""
    if drop >= CLEARLY_WORSE_DROP:
        return CLEARLY_WORSE
    if drop >= DUBIOUS_DROP:
        return DUBIOUS
    return ""


def game_accuracy(
    moves: list[tuple[float, float]], stretch: float, severity: float = ACCURACY_STRETCH
) -> float | None:
    """A seat's accuracy over a game from its judged moves in order, each ``(best_value,
    played_value)``, in a game of ``stretch``, its moves' drops measured at ``severity``;
    ``None`` for a seat that never had a choice. lila's ``gameAccuracy``:
    the seat's Win% before each move and after the last make a series; each move's weight
    is the volatility (standard deviation) of the series in a window around it; the result
    is the mean of the weighted mean and the harmonic mean of the moves' accuracies."""
    if not moves:
        return None
    accuracies = [move_accuracy(win_drop(best, played, severity)) for best, played in moves]
    series = [win_percent(best, stretch) for best, _ in moves]
    series.append(win_percent(moves[-1][1], stretch))
    size = min(max(len(moves) // 10, WINDOW_FEWEST), WINDOW_MOST)
    size = min(size, len(series))
    windows = [series[:size]] * (size - 2) + [
        series[start : start + size] for start in range(len(series) - size + 1)
    ]
    weights = [min(max(pstdev(window), WEIGHT_LEAST), WEIGHT_MOST) for window in windows]
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = len(accuracies) / sum(1 / max(1.0, accuracy) for accuracy in accuracies)
    return (weighted + harmonic) / 2
