"""Conditional lines checked and followed (``games.plan_lines``), with no database: each
game's engine plays the lines; a draw ends a line; lines branch and are trimmed."""

import random

import pytest

from games.plan_lines import LineRefused, answer, check, follow, read_lines, whose, written
from games.plan_lines import played as line_played
from games.registry import GAME_TYPES, game_type


def opening(slug: str, players: int = 2):
    engine = game_type(slug).engine
    return engine, engine.replay(engine.start(players, {}, random.Random(1)))


def played(engine, state, moves: list[str]):
    for move in moves:
        _events, state = engine.decide_and_evolve(state, engine.parse(move), random.Random(0))
    return state


def a_line(engine, state, seat: int, length: int = 4) -> list[str]:
    """``length`` moves from ``state`` (the first another seat's), ending with ``seat``'s."""
    line: list[str] = []
    chooser = random.Random(5)
    while len(line) < length or engine.to_move(state) == seat:
        command = chooser.choice(engine.legal_commands(state))
        events, state = engine.decide_and_evolve(state, command, random.Random(0))
        line.append(engine.format(command))
        if any(engine.is_barrier(event) for event in events) or engine.is_over(state):
            break
        if len(line) >= length and engine.to_move(state) != seat:
            break
    return line


@pytest.mark.parametrize("slug", list(GAME_TYPES))
def test_every_game_checks_a_line_in_its_own_notation_and_says_whose_each_move_is(slug):
    engine, state = opening(slug)
    seat = 1 - engine.to_move(state)
    line = a_line(engine, state, seat)
    # A line is stored up to the player's own last answer: moves of others after it are cut.
    mine = [index for index, (_move, own) in enumerate(whose(engine, state, seat, line)) if own]
    line = line[: mine[-1] + 1]
    assert len(line) >= 2
    typed = [move.upper() for move in line]

    assert check(engine, state, seat, [typed]) == [line]
    marks = whose(engine, state, seat, line)
    assert marks[0] == (line[0], False) and marks[-1] == (line[-1], True)


def test_lines_branch_agree_on_answers_and_are_trimmed_move_by_move():
    lines = [["F1 blue 3", "F2 red 1", "C black 2", "F4 yellow 5"], ["F1 blue 3", "F2 red 1"]]
    lines += [["F3 white 4", "C red floor"]]

    after = follow(lines, "F1 blue 3")

    assert after == [["F2 red 1", "C black 2", "F4 yellow 5"], ["F2 red 1"]]
    assert answer(after) == "F2 red 1"
    assert follow(after, "F2 red 1") == [["C black 2", "F4 yellow 5"]]
    assert follow(lines, "F5 blue 1") == []


def test_two_lines_that_expect_the_same_moves_must_give_the_same_answer():
    engine, state = opening("azul")
    seat = 1 - engine.to_move(state)
    theirs = engine.format(engine.legal_commands(state)[0])
    mine = [engine.format(c) for c in engine.legal_commands(played(engine, state, [theirs]))]

    with pytest.raises(LineRefused) as refused:
        check(engine, state, seat, [[theirs, mine[0]], [theirs, mine[1]]])

    assert (refused.value.code, refused.value.line, refused.value.step) == ("two_answers", 2, 2)
    assert refused.value.other == 1 and refused.value.params == {"move": mine[0]}


def test_a_line_ends_with_the_move_that_draws_new_tiles():
    """Azul rulebook p.6: once the factory displays and the centre are empty, the wall is
    tiled and the factory displays are filled again from the bag — a draw nobody knows."""
    engine, _ = opening("azul")
    # The first seeded round whose last two moves (before the draw) are by two players.
    for seed in range(2, 100):
        state = opening("azul")[1]
        chooser = random.Random(seed)
        history = []
        while True:
            command = chooser.choice(engine.legal_commands(state))
            history.append((state, engine.format(command)))
            events, state = engine.decide_and_evolve(state, command, random.Random(0))
            if any(engine.is_barrier(event) for event in events):
                break
        before_last, last = history[-1]
        seat = engine.to_move(before_last)
        earlier, theirs = history[-2]
        if engine.to_move(earlier) != seat:
            break
    assert engine.to_move(earlier) != seat

    assert check(engine, earlier, seat, [[theirs, last]]) == [[theirs, last]]
    other = 1 - seat
    after_draw = engine.format(engine.legal_commands(state)[0])
    with pytest.raises(LineRefused) as refused:
        check(engine, before_last, other, [[last, after_draw]])
    assert (refused.value.code, refused.value.line, refused.value.step) == ("after_draw", 1, 2)


@pytest.mark.parametrize(
    ("line", "code", "step"),
    [([], "empty", 0), (["F1 purple 1"], "unreadable", 1), (["wall 1"], "illegal", 1)],
)
def test_a_refusal_names_the_move_and_offers_what_is_accepted_there(line, code, step):
    engine, state = opening("azul")
    seat = 1 - engine.to_move(state)

    with pytest.raises(LineRefused) as refused:
        check(engine, state, seat, [line])

    assert (refused.value.code, refused.value.line, refused.value.step) == (code, 1, step)
    if step:
        first = engine.format(engine.legal_commands(state)[0])
        assert refused.value.accepted[0] == first


def test_lines_are_read_one_a_row_with_moves_separated_by_semicolons():
    text = "F1 blue 3; F2 red 1\n\n  C black 2 ;F4 yellow 5  \n"
    lines = read_lines(text)
    assert lines == [["F1 blue 3", "F2 red 1"], ["C black 2", "F4 yellow 5"]]
    assert read_lines(written(lines)) == lines


@pytest.mark.parametrize("slug", list(GAME_TYPES))
def test_the_start_of_a_line_is_played_even_when_it_ends_with_another_players_move(slug):
    engine, state = opening(slug)
    seat = 1 - engine.to_move(state)
    assert line_played(engine, state, seat, []).steps == ()
    assert line_played(engine, state, seat, []).state == state
    theirs = engine.format(engine.legal_commands(state)[0])
    start = line_played(engine, state, seat, [theirs])
    assert start.steps == ((theirs, False),) and start.seats == (1 - seat,)
    assert start.state == played(engine, state, [theirs])
    with pytest.raises(LineRefused) as refused:
        line_played(engine, state, seat, [theirs, "nonsense"])
    assert (refused.value.code, refused.value.step) == ("unreadable", 2)


@pytest.mark.parametrize("slug", list(GAME_TYPES))
def test_a_line_ended_by_a_draw_is_shown_before_the_draw(slug):
    engine, state = opening(slug)
    chooser = random.Random(3)
    for _ in range(400):
        drawing = [
            command
            for command in engine.legal_commands(state)
            if any(
                engine.is_barrier(event)
                for event in engine.decide_and_evolve(state, command, random.Random(0))[0]
            )
        ]
        if drawing:
            break
        state = played(engine, state, [engine.format(chooser.choice(engine.legal_commands(state)))])
    move = engine.format(drawing[0])
    seat = engine.to_move(state)
    line = line_played(engine, state, seat, [move])
    assert line.ended and line.state == played(engine, state, [move])
    events = engine.decide_and_evolve(state, drawing[0], random.Random(0))[0]
    before_draw = state
    for event in events[: next(i for i, e in enumerate(events) if engine.is_barrier(e))]:
        before_draw = engine.evolve(before_draw, event)
    assert line.shown == before_draw and line.shown != line.state
    assert engine.view(line.shown)
    if slug == "azul":
        assert not any(any(f) for f in engine.view(line.shown)["factories"])
