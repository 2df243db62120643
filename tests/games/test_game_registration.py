"""A game is registered once (``games.registry``): its entry names its engine and the
modules of its board, position text, reply words, bot knowledge and refusals, and each
module provides what its protocol lists. A missing piece is reported by name."""

from dataclasses import replace
from typing import Any, Protocol

import pytest

from games.boards import board_of
from games.bots import knowledge_for
from games.checks import games_registered, missing_parts
from games.notify.channels.email.positions import picture_of
from games.notify.channels.email.words import words_of
from games.refusals import refusals_of
from games.registry import GAME_TYPES, PARTS, game_type, required_names


def test_every_part_of_a_game_is_one_field_of_its_registration():
    fields = set(vars(game_type("azul")))
    assert set(PARTS) <= fields
    assert fields - set(PARTS) == {"slug", "title", "namespace"}


@pytest.mark.parametrize("slug", sorted(GAME_TYPES))
def test_every_registered_game_provides_every_part(slug):
    assert missing_parts(game_type(slug)) == []


def test_the_protocols_list_what_each_part_provides():
    assert required_names(PARTS["board"]) == (
        *("TITLE", "table_svg", "player_svg", "facts", "steps", "notes"),
        *("describe", "breakdown"),
    )
    assert required_names(PARTS["position"]) == ("position_text",)
    assert required_names(PARTS["bot"]) == ("KNOWLEDGE",)
    assert {"NAME", "start", "decide", "evolve", "view"} <= set(required_names(PARTS["engine"]))


def test_a_missing_name_is_reported_with_the_module_that_lacks_it():
    class DrawsBoards(Protocol):
        """A board protocol asking for one name more than any board has."""

        TITLE: Any

        def table_svg(self, view: dict, *, picks: bool) -> str: ...
        def draw_board(self) -> str: ...

    parts = {**PARTS, "board": DrawsBoards}
    miyabi = game_type("miyabi")
    assert missing_parts(miyabi, parts) == ["miyabi: games.boards.miyabi lacks draw_board"]


def test_an_incomplete_registration_names_each_missing_piece():
    incomplete = replace(
        game_type("miyabi"),
        slug="kanji",
        board="games.boards.svg",
        bot="games.bots.kanji",
        refusals="games.refusals.azul",
    )
    problems = missing_parts(incomplete)
    assert "kanji: games.boards.svg lacks TITLE" in problems
    assert "kanji: games.boards.svg lacks breakdown" in problems
    assert any(
        p.startswith("kanji: its bot module games.bots.kanji cannot be imported") for p in problems
    )
    assert "kanji: games.rules.miyabi.NAME is 'miyabi'" in problems
    assert not [p for p in problems if "games.refusals.azul" in p or "positions" in p]


def test_manage_py_check_reports_an_incomplete_registration(monkeypatch):
    monkeypatch.setitem(GAME_TYPES, "miyabi", replace(game_type("miyabi"), words="games.mail"))
    errors = games_registered(None)
    assert {error.id for error in errors} == {"games.E001"}
    assert "miyabi: games.mail lacks WORDS" in [error.msg for error in errors]
    monkeypatch.undo()
    assert games_registered(None) == []


@pytest.mark.parametrize("slug", sorted(GAME_TYPES))
def test_each_layer_finds_the_module_the_registration_names(slug):
    game = game_type(slug)
    assert board_of(slug).__name__ == game.board
    assert picture_of(slug).__name__ == game.position
    assert words_of(slug).__name__ == game.words
    assert refusals_of(slug).__name__ == game.refusals
    assert knowledge_for(slug).engine is game.engine
    assert knowledge_for(game.engine) is knowledge_for(slug)


def test_an_unregistered_game_has_no_parts():
    for lookup in (board_of, picture_of, words_of, refusals_of, knowledge_for):
        with pytest.raises(KeyError):
            lookup("kanji")
