"""The decider: ``start`` and ``decide`` turn commands into events (drawing tiles with the
rng they are given), ``evolve`` folds events into the state and never draws."""

import dataclasses
import random
from collections.abc import Collection, Iterable
from typing import assert_never

from games.rules.common import (
    Codec,
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
    remove_counts,
    shared_winners,
    total,
)
from games.rules.summer_pavilion.board import (
    BOARD_SPACES,
    COLOUR_COUNT,
    FACTORIES,
    ROUNDS,
    START_SCORE,
    SUPPLY_SPACES,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    Side,
    index,
)
from games.rules.summer_pavilion.model import (
    BonusTilesTaken,
    ChooseBonusTiles,
    Command,
    Counts,
    Event,
    GameEnded,
    GameStarted,
    NextRoundPrepared,
    Pass,
    Passed,
    Phase,
    PlaceTile,
    Player,
    State,
    SupplyRefilled,
    TakeTiles,
    TilePlaced,
    TilesTaken,
)
from games.rules.summer_pavilion.rules import (
    NO_TILES,
    number_points,
    one_of,
    points_lost,
    star_points,
)
from games.rules.summer_pavilion.turns import (
    choose_bonus_tiles,
    pass_and_keep,
    place_tile,
    take_tiles,
)

NAME = "summer-pavilion"
PLAYERS = range(2, 5)
OPTIONS = {"board": tuple(side.value for side in Side)}
FULL_BAG: Counts = (TILES_PER_COLOUR,) * COLOUR_COUNT

CODEC = Codec(
    GameStarted,
    TilesTaken,
    TilePlaced,
    BonusTilesTaken,
    SupplyRefilled,
    Passed,
    NextRoundPrepared,
    GameEnded,
    TakeTiles,
    PlaceTile,
    ChooseBonusTiles,
    Pass,
)
BARRIERS = (GameStarted, SupplyRefilled, NextRoundPrepared)


# Starting -----------------------------------------------------------------------------------


def start(players: int, options: dict, rng: random.Random) -> list[Event]:
    """Rulebook "Game setup": 10 tiles drawn onto the supply, then 4 onto every factory
    display (5, 7 or 9 of them)."""
    board = chosen_options(NAME, players, PLAYERS, options, OPTIONS)["board"]
    supply = draw_tiles(FULL_BAG, NO_TILES, SUPPLY_SPACES, rng)
    bag, _ = apply_draw(FULL_BAG, NO_TILES, supply)
    displays = draw_tiles(bag, NO_TILES, FACTORIES[players] * TILES_PER_FACTORY, rng)
    return [
        GameStarted(
            players=players,
            side=Side(board),
            supply=supply.tiles,
            displays=_deal(displays.tiles, FACTORIES[players]),
        )
    ]


def _deal(tiles: tuple[int, ...], factories: int) -> tuple[tuple[int, ...], ...]:
    """Drawn tiles onto the displays in order, 4 each; the last ones stay short or empty."""
    return tuple(
        tiles[i * TILES_PER_FACTORY : (i + 1) * TILES_PER_FACTORY] for i in range(factories)
    )


# Folding events -------------------------------------------------------------------------------


def replay(events: Iterable[Event]) -> State:
    """The state after all ``events``; never draws."""
    return fold(evolve, events)


