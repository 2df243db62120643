"""Every example of the Portuguese rulebook (seed 002), quoted, as a test."""

import random

import pytest

from games.rules.azul import (
    FLOOR,
    FloorLineCleared,
    IllegalMove,
    TakeTiles,
    TilesTaken,
    WallTiled,
    decide,
    legal_commands,
    parse,
)
from games.rules.azul.board import Colour, score_wall_placement
from tests.rules.azul.tables import board, opening, play, table, tiles, wall

PETER, MARTIN, ANDREA = 0, 1, 2


def test_first_turn_example_peter_martin_and_andrea():
    """ "1. Peter escolhe os 2 azulejos pretos de uma fábrica e os demais azulejos restantes
    vão para o centro da mesa. 2. Martin escolhe o azulejo amarelo de uma fábrica e coloca
    o restante dos 3 azulejos vermelhos no centro. 3. Então, Andrea escolhe estes 3 azulejos
    vermelhos do centro da mesa. Como ela é a primeira a escolher do centro, ela também
    leva o marcador de primeiro jogador e coloca-o no espaço mais à esquerda da linha do
    chão.\""""
    state = table(opening(3), factories=("KKBW", "YRRR", "BBBB"), turn=PETER)
    _, state = play(state, "F1 black 2")
    assert state.centre == tiles("BW")
    _, state = play(state, "F2 yellow 1")
    assert state.centre == tiles("BWRRR")
    events, state = play(state, "C red 3")
    assert events == [TilesTaken(ANDREA, -1, Colour.RED, 3, 2, 3, 0, 0, tiles(""), marker=True)]
    assert state.boards[ANDREA].marker and not state.marker_in_centre
    assert state.boards[ANDREA].lines[2] == (Colour.RED, 3)
    assert state.centre == tiles("BW")


ANDREA_TABLE = table(
    opening(3),
    factories=("YYRR",),
    boards={ANDREA: board(lines={4: "B"}, wall_rows=(".....", "..Y..", "...Y."))},
    turn=ANDREA,
)


def test_andrea_has_exactly_three_choices_for_her_two_yellow_tiles():
    """ "Andrea escolhe 2 azulejos amarelos de uma Fábrica. Ela não tem permissão para
    colocá-los em sua segunda ou terceira linha padrão [...]. Ela também não pode colocá-los
    na quarta linha padrão, pois já há 1 azulejo azul [...]. No entanto, ela pode colocar 1
    deles na primeira linha padrão e o excedente de azulejo na linha do chão (A). Ou ela
    pode colocar ambos os azulejos na quinta linha padrão (B). Ela pode até escolher colocar
    os dois azulejos na linha do chão (C).\""""
    yellow = [
        command
        for command in legal_commands(ANDREA_TABLE)
        if command.source == 0 and command.colour == Colour.YELLOW
    ]
    assert yellow == [
        TakeTiles(0, Colour.YELLOW, 0),
        TakeTiles(0, Colour.YELLOW, 4),
        TakeTiles(0, Colour.YELLOW, FLOOR),
    ]
    taken = [play(ANDREA_TABLE, move)[0][0] for move in ("F1 y 1", "F1 y 5", "F1 y floor")]
    assert [(event.placed, event.floored) for event in taken] == [(1, 1), (2, 0), (0, 2)]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("2", ("wall_row_has_colour", {"row": 1, "colour": Colour.YELLOW})),
        ("3", ("wall_row_has_colour", {"row": 2, "colour": Colour.YELLOW})),
        ("4", ("pattern_line_other_colour", {"line": 3, "held_colour": Colour.BLUE})),
    ],
)
def test_andrea_may_not_put_yellow_on_lines_2_3_or_4(line, reason):
    """ "Ela não tem permissão para colocá-los em sua segunda ou terceira linha padrão,
    porque suas linhas de parede correspondentes possuem um azulejo amarelo. Ela também não
    pode colocá-los na quarta linha padrão, pois já há 1 azulejo azul.\""""
    with pytest.raises(IllegalMove) as refusal:
        decide(ANDREA_TABLE, parse(f"F1 yellow {line}"), random.Random(0))
    assert (refusal.value.code, refusal.value.params) == reason


