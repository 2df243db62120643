"""Every rule of the rules reference and the rulebook, one test each, and the rulings
where the rulebook is silent."""

import json
import random
from dataclasses import replace

import pytest

from games.rules.azul import (
    Bonus,
    EndReason,
    FactoriesRefilled,
    FloorLineCleared,
    GameEnded,
    GameStarted,
    IllegalMove,
    LineDropped,
    Outcome,
    PlaceOnWall,
    TakeTiles,
    WallTiled,
    decide,
    default_command,
    is_barrier,
    is_over,
    legal_commands,
    outcome,
    parse,
    scores,
    start,
    to_move,
    view,
)
from games.rules.azul.board import START_SEAT, Colour, floor_penalty
from games.rules.azul.model import Phase
from tests.rules.azul.tables import board, opening, play, table, tiles


def refused(state, move):
    with pytest.raises(IllegalMove) as error:
        decide(state, parse(move), random.Random(0))
    return error.value.code, error.value.params


# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "displays"), [(2, 5), (3, 7), (4, 9)])
def test_setup_fills_5_7_or_9_factory_displays_with_4_tiles_each(players, displays):
    events = start(players, {}, random.Random(players))
    assert events[0] == GameStarted(players, "colored", START_SEAT)
    refilled = events[1]
    assert isinstance(refilled, FactoriesRefilled) and is_barrier(refilled)
    assert [len(factory) for factory in refilled.factories] == [4] * displays
    state = opening(players)
    assert sum(state.bag) == 100 - 4 * displays
    assert to_move(state) == START_SEAT and state.marker_in_centre


# --- A. factory offer -----------------------------------------------------------------------


def test_taking_from_a_factory_sends_its_other_tiles_to_the_centre():
    events, state = play(table(opening(), factories=("RRBK", "YYYY"), centre="W"), "F1 red 2")
    assert events[0].to_centre == tiles("BK")
    assert state.centre == tiles("BKW") and state.factories[0] == tiles("")
    assert state.boards[0].lines[1] == (Colour.RED, 2)


def test_only_the_first_to_take_from_the_centre_takes_the_first_player_marker():
    state = table(opening(), factories=("YYYY",), centre="RRBBK")
    events, state = play(state, "C red 2", "C blue 2")
    assert [event.marker for event in events] == [True, False]
    assert state.boards[0].marker and not state.boards[1].marker
    assert state.marker_holder == 0 and not state.marker_in_centre


def test_tiles_are_placed_on_one_pattern_line_and_the_excess_goes_to_the_floor_line():
    state = table(opening(), factories=("RRRB",), boards={0: board(lines={3: "R"})})
    events, state = play(state, "F1 red 3")
    assert (events[0].placed, events[0].floored) == (2, 1)
    assert state.boards[0].lines[2] == (Colour.RED, 3)
    assert state.boards[0].floor == (Colour.RED,)


def test_a_full_floor_line_sends_the_excess_tiles_to_the_box_lid():
    state = table(opening(), factories=("KKKB",), boards={0: board(floor="BBBBB")})
    events, state = play(state, "F1 black floor")
    assert (events[0].floored, events[0].lidded) == (2, 1)
    assert len(state.boards[0].floor) == 7 and state.lid == tiles("K")


def test_the_marker_takes_the_leftmost_free_floor_space_before_the_tiles():
    state = table(opening(), factories=("YYYY",), centre="RR", boards={0: board(floor="BBBBB")})
    events, state = play(state, "C red floor")
    assert (events[0].marker, events[0].floored, events[0].lidded) == (True, 1, 1)