def evolve(state: State | None, event: Event) -> State:
    """The state after one event; ``evolve(None, GameStarted)`` sets up the table; a
    second ``GameStarted`` is refused (``ValueError``)."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise ValueError(f"a game starts with GameStarted, not {type(event).__name__}")
        return _set_up(event)
    match event:
        case GameStarted():
            raise ValueError("the game has already started")
        case TilesTaken():
            return _after_take(state, event)
        case TilePlaced():
            return _after_placement(state, event)
        case BonusTilesTaken():
            return _after_bonus(state, event)
        case SupplyRefilled():
            return _after_refill(state, event)
        case Passed():
            return _after_pass(state, event)
        case NextRoundPrepared():
            return _after_round_prepared(state, event)
        case GameEnded():
            return _after_game_end(state, event)
        case _:
            assert_never(event)


def _set_up(event: GameStarted) -> State:
    factories = tuple(count_of(display, COLOUR_COUNT) for display in event.displays)
    drawn = count_of(event.supply + sum(event.displays, ()), COLOUR_COUNT)
    player = Player(
        score=START_SCORE, board=(None,) * BOARD_SPACES, beside=NO_TILES, corners=NO_TILES
    )
    state = State(
        side=event.side,
        round=1,
        phase=Phase.ACQUIRE,
        players=(player,) * event.players,
        bag=remove_counts(FULL_BAG, drawn),
        tower=NO_TILES,
        factories=factories,
        centre=NO_TILES,
        supply=event.supply,
        start_player=0,
        token_taker=None,
        current=0,
    )
    return _play_if_nothing_to_take(state)


def _with_player(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


# The evolvers of the commonest events build State and Player directly, not by
# ``dataclasses.replace`` (which cost more than the rest of a fold), and with
# ``fast_constructor``, as ``decide`` builds the commonest events (``turns``): bots fold an
# event for every move they try.
_State = fast_constructor(State)
_Player = fast_constructor(Player)
_SupplyRefilled = fast_constructor(SupplyRefilled)


def _after_take(state: State, event: TilesTaken) -> State:
    seat, taken, to_centre = event.seat, event.taken, event.to_centre
    player = state.players[seat]
    removed = add_counts(taken, to_centre)
    factories, centre = state.factories, add_counts(state.centre, to_centre)
    if event.source is None:
        centre = remove_counts(centre, removed)
    else:
        emptied = remove_counts(factories[event.source], removed)
        factories = factories[: event.source] + (emptied,) + factories[event.source + 1 :]
    taker = _Player(
        score=player.score - event.points_lost,
        board=player.board,
        beside=add_counts(player.beside, taken),
        corners=player.corners,
        passed=player.passed,
    )
    state = _State(
        side=state.side,
        round=state.round,
        phase=state.phase,
        players=_with_player(state.players, seat, taker),
        bag=state.bag,
        tower=state.tower,
        factories=factories,
        centre=centre,
        supply=state.supply,
        start_player=state.start_player,
        token_taker=seat if event.start_token else state.token_taker,
        current=(seat + 1) % len(state.players),
        bonus_due=state.bonus_due,
    )
    return _play_if_nothing_to_take(state)


def _play_if_nothing_to_take(state: State) -> State:
    """Rulebook: phase 1 ends when every factory and the centre are empty; the start player
    token's holder places first (``UNCLAIMED_TOKEN_STARTER`` if nobody took it)."""
    if state.phase is not Phase.ACQUIRE or any(state.centre) or any(map(any, state.factories)):
        return state
    return dataclasses.replace(state, phase=Phase.PLAY, current=_first_to_play(state))


UNCLAIMED_TOKEN_STARTER = 0
"""Ruling (rules reference; the rulebook is silent): if nobody took from the centre in phase
1, the start player token stays unclaimed and the seat this many places clockwise of the
previous start player starts phase 2 and the next round: 0, the previous start player keeps
the role."""


def _first_to_play(state: State) -> int:
    if state.token_taker is not None:
        return state.token_taker
    return (state.start_player + UNCLAIMED_TOKEN_STARTER) % len(state.players)


def _after_placement(state: State, event: TilePlaced) -> State:
    seat = event.seat
    player = state.players[seat]
    position = index(event.star, event.space)
    placer = _Player(
        score=player.score + event.points,
        board=player.board[:position] + (event.colour,) + player.board[position + 1 :],
        beside=remove_counts(player.beside, event.spent),
        corners=player.corners,
        passed=player.passed,
    )
    players = _with_player(state.players, seat, placer)
    tower = add_counts(state.tower, remove_counts(event.spent, one_of(event.colour)))
    return _next_to_play(state, seat, players, tower, state.supply, event.bonus_tiles)


def _next_to_play(
    state: State,
    seat: int,
    players: tuple[Player, ...],
    tower: Counts,
    supply: tuple[int | None, ...],
    bonus_due: int,
) -> State:
    """The table after ``seat``'s turn in phase 2, with its new ``players``, ``tower``,
    ``supply`` and ``bonus_due``: the same seat while it chooses bonus tiles, then clockwise,
    skipping players who passed; when all passed, phase 3."""
    phase, current = state.phase, state.current
    if not bonus_due:
        following = _next_unpassed(players, seat)
        if following is None:
            phase = Phase.ROUND_OVER
        else:
            current = following
    return _State(
        side=state.side,
        round=state.round,
        phase=phase,
        players=players,
        bag=state.bag,
        tower=tower,
        factories=state.factories,
        centre=state.centre,
        supply=supply,
        start_player=state.start_player,
        token_taker=state.token_taker,
        current=current,
        bonus_due=bonus_due,
    )


