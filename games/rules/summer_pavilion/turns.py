"""Phases 1 and 2, a player's turn: whether the rules allow a command here (an
``IllegalMove`` saying why not) and the event it causes. Rules reference
``rules/summer-pavilion.md``; ``engine.decide`` chooses the function by the command."""

from games.rules.common import IllegalMove, count_of, fast_constructor, remove_counts, total
from games.rules.summer_pavilion.board import (
    COLOUR_COUNT,
    CORNER_SPACES,
    SPACES_PER_STAR,
    STARS,
    index,
)
from games.rules.summer_pavilion.model import (
    BonusTilesTaken,
    ChooseBonusTiles,
    Counts,
    Pass,
    Passed,
    Phase,
    PlaceTile,
    State,
    TakeTiles,
    TilePlaced,
    TilesTaken,
)
from games.rules.summer_pavilion.rules import (
    NO_TILES,
    cost_of,
    only_wild,
    payment,
    payment_error,
    points_lost,
    run_length,
    star_accepts,
    surrounded,
    tiles_taken,
)

# Built with ``fast_constructor``: bots decide a command for every move they try.
_TilesTaken = fast_constructor(TilesTaken)
_TilePlaced = fast_constructor(TilePlaced)
_Passed = fast_constructor(Passed)


def _refuse_unless_phase(state: State, phase: Phase, action: str) -> None:
    """Refuse ``action`` (``take_tiles``, ``place_tile``, ``pass``) outside ``phase``."""
    if state.bonus_due:
        raise IllegalMove("bonus_due", count=state.bonus_due)
    if state.phase is not phase:
        code = "not_acquire_phase" if phase is Phase.ACQUIRE else "not_play_phase"
        raise IllegalMove(code, action=action, current=state.phase.name.lower())


def _valid_colour(colour: object) -> bool:
    return type(colour) is int and 0 <= colour < COLOUR_COUNT


def take_tiles(state: State, command: TakeTiles) -> TilesTaken:
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


def place_tile(state: State, command: PlaceTile) -> TilePlaced:
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
        bonus_tiles=bonus_available(state, earned),
    )


SHORT_SUPPLY_GIVES_WHAT_IS_THERE = True
"""Ruling (rules reference; the rulebook is silent): when the supply holds fewer tiles than
the bonus earned, the player takes what is there (``False`` would give no bonus at all)."""


def bonus_available(state: State, earned: int) -> int:
    on_supply = sum(tile is not None for tile in state.supply)
    if earned <= on_supply:
        return earned
    return on_supply if SHORT_SUPPLY_GIVES_WHAT_IS_THERE else 0


def choose_bonus_tiles(state: State, command: ChooseBonusTiles) -> BonusTilesTaken:
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


def pass_and_keep(state: State, command: Pass) -> Passed:
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