def test_the_marker_taken_onto_a_full_floor_line_costs_no_eighth_space():
    """Ruling: with no free floor space the holder still keeps the marker (and starts next
    round), but only the 7 spaces lose points."""
    full = board(score=20, floor="BBBBBBB")
    state = table(opening(), factories=("Y",), centre="R", boards={0: full})
    events, state = play(state, "C red floor", "F1 yellow 1")
    assert (events[0].marker, events[0].floored, events[0].lidded) == (True, 0, 1)
    assert FloorLineCleared(0, (0,) * 7, marker=True, points=-14) in events
    assert events[-1].first_player == 0


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("F6 red 1", ("no_such_factory", {"factory": 5, "players": 2, "factories": 5})),
        ("F2 red 1", ("source_lacks_colour", {"source": 1, "colour": Colour.RED})),
        ("C blue 1", ("source_lacks_colour", {"source": None, "colour": Colour.BLUE})),
        ("F1 blue 1", ("pattern_line_complete", {"line": 0})),
        ("F1 red 2", ("pattern_line_other_colour", {"line": 1, "held_colour": Colour.YELLOW})),
        ("F1 red 3", ("wall_row_has_colour", {"row": 2, "colour": Colour.RED})),
        ("wall 1", ("during_factory_offer", {"action": "choose_wall_column"})),
    ],
)
def test_a_take_against_the_rules_is_refused_with_the_reason(move, reason):
    tiler = board(lines={1: "B", 2: "Y"}, wall_rows=(".....", ".....", "....R"))
    state = table(opening(), factories=("RRBB",), centre="R", boards={0: tiler})
    assert refused(state, move) == reason


def test_the_turn_passes_clockwise_and_the_offer_ends_when_the_table_is_empty():
    state = table(opening(3), factories=("RRRR", "BBBB", "YY"), turn=1)
    _, state = play(state, "F1 red floor")
    assert to_move(state) == 2
    _, state = play(state, "F2 blue floor")
    assert to_move(state) == 0 and state.phase is Phase.OFFER
    events, state = play(state, "F3 yellow floor")
    assert [type(event) for event in events[1:4]] == [FloorLineCleared] * 3
    assert isinstance(events[4], FactoriesRefilled) and state.round == 2


# --- B. wall tiling -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("occupied", "penalty"),
    [(0, 0), (1, -1), (2, -2), (3, -4), (4, -6), (5, -8), (6, -11), (7, -14)],
)
def test_floor_line_penalties_are_minus_1_1_2_2_2_3_3(occupied, penalty):
    assert floor_penalty(occupied) == penalty


def test_the_score_never_drops_below_zero():
    state = table(opening(), factories=("K",), boards={0: board(score=3, floor="BBBB")})
    events, state = play(state, "F1 black floor")
    assert FloorLineCleared(0, (0, 0, 0, 0, 3), False, -3) in events
    assert scores(state)[0] == 0


def test_the_marker_returns_to_the_centre_and_its_holder_starts_the_next_round():
    state = table(opening(), factories=("K",), turn=0, marker_holder=1)
    state = replace(state, boards=(board(), board(marker=True)))
    events, state = play(state, "F1 black floor")
    assert events[-1].first_player == 1
    assert state.marker_in_centre and not state.boards[1].marker
    assert to_move(state) == 1 and state.start_seat == 1


def test_when_nobody_took_the_marker_the_same_start_player_starts_again():
    """Ruling: the rulebook is silent when no tile reached the centre all round."""
    state = table(opening(), factories=("KKKK", "BBBB"), turn=1)
    state = replace(state, start_seat=1)
    events, state = play(state, "F1 black floor", "F2 blue floor")
    assert events[-1].first_player == 1 and to_move(state) == 1


# --- C. the next round ----------------------------------------------------------------------


def test_factories_are_refilled_from_the_bag_then_from_the_box_lid():
    state = table(opening(), factories=("K",), bag="BBY", lid="RRRRRRRRRRWWWWWWWWWW")
    events, state = play(state, "F1 black floor", seed=5)
    refill = events[-1]
    assert refill.refilled_after == 3
    assert sorted(refill.factories[0][:3]) == [Colour.BLUE, Colour.BLUE, Colour.YELLOW]
    assert sum(map(len, refill.factories)) == 20
    assert sum(state.bag) == 3 + 20 + 1 - 20 and state.lid == tiles("")


def test_factories_are_partly_filled_when_bag_and_lid_run_out():
    state = table(opening(), factories=("K",), bag="BBYYRR")
    events, state = play(state, "F1 black 1")
    assert [len(factory) for factory in events[-1].factories] == [4, 2, 0, 0, 0]
    assert state.bag == tiles("") and to_move(state) == 0


