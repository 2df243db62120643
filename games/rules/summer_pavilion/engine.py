"""The decider: ``start`` and ``decide`` turn commands into events (drawing tiles with the
rng they are given), ``evolve`` folds events into the state and never draws."""

import dataclasses
import random
from collections.abc import Collection, Iterable
from functools import cache, lru_cache
from itertools import combinations_with_replacement
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
    CORNER_SPACES,
    COSTS,
    FACTORIES,
    MAX_COST,
    MULTICOLOUR_STAR_BONUS,
    NUMBER_BONUS,
    NUMBER_SETS,
    ROUNDS,
    SPACES_PER_STAR,
    STAR_BONUS,
    STARS,
    START_SCORE,
    SUPPLY_SPACES,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    Side,
    index,
    star_and_space,
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
    ALL_COLOURS,
    NO_TILES,
    affordable_wilds,
    cost_of,
    one_of,
    only_wild,
    payment,
    payment_error,
    points_lost,
    run_length,
    star_accepts,
    star_tiles,
    sub_multisets,
    surrounded,
    tiles_taken,
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
# ``fast_constructor``, as ``decide`` builds the commonest events: bots fold an event for
# every move they try.
_State = fast_constructor(State)
_Player = fast_constructor(Player)
_TilesTaken = fast_constructor(TilesTaken)
_TilePlaced = fast_constructor(TilePlaced)
_Passed = fast_constructor(Passed)
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
            return _take(state, command)
        case PlaceTile():
            return _place(state, command)
        case ChooseBonusTiles():
            return _choose_bonus(state, command)
        case Pass():
            return _pass(state, command)
        case _:
            raise IllegalMove("not_a_command", game="summer-pavilion")


def _refuse_unless_phase(state: State, phase: Phase, action: str) -> None:
    """Refuse ``action`` (``take_tiles``, ``place_tile``, ``pass``) outside ``phase``."""
    if state.bonus_due:
        raise IllegalMove("bonus_due", count=state.bonus_due)
    if state.phase is not phase:
        code = "not_acquire_phase" if phase is Phase.ACQUIRE else "not_play_phase"
        raise IllegalMove(code, action=action, current=state.phase.name.lower())


def _valid_colour(colour: object) -> bool:
    return type(colour) is int and 0 <= colour < COLOUR_COUNT


def _take(state: State, command: TakeTiles) -> TilesTaken:
    """Rulebook phase 1: take from one factory display or the centre."""
    _refuse_unless_phase(state, Phase.ACQUIRE, "take_tiles")
    source, colour, wild = command.source, command.colour, state.wild
    if source is not None and not (type(source) is int and 0 <= source < len(state.factories)):
        raise IllegalMove("no_such_factory", factory=source, factories=len(state.factories))
    if not _valid_colour(colour):
        raise IllegalMove("no_such_colour", colour=colour, colours=COLOUR_COUNT)
    tiles = state.centre if source is None else state.factories[source]
    if not tiles[colour]:
        raise IllegalMove("source_lacks_colour", source=source, colour=colour)
    if colour == wild and not only_wild(tiles, wild):
        raise IllegalMove("wild_taken_alone", source=source, wild=wild)
    taken = tiles_taken(tiles, colour, wild)
    seat = state.current
    first_from_centre = source is None and state.token_taker is None
    return _TilesTaken(
        seat=seat,
        source=source,
        colour=colour,
        taken=taken,
        to_centre=NO_TILES if source is None else remove_counts(tiles, taken),
        start_token=first_from_centre,
        points_lost=points_lost(state.players[seat].score, total(taken))
        if first_from_centre
        else 0,
    )


