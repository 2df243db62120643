"""Azul: Summer Pavilion for the bots: a position is worth the score plus the tiles a
player holds and the star and number bonuses the board promises (on the grey side, the
supply tiles its pillars, statues and windows promise too).

What a seat cannot see: the tower is shown as a count only, like the bag, so a seat knows
the union of the unseen tiles (every tile not on a board, a display, the centre, the supply,
beside a board or on its corners) and the two sizes, never which colours lie in the bag and
which in the tower. The bots' worlds deal that union afresh each time."""

import random
from dataclasses import replace
from functools import lru_cache

from games.bots.knowledge import Knowledge, split_unseen
from games.rules import summer_pavilion
from games.rules.summer_pavilion.board import (
    CENTRE_STAR,
    CORNER_SPACES,
    MULTICOLOUR_STAR_BONUS,
    NUMBER_BONUS,
    NUMBER_SETS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_BONUS,
    STAR_COLOUR,
    STARS,
    STRUCTURES,
    Side,
)
from games.rules.summer_pavilion.model import Pass, Phase, PlaceTile, State
from games.rules.summer_pavilion.rules import star_tiles

TILE = 0.5
"""A tile beside the board (or kept on a corner) is worth about half a point: a placement
costs 1 to 6 tiles and scores a few points and bonus progress."""
LAST_CORNER = -1.0
"""Rulebook "End of the game": each tile left on a corner after round 6 costs a point."""
PARTIAL_BONUS = 0.5
"""An unfinished star or number set is worth this share of its bonus, times the square of
how far along it is."""
SUPPLY_TILE = 1.0
"""Grey side: a tile of one's choice from the supply (rulebook "Scoring": surrounding a
pillar, statue or window earns 1, 2 or 3 of them) is worth about a point, twice a tile
drawn: it is the colour a star needs, or the round's wild colour. An unfinished pillar,
statue or window promises ``PARTIAL_BONUS`` × (share surrounded)² of its tiles' worth; a
finished one has paid its tiles, which lie beside the board."""


def evaluate(state: State) -> tuple[float, ...]:
    """Every seat's expected final points (rulebook "Scoring" and "End of the game")."""
    if summer_pavilion.is_over(state):
        return tuple(float(score) for score in summer_pavilion.scores(state))
    corner = LAST_CORNER if state.round == ROUNDS else TILE
    values = []
    for seat, player in enumerate(state.players):
        value = player.score + TILE * sum(player.beside) + corner * sum(player.corners)
        if seat == state.current:
            value += TILE * state.bonus_due
        values.append(value + _board_promise(state.side, player.board))
    return tuple(values)


# The other seats' boards recur in every position a search values, and a board's promise
# depends on the board alone. The cache stays small: every entry lengthens a full garbage
# collection, which hard must fit in its time budget.
@lru_cache(maxsize=1 << 13)
def _board_promise(side: Side, board: tuple[int | None, ...]) -> float:
    value = 0.0
    for star in range(STARS):
        tiles = star_tiles(board, star)
        if not tiles:
            continue
        if side is Side.COLOURED and star != CENTRE_STAR:
            bonus = STAR_BONUS[STAR_COLOUR[star]]
        elif side is Side.GREY and len(set(tiles)) == 1:
            bonus = STAR_BONUS[tiles[0]]
        else:
            bonus = MULTICOLOUR_STAR_BONUS
        value += _share(len(tiles), SPACES_PER_STAR) * bonus
    for number, spaces in NUMBER_SETS[side].items():
        covered = sum(board[space] is not None for space in spaces)
        value += _share(covered, len(spaces)) * NUMBER_BONUS[number]
    if side is Side.GREY:
        value += _supply_promise(board)
    return value


def _supply_promise(board: tuple[int | None, ...]) -> float:
    value = 0.0
    for structure in STRUCTURES:
        surrounded = sum(board[space] is not None for space in structure.spaces)
        if surrounded < len(structure.spaces):
            share = PARTIAL_BONUS * (surrounded / len(structure.spaces)) ** 2
            value += share * structure.bonus * SUPPLY_TILE
    return value


def _share(done: int, needed: int) -> float:
    return 1.0 if done == needed else PARTIAL_BONUS * (done / needed) ** 2


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A world with the unseen tiles dealt afresh between the bag and the tower (their
    sizes are public)."""
    pool = tuple(b + t for b, t in zip(state.bag, state.tower, strict=True))
    bag, tower = split_unseen(pool, (sum(state.bag), sum(state.tower)), rng)
    return replace(state, bag=bag, tower=tower)


def candidates(state: State) -> list:
    """The legal commands worth telling apart, in the engine's order (the evaluation values
    every tile alike, so the others would only crowd the search's few best commands):

    - a placement paid with the fewest or the most wild tiles, not the payments between;
    - one pass, keeping as many tiles as the corners hold (a discarded tile costs a point
      now, a kept one at most a point after round 6, when the star and number bonuses have
      lifted the score): next round's wild colour first, then the colours held most
      (rulebook "The wild color": round r's wild colour is colour r).
    """
    commands = summer_pavilion.legal_commands(state)
    if state.phase is not Phase.PLAY or state.bonus_due:
        return commands
    kept = _kept(state.players[state.current].beside, state.round)
    wilds: dict[tuple[int, int, int], list[int]] = {}
    for command in commands:
        if isinstance(command, PlaceTile):
            wilds.setdefault((command.star, command.space, command.colour), []).append(
                command.wilds
            )
    ends = {spot: (min(paid), max(paid)) for spot, paid in wilds.items()}
    return [
        command
        for command in commands
        if (
            command.keep == kept
            if isinstance(command, Pass)
            else command.wilds in ends[command.star, command.space, command.colour]
        )
    ]


def _kept(beside: tuple[int, ...], next_wild: int) -> tuple[int, ...]:
    held = sorted(
        (colour for colour, count in enumerate(beside) for _ in range(count)),
        key=lambda colour: (colour != next_wild, -beside[colour], colour),
    )
    return tuple(sorted(held[:CORNER_SPACES]))


KNOWLEDGE = Knowledge(
    engine=summer_pavilion,
    evaluate=evaluate,
    determinize=determinize,
    scale=10.0,
    candidates=candidates,
    round_of=lambda state: state.round,
)
