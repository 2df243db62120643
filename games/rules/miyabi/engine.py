"""The Miyabi decider: garden tile-laying by building phases (rulebook pp.4–5).

``decide`` checks a command against the rules and returns the events it causes; ``evolve``
folds one event into a new state and never draws. Every number our sources do not give is
read from ``data.PROVISIONAL``.
"""

import random
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import assert_never

from games.rules.common import (
    Codec,
    IllegalMove,
    Outcome,
    add_counts,
    chosen_options,
    count_of,
    draw_tiles,
    fold,
    remove_counts,
    shared_winners,
    table_view,
)
from games.rules.miyabi.data import (
    BONUS_LEVEL,
    BONUS_POINTS,
    INVENTORY,
    KIND_INDEX,
    KINDS,
    MAJORITY_POINTS,
    PHASE_MIX,
    PHASES,
    PROVISIONAL,
    SHAPES,
)
from games.rules.miyabi.model import (
    EMPTY_GARDEN,
    GRID,
    BonusTileTaken,
    Command,
    Event,
    GameStarted,
    Garden,
    GardenObject,
    MajoritiesScored,
    Pass,
    Passed,
    PhaseBegan,
    PhaseEnded,
    PlacedTile,
    PlaceTile,
    State,
    Tile,
    TilePlaced,
)
from games.rules.miyabi.placement import footprint, level_of, offsets, placement_problem, placements

NAME = "miyabi"
PLAYERS = range(2, 5)
OPTIONS: dict[str, tuple] = {}

FIRST_BONSAI = 0
"""Ruling: "the youngest player receives the bonsai" (p.4) — the service seats players, so
seat 0 stands for the youngest."""


# Majorities at the end of the game.


def _competition_rank(count: int, others: list[int]) -> int:
    return 1 + sum(other > count for other in others)


def _dense_rank(count: int, others: list[int]) -> int:
    return 1 + len({other for other in others if other > count})


RANKINGS: dict[str, Callable[[int, list[int]], int]] = {
    "competition": _competition_rank,
    "dense": _dense_rank,
}


def visible_objects(garden: Garden, garden_object: GardenObject) -> int:
    """Objects showing in the object's row; those covered by a higher tile do not count."""
    start = garden_object.row * GRID
    return sum(garden.visible[start : start + GRID])


def majority_points(counts: tuple[int, ...], garden_object: GardenObject) -> tuple[int, ...]:
    """[public] The most visible objects in a row score the higher printed value, the second
    most the lower; ties and the minimum count are provisional."""
    rank_of = RANKINGS[PROVISIONAL["majority_ties"].value]
    minimum = PROVISIONAL["majority_minimum"].value
    eligible = [count for count in counts if count >= minimum]
    values = MAJORITY_POINTS[garden_object]
    points = []
    for count in counts:
        rank = rank_of(count, eligible) if count >= minimum else len(values) + 1
        points.append(values[rank - 1] if rank <= len(values) else 0)
    return tuple(points)


def _majorities(state: State) -> MajoritiesScored:
    counts = tuple(
        tuple(visible_objects(garden, garden_object) for garden in state.gardens)
        for garden_object in GardenObject
    )
    points = tuple(
        majority_points(row_counts, garden_object)
        for row_counts, garden_object in zip(counts, GardenObject, strict=True)
    )
    return MajoritiesScored(counts, points)


# The decider.


def _tile_counts(tiles: tuple[Tile, ...]) -> tuple[int, ...]:
    return count_of(tuple(KIND_INDEX[tile] for tile in tiles), len(KINDS))


def _lay_out(state: State, rng: random.Random) -> tuple[Tile, ...]:
    """p.4: take the phase's number of tiles of each shape from the box and lay them face up
    (6 × players in all); fewer if the box runs short of a shape."""
    empty = (0,) * len(KINDS)
    tiles: list[Tile] = []
    for shape, wanted in zip(SHAPES, PHASE_MIX[state.players], strict=True):
        of_shape = tuple(
            count if kind.shape == shape else 0
            for kind, count in zip(KINDS, state.box, strict=True)
        )
        tiles.extend(KINDS[kind] for kind in draw_tiles(of_shape, empty, wanted, rng).tiles)
    return tuple(sorted(tiles))


