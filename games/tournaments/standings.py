"""Points by placement and the standings with their tie-breaks.

Points: each table pays by placement (settings' ``points``, one value per place at a full
table, e.g. 6/4/2/0 for four). Players who share a place share the points of the places
they span (two sharing the win at a table of two get half a win each, as a drawn game of
chess does). A table with fewer players than a full one pays its first the full table's
first and its last the full table's last, the places between spread evenly. A bye or a
walkover is worth a win.

Tie-breaks, in this order after the points:
- 2 players per game: Buchholz (the sum of the opponents' points), then Sonneborn–Berger
  (each opponent's points times the share of that game's win one took: all of it for a
  win, half for a shared win, nothing for a loss).
- 3 or 4 players per game: the sum of the points of everyone met at a table (once per
  game), then the game score (the sum of one's scores in the games).
Then the rating at registration, then who registered first."""

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Result:
    """One finished table as standings read it: its players (seat order), each one's place
    (1 = first; equal places are shared) and score in the game."""

    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings: ``rank`` (1 = first), ``points``, the two
    tie-breaks (named by ``tie_break_names``), games played, byes, and whether they withdrew."""

    rank: int
    player: int
    points: float
    tie_breaks: tuple[float, float]
    games: int
    byes: int
    withdrawn: bool


def tie_break_names(per_game: int) -> tuple[str, str]:
    """The tie-breaks' names, in order, for tables of ``per_game``."""
    if per_game == 2:
        return ("buchholz", "sonneborn_berger")
    return ("opponents_points", "game_score")


def default_points(per_game: int) -> tuple[int, ...]:
    """Points by place at a full table: 1/0 for two (a win is a point, as in chess), 4/2/0
    for three and 6/4/2/0 for four (Board Game Arena's scale: two points a place)."""
    if per_game == 2:
        return (1, 0)
    return tuple(2 * (per_game - place) for place in range(1, per_game + 1))


def place_points(points: tuple[int, ...], size: int, place: int) -> Fraction:
    """What ``place`` pays at a table of ``size`` (a full table has ``len(points)``): the
    full table's scale, spread evenly over fewer places."""
    if size == len(points):
        return Fraction(points[place - 1])
    where = Fraction((place - 1) * (len(points) - 1), size - 1)
    below = int(where)
    if below == where:
        return Fraction(points[below])
    return points[below] + (where - below) * (points[below + 1] - points[below])


def competition_places(merits: tuple) -> tuple[int, ...]:
    """Places from each player's merit (greater is better; equal merits share a place,
    and the next place skips as many: 1, 1, 3)."""
    return tuple(1 + sum(other > merit for other in merits) for merit in merits)


def valid_places(places: tuple[int, ...]) -> bool:
    """Whether ``places`` read as a competition ranking (what ``competition_places``
    gives)."""
    return tuple(places) == competition_places(tuple(-place for place in places))


def table_points(points: tuple[int, ...], result: Result) -> dict[int, Fraction]:
    """Each player's points from one table: shared places share the points they span."""
    size = len(result.players)
    paid = {}
    for player, place in zip(result.players, result.places, strict=True):
        sharing = result.places.count(place)
        spanned = [place_points(points, size, place + offset) for offset in range(sharing)]
        paid[player] = sum(spanned, Fraction(0)) / sharing
    return paid


def standings(
    *,
    players: tuple[int, ...],
    ratings: dict[int, float],
    withdrawn: set[int],
    results: tuple[Result, ...],
    byes: tuple[int, ...],
    points: tuple[int, ...],
    per_game: int,
) -> tuple[Standing, ...]:
    """The standings of ``players`` (in registration order) after ``results`` and
    ``byes`` (one entry per bye or walkover), best first."""
    total = {player: Fraction(0) for player in players}
    games = dict.fromkeys(players, 0)
    paid = [table_points(points, result) for result in results]
    for result, table in zip(results, paid, strict=True):
        for player in result.players:
            total[player] += table[player]
            games[player] += 1
    for player in byes:
        total[player] += points[0]
    first = dict.fromkeys(players, Fraction(0))
    second = dict.fromkeys(players, Fraction(0))
    for result, table in zip(results, paid, strict=True):
        for player, score in zip(result.players, result.scores, strict=True):
            others = [other for other in result.players if other != player]
            first[player] += sum((total[other] for other in others), Fraction(0))
            if per_game == 2:
                share = table[player] / points[0] if points[0] else Fraction(0)
                second[player] += share * total[others[0]]
            else:
                second[player] += score
    order = {player: index for index, player in enumerate(players)}

    def exact(value: Fraction) -> float:
        # Sorting by floats is far faster than by fractions; the values' denominators are
        # small, so rounding keeps equal values equal and different ones apart.
        return round(float(value), 9)

    ranked = sorted(
        players,
        key=lambda p: (
            -exact(total[p]),
            -exact(first[p]),
            -exact(second[p]),
            -ratings.get(p, 0),
            order[p],
        ),
    )
    return tuple(
        Standing(
            rank=index,
            player=player,
            points=float(total[player]),
            tie_breaks=(float(first[player]), float(second[player])),
            games=games[player],
            byes=byes.count(player),
            withdrawn=player in withdrawn,
        )
        for index, player in enumerate(ranked, start=1)
    )
