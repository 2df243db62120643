"""Boards as pictures: every tile carries a letter, and every legal move can be chosen by
clicks that the pictures or the page offer."""

import random
import re

import pytest

from games.boards import board_of, clickable_moves, for_the_page
from games.registry import GAME_TYPES


def position(slug: str, moves: int, seed: int = 7):
    engine = GAME_TYPES[slug].engine
    rng = random.Random(seed)
    state = engine.replay(engine.start(3, {k: v[0] for k, v in engine.OPTIONS.items()}, rng))
    for _ in range(moves):
        command = rng.choice(engine.legal_commands(state))
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    return engine, state


def legal(engine, state) -> list[dict]:
    return [
        {"move": engine.format(c), "command": engine.encode_command(c)}
        for c in engine.legal_commands(state)
    ]


@pytest.mark.parametrize("slug", GAME_TYPES)
def test_the_page_gets_every_move_with_its_words_sent_once(slug):
    engine, state = position(slug, 9)
    clicks = clickable_moves(slug, legal(engine, state), engine.view(state))
    page = for_the_page(clicks)
    assert len(page["labels"]) == len(set(page["labels"]))
    assert len(page["picks"]) == len(set(page["picks"]))
    assert not [label for label in page["labels"] if re.search(r"\ba [aeiou]", label)]
    unpacked = [
        {
            "move": move,
            "steps": [[page["picks"][pick], page["labels"][words]] for pick, words in steps],
            "preview": [page["picks"][pick] for pick in preview],
        }
        for move, steps, preview in page["moves"]
    ]
    assert unpacked == clicks


@pytest.mark.parametrize("slug", GAME_TYPES)
@pytest.mark.parametrize("moves", [0, 9, 25])
def test_every_legal_move_has_its_own_clicks(slug, moves):
    engine, state = position(slug, moves)
    view = engine.view(state)
    clicks = clickable_moves(slug, legal(engine, state), view)
    paths = [tuple(pick for pick, _ in move["steps"]) for move in clicks]
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert not any(other[: len(path)] == path for other in paths if other != path)
    board = board_of(slug)
    pictures = board.table_svg(view, picks=True) + board.player_svg(
        view, engine.to_move(state), picks=True
    )
    on_board = {
        pick
        for attribute in re.findall(r'data-pick="([^"]+)"', pictures)
        for alternative in attribute.split("|")
        for pick in alternative.split()
    }
    first_clicks = {path[0] for path in paths}
    assert first_clicks & on_board or first_clicks <= {"pass"}


@pytest.mark.parametrize("slug", GAME_TYPES)
def test_every_tile_shows_a_letter_for_colour_blind_players(slug):
    engine, state = position(slug, 12)
    view = engine.view(state)
    board = board_of(slug)
    pictures = board.table_svg(view, picks=False) + "".join(
        board.player_svg(view, seat, picks=False) for seat in range(3)
    )
    tiles = re.findall(r'<g class="tile"[^>]*>(.*?)</g>', pictures)
    assert tiles
    assert all(re.search(r"<text[^>]*>[A-Z]</text>", tile) for tile in tiles)
    assert "data-pick" not in pictures


def test_a_summer_pavilion_board_prints_every_space_number_and_structure():
    engine, state = position("summer-pavilion", 0)
    picture = board_of("summer-pavilion").player_svg(engine.view(state), 0, picks=False)
    assert picture.count('class="space empty"') == 42
    for kind in ("pillar", "statue", "window"):
        assert picture.count(f'class="structure {kind}"') == 6


def test_a_miyabi_garden_shows_levels_and_lanterns():
    engine, state = position("miyabi", 10)
    view = engine.view(state)
    garden = view["gardens"][0]
    picture = board_of("miyabi").player_svg(view, 0, picks=False)
    stacked = sum(1 for row in garden["heights"] for level in row if level)
    assert picture.count('class="level"') == stacked
    assert picture.count('class="lantern"') == sum(garden["lanterns"])


def test_on_the_grey_wall_the_columns_of_the_row_being_tiled_are_clicked():
    engine = GAME_TYPES["azul"].engine
    rng = random.Random(3)
    state = engine.replay(engine.start(2, {"wall": "grey"}, rng))
    while not any(type(c).__name__ == "PlaceOnWall" for c in engine.legal_commands(state)):
        command = engine.default_command(state)
        for event in engine.decide(state, command, rng):
            state = engine.evolve(state, event)
    view = engine.view(state)
    clicks = clickable_moves("azul", legal(engine, state), view)
    picture = board_of("azul").player_svg(view, engine.to_move(state), picks=True)
    for move in clicks:
        assert f'data-pick="{move["steps"][0][0]}"' in picture
