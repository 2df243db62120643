"""Pure rule helpers named after rulebook terms: what a source gives, what a space accepts,
what a placement costs and scores, which structures it surrounds, what completed stars and
numbers score at the end. No events, no state changes: ``engine`` builds on these."""

from itertools import combinations_with_replacement

from games.rules.common import total
from games.rules.summer_pavilion.board import (
    CENTRE_STAR,
    COLOUR_COUNT,
    COSTS,
    LOWEST_SCORE,
    MULTICOLOUR_STAR_BONUS,
    NUMBER_BONUS,
    NUMBER_SETS,
    SPACES_PER_STAR,
    STAR_BONUS,
    STAR_COLOUR,
    STARS,
    STRUCTURES_AT,
    Side,
    Structure,
)
from games.rules.summer_pavilion.model import Counts

ALL_COLOURS = tuple(range(COLOUR_COUNT))
NO_TILES: Counts = (0,) * COLOUR_COUNT


def one_of(colour: int, count: int = 1) -> Counts:
    """``count`` tiles of one colour as a multiset."""
    counts = [0] * COLOUR_COUNT
    counts[colour] = count
    return tuple(counts)


def tiles_taken(source: Counts, colour: int, wild: int) -> Counts:
    """Rulebook phase 1 A/B: every tile of a non-wild colour plus exactly one wild tile if
    the source holds any; a lone wild tile when the source holds wild tiles only."""
    if colour == wild:
        return one_of(wild)
    counts = list(one_of(colour, source[colour]))
    counts[wild] = min(1, source[wild])
    return tuple(counts)


def only_wild(source: Counts, wild: int) -> bool:
    """Whether a source holds tiles of the wild colour and nothing else."""
    return source[wild] > 0 and total(source) == source[wild]


def points_lost(score: int, loss: int) -> int:
    """How far a loss moves the marker back: never below space 1 (``LOWEST_SCORE``)."""
    return max(0, min(loss, score - LOWEST_SCORE))


def star_tiles(board: tuple[int | None, ...], star: int) -> tuple[int, ...]:
    """The colours already placed on a star."""
    start = star * SPACES_PER_STAR
    return tuple(c for c in board[start : start + SPACES_PER_STAR] if c is not None)


def star_accepts(side: Side, board: tuple[int | None, ...], star: int) -> tuple[int, ...]:
    """The colours a star accepts next.

    Coloured side: an outer star takes its own colour; the centre star any colour not yet on
    it. Grey side: a star with two or more tiles is fixed as single-coloured (its colour) or
    multicolour (colours not yet on it); with fewer it takes any colour.
    """
    if side is Side.COLOURED and star != CENTRE_STAR:
        return (STAR_COLOUR[star],)
    placed = star_tiles(board, star)
    if side is Side.GREY and len(placed) < 2:
        return ALL_COLOURS
    if side is Side.GREY and placed[0] == placed[1]:
        return (placed[0],)
    return tuple(c for c in ALL_COLOURS if c not in placed)


def payment(cost: int, colour: int, wilds: int, wild: int) -> Counts:
    """The tiles spent to place a ``colour`` tile on a space costing ``cost``, ``wilds`` of
    them of the wild colour (rulebook "Wild color use")."""
    if colour == wild:
        return one_of(colour, cost)
    counts = list(one_of(colour, cost - wilds))
    counts[wild] += wilds
    return tuple(counts)


def payment_error(
    beside: Counts, cost: int, colour: int, wilds: int, wild: int
) -> tuple[str, dict[str, int]] | None:
    """Why the tiles beside the board cannot pay for a placement — the code of the
    ``IllegalMove`` and its facts — or ``None``."""
    if colour == wild:
        if wilds:
            return "wild_paid_with_wilds", {"colour": colour}
    elif not 0 <= wilds < cost:
        return "wilds_out_of_range", {"cost": cost, "most": cost - 1, "wilds": wilds}
    needed = cost - wilds
    if beside[colour] < needed:
        return "too_few_of_colour", {"needed": needed, "colour": colour, "have": beside[colour]}
    if beside[wild] < wilds:
        return "too_few_wilds", {"have": beside[wild], "wilds": wilds, "wild": wild}
    return None


def affordable_wilds(held: int, wilds_held: int, cost: int, is_wild: bool) -> range:
    """Every number of wild tiles that can pay for a placement (one command each), holding
    ``held`` tiles of the placed colour and ``wilds_held`` of the wild colour beside the
    board; a tile of the wild colour (``is_wild``) is paid with that colour only."""
    if is_wild:
        return range(1) if held >= cost else range(0)
    return range(max(0, cost - held), min(cost - 1, wilds_held) + 1)


def run_length(board: tuple[int | None, ...], position: int) -> int:
    """Rulebook "Scoring": the connected tiles of the star that include ``position``."""
    start = position - position % SPACES_PER_STAR
    ring = [board[start + i] is not None for i in range(SPACES_PER_STAR)]
    if all(ring):
        return SPACES_PER_STAR
    offset = position - start
    length = 1
    for step in (1, -1):
        i = (offset + step) % SPACES_PER_STAR
        while ring[i] and i != offset:
            length += 1
            i = (i + step) % SPACES_PER_STAR
    return length


def surrounded(board: tuple[int | None, ...], position: int) -> tuple[Structure, ...]:
    """The pillars, statues and windows whose last bordering space is ``position``
    (``board`` already holds the new tile)."""
    return tuple(
        structure
        for structure in STRUCTURES_AT[position]
        if all(board[p] is not None for p in structure.spaces)
    )


def cost_of(side: Side, position: int) -> int:
    """The number printed on a space."""
    return COSTS[side][position]


def sub_multisets(counts: Counts, size: int) -> list[tuple[int, ...]]:
    """Every multiset of exactly ``size`` tiles drawn from ``counts``, as ascending colour
    tuples, each once."""
    present = [c for c in ALL_COLOURS if counts[c]]
    return [
        choice
        for choice in combinations_with_replacement(present, size)
        if all(choice.count(c) <= counts[c] for c in choice)
    ]


def star_points(board: tuple[int | None, ...]) -> int:
    """End of the game: completed stars (single-coloured by colour, multicolour 12)."""
    points = 0
    for star in range(STARS):
        tiles = star_tiles(board, star)
        if len(tiles) < SPACES_PER_STAR:
            continue
        if len(set(tiles)) == 1:
            points += STAR_BONUS[tiles[0]]
        else:
            points += MULTICOLOUR_STAR_BONUS
    return points


def number_points(side: Side, board: tuple[int | None, ...]) -> int:
    """End of the game: every space printed with 1 (2, 3, 4) covered: 4 (8, 12, 16)."""
    return sum(
        NUMBER_BONUS[number]
        for number, spaces in NUMBER_SETS[side].items()
        if all(board[i] is not None for i in spaces)
    )
