"""The Azul decider: ``decide`` turns a command into events, ``evolve`` folds an event
into a new state. Randomness (filling the factory displays) happens only in ``start`` and
``decide`` and is written into ``FactoriesRefilled``; ``evolve`` and ``replay`` never draw.

Rulebook phases: A. factory offer (``TakeTiles``); B. wall tiling, automatic on the
coloured wall, while on the grey wall each player chooses the column (``PlaceOnWall``) of
each complete pattern line, top to bottom, seats in order; C. preparing the next round.
After a command, ``decide`` adds every automatic event until a player must choose again.
"""

import random
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import assert_never

from games.rules.azul.board import (
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    EMPTY_WALL,
    FACTORIES,
    FLOOR_SPACES,
    GREY,
    PATTERN_LINES,
    ROW_BONUS,
    START_SEAT,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    WALL_SIDES,
    WALL_SIZE,
    Colour,
    coloured_wall_column,
    complete_colours,
    complete_columns,
    complete_rows,
    floor_penalty,
    grey_wall_columns,
    place_on_wall,
    score_wall_placement,
    wall_row_has,
)
from games.rules.azul.ending import REPETITIONS, EndReason, is_dead_position
from games.rules.azul.model import (
    CENTRE,
    CODEC,
    EMPTY_LINE,
    FLOOR,
    Bonus,
    Command,
    Counts,
    Event,
    FactoriesRefilled,
    FloorLineCleared,
    GameEnded,
    GameStarted,
    LineDropped,
    PatternLine,
    Phase,
    PlaceOnWall,
    PlayerBoard,
    Position,
    State,
    TakeTiles,
    TilesTaken,
    WallTiled,
)
from games.rules.common import (
    Draw,
    IllegalMove,
    Outcome,
    add_counts,
    apply_draw,
    chosen_options,
    count_of,
    draw_tiles,
    fast_constructor,
    fold,
    shared_winners,
)

NAME = "azul"
PLAYERS = range(2, 5)
OPTIONS = {"wall": WALL_SIDES}

NO_TILES: Counts = (0,) * COLOURS
# Built on every move and every event folded: see ``fast_constructor``.
_State = fast_constructor(State)
_PlayerBoard = fast_constructor(PlayerBoard)
_TilesTaken = fast_constructor(TilesTaken)
_WallTiled = fast_constructor(WallTiled)
_FloorLineCleared = fast_constructor(FloorLineCleared)
COLOUR_OF = tuple(Colour)
"""The ``Colour`` of a colour index, without the enum's slower lookup by value."""
EMPTY_BOARD = PlayerBoard(0, (EMPTY_LINE,) * PATTERN_LINES, EMPTY_WALL, (), False)


# --- start, evolve, replay ------------------------------------------------------------------


def start(players: int, options: dict, rng: random.Random) -> list[Event]:
    """Setup: every player uses the same wall side (option ``wall``); the start player
    fills each factory display with 4 tiles drawn at random from the bag of 100."""
    wall = chosen_options(NAME, players, PLAYERS, options, OPTIONS)["wall"]
    started = GameStarted(players, wall, START_SEAT)
    return [started, _refill(evolve(None, started), START_SEAT, rng)]


