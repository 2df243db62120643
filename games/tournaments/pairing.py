"""Who plays whom in a round, for the three formats. Pure functions of the ranking and of
who has already met; nothing here knows about games or the database.

- Swiss, 2 players per game: a maximum-weight matching (networkx's ``max_weight_matching``,
  Edmonds' blossom algorithm) over the players, every pairing weighted so that no repeat is
  chosen while a matching without one exists, then equal or close points, then neighbours
  in the ranking (the leaders together).
- Swiss, 3 or 4 players per game: the leaders grouped on the first table as Board Game Arena
  does, each table filled with the best-ranked players who have met nobody at it yet.
- Round robin: the circle method for 2 players (everyone meets everyone exactly once); for 3
  or 4, tables chosen round by round to bring together the most pairs that have not met,
  until every pair has met.
- Knockout: a bracket of the next power of two, seeded by rating so that seeds 1 and 2 can
  only meet in the final; the missing places are byes to the top seeds.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

Pair = frozenset[int]


@dataclass(frozen=True)
class Round:
    """A round's tables (players in seat order), who has a bye (no game, a win's points;
    once per player) and who has a walkover (the opponent withdrew; also a win's
    points)."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()
    walkovers: tuple[int, ...] = ()


def table_sizes(players: int, per_game: int) -> tuple[int, ...]:
    """How many sit at each table when ``players`` play ``per_game`` at a table: as few
    tables as possible, as even as possible, the bigger ones first. Ruling (the rulebooks
    play 2 to 4): when the players do not divide evenly, some tables are short rather than
    anyone sitting out."""
    if players < 2:
        return ()
    tables = -(-players // per_game)
    small, extra = divmod(players, tables)
    return tuple(small + 1 if index < extra else small for index in range(tables))


# --- Swiss --------------------------------------------------------------------------------

# Weights of a pairing in the matching, in decreasing order of importance: a repeat costs
# more than any number of point gaps, a point gap more than any distance in the ranking.
_REPEAT = 1 << 50
_POINT_GAP = 1 << 20
# Beyond this many players the ranking is cut into consecutive blocks of this many, each
# matched on its own: the matching's cost grows with the cube of its players, and the best
# opponents for a player are near them in the ranking anyway (bench/tournaments.py).
_BLOCK = 64


def swiss_pairs(
    ranked: Sequence[int], points: dict[int, float], met: set[Pair]
) -> tuple[tuple[int, int], ...]:
    """Pairs for an even number of ``ranked`` players (best first): no pair in ``met``
    while it can be avoided, then the smallest point gaps, then ranking neighbours; each
    pair best-ranked first. A large field is matched block by block (``_BLOCK``), so there
    "while it can be avoided" holds within each block."""
    rank = {player: index for index, player in enumerate(ranked)}
    blocks = [ranked[start : start + _BLOCK] for start in range(0, len(ranked), _BLOCK)]
    if len(blocks) > 1 and len(blocks[-1]) < _BLOCK // 2:
        blocks[-2:] = [[*blocks[-2], *blocks[-1]]]
    pairs = [
        tuple(sorted(pair, key=rank.__getitem__))
        for block in blocks
        for pair in _matching(block, points, met)
    ]
    return tuple(sorted(pairs, key=lambda pair: rank[pair[0]]))


def _matching(
    ranked: Sequence[int], points: dict[int, float], met: set[Pair]
) -> set[tuple[int, int]]:
    graph = nx.Graph()
    highest = len(ranked) * _REPEAT
    for index, player in enumerate(ranked):
        for distance, other in enumerate(ranked[index + 1 :], start=1):
            gap = round(abs(points[player] - points[other]) * 2)
            cost = gap * gap * _POINT_GAP + distance * distance
            if frozenset((player, other)) in met:
                cost += _REPEAT
            graph.add_edge(player, other, weight=highest - cost)
    return nx.max_weight_matching(graph, maxcardinality=True)


def swiss_groups(ranked: Sequence[int], per_game: int, met: set[Pair]) -> tuple[tuple[int, ...]]:
    """Tables of 3 or 4 for ``ranked`` players (best first): the first table takes the
    leader and the best-ranked players who have met none of those already seated, and so
    on; when everyone left has met someone at the table, the one who met the fewest."""
    left, order = list(ranked), {player: index for index, player in enumerate(ranked)}
    tables = []
    for size in table_sizes(len(left), per_game):
        table = [left.pop(0)]
        while len(table) < size:
            chosen = min(
                left,
                key=lambda player: (
                    sum(frozenset((player, seated)) in met for seated in table),
                    order[player],
                ),
            )
            left.remove(chosen)
            table.append(chosen)
        tables.append(tuple(table))
    return tuple(tables)


# --- round robin --------------------------------------------------------------------------


def round_robin_schedule(seeded: Sequence[int], per_game: int) -> tuple[Round, ...]:
    """Every round of a round robin among ``seeded`` players. Two per game: the circle
    method, ``n - 1`` rounds (``n`` with a bye each when ``n`` is odd), everyone meets
    everyone exactly once. Three or four: each round's tables bring together as many pairs
    that have not met as the greedy choice finds, until every pair has met at least once
    (an exact schedule exists only for some numbers of players)."""
    if per_game == 2:
        return _circle(list(seeded))
    met: set[Pair] = set()
    rounds = []
    everyone = {frozenset(pair) for pair in combinations(seeded, 2)}
    while not everyone <= met:
        tables = _fresh_tables(seeded, per_game, met)
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
        rounds.append(Round(tables))
    return tuple(rounds)


def _circle(players: list[int | None]) -> tuple[Round, ...]:
    if len(players) % 2:
        players.append(None)
    count = len(players)
    rounds = []
    for _ in range(count - 1):
        tables, byes = [], []
        for index in range(count // 2):
            first, second = players[index], players[count - 1 - index]
            if first is None or second is None:
                byes.append(second if first is None else first)
            else:
                tables.append((first, second))
        rounds.append(Round(tuple(tables), tuple(byes)))
        players = [players[0], players[-1], *players[1:-1]]
    return tuple(rounds)


def _fresh_tables(seeded: Sequence[int], per_game: int, met: set[Pair]) -> tuple[tuple[int, ...]]:
    """The Swiss's way of filling tables, the players with the most pairs still to meet
    first."""

    def unmet(player: int) -> int:
        return sum(frozenset((player, other)) not in met for other in seeded if other != player)

    order = {player: index for index, player in enumerate(seeded)}
    return swiss_groups(sorted(seeded, key=lambda p: (-unmet(p), order[p])), per_game, met)


# --- knockout -----------------------------------------------------------------------------


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def bracket_slots(size: int) -> tuple[int, ...]:
    """The seeds (1 = best) in bracket order for a bracket of ``size``: 1 plays ``size``,
    2 plays ``size - 1``…, and the halves are arranged so that the two best seeds can meet
    only in the final, the best four only from the semi-finals, and so on."""
    slots = [1]
    while len(slots) < size:
        total = len(slots) * 2 + 1
        slots = [seed for top in slots for seed in (top, total - top)]
    return tuple(slots)


def knockout_round(seeds: dict[int, int], alive: set[int], round_number: int) -> Round:
    """Round ``round_number`` (1 = first) of a knockout: the ``alive`` players (not beaten,
    not withdrawn), each with its seed, meet the one alive player of the neighbouring
    branch of the bracket; one alone in its branch has a bye in the first round (the
    bracket's missing places) and a walkover later (the opponent withdrew)."""
    size = bracket_size(len(seeds))
    slot = {seed: index for index, seed in enumerate(bracket_slots(size))}
    branches: dict[int, list[int]] = {}
    for player in sorted(alive, key=seeds.__getitem__):
        branches.setdefault(slot[seeds[player]] >> round_number, []).append(player)
    tables = tuple(tuple(branch) for _, branch in sorted(branches.items()) if len(branch) == 2)
    alone = tuple(branch[0] for _, branch in sorted(branches.items()) if len(branch) == 1)
    return Round(tables, alone) if round_number == 1 else Round(tables, walkovers=alone)


def knockout_rounds(players: int) -> int:
    """How many rounds a knockout of ``players`` takes: log2 of its bracket."""
    return bracket_size(players).bit_length() - 1