def _next_unpassed(players: tuple[Player, ...], seat: int) -> int | None:
    """Phase 2 goes clockwise, skipping players who passed (``None``: all passed)."""
    count = len(players)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not players[candidate].passed:
            return candidate
    return None


def _after_bonus(state: State, event: BonusTilesTaken) -> State:
    supply = list(state.supply)
    for space in event.spaces:
        supply[space] = None
    player = state.players[event.seat]
    chooser = _Player(
        score=player.score,
        board=player.board,
        beside=add_counts(player.beside, count_of(event.tiles, COLOUR_COUNT)),
        corners=player.corners,
        passed=player.passed,
    )
    players = _with_player(state.players, event.seat, chooser)
    return _next_to_play(state, event.seat, players, state.tower, tuple(supply), 0)


def _after_refill(state: State, event: SupplyRefilled) -> State:
    bag, tower = apply_draw(state.bag, state.tower, Draw(event.tiles, event.bag_refilled_after))
    supply = list(state.supply)
    for space, tile in zip(event.spaces, event.tiles, strict=True):
        supply[space] = tile
    return dataclasses.replace(state, bag=bag, tower=tower, supply=tuple(supply))


def _after_pass(state: State, event: Passed) -> State:
    player = state.players[event.seat]
    passer = _Player(
        score=player.score - event.points_lost,
        board=player.board,
        beside=remove_counts(player.beside, add_counts(event.kept, event.discarded)),
        corners=event.kept,
        passed=True,
    )
    players = _with_player(state.players, event.seat, passer)
    tower = add_counts(state.tower, event.discarded)
    return _next_to_play(state, event.seat, players, tower, state.supply, state.bonus_due)


def _after_round_prepared(state: State, event: NextRoundPrepared) -> State:
    drawn = sum(event.displays, ())
    bag, tower = apply_draw(state.bag, state.tower, Draw(drawn, event.bag_refilled_after))
    players = tuple(
        dataclasses.replace(
            player, beside=add_counts(player.beside, player.corners), corners=NO_TILES, passed=False
        )
        for player in state.players
    )
    state = dataclasses.replace(
        state,
        round=event.round,
        phase=Phase.ACQUIRE,
        players=players,
        bag=bag,
        tower=tower,
        factories=tuple(count_of(display, COLOUR_COUNT) for display in event.displays),
        start_player=event.start_player,
        token_taker=None,
        current=event.start_player,
    )
    return _play_if_nothing_to_take(state)


def _after_game_end(state: State, event: GameEnded) -> State:
    players = tuple(
        dataclasses.replace(player, score=score, corners=NO_TILES)
        for player, score in zip(state.players, event.scores, strict=True)
    )
    tower = state.tower
    for player in state.players:
        tower = add_counts(tower, player.corners)
    return dataclasses.replace(state, players=players, tower=tower, phase=Phase.GAME_OVER)


# Deciding -------------------------------------------------------------------------------------


def decide(state: State, command: Command, rng: random.Random) -> list[Event]:
    """The events a command causes, or ``IllegalMove`` saying why it is refused. After the
    command: phase 3 or the end of the game when every player has passed, and the supply
    refilled before the next player's turn."""
    return decide_and_evolve(state, command, rng)[0]


def decide_and_evolve(
    state: State, command: Command, rng: random.Random
) -> tuple[list[Event], State]:
    """``decide``'s events and the state they fold to, which ``decide`` works out anyway:
    bots and playouts need not ``evolve`` every event a second time."""
    event = _command_event(state, command)
    events = [event]
    state = evolve(state, event)
    if state.phase is Phase.ROUND_OVER:
        event = _end_of_round(state, rng)
        events.append(event)
        state = evolve(state, event)
    refill = _supply_refill(state, event, rng)
    if refill is not None:
        events.append(refill)
        state = evolve(state, refill)
    return events, state


def _command_event(state: State, command: Command) -> Event:
    if state.phase is Phase.GAME_OVER:
        raise IllegalMove("game_over", action="command")
    if state.phase is Phase.ROUND_OVER:
        raise IllegalMove("between_rounds", action="command")
    match command:
        case TakeTiles():
            return take_tiles(state, command)
        case PlaceTile():
            return place_tile(state, command)
        case ChooseBonusTiles():
            return choose_bonus_tiles(state, command)
        case Pass():
            return pass_and_keep(state, command)
        case _:
            raise IllegalMove("not_a_command", game="summer-pavilion")


