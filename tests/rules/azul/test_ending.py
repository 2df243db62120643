"""When an Azul game ends: the rulebook's completed row and the three rulings of the rules
reference ("End of the game"): a dead position, a repeated position, no tiles to draw."""

from dataclasses import replace

from games.rules.azul import (
    Bonus,
    EndReason,
    FactoriesRefilled,
    GameEnded,
    decode,
    encode,
    is_dead_position,
    is_over,
    view,
)
from games.rules.azul.ending import (
    REPETITIONS,
    completable_lines,
    free_tiles,
    row_completable,
)
from games.rules.azul.engine import end_reason
from tests.rules.azul.tables import board, colour, opening, play, table


def boards_of(*boards_):
    """The (wall, pattern lines) pairs the dead-position check reads."""
    return [(b.wall, tuple((line.colour, line.count) for line in b.lines)) for b in boards_]


YELLOW_LINES = {2: "Y", 3: "YY", 4: "YYY", 5: "YYYY"}
"""Pattern lines 2 to 5 holding 1, 2, 3 and 4 yellow tiles: each needs one more."""


# --- step 1 and 2: free tiles and the lines that can still complete ------------------------


def test_free_tiles_are_those_on_no_wall_and_no_pattern_line():
    player = board(lines={5: "YYYY"}, wall_rows=("BY",))
    assert free_tiles(boards_of(player)) == [19, 15, 20, 20, 20]


def test_a_line_that_completes_frees_its_tiles_for_the_next_one():
    """Step 2 to a fixpoint: the line of 5 holding 4 yellow takes the last free yellow and
    frees 3 (one goes to the wall, four to the lid), so the line of 4 holding 1 yellow,
    which needed 3 more, can complete too."""
    yellow_column = (".Y...", "..Y..", "...Y.", "....Y", "Y....")
    first = board(lines={5: "YYYY"}, wall_rows=yellow_column[:4])
    second = board(lines={4: "Y"})
    full = board(wall_rows=yellow_column)
    boards_ = boards_of(second, first, full, full)
    assert free_tiles(boards_)[colour("Y")] == 1
    lines, free = completable_lines(boards_, grey=False)
    assert lines == {(1, 4), (0, 3)}
    assert free[colour("Y")] == 1 + 3 + 0


def test_a_line_whose_wall_row_cannot_take_its_colour_is_stuck():
    """Grey wall: line 2 holds red, but the only empty space of row 2 is in a column that
    already has red."""
    player = board(lines={2: "R"}, wall_rows=("..R..", "BY.KW"))
    lines, _ = completable_lines(boards_of(player), grey=True)
    assert (0, 1) not in lines


# --- step 3 and 4: rows that can still be completed -----------------------------------------


def test_a_grey_row_that_looks_open_is_blocked_by_its_columns():
    """Row 1 lacks only white, with plenty of white tiles free, but its one empty space is
    in column 5, which already holds a white tile."""
    player = board(wall_rows=("BYRK.", "....W"))
    (wall, lines), free = boards_of(player)[0], free_tiles(boards_of(player))
    assert free[colour("W")] == 19
    assert not row_completable(wall, 0, lines[0], True, free, grey=True)
    assert row_completable(wall, 1, lines[1], True, free, grey=True)


def test_a_grey_row_needs_a_matching_of_its_missing_colours_to_its_columns():
    """Row 2 lacks blue and yellow in columns 1 and 2: blue cannot go to column 1 (row 1
    has blue there) but can go to column 2, and yellow to column 1. With a yellow tile in
    column 1 as well, neither colour can take column 1: no matching."""
    player = board(wall_rows=("B....", "..RKW"))
    (wall, lines), free = boards_of(player)[0], free_tiles(boards_of(player))
    assert row_completable(wall, 1, lines[1], True, free, grey=True)
    blocked = board(wall_rows=("B....", "..RKW", "Y...."))
    (wall, lines), free = boards_of(blocked)[0], free_tiles(boards_of(blocked))
    assert not row_completable(wall, 1, lines[1], True, free, grey=True)


def test_a_row_needs_as_many_free_tiles_of_each_missing_colour_as_its_line_holds():
    """Row 3 (line of 3) lacks black: with only 2 black tiles free it cannot be completed."""
    player = board(wall_rows=("", "", ".WBYR"))
    (wall, lines), free = boards_of(player)[0], free_tiles(boards_of(player))
    free[colour("K")] = 2
    assert not row_completable(wall, 2, lines[2], True, free, grey=False)
    free[colour("K")] = 3
    assert row_completable(wall, 2, lines[2], True, free, grey=False)