def test_peter_tiles_his_complete_second_and_fourth_lines():
    """ "A segunda linha padrão de Peter é completa com 2 azulejos vermelhos. Então ele move o
    azulejo mais à direita desta linha padrão para o espaço vermelho na parede (e
    imediatamente marca 1 ponto). Como a terceira linha padrão não está completa, ele
    ignora. De sua quarta linha padrão, está completa, ele move [...] o azulejo azul sobre o
    espaço azul na parede (e marca 1 ponto imediatamente). [...] Depois, ele remove os
    azulejos restantes da segunda e quarta linhas e os coloca na tampa da caixa do jogo.\""""
    peter = board(lines={2: "RR", 3: "Y", 4: "BBBB", 5: "KK"})
    state = table(opening(2), factories=("W",), boards={PETER: peter}, turn=MARTIN)
    events, after = play(state, "F1 white floor")
    tiled = [e for e in events if isinstance(e, WallTiled) and e.seat == PETER]
    assert tiled == [
        WallTiled(PETER, 1, 3, Colour.RED, points=1, to_lid=1),
        WallTiled(PETER, 3, 3, Colour.BLUE, points=1, to_lid=3),
    ]
    peter = after.boards[PETER]
    assert peter.score == 2
    assert peter.lines[2] == (Colour.YELLOW, 1) and peter.lines[4] == (Colour.BLACK, 2)
    assert peter.lines[1].count == peter.lines[3].count == 0
    assert after.lid == tiles("RBBBW")


def test_peter_loses_8_points_for_4_tiles_and_the_first_player_marker():
    """ "Peter perde um total de 8 pontos, pois ele tem 4 azulejos e o marcador de jogador
    inicial na linha do chão.\""""
    peter = board(score=10, floor="BBY", marker=True)
    state = table(opening(2), factories=("R",), boards={PETER: peter}, marker_holder=PETER)
    events, after = play(state, "F1 red floor")
    assert FloorLineCleared(PETER, tiles=(0, 0, 1, 2), marker=True, points=-8) in events
    assert after.boards[PETER].score == 2


@pytest.mark.parametrize(
    ("rows", "row", "column", "points", "example"),
    [
        (("R....",), 2, 2, 1, "não houver azulejos diretamente adjacente [...] ganhe 1 ponto"),
        ((".....", "KW..."), 1, 2, 3, "colocando o azulejo amarelo dá-lhe 3 pontos"),
        ((".Y...", ".....", ".W..."), 1, 1, 3, "colocando o azulejo azul dá 3 pontos"),
        ((".....", "...R.", "KWB..", "...B."), 2, 3, 7, "não só 4 pontos [...] mas também 3"),
    ],
)
def test_scoring_examples(rows, row, column, points, example):
    """The scoring examples of "Pontuação", quoted in ``example``."""
    assert score_wall_placement(wall(*rows), row, column) == points


def test_yellow_tile_joining_4_horizontally_and_3_vertically_scores_7():
    """ "Neste exemplo, colocando o azulejo amarelo dá-lhe não só 4 pontos para os azulejos
    unidos horizontalmente, mas também 3 pontos para os azulejos ligados na vertical.\""""
    tiler = board(lines={3: "YYY"}, wall_rows=(".....", "...R.", "KWB..", "...B."))
    state = table(opening(2), factories=("W",), boards={PETER: tiler}, turn=MARTIN)
    events, after = play(state, "F1 white floor")
    assert WallTiled(PETER, 2, 3, Colour.YELLOW, points=7, to_lid=2) in events
    assert after.boards[PETER].score == 7