def _end_of_round(state: State, rng: random.Random) -> NextRoundPrepared | GameEnded:
    """Phase 3 after rounds 1-5 (new wild colour, factories refilled, the token holder
    starts); the end of the game after round 6."""
    if state.round == ROUNDS:
        return _final_scoring(state)
    factories = len(state.factories)
    draw = draw_tiles(state.bag, state.tower, factories * TILES_PER_FACTORY, rng)
    return NextRoundPrepared(
        round=state.round + 1,
        start_player=_first_to_play(state),
        displays=_deal(draw.tiles, factories),
        bag_refilled_after=draw.refilled_after,
    )


SUPPLY_REFILLED_BEFORE_EVERY_TURN = True
"""Ruling (rules reference; the rulebook says only that the supply is refilled before the
next player's turn after a bonus): the refill happens before every next turn, not only
after a bonus, so a supply space left empty by a short refill (bag and tower ran out) is
filled as soon as the bag or the tower holds a tile again, e.g. after a placement paid
tiles into the tower. ``False`` would refill only after bonus tiles were taken."""


def _supply_refill(state: State, after: Event, rng: random.Random) -> SupplyRefilled | None:
    """Rulebook: before the next player's turn, empty supply spaces are filled from the bag
    (refilled from the tower when empty); ``after`` is the last event so far
    (``SUPPLY_REFILLED_BEFORE_EVERY_TURN``)."""
    if state.phase is Phase.GAME_OVER or state.bonus_due or None not in state.supply:
        return None
    if not SUPPLY_REFILLED_BEFORE_EVERY_TURN and not isinstance(after, BonusTilesTaken):
        return None
    empty = tuple(i for i, tile in enumerate(state.supply) if tile is None)
    if not empty or not (total(state.bag) or total(state.tower)):
        return None
    draw = draw_tiles(state.bag, state.tower, len(empty), rng)
    return _SupplyRefilled(
        spaces=empty[: len(draw.tiles)], tiles=draw.tiles, bag_refilled_after=draw.refilled_after
    )


def _final_scoring(state: State) -> GameEnded:
    stars, numbers, lost, scores = [], [], [], []
    for player in state.players:
        stars.append(star_points(player.board))
        numbers.append(number_points(state.side, player.board))
        gained = player.score + stars[-1] + numbers[-1]
        lost.append(points_lost(gained, total(player.corners)))
        scores.append(gained - lost[-1])
    return GameEnded(
        star_points=tuple(stars),
        number_points=tuple(numbers),
        corner_points_lost=tuple(lost),
        scores=tuple(scores),
    )


# Questions about a state -----------------------------------------------------------------------


def to_move(state: State) -> int | None:
    """The seat (from 0) that must act next; ``None`` when nobody can (game over)."""
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return None
    return state.current


def is_over(state: State) -> bool:
    """Whether the final scoring after round 6 has happened."""
    return state.phase is Phase.GAME_OVER


def scores(state: State) -> tuple[int, ...]:
    """Every seat's position on the scoring track."""
    return tuple(player.score for player in state.players)


def outcome(state: State, seats: Collection[int] | None = None) -> Outcome:
    """Rulebook "End of the game": most points wins; ties share the victory. Only ``seats``
    can win (the seats still playing after resignations; every seat when ``None``)."""
    if not is_over(state):
        raise ValueError("the game is not over")
    final = scores(state)
    return Outcome(scores=final, winners=shared_winners([(score,) for score in final], seats))


# Events as data -----------------------------------------------------------------------------------


def encode(event: Event) -> dict:
    """The JSON-safe form of an event, with its type and version."""
    return CODEC.encode(event)


def decode(data: dict) -> Event:
    """The event ``encode`` wrote (old versions upcast)."""
    return CODEC.decode(data)


def encode_command(command: Command) -> dict:
    """The structured form of a command (the API's legal moves)."""
    return CODEC.encode(command)


def decode_command(data: dict) -> Command:
    """The command ``encode_command`` wrote."""
    return CODEC.decode(data)


def is_barrier(event: Event) -> bool:
    """Events that reveal a draw from the bag: no undo crosses them."""
    return isinstance(event, BARRIERS)