def _place(state: State, command: PlaceTile) -> TilePlaced:
    """Rulebook phase 2: place one tile on an empty space, paying its cost."""
    _refuse_unless_phase(state, Phase.PLAY, "place_tile")
    star, space, colour, wilds = command.star, command.space, command.colour, command.wilds
    if not (type(star) is int and 0 <= star < STARS):
        raise IllegalMove("no_such_star", star=star, stars=STARS)
    if not (type(space) is int and 1 <= space <= SPACES_PER_STAR):
        raise IllegalMove("no_such_space", space=space, spaces=SPACES_PER_STAR)
    if not _valid_colour(colour):
        raise IllegalMove("no_such_colour", colour=colour, colours=COLOUR_COUNT)
    if type(wilds) is not int:
        raise IllegalMove("wilds_not_a_number")
    seat = state.current
    player = state.players[seat]
    position = index(star, space)
    if player.board[position] is not None:
        raise IllegalMove("space_covered", star=star, space=space)
    accepted = star_accepts(state.side, player.board, star)
    if colour not in accepted:
        raise IllegalMove("star_refuses_colour", star=star, accepted=tuple(accepted), colour=colour)
    cost = cost_of(state.side, position)
    problem = payment_error(player.beside, cost, colour, wilds, state.wild)
    if problem:
        code, params = problem
        raise IllegalMove(code, **params)
    return _placement_event(state, seat, command, payment(cost, colour, wilds, state.wild))


def _placement_event(state: State, seat: int, command: PlaceTile, spent: Counts) -> TilePlaced:
    """Rulebook "Scoring": 1 point per tile of the connected run; surrounded structures
    earn supply tiles (``SHORT_SUPPLY_GIVES_WHAT_IS_THERE``)."""
    position = index(command.star, command.space)
    old = state.players[seat].board
    board = old[:position] + (command.colour,) + old[position + 1 :]
    structures = surrounded(board, position)
    earned = sum(structure.bonus for structure in structures)
    return _TilePlaced(
        seat=seat,
        star=command.star,
        space=command.space,
        colour=command.colour,
        spent=spent,
        points=run_length(board, position),
        structures=tuple(structure.name for structure in structures),
        bonus_tiles=_bonus_available(state, earned),
    )


SHORT_SUPPLY_GIVES_WHAT_IS_THERE = True
"""Ruling (rules reference; the rulebook is silent): when the supply holds fewer tiles than
the bonus earned, the player takes what is there (``False`` would give no bonus at all)."""


def _bonus_available(state: State, earned: int) -> int:
    on_supply = sum(tile is not None for tile in state.supply)
    if earned <= on_supply:
        return earned
    return on_supply if SHORT_SUPPLY_GIVES_WHAT_IS_THERE else 0


def _choose_bonus(state: State, command: ChooseBonusTiles) -> BonusTilesTaken:
    """Rulebook "Scoring": take the bonus tiles of your choice from the supply, wild tiles
    allowed."""
    if not state.bonus_due:
        raise IllegalMove("no_bonus_due")
    colours = command.colours
    if not (isinstance(colours, tuple) and all(_valid_colour(c) for c in colours)):
        raise IllegalMove("bonus_not_colours")
    if len(colours) != state.bonus_due:
        raise IllegalMove("bonus_count", count=state.bonus_due, chosen=len(colours))
    if list(colours) != sorted(colours):
        raise IllegalMove("bonus_not_sorted")
    spaces: list[int] = []
    for colour in colours:
        space = next(
            (i for i, tile in enumerate(state.supply) if tile == colour and i not in spaces),
            None,
        )
        if space is None:
            raise IllegalMove("supply_lacks_colour", colour=colour)
        spaces.append(space)
    return BonusTilesTaken(seat=state.current, spaces=tuple(spaces), tiles=colours)


def _pass(state: State, command: Pass) -> Passed:
    """Rulebook "Passing": keep up to 4 tiles on the corners, discard the rest (−1 each)."""
    _refuse_unless_phase(state, Phase.PLAY, "pass")
    keep = command.keep
    if not (isinstance(keep, tuple) and all(_valid_colour(c) for c in keep)):
        raise IllegalMove("kept_not_colours")
    if len(keep) > CORNER_SPACES:
        raise IllegalMove("keep_too_many", most=CORNER_SPACES, kept=len(keep))
    if list(keep) != sorted(keep):
        raise IllegalMove("kept_not_sorted")
    player = state.players[state.current]
    kept = count_of(keep, COLOUR_COUNT)
    if any(k > b for k, b in zip(kept, player.beside, strict=True)):
        raise IllegalMove("kept_not_beside")
    discarded = remove_counts(player.beside, kept)
    return _Passed(
        seat=state.current,
        kept=kept,
        discarded=discarded,
        points_lost=points_lost(player.score, total(discarded)),
    )


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
    event = _take(state, take)
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
            gains[position] = run_length(board, position) + _bonus_available(state, earned)
        return (gains[position], -cost_of(state.side, position), place.wilds)

    return value


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