def test_a_colour_locked_on_unfinishable_lines_is_a_dead_position():
    """Every yellow tile lies on pattern lines 2 to 5 of both players, each one short: no
    line can ever be finished, and row 1 would need a yellow tile that is not free."""
    both = [board(lines=YELLOW_LINES), board(lines=YELLOW_LINES)]
    assert free_tiles(boards_of(*both))[colour("Y")] == 0
    assert is_dead_position(boards_of(*both), "colored")
    one_in_the_lid = [board(lines=YELLOW_LINES), board(lines={**YELLOW_LINES, 5: "YYY"})]
    assert not is_dead_position(boards_of(*one_in_the_lid), "colored")


def test_a_grey_wall_blocked_by_its_columns_and_locked_yellow_is_a_dead_position():
    """Player 1: row 1 lacks only white, blocked by the white of column 5; rows 2 to 5 wait
    for yellow on stuck lines. Player 2: stuck yellow lines, and rows 1 and 2 would need a
    yellow tile, but none is free."""
    blocked = board(lines=YELLOW_LINES, wall_rows=("YBRK.", "....W"))
    locked = board(lines={3: "YY", 4: "YYY", 5: "YYYY"})
    assert free_tiles(boards_of(blocked, locked))[colour("Y")] == 0
    assert is_dead_position(boards_of(blocked, locked), "grey")
    open_column = board(lines=YELLOW_LINES, wall_rows=("YBRK.", "W...."))
    assert not is_dead_position(boards_of(open_column, locked), "grey")


def test_a_game_starting_position_is_alive():
    assert not is_dead_position(boards_of(*opening(4).boards), "grey")


# --- the end of a game, with its reason -------------------------------------------------


def test_a_dead_position_ends_the_game_after_the_wall_tiling():
    """Both players' yellow is stuck, and the black tiles they take go to the floor."""
    stuck = {0: board(lines=YELLOW_LINES), 1: board(lines=YELLOW_LINES)}
    state = table(opening(), factories=("KKKK", "KKK"), boards=stuck, bag="KKKK")
    events, state = play(state, "F1 black floor", "F2 black floor")
    assert events[-1] == GameEnded((Bonus(0, 0, 0, 0), Bonus(0, 0, 0, 0)), EndReason.DEAD_POSITION)
    assert is_over(state) and view(state)["ended_by"] == "dead_position"


def test_the_third_identical_position_after_the_wall_tiling_ends_the_game():
    """Ruling: six black tiles left, the same two players empty both displays onto their
    floor lines every round: the position after the wall tiling repeats, and the third
    time ends the game (threefold repetition)."""
    state = table(opening(), factories=("KKKK", "KK"), bag="")
    for _ in range(REPETITIONS - 1):
        events, state = play(state, "F1 black floor", "F2 black floor")
        assert isinstance(events[-1], FactoriesRefilled)
        assert [len(factory) for factory in events[-1].factories] == [4, 2, 0, 0, 0]
    events, state = play(state, "F1 black floor", "F2 black floor")
    assert events[-1].reason == EndReason.REPEATED_POSITION and is_over(state)
    assert len(state.positions) == REPETITIONS
    assert state.positions.count(state.positions[-1]) == REPETITIONS


def test_a_different_score_is_a_different_position():
    state = table(opening(), factories=("KKKK", "KK"), bag="")
    _, state = play(state, "F1 black floor", "F2 black floor")
    position = state.positions[-1]
    (wall, lines, _), other = position[0]
    scored = (((wall, lines, 5), other), *position[1:])
    between_rounds = replace(state, bag=position[2], lid=position[3])
    assert end_reason(replace(between_rounds, positions=(position, position, scored))) is None
    thrice = replace(between_rounds, positions=(position,) * REPETITIONS)
    assert end_reason(thrice) == EndReason.REPEATED_POSITION


def test_a_completed_row_is_named_first_when_several_reasons_hold():
    finisher = board(lines={1: "B"}, wall_rows=(".YRKW",))
    state = table(opening(), factories=("K",), boards={0: finisher}, bag="")
    events, _ = play(state, "F1 black floor")
    assert events[-1].reason == EndReason.ROW_COMPLETED


# --- recorded games ------------------------------------------------------------------------


def test_a_game_ended_event_of_version_1_reads_with_its_reason():
    """Version 1 did not record why: a complete row means the rulebook's end; without one,
    the game ended by the rules of its time (round 20 or no tile left to draw)."""
    bonus = {"rows": 1, "columns": 0, "colours": 0, "points": 2}
    none = {"rows": 0, "columns": 0, "colours": 0, "points": 0}
    completed = decode({"type": "GameEnded", "version": 1, "bonuses": [bonus, none]})
    assert completed == GameEnded((Bonus(1, 0, 0, 2), Bonus(0, 0, 0, 0)), EndReason.ROW_COMPLETED)
    limited = decode({"type": "GameEnded", "version": 1, "bonuses": [none, none]})
    assert limited.reason == EndReason.ROUND_LIMIT
    assert encode(limited) == {
        "type": "GameEnded",
        "version": 2,
        "bonuses": [none, none],
        "reason": "round_limit",
    }
