"""The plain-text position of the emails (``games.notify.channels.email.positions``), moved
out of the engines (which speak no language): what each game's picture shows, in English
(the default language), and that it fits a text email in every language."""

import random

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games.notify.channels.email.positions import miyabi as miyabi_positions
from games.notify.channels.email.positions import position_text
from games.notify.channels.email.positions import summer_pavilion as pavilion_positions
from games.notify.channels.email.positions.azul import ending
from games.notify.channels.email.positions.layout import WIDTH, listing
from games.registry import GAME_TYPES
from games.rules.azul import Bonus, EndReason, GameEnded
from games.rules.miyabi import is_over, replay
from games.rules.miyabi.data import PHASES
from tests.rules.azul import tables as azul_tables
from tests.rules.miyabi import tables as miyabi_tables
from tests.rules.miyabi.test_properties import random_events
from tests.rules.summer_pavilion.tables import started
from tests.rules.test_contract import play

LANGUAGES = ["en", "es", "pt", "pl"]
SLUGS = list(GAME_TYPES)


def unwrapped(text: str) -> str:
    """The text with its lines joined: a sentence may wrap at 78 columns."""
    return " ".join(text.split())


def fits(text: str) -> bool:
    return all(len(line) <= WIDTH for line in text.splitlines())


# --- Azul -------------------------------------------------------------------------------


def test_azul_shows_displays_centre_and_every_board():
    state = azul_tables.table(
        azul_tables.opening(),
        factories=("RRBK",),
        boards={1: azul_tables.board(lines={2: "Y"}, floor="K")},
    )
    text = position_text("azul", state)
    assert "F1 BRRK  F2 -" in text and "Centre: first player marker" in text
    assert "Player 2: 0 points" in text and "  2    .Y | w b y r k" in text
    assert "Floor line: K (-1)" in text
    assert "Tiles: B blue, Y yellow, R red, K black, W white." in unwrapped(text)


def test_azul_says_why_the_game_ended():
    """A dead position (tests/rules/azul/test_ending.py): the reason in words."""
    yellow_lines = {2: "Y", 3: "YY", 4: "YYY", 5: "YYYY"}
    stuck = {0: azul_tables.board(lines=yellow_lines), 1: azul_tables.board(lines=yellow_lines)}
    state = azul_tables.table(
        azul_tables.opening(), factories=("KKKK", "KKK"), boards=stuck, bag="KKKK"
    )
    events, state = azul_tables.play(state, "F1 black floor", "F2 black floor")
    assert events[-1] == GameEnded((Bonus(0, 0, 0, 0), Bonus(0, 0, 0, 0)), EndReason.DEAD_POSITION)
    said = unwrapped(position_text("azul", state))
    assert "the game is over: no horizontal row can be completed any more" in said


def test_every_azul_end_reason_has_its_own_sentence():
    said = [ending(reason) for reason in EndReason]
    assert len(set(said)) == len(said) and all(s.startswith("the game is over: ") for s in said)


def test_nine_factory_displays_wrap_within_an_email_line():
    state = azul_tables.opening(4)
    text = position_text("azul", state)
    assert fits(text)
    assert "F9 " in text and text.count("F1 ") == 1


# --- Azul: Summer Pavilion ---------------------------------------------------------------


def test_summer_pavilion_names_round_wild_colour_factories_and_boards():
    text = position_text("summer-pavilion", started(2))
    assert "round 1 of 6, wild colour purple" in unwrapped(text)
    assert "Factory displays: 1: " in text and "| 5: " in unwrapped(text)
    assert "start player token" in text
    assert "Player 2: 5 points" in text
    assert "  b blue" in text
    assert "Tiles: P purple, G green, O orange, Y yellow, B blue, R red" in unwrapped(text)


def test_summer_pavilion_star_table_follows_its_longest_label(monkeypatch):
    """A translated star name longer than the English ones widens the name column: the
    space numbers stay above the spaces."""
    long_names = {"centre": "the multicoloured centre star", "star": "star"}
    real = pavilion_positions.pgettext
    monkeypatch.setattr(
        pavilion_positions,
        "pgettext",
        lambda context, text: (
            long_names.get(text, real(context, text))
            if context == "star label"
            else real(context, text)
        ),
    )
    lines = position_text("summer-pavilion", started(3)).splitlines()
    header = next(line for line in lines if line.startswith("  star "))
    rows = [line for line in lines if line.startswith("  c the multicoloured centre star ")]
    assert rows and all(row.index(". . .") == header.index("1 2 3") for row in rows)
    assert all(len(line) <= WIDTH for line in lines)