def evolve(state: State | None, event: Event) -> State:
    """The state after one event; pure and never draws. ``evolve(None, GameStarted)``
    sets the table; a second ``GameStarted`` is refused (``ValueError``)."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise ValueError(f"a game starts with GameStarted, not {type(event).__name__}")
        return _table_set(event)
    match event:
        case GameStarted():
            raise ValueError("the game has already started")
        case FactoriesRefilled():
            return _factories_refilled(state, event)
        case TilesTaken():
            return _tiles_taken(state, event)
        case WallTiled():
            return _wall_tiled(state, event)
        case LineDropped():
            return _line_dropped(state, event)
        case FloorLineCleared():
            return _floor_line_cleared(state, event)
        case GameEnded():
            return _game_ended(state, event)
        case _:
            assert_never(event)


def replay(events: Iterable[Event]) -> State:
    """The fold of every event from the start; never draws."""
    return fold(evolve, events)


def _table_set(event: GameStarted) -> State:
    return State(
        players=event.players,
        wall_side=event.wall,
        round=0,
        phase=Phase.REFILL,
        turn=event.start_seat,
        start_seat=event.start_seat,
        marker_holder=None,
        bag=(TILES_PER_COLOUR,) * COLOURS,
        lid=NO_TILES,
        factories=(NO_TILES,) * FACTORIES[event.players],
        centre=NO_TILES,
        marker_in_centre=True,
        boards=(EMPTY_BOARD,) * event.players,
        positions=(),
        end_reason=None,
    )


def _factories_refilled(state: State, event: FactoriesRefilled) -> State:
    drawn = tuple(tile for factory in event.factories for tile in factory)
    bag, lid = apply_draw(state.bag, state.lid, Draw(drawn, event.refilled_after))
    return _State(
        players=state.players,
        wall_side=state.wall_side,
        round=state.round + 1,
        phase=Phase.OFFER,
        turn=event.first_player,
        start_seat=event.first_player,
        marker_holder=None,
        bag=bag,
        lid=lid,
        factories=tuple(count_of(factory, COLOURS) for factory in event.factories),
        centre=state.centre,
        marker_in_centre=True,
        boards=state.boards,
        positions=state.positions,
        end_reason=state.end_reason,
    )


def _tiles_taken(state: State, event: TilesTaken) -> State:
    colour, seat = event.colour, event.seat
    if event.source == CENTRE:
        factories = state.factories
        centre = _with(state.centre, colour, 0)
    else:
        factories = _replaced(state.factories, event.source, NO_TILES)
        centre = add_counts(state.centre, event.to_centre)
    board = state.boards[seat]
    lines = board.lines
    if event.placed:
        line = PatternLine(colour, lines[event.line].count + event.placed)
        lines = _replaced(lines, event.line, line)
    board = _PlayerBoard(
        score=board.score,
        lines=lines,
        wall=board.wall,
        floor=board.floor + (colour,) * event.floored,
        marker=board.marker or event.marker,
    )
    table_empty = not any(centre) and not any(map(any, factories))
    return _State(
        players=state.players,
        wall_side=state.wall_side,
        round=state.round,
        phase=Phase.TILING if table_empty else Phase.OFFER,
        turn=0 if table_empty else (seat + 1) % state.players,
        start_seat=state.start_seat,
        marker_holder=seat if event.marker else state.marker_holder,
        bag=state.bag,
        lid=_with(state.lid, colour, state.lid[colour] + event.lidded),
        factories=factories,
        centre=centre,
        marker_in_centre=state.marker_in_centre and not event.marker,
        boards=_replaced(state.boards, seat, board),
        positions=state.positions,
        end_reason=state.end_reason,
    )


def _wall_tiled(state: State, event: WallTiled) -> State:
    board = state.boards[event.seat]
    tiled = _PlayerBoard(
        score=board.score + event.points,
        lines=_replaced(board.lines, event.row, EMPTY_LINE),
        wall=place_on_wall(board.wall, event.row, event.column, event.colour),
        floor=board.floor,
        marker=board.marker,
    )
    lid = _with(state.lid, event.colour, state.lid[event.colour] + event.to_lid)
    return _with_board(state, event.seat, tiled, lid, state.phase, state.turn)


def _line_dropped(state: State, event: LineDropped) -> State:
    board = state.boards[event.seat]
    dropped = _PlayerBoard(
        score=board.score,
        lines=_replaced(board.lines, event.row, EMPTY_LINE),
        wall=board.wall,
        floor=board.floor + (event.colour,) * event.floored,
        marker=board.marker,
    )
    lid = _with(state.lid, event.colour, state.lid[event.colour] + event.lidded)
    return _with_board(state, event.seat, dropped, lid, state.phase, state.turn)


def _floor_line_cleared(state: State, event: FloorLineCleared) -> State:
    board = state.boards[event.seat]
    cleared = _PlayerBoard(
        score=board.score + event.points, lines=board.lines, wall=board.wall, floor=(), marker=False
    )
    following = event.seat + 1
    state = _with_board(
        state,
        event.seat,
        cleared,
        add_counts(state.lid, count_of(event.tiles, COLOURS)),
        Phase.TILING if following < state.players else Phase.REFILL,
        following % state.players,
    )
    if state.phase is Phase.REFILL:
        return replace(state, positions=(*state.positions, _position(state)))
    return state


def _with_board(
    state: State, seat: int, board: PlayerBoard, lid: Counts, phase: Phase, turn: int
) -> State:
    """The table with one board, the lid, the phase and the turn changed (built directly:
    ``dataclasses.replace`` costs more than the rest of the fold)."""
    return _State(
        players=state.players,
        wall_side=state.wall_side,
        round=state.round,
        phase=phase,
        turn=turn,
        start_seat=state.start_seat,
        marker_holder=state.marker_holder,
        bag=state.bag,
        lid=lid,
        factories=state.factories,
        centre=state.centre,
        marker_in_centre=state.marker_in_centre,
        boards=_replaced(state.boards, seat, board),
        positions=state.positions,
        end_reason=state.end_reason,
    )


def _position(state: State) -> Position:
    """The position after a wall-tiling phase, as the repeated-position ruling compares it:
    every wall, pattern line and score, the next start player, the bag and the lid."""
    boards = tuple((board.wall, board.lines, board.score) for board in state.boards)
    return (boards, _next_start_player(state), state.bag, state.lid)


def _game_ended(state: State, event: GameEnded) -> State:
    boards = tuple(
        replace(board, score=board.score + bonus.points)
        for board, bonus in zip(state.boards, event.bonuses, strict=True)
    )
    return replace(state, phase=Phase.OVER, boards=boards, end_reason=event.reason)


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, command: Command, rng: random.Random) -> list[Event]:
    """The events a command causes, followed by every automatic event (wall tiling, floor
    penalties, the next round's refill or the end of the game) up to the next choice.
    Raises ``IllegalMove`` with the reason when the rules forbid the command."""
    return decide_and_evolve(state, command, rng)[0]


def decide_and_evolve(
    state: State, command: Command, rng: random.Random
) -> tuple[list[Event], State]:
    """``decide``'s events and the state they fold to, which ``decide`` works out anyway:
    bots and playouts need not ``evolve`` every event a second time."""
    match command:
        case TakeTiles():
            event: Event = take_tiles(state, command)
        case PlaceOnWall():
            event = _place_on_wall(state, command)
        case _:
            raise IllegalMove("not_a_command", game="azul")
    events = [event]
    state = evolve(state, event)
    while (automatic := _automatic_event(state, rng)) is not None:
        events.append(automatic)
        state = evolve(state, automatic)
    return events, state


def take_tiles(state: State, command: TakeTiles) -> TilesTaken:
    """Phase A: all tiles of one colour from one factory display (the rest to the centre)
    or from the centre (the first to do so this round also takes the first player marker
    onto their floor line), placed right to left on one pattern line; what does not fit
    goes to the floor line, and what the floor line cannot hold into the box lid.

    Ruling (the rulebook is silent): a player taking the marker onto a full floor line
    still takes it (and starts the next round); it loses no points, as only the 7 spaces
    do."""
    if state.phase is not Phase.OFFER:
        raise not_now(state, "take_tiles")
    source, colour, line = command.source, command.colour, command.line
    if source != CENTRE and not 0 <= source < len(state.factories):
        raise IllegalMove(
            "no_such_factory",
            factory=source,
            players=state.players,
            factories=len(state.factories),
        )
    if colour not in range(COLOURS):
        raise IllegalMove("no_such_colour", colour=colour, colours=COLOURS)
    offer = state.centre if source == CENTRE else state.factories[source]
    count = offer[colour]
    if not count:
        raise IllegalMove("source_lacks_colour", source=_source(source), colour=colour)
    board = state.boards[state.turn]
    if line != FLOOR:
        _check_pattern_line(board, line, colour)
    placed = min(count, line + 1 - board.lines[line].count) if line != FLOOR else 0
    marker = source == CENTRE and state.marker_in_centre
    free = max(0, FLOOR_SPACES - len(board.floor) - board.marker - marker)
    floored = min(count - placed, free)
    to_centre = NO_TILES if source == CENTRE else _with(offer, colour, 0)
    return _TilesTaken(
        seat=state.turn,
        source=source,
        colour=COLOUR_OF[colour],
        count=count,
        line=line,
        placed=placed,
        floored=floored,
        lidded=count - placed - floored,
        to_centre=to_centre,
        marker=marker,
    )


def _check_pattern_line(board: PlayerBoard, line: int, colour: int) -> None:
    """Phase A: a pattern line holds one colour, not a colour already in its wall row,
    and takes no tiles once complete."""
    if line not in range(PATTERN_LINES):
        raise IllegalMove("no_such_pattern_line", line=line, lines=PATTERN_LINES)
    held = board.lines[line]
    if held.count and held.colour != colour:
        raise IllegalMove("pattern_line_other_colour", line=line, held_colour=held.colour)
    if held.count == line + 1:
        raise IllegalMove("pattern_line_complete", line=line)
    if wall_row_has(board.wall, line, colour):
        raise IllegalMove("wall_row_has_colour", row=line, colour=colour)


def _place_on_wall(state: State, command: PlaceOnWall) -> WallTiled:
    """Grey wall: the tile may go to any empty space of its row, but no colour may appear
    twice in a vertical column."""
    if state.phase is not Phase.TILING:
        raise not_now(state, "choose_wall_column")
    board = state.boards[state.turn]
    row = complete_line(board)
    assert row is not None, "decide stops in the tiling phase only for a choice"
    colour = board.lines[row].colour
    column = command.column
    if column not in range(WALL_SIZE):
        raise IllegalMove("no_such_wall_column", column=column, columns=WALL_SIZE)
    if column not in grey_wall_columns(board.wall, row, colour):
        taken = board.wall[row][column] is not None
        if taken:
            raise IllegalMove("wall_space_taken", row=row, column=column)
        raise IllegalMove("wall_column_has_colour", column=column, colour=colour)
    return _wall_tiling(state.turn, board, row, column)


def _automatic_event(state: State, rng: random.Random) -> Event | None:
    """The next event no player chooses, or ``None`` when a player must act."""
    match state.phase:
        case Phase.OFFER | Phase.OVER:
            return None
        case Phase.TILING:
            return _next_tiling(state)
        case Phase.REFILL:
            return _next_round_or_end(state, rng)
        case _:
            assert_never(state.phase)


def _next_tiling(state: State) -> Event | None:
    """Phase B for the seat in turn: its topmost complete pattern line moves to the wall
    (the player chooses the grey wall's column when there is a choice); then the floor
    line is scored and cleared."""
    seat = state.turn
    board = state.boards[seat]
    row = complete_line(board)
    if row is None:
        occupied = min(FLOOR_SPACES, len(board.floor) + board.marker)
        points = max(floor_penalty(occupied), -board.score)
        return _FloorLineCleared(seat, board.floor, board.marker, points)
    colour = board.lines[row].colour
    if state.wall_side != GREY:
        return _wall_tiling(seat, board, row, coloured_wall_column(row, colour))
    columns = grey_wall_columns(board.wall, row, colour)
    if not columns:
        return _line_dropped_to_floor(seat, board, row)
    if len(columns) == 1:
        return _wall_tiling(seat, board, row, columns[0])
    return None


def _wall_tiling(seat: int, board: PlayerBoard, row: int, column: int) -> WallTiled:
    """Phase B: the rightmost tile scores at once; the rest of the line goes to the lid."""
    colour = COLOUR_OF[board.lines[row].colour]
    points = score_wall_placement(board.wall, row, column)
    return _WallTiled(seat, row, column, colour, points, to_lid=row)


def _line_dropped_to_floor(seat: int, board: PlayerBoard, row: int) -> LineDropped:
    """Ruling (the rulebook is silent): a complete pattern line whose colour fits no empty
    space of its grey wall row goes to the floor line, like tiles that cannot be placed;
    what the floor line cannot hold goes into the box lid."""
    free = max(0, FLOOR_SPACES - len(board.floor) - board.marker)
    floored = min(row + 1, free)
    colour = Colour(board.lines[row].colour)
    return LineDropped(seat, row, colour, floored, lidded=row + 1 - floored)


def _next_round_or_end(state: State, rng: random.Random) -> Event:
    """Phase C, or the end of the game (``end_reason``). The marker holder starts the next
    round."""
    reason = end_reason(state)
    if reason is None:
        return _refill(state, _next_start_player(state), rng)
    return GameEnded(tuple(_bonus(board) for board in state.boards), reason)


def end_reason(state: State) -> EndReason | None:
    """Why the game ends after this wall-tiling phase, or ``None`` if it goes on. Rulebook:
    someone completed a horizontal row. Rulings (the rulebook is silent; ``ending.py``): no
    tile can be drawn for the next round (bag and lid empty); a dead position; a position
    repeated for the third time. When several hold at once, the first of these is given."""
    if any(complete_rows(board.wall) for board in state.boards):
        return EndReason.ROW_COMPLETED
    if not any(state.bag) and not any(state.lid):
        return EndReason.NO_TILES
    if is_dead_position([(board.wall, board.lines) for board in state.boards], state.wall_side):
        return EndReason.DEAD_POSITION
    if state.positions.count(state.positions[-1]) >= REPETITIONS:
        return EndReason.REPEATED_POSITION
    return None


def _next_start_player(state: State) -> int:
    """Phase C: the holder of the first player marker starts the next round.

    Ruling (the rulebook is silent): if nobody took the marker this round (no tile ever
    reached the centre), the start player of this round starts the next one too."""
    return state.marker_holder if state.marker_holder is not None else state.start_seat


def _refill(state: State, first_player: int, rng: random.Random) -> FactoriesRefilled:
    """Phase C: fill each factory display with 4 tiles from the bag, refilling the bag from
    the box lid when it runs out; when both run out the round starts with partly filled
    displays (``end_reason`` has ended the game if no tile at all can be drawn)."""
    displays = len(state.factories)
    draw = draw_tiles(state.bag, state.lid, displays * TILES_PER_FACTORY, rng)
    factories = tuple(
        draw.tiles[display * TILES_PER_FACTORY : (display + 1) * TILES_PER_FACTORY]
        for display in range(displays)
    )
    return FactoriesRefilled(first_player, factories, draw.refilled_after)


def _bonus(board: PlayerBoard) -> Bonus:
    """End of the game: +2 per complete row, +7 per complete column, +10 per complete colour."""
    rows = complete_rows(board.wall)
    columns = complete_columns(board.wall)
    colours = complete_colours(board.wall)
    points = rows * ROW_BONUS + columns * COLUMN_BONUS + colours * COLOUR_BONUS
    return Bonus(rows, columns, colours, points)


# --- questions about a state ----------------------------------------------------------------


def to_move(state: State) -> int | None:
    """The seat that must act next (from 0), or ``None`` when nobody must."""
    return state.turn if state.phase in (Phase.OFFER, Phase.TILING) else None


def is_over(state: State) -> bool:
    """The game ended after the wall tiling in which a horizontal row was completed."""
    return state.phase is Phase.OVER


def scores(state: State) -> tuple[int, ...]:
    """Every seat's score on the score track."""
    return tuple(board.score for board in state.boards)


def outcome(state: State, seats: Collection[int] | None = None) -> Outcome:
    """End of the game: most points wins; a tie goes to the tied player with more complete
    horizontal rows; if still tied, the victory is shared. Only ``seats`` can win (the
    seats still playing after resignations; every seat when ``None``)."""
    if not is_over(state):
        raise ValueError("the game is not over")
    keys = [(board.score, complete_rows(board.wall)) for board in state.boards]
    return Outcome(scores(state), shared_winners(keys, seats))


def is_barrier(event: Event) -> bool:
    """Filling the factory displays reveals tiles drawn at random: no undo crosses it."""
    return isinstance(event, FactoriesRefilled)


def encode(event: Event) -> dict:
    """The event as a JSON-safe dict with ``type`` and ``version``."""
    return CODEC.encode(event)


def decode(data: dict) -> Event:
    """The event from ``encode``'s dict (current versions; the event store upcasts old ones)."""
    return CODEC.decode(data)


def encode_command(command: Command) -> dict:
    """The structured form of a command (the API's legal moves)."""
    return CODEC.encode(command)


def decode_command(data: dict) -> Command:
    """The command ``encode_command`` wrote."""
    return CODEC.decode(data)


# --- small helpers --------------------------------------------------------------------------


def complete_line(board: PlayerBoard) -> int | None:
    """Phase B: the topmost complete pattern line, the next to move to the wall (``None``:
    none)."""
    for row, line in enumerate(board.lines):
        if line.count == row + 1:
            return row
    return None


def _source(source: int) -> int | None:
    """A source as refusals name it: a factory display's index, or ``None`` for the centre."""
    return None if source == CENTRE else source


def not_now(state: State, action: str) -> IllegalMove:
    """Why ``action`` (``take_tiles``, ``choose_wall_column``, ``command``) cannot be done in
    this phase."""
    match state.phase:
        case Phase.OVER:
            return IllegalMove("game_over", action=action)
        case Phase.TILING:
            return IllegalMove("wall_column_due", action=action, seat=state.turn)
        case Phase.OFFER:
            return IllegalMove("during_factory_offer", action=action)
        case Phase.REFILL:
            return IllegalMove("between_rounds", action=action)
        case _:
            assert_never(state.phase)


def _with(counts: Counts, colour: int, count: int) -> Counts:
    return counts[:colour] + (count,) + counts[colour + 1 :]


def _replaced(items: tuple, index: int, item: object) -> tuple:
    return items[:index] + (item,) + items[index + 1 :]
