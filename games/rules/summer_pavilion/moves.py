"""The moves of a position: every legal command (``legal_commands``) and the one a timeout
or a bot plays (``default_command``). Rules reference ``rules/summer-pavilion.md``."""

from functools import cache, lru_cache
from itertools import combinations_with_replacement

from games.rules.common import IllegalMove, count_of, total
from games.rules.summer_pavilion.board import (
    BOARD_SPACES,
    COLOUR_COUNT,
    CORNER_SPACES,
    COSTS,
    FACTORIES,
    MAX_COST,
    ROUNDS,
    SPACES_PER_STAR,
    STARS,
    index,
    star_and_space,
)
from games.rules.summer_pavilion.model import (
    ChooseBonusTiles,
    Command,
    Counts,
    Pass,
    Phase,
    PlaceTile,
    Player,
    State,
    TakeTiles,
)
from games.rules.summer_pavilion.rules import (
    ALL_COLOURS,
    affordable_wilds,
    cost_of,
    only_wild,
    run_length,
    star_accepts,
    sub_multisets,
    surrounded,
)
from games.rules.summer_pavilion.turns import bonus_available, take_tiles


def legal_commands(state: State) -> list[Command]:
    """Every command ``decide`` accepts in this state, each once."""
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return []
    if state.bonus_due:
        counts = count_of(tuple(t for t in state.supply if t is not None), COLOUR_COUNT)
        return list(_bonus_choices(counts, state.bonus_due))
    if state.phase is Phase.ACQUIRE:
        return _legal_takes(state)
    player = state.players[state.current]
    commands = _legal_placements(state, player)
    missing = ~_as_bits(player.beside)
    commands.extend(command for needed, command in PASSES if not needed & missing)
    return commands


# Commands are values, shared safely: each is built once here and handed out by every
# ``legal_commands`` (bots list them at every step they try).
TAKES = {
    (source, colour): TakeTiles(source, colour)
    for source in (*range(max(FACTORIES.values())), None)
    for colour in ALL_COLOURS
}
PLACEMENTS = tuple(
    tuple(
        tuple(PlaceTile(*star_and_space(position), colour, wilds) for wilds in range(MAX_COST))
        for colour in ALL_COLOURS
    )
    for position in range(BOARD_SPACES)
)
"""``PLACEMENTS[position][colour][wilds]``."""


def _as_bits(tiles: Counts) -> int:
    """Up to ``CORNER_SPACES`` tiles of each colour as bits (colour c's k tiles are bits 4c to
    4c + k - 1), so that the tiles of a pass fit those beside the board when their bits are a
    subset (more than 4 of a colour change nothing: no more can be kept)."""
    bits = 0
    for colour, count in enumerate(tiles):
        bits |= ((1 << min(count, CORNER_SPACES)) - 1) << (CORNER_SPACES * colour)
    return bits


PASSES = tuple(
    (_as_bits(count_of(keep, COLOUR_COUNT)), Pass(keep))
    for size in range(CORNER_SPACES + 1)
    for keep in combinations_with_replacement(ALL_COLOURS, size)
)
"""Every pass with the tiles it keeps, as ``_as_bits``."""


@lru_cache(maxsize=1024)
def _bonus_choices(supply: Counts, due: int) -> tuple[ChooseBonusTiles, ...]:
    return tuple(ChooseBonusTiles(choice) for choice in sub_multisets(supply, due))


def _legal_takes(state: State) -> list[Command]:
    wild = state.wild
    commands: list[Command] = []
    for source, tiles in enumerate(state.factories):
        if any(tiles):
            commands.extend(_takes_from(source, tiles, wild))
    commands.extend(_takes_from(None, state.centre, wild))
    return commands


@lru_cache(maxsize=8192)
def _takes_from(source: int | None, tiles: Counts, wild: int) -> tuple[TakeTiles, ...]:
    """Rulebook phase 1: a take of every colour but the wild one, or of the wild colour alone
    from a source that holds nothing else (displays and the centre recur: cached)."""
    if only_wild(tiles, wild):
        return (TAKES[source, wild],)
    return tuple(TAKES[source, c] for c in ALL_COLOURS if tiles[c] and c != wild)