def start(players: int, options: dict, rng: random.Random) -> list[Event]:
    """Set up: the bonsai to the youngest player and the first phase's tiles."""
    chosen_options(NAME, players, PLAYERS, options, OPTIONS)
    started = GameStarted(players, FIRST_BONSAI)
    state = evolve(None, started)
    return [started, PhaseBegan(1, FIRST_BONSAI, _lay_out(state, rng))]


def _after(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def _phase_close(state: State, rng: random.Random) -> list[Event]:
    """p.5: the phase ends when every player has filled all lantern spaces or passed;
    unused tiles leave the game and the bonsai passes left to start the next phase. After
    the last phase, the majorities are scored."""
    if any(garden.active for garden in state.gardens):
        return []
    ended = PhaseEnded(state.phase, state.display)
    state = evolve(state, ended)
    if state.phase < PHASES[state.players]:
        bonsai = (state.bonsai + 1) % state.players
        return [ended, PhaseBegan(state.phase + 1, bonsai, _lay_out(state, rng))]
    return [ended, _majorities(state)]


def decide(state: State, command: Command, rng: random.Random) -> list[Event]:
    """The events a command causes, or ``IllegalMove`` with the reason."""
    return decide_and_evolve(state, command, rng)[0]


def decide_and_evolve(
    state: State, command: Command, rng: random.Random
) -> tuple[list[Event], State]:
    """``decide``'s events and the state they fold to, which ``decide`` works out anyway:
    bots and playouts need not ``evolve`` every event a second time."""
    if state.over:
        raise IllegalMove("game_over", action="command")
    seat = state.turn
    garden = state.gardens[seat]
    match command:
        case PlaceTile():
            if command.tile not in state.display:
                raise IllegalMove(
                    "tile_not_displayed",
                    shape=command.tile.shape.value,
                    object=int(command.tile.object),
                    count=command.tile.count,
                )
            problem = placement_problem(garden, command)
            if problem:
                code, params = problem
                raise IllegalMove(code, **params)
            events = _placed(state, seat, command)
        case Pass():
            forced = next(placements(garden, state.display), None) is None
            events = [Passed(seat, forced)]
        case _:
            raise IllegalMove("not_a_command", game="miyabi")
    state = _after(state, events)
    closing = _phase_close(state, rng)
    return events + closing, _after(state, closing)


def _placed(state: State, seat: int, command: PlaceTile) -> list[Event]:
    """p.4: place the tile, put the lantern on its column and score objects × level; the
    first to place an object on level 5 takes that object's bonus tile."""
    tile = command.tile
    level = level_of(state.gardens[seat], command)
    events: list[Event] = [
        TilePlaced(
            seat,
            tile,
            command.row,
            command.column,
            command.orientation,
            level,
            tile.count * level,
        )
    ]
    if level == BONUS_LEVEL and state.bonus_takers[tile.object] is None:
        events.append(BonusTileTaken(seat, tile.object, BONUS_POINTS[tile.object]))
    return events


def _next_active(gardens: tuple[Garden, ...], seat: int) -> int:
    """p.4: play passes to the left, skipping players out of the phase."""
    players = len(gardens)
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if gardens[candidate].active:
            return candidate
    return seat


def _with_garden(state: State, seat: int, garden: Garden) -> tuple[Garden, ...]:
    return state.gardens[:seat] + (garden,) + state.gardens[seat + 1 :]


def _add_points(points: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return points[:seat] + (points[seat] + amount,) + points[seat + 1 :]


def _garden_placed(garden: Garden, event: TilePlaced) -> Garden:
    cells = footprint(event.tile.shape, event.orientation, event.row, event.column)
    object_cell = event.row * GRID + event.column
    heights = list(garden.heights)
    visible = list(garden.visible)
    for cell in cells:
        heights[cell] += 1
        visible[cell] = event.tile.count if cell == object_cell else 0
    lanterns = list(garden.lanterns)
    lanterns[event.column] = True
    placed = PlacedTile(event.tile, event.row, event.column, event.orientation, event.level)
    return Garden(
        heights=tuple(heights),
        visible=tuple(visible),
        lanterns=tuple(lanterns),
        passed=garden.passed,
        tiles=garden.tiles + (placed,),
    )


def _without(display: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    index = display.index(tile)
    return display[:index] + display[index + 1 :]


def evolve(state: State | None, event: Event) -> State:
    """The state after one event; ``evolve(None, GameStarted(...))`` begins a game and a
    second ``GameStarted`` is refused (``ValueError``)."""
    if state is None and not isinstance(event, GameStarted):
        raise ValueError(f"a game starts with GameStarted, not {type(event).__name__}")
    if state is not None and isinstance(event, GameStarted):
        raise ValueError("the game has already started")
    match event:
        case GameStarted(players=players, bonsai=bonsai):
            return State(
                players=players,
                phase=0,
                bonsai=bonsai,
                turn=bonsai,
                box=INVENTORY,
                display=(),
                removed=(0,) * len(KINDS),
                gardens=(EMPTY_GARDEN,) * players,
                points=(0,) * players,
                bonus_takers=(None,) * len(GardenObject),
                over=False,
            )
        case PhaseBegan(phase=phase, bonsai=bonsai, tiles=tiles):
            return replace(
                state,
                phase=phase,
                bonsai=bonsai,
                turn=bonsai,
                box=remove_counts(state.box, _tile_counts(tiles)),
                display=tiles,
            )
        case TilePlaced(seat=seat):
            gardens = _with_garden(state, seat, _garden_placed(state.gardens[seat], event))
            # The commonest event, built directly: dataclasses.replace costs more.
            return State(
                players=state.players,
                phase=state.phase,
                bonsai=state.bonsai,
                turn=_next_active(gardens, seat),
                box=state.box,
                display=_without(state.display, event.tile),
                removed=state.removed,
                gardens=gardens,
                points=_add_points(state.points, seat, event.points),
                bonus_takers=state.bonus_takers,
                over=state.over,
            )
        case BonusTileTaken(seat=seat, object=garden_object, points=points):
            takers = list(state.bonus_takers)
            takers[garden_object] = seat
            return replace(
                state,
                bonus_takers=tuple(takers),
                points=_add_points(state.points, seat, points),
            )
        case Passed(seat=seat):
            gardens = _with_garden(state, seat, replace(state.gardens[seat], passed=True))
            return replace(state, gardens=gardens, turn=_next_active(gardens, seat))
        case PhaseEnded(removed=removed):
            return replace(
                state,
                display=(),
                removed=add_counts(state.removed, _tile_counts(removed)),
                gardens=tuple(
                    replace(garden, lanterns=EMPTY_GARDEN.lanterns, passed=False)
                    for garden in state.gardens
                ),
            )
        case MajoritiesScored(points=points):
            totals = tuple(
                total + sum(row[seat] for row in points) for seat, total in enumerate(state.points)
            )
            return replace(state, points=totals, over=True)
        case _:
            assert_never(event)


def replay(events) -> State:
    """The fold of all events; never draws."""
    return fold(evolve, events)


def legal_commands(state: State) -> list[Command]:
    """Every legal command of the player to move, each once: the distinct placements, then
    Pass ([public] passing is allowed by choice as well as when nothing fits)."""
    if state.over or not state.gardens[state.turn].active:
        return []
    return [*placements(state.gardens[state.turn], state.display), Pass()]


def to_move(state: State) -> int | None:
    """The seat that must act next, or ``None`` once the game is over."""
    return None if state.over else state.turn


def is_over(state: State) -> bool:
    """After the last building phase and the majorities."""
    return state.over


def scores(state: State) -> tuple[int, ...]:
    """Every seat's points so far (the scoreboard; no wrap at 50 in our count)."""
    return state.points


TIE_BREAKS: dict[str, Callable[[State, int], int]] = {
    "bonus_tiles": lambda state, seat: sum(taker == seat for taker in state.bonus_takers),
    "visible_objects": lambda state, seat: sum(state.gardens[seat].visible),
}
"""The final tie-breaks that ``PROVISIONAL["final_tie_breaks"]`` may name."""


def outcome(state: State, seats: Collection[int] | None = None) -> Outcome:
    """Most points wins; the provisional tie-breaks decide ties, otherwise they share. Only
    ``seats`` can win (the seats still playing after resignations; every seat when
    ``None``)."""
    if not state.over:
        raise ValueError("the game is not over")
    names = PROVISIONAL["final_tie_breaks"].value
    keys = [
        (points, *(TIE_BREAKS[name](state, seat) for name in names))
        for seat, points in enumerate(state.points)
    ]
    return Outcome(state.points, shared_winners(keys, seats))


def _covered_objects(garden: Garden, command: PlaceTile) -> int:
    cells = footprint(command.tile.shape, command.orientation, command.row, command.column)
    return sum(garden.visible[cell] for cell in cells)


def default_command(state: State) -> Command:
    """Deterministic and wasting least (timeouts and bots): the placement scoring the most
    points now (a level-5 bonus included); among equals, the one covering the fewest
    visible objects, then the lowest level, then the first in ``legal_commands`` order.
    Pass only when nothing fits. ``IllegalMove`` once the game is over."""
    if state.over:
        raise IllegalMove("game_over", action="command")
    garden = state.gardens[state.turn]

    def merit(indexed: tuple[int, PlaceTile]) -> tuple[int, int, int, int]:
        index, command = indexed
        level = level_of(garden, command)
        bonus = (
            BONUS_POINTS[command.tile.object]
            if level == BONUS_LEVEL and state.bonus_takers[command.tile.object] is None
            else 0
        )
        gained = command.tile.count * level + bonus
        return gained, -_covered_objects(garden, command), -level, -index

    candidates = list(enumerate(placements(garden, state.display)))
    if not candidates:
        return Pass()
    return max(candidates, key=merit)[1]


# Encoding.

EVENTS = Codec(
    GameStarted, PhaseBegan, TilePlaced, BonusTileTaken, Passed, PhaseEnded, MajoritiesScored
)
COMMANDS = Codec(PlaceTile, Pass)


def encode(event: Event) -> dict:
    """The JSON-safe form of an event, with type and version."""
    return EVENTS.encode(event)


def decode(data: dict) -> Event:
    """The event back from ``encode``'s form (old versions upcast)."""
    return EVENTS.decode(data)


def encode_command(command: Command) -> dict:
    """The structured form of a command (the API's legal moves)."""
    return COMMANDS.encode(command)


def decode_command(data: dict) -> Command:
    """The command ``encode_command`` wrote."""
    return COMMANDS.decode(data)


def is_barrier(event: Event) -> bool:
    """A phase's layout reveals a draw from the box: no undo crosses it."""
    return isinstance(event, PhaseBegan)


BUILDING = "building"
"""The view's word for the phase of a building round (Miyabi's rounds have one phase)."""
LAST_ROUND_PLAYED = "last_round"
"""Why the game ended: the majorities were scored after the last building round."""


def view(state: State, seat: int | None = None) -> dict:
    """What ``seat`` may see (``None``: a spectator), JSON-safe: the keys every game shares
    (``table_view``; a round is a building phase, started by the bonsai's holder) and
    Miyabi's table. Nothing is hidden but the box, so every seat sees the same: the box
    only as a count. ``provisional`` names the values of ``PROVISIONAL`` that pages must
    mark as such."""
    return {
        **table_view(
            game=NAME,
            seat=seat,
            round=state.phase,
            rounds=PHASES[state.players],
            phase="over" if state.over else BUILDING,
            to_move=to_move(state),
            start_player=state.bonsai,
            scores=scores(state),
            ended_by=LAST_ROUND_PLAYED if state.over else None,
        ),
        "box": sum(state.box),
        "removed": sum(state.removed),
        "display": [_tile_view(tile) for tile in state.display],
        "bonus_tiles": [
            {
                "object": garden_object.name.lower(),
                "points": BONUS_POINTS[garden_object],
                "taken_by": state.bonus_takers[garden_object],
            }
            for garden_object in GardenObject
        ],
        "gardens": [
            {
                "heights": [list(garden.heights[r * GRID : (r + 1) * GRID]) for r in range(GRID)],
                "objects": [list(garden.visible[r * GRID : (r + 1) * GRID]) for r in range(GRID)],
                "lanterns": list(garden.lanterns),
                "passed": garden.passed,
                "tiles_placed": len(garden.tiles),
            }
            for garden in state.gardens
        ],
        "majority_values": {
            garden_object.name.lower(): list(MAJORITY_POINTS[garden_object])
            for garden_object in GardenObject
        },
        "provisional": sorted(PROVISIONAL),
    }


def _tile_view(tile: Tile) -> dict:
    return {
        "shape": tile.shape.value,
        "object": tile.object.name.lower(),
        "count": tile.count,
        "squares": [list(square) for square in offsets(tile.shape, 0)],
    }