# --- Miyabi -----------------------------------------------------------------------------


def test_miyabi_shows_levels_objects_lanterns_and_the_centre():
    state, _ = miyabi_tables.play(
        miyabi_tables.table("2F2", "2F2", "3P3", "1M1", "LS3"),
        "2F2 a3",
        "1M1 a1",
        "2F2 b3 r180",
        "3P3 b2 r0",
    )
    text = position_text("miyabi", state)
    assert "building phase 1 of 6" in unwrapped(text)
    assert "Centre: LS3" in text
    assert "Player 1: 6 points, lanterns 2 of 6 used, to move" in text
    assert "Player 2: 4 points, lanterns 2 of 6 used" in text
    rows = text.splitlines()
    first_garden = rows.index("Player 1: 6 points, lanterns 2 of 6 used, to move")
    assert rows[first_garden + 1] == "            a    b    c    d    e    f"
    assert rows[first_garden + 2] == "lanterns    L    L    .    .    .    ."
    assert rows[first_garden + 5] == "3 koi ponds 2.   2F2  .    .    .    ."
    second_garden = rows.index("Player 2: 4 points, lanterns 2 of 6 used")
    assert rows[second_garden + 2] == "lanterns    L    L    .    .    .    ."
    assert rows[second_garden + 3] == "1 maples    1M1  .    .    .    .    ."
    assert rows[second_garden + 4] == "2 pagodas   .    1P3  1.   1.   .    ."
    legend = "Objects: M maples, P pagodas, F koi ponds, A azaleas, B boxwoods, S stones."
    assert legend in unwrapped(text)


def test_miyabi_one_point_is_singular():
    state, _ = miyabi_tables.play(miyabi_tables.table("1M1", "1M1"), "1M1 a1")
    assert "Player 1: 1 point, lanterns 1 of 6 used" in position_text("miyabi", state)


def test_miyabi_garden_follows_its_longest_label(monkeypatch):
    """A translated object name longer than the English ones widens the label column: the
    column letters stay above the squares."""
    monkeypatch.setattr(
        miyabi_positions, "garden_objects_name", lambda garden_object: "x" * (14 + garden_object)
    )
    state, _ = miyabi_tables.play(miyabi_tables.table("1M1", "1M1"), "1M1 a1")
    rows = position_text("miyabi", state).splitlines()
    first = next(n for n, row in enumerate(rows) if row.startswith("Player 1: "))
    header, maples = rows[first + 1], rows[first + 3]
    assert maples.startswith("1 " + "x" * 14)
    assert maples.index("1M1") == header.index("a")
    assert all(len(row) <= WIDTH for row in rows)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_every_miyabi_game_ends_after_its_building_phases(seed, players):
    state = replay(random_events(seed, players))
    assert is_over(state)
    text = position_text("miyabi", state)
    said = unwrapped(text)
    assert "game over" in said and f"after {PHASES[players]} building phases" in said


# --- every game, every language ---------------------------------------------------------


def test_a_list_wraps_under_its_first_item():
    lines = listing("Label:", [f"item{n:02}" for n in range(20)], ", ")
    assert len(lines) > 1 and all(len(line) <= WIDTH for line in lines)
    assert all(line.startswith(" " * 7 + "item") for line in lines[1:])


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=6, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_every_position_fits_an_email_in_every_language(slug, players, seed):
    """The opening, a position during the game and the end, in each language: lines of at
    most 78 columns, and the notation's letters as typed. (Holds now, with or without
    catalogs; the translations are checked below.)"""
    engine = GAME_TYPES[slug].engine
    played = play(engine, players, seed)
    states = [played.turns[0][0], played.turns[len(played.turns) // 2][0], played.final]
    for language in LANGUAGES:
        with translation.override(language):
            for state in states:
                text = position_text(slug, state)
                assert text.strip() and fits(text), text


@pytest.mark.parametrize("language", ["es", "pt", "pl"])
@pytest.mark.parametrize("slug", SLUGS)
def test_the_position_is_in_the_readers_language(slug, language):
    """The headline and the legend are no longer English, while the tile letters and
    notation stay."""
    engine = GAME_TYPES[slug].engine
    state = engine.replay(engine.start(2, {}, random.Random(7)))
    english = position_text(slug, state)
    with translation.override(language):
        said = position_text(slug, state)
    assert fits(said)
    assert said.splitlines()[0] != english.splitlines()[0]
    assert said.splitlines()[-1] != english.splitlines()[-1]