def test_the_game_ends_when_no_tile_is_left_to_draw():
    """Ruling: if at the start of a round no tile can be drawn at all (bag and lid empty),
    the game ends after that round's wall-tiling phase; scores and bonuses as usual."""
    state = table(opening(), factories=("K",), bag="")
    events, state = play(state, "F1 black 1")
    assert events[-1] == GameEnded((Bonus(0, 0, 0, 0), Bonus(0, 0, 0, 0)), EndReason.NO_TILES)
    assert is_over(state) and outcome(state) == Outcome((1, 0), (0,))


def test_one_tile_left_in_the_lid_is_enough_for_another_round():
    state = table(opening(), factories=("K",), bag="", lid="R")
    events, state = play(state, "F1 black 1")
    assert isinstance(events[-1], FactoriesRefilled) and not is_over(state)
    assert events[-1].factories[0] == (Colour.RED,)


# --- end of the game ------------------------------------------------------------------------


def test_the_game_ends_after_the_round_in_which_a_horizontal_row_is_completed():
    """+2 per row, +7 per column, +10 per colour: the last yellow completes row 1, column
    2 and the yellow colour."""
    finisher = board(
        score=20,
        lines={1: "Y"},
        wall_rows=("B.RKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB"),
    )
    state = table(opening(), factories=("KKKK",), boards={0: finisher}, turn=1)
    events, state = play(state, "F1 black floor")
    assert WallTiled(0, 0, 1, Colour.YELLOW, points=10, to_lid=0) in events
    assert events[-1] == GameEnded((Bonus(5, 5, 5, 95), Bonus(0, 0, 0, 0)), EndReason.ROW_COMPLETED)
    assert is_over(state) and to_move(state) is None and legal_commands(state) == []
    assert outcome(state) == Outcome((20 + 10 + 95, 0), (0,))
    assert refused(state, "F1 red 1") == ("game_over", {"action": "take_tiles"})


def test_the_game_goes_on_until_the_round_ends_even_after_a_row_is_complete():
    finisher = board(lines={1: "B"}, wall_rows=(".YRKW",))
    state = table(opening(), factories=("KKKK", "RRRR"), boards={0: finisher})
    _, state = play(state, "F1 black floor")
    assert not is_over(state)
    events, state = play(state, "F2 red floor")
    assert isinstance(events[-1], GameEnded)


def _ended(*boards_):
    state = table(opening(len(boards_)), factories=("K",), boards=dict(enumerate(boards_)))
    return play(state, "F1 black 5")[1]


def test_a_tie_goes_to_the_tied_player_with_more_complete_rows():
    ahead = board(score=13, wall_rows=("BYRKW",))
    behind = board(score=15, wall_rows=("BYRK.", "WBYR.", "KWBY.", "RKWB."))
    state = _ended(ahead, behind)
    assert outcome(state) == Outcome((15, 15), (0,))


def test_a_tie_with_as_many_complete_rows_is_a_shared_victory():
    state = _ended(board(score=3, wall_rows=("BYRKW",)), board(score=3, wall_rows=("BYRKW",)))
    assert outcome(state).winners == (0, 1)


def test_the_outcome_of_a_game_in_progress_is_refused():
    with pytest.raises(ValueError, match="not over"):
        outcome(opening())


# --- variant: the grey wall -----------------------------------------------------------------


def _grey(boards_, factories=("K",), turn=1):
    return table(opening(2, "grey"), factories=factories, boards=boards_, turn=turn)


def test_on_the_grey_wall_the_player_chooses_any_empty_space_of_the_row():
    state = _grey({0: board(lines={2: "RR"})})
    events, state = play(state, "F1 black floor")
    assert state.phase is Phase.TILING and to_move(state) == 0
    assert legal_commands(state) == [PlaceOnWall(column) for column in range(5)]
    events, state = play(state, "wall 5")
    assert events[0] == WallTiled(0, 1, 4, Colour.RED, points=1, to_lid=1)
    assert state.boards[0].wall[1][4] == Colour.RED and to_move(state) == 0