def _legal_placements(state: State, player: Player) -> list[Command]:
    beside, wild, side, board = player.beside, state.wild, state.side, player.board
    costs = COSTS[side]
    wilds_held = min(beside[wild], MAX_COST)
    spans = [
        _wilds_by_cost(min(held, MAX_COST), wilds_held, colour == wild)
        for colour, held in enumerate(beside)
    ]
    commands: list[Command] = []
    for star in range(STARS):
        payable = tuple((c, spans[c]) for c in star_accepts(side, board, star) if beside[c])
        if payable:
            first, last = star * SPACES_PER_STAR, (star + 1) * SPACES_PER_STAR
            commands.extend(_star_placements(first, board[first:last], costs[first:last], payable))
    return commands


@lru_cache(maxsize=8192)
def _star_placements(
    first: int,
    spaces: tuple[int | None, ...],
    costs: tuple[int, ...],
    payable: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
) -> tuple[PlaceTile, ...]:
    """The placements on one star, whose spaces start at board position ``first``, for the
    colours it accepts that can be paid (``_wilds_by_cost`` of each): stars and hands recur
    from listing to listing."""
    commands: list[PlaceTile] = []
    for offset, tile in enumerate(spaces):
        if tile is None:
            by_colour = PLACEMENTS[first + offset]
            for colour, wilds in payable:
                start, stop = wilds[costs[offset]]
                commands.extend(by_colour[colour][start:stop])
    return tuple(commands)


@cache
def _wilds_by_cost(held: int, wilds_held: int, is_wild: bool) -> tuple[tuple[int, int], ...]:
    """``affordable_wilds`` for every cost from 0 to ``MAX_COST``, as slice bounds into
    ``PLACEMENTS``: the same few answers for every space of every listing. Tile counts above
    ``MAX_COST`` change nothing."""
    spans = (affordable_wilds(held, wilds_held, cost, is_wild) for cost in range(MAX_COST + 1))
    return tuple((wilds.start, wilds.stop) for wilds in spans)


# Default command (timeouts and bots) ------------------------------------------------------------


def default_command(state: State) -> Command:
    """Deterministic, wastes least:

    - bonus tiles: wild tiles of the round first, then the colours the player holds most of
      (ties by colour order);
    - phase 1: the take that gains most tiles net of the start player penalty (ties: the
      first in ``legal_commands`` order, factories before the centre);
    - phase 2: the placement scoring most points plus bonus tiles, then the one discarding
      fewest tiles, then the one spending most wild tiles (they lose their use at the end of
      the round); with no placement, pass keeping up to 4 tiles: next round's wild colour
      first, then the colours held most.
    """
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        raise IllegalMove("game_over", action="command")
    player = state.players[state.current]
    if state.bonus_due:
        available = [t for t in state.supply if t is not None]
        ranked = sorted(available, key=lambda c: _usefulness(c, player.beside, state.wild))
        return ChooseBonusTiles(tuple(sorted(ranked[: state.bonus_due])))
    if state.phase is Phase.ACQUIRE:
        return max(_legal_takes(state), key=lambda take: _net_gain(state, take))
    placements = _legal_placements(state, player)
    if placements:
        return max(placements, key=_placement_value(state, player))
    next_wild = state.wild + 1 if state.round < ROUNDS else None
    held = [c for c in ALL_COLOURS for _ in range(player.beside[c])]
    held.sort(key=lambda c: _usefulness(c, player.beside, next_wild))
    return Pass(tuple(sorted(held[:CORNER_SPACES])))


def _usefulness(colour: int, beside: Counts, wild: int | None) -> tuple[int, int, int]:
    """Sort key, most useful first."""
    return (colour != wild, -beside[colour], colour)


def _net_gain(state: State, take: TakeTiles) -> int:
    event = take_tiles(state, take)
    return total(event.taken) - event.points_lost


def _placement_value(state: State, player: Player):
    """Sort key of a placement for ``default_command``: points plus bonus tiles (the same
    for every colour on a space, so worked out once per space), fewest tiles spent, most
    wild tiles spent."""
    gains: dict[int, int] = {}

    def value(place: PlaceTile) -> tuple[int, int, int]:
        position = index(place.star, place.space)
        if position not in gains:
            board = player.board[:position] + (place.colour,) + player.board[position + 1 :]
            earned = sum(structure.bonus for structure in surrounded(board, position))
            gains[position] = run_length(board, position) + bonus_available(state, earned)
        return (gains[position], -cost_of(state.side, position), place.wilds)

    return value