def test_on_the_grey_wall_no_colour_appears_twice_in_a_column():
    state = _grey({0: board(lines={2: "RR"}, wall_rows=("..R..", "B...."))})
    _, state = play(state, "F1 black floor")
    assert legal_commands(state) == [PlaceOnWall(1), PlaceOnWall(3), PlaceOnWall(4)]
    assert refused(state, "wall 3") == (
        "wall_column_has_colour",
        {"column": 2, "colour": Colour.RED},
    )
    assert refused(state, "wall 1") == ("wall_space_taken", {"row": 1, "column": 0})
    assert refused(state, "F1 red 1") == ("wall_column_due", {"action": "take_tiles", "seat": 0})


def test_on_the_grey_wall_a_single_legal_space_is_filled_without_asking():
    state = _grey({0: board(lines={2: "RR"}, wall_rows=("..R..", "BY.K."))})
    events, state = play(state, "F1 black floor")
    assert WallTiled(0, 1, 4, Colour.RED, points=2, to_lid=1) in events
    assert state.phase is Phase.OFFER


def test_on_the_grey_wall_a_line_without_a_legal_space_goes_to_the_floor_line():
    """Ruling: the rulebook is silent; the tiles are dropped like tiles that cannot be
    placed, onto the floor line and beyond it into the lid."""
    stuck = board(
        score=5, lines={3: "RRR"}, wall_rows=("..R..", "....R", "BY.K.", ""), floor="BBBBB"
    )
    state = _grey({0: stuck})
    events, state = play(state, "F1 black floor")
    assert LineDropped(0, 2, Colour.RED, floored=2, lidded=1) in events
    assert FloorLineCleared(0, (0, 0, 0, 0, 0, 2, 2), False, -5) in events
    assert scores(state)[0] == 0


def test_on_the_grey_wall_lines_are_tiled_top_to_bottom_and_seats_in_order():
    state = _grey({0: board(lines={1: "B", 2: "RR"}), 1: board(lines={1: "Y"})})
    _, state = play(state, "F1 black floor")
    assert (to_move(state), state.boards[0].lines[0].count) == (0, 1)
    _, state = play(state, "wall 1")
    assert (to_move(state), state.boards[0].lines[1].count) == (0, 2)
    events, state = play(state, "wall 1")
    assert events[0].points == 2 and to_move(state) == 1
    events, state = play(state, "wall 3")
    assert isinstance(events[-1], FactoriesRefilled) and state.phase is Phase.OFFER


def test_on_the_grey_wall_a_colour_already_in_the_row_is_refused_on_its_pattern_line():
    state = table(
        opening(2, "grey"), factories=("RRRR",), boards={0: board(wall_rows=("", "...R."))}
    )
    assert refused(state, "F1 red 2") == ("wall_row_has_colour", {"row": 1, "colour": Colour.RED})


# --- default command, view, text ------------------------------------------------------------


def test_the_default_command_wastes_least():
    """Two black would fill line 3 but drop one tile; all three red fit line 4."""
    tiler = board(lines={2: "B", 3: "KK"})
    state = table(opening(), factories=("RRRB", "KK"), centre="YYY", boards={0: tiler})
    assert default_command(state) == TakeTiles(0, Colour.RED, 3)


def test_the_default_command_prefers_factories_to_the_centre_and_its_marker():
    state = table(opening(), factories=("", "RB"), centre="Y")
    assert default_command(state) == TakeTiles(1, Colour.BLUE, 0)


def test_the_default_wall_column_scores_most():
    state = _grey({0: board(lines={2: "RR"}, wall_rows=(".....", "...B."))})
    _, state = play(state, "F1 black floor")
    assert default_command(state) == PlaceOnWall(2)


def test_the_view_is_json_and_shows_the_bag_only_as_a_count():
    shown = view(opening())
    assert json.loads(json.dumps(shown)) == shown
    assert shown["bag"] == 80 and shown["to_move"] == 0
    assert isinstance(shown["bag"], int)
