"""The plain-text garden of the emails (text.render_text)."""

from games.rules.miyabi import render_text
from tests.rules.miyabi.tables import play, table


def test_the_text_garden_shows_levels_objects_lanterns_and_the_centre():
    state, _ = play(
        table("2F2", "2F2", "3P3", "1M1", "LS3"),
        "2F2 a3",
        "1M1 a1",
        "2F2 b3 r180",
        "3P3 b2 r0",
    )
    text = render_text(state)
    assert "building phase 1 of 6" in text
    assert "Centre: LS3" in text
    assert "Player 1: 6 points, lanterns 2 of 6 used, to move" in text
    assert "Player 2: 4 points, lanterns 2 of 6 used" in text
    rows = text.splitlines()
    first_garden = rows.index("Player 1: 6 points, lanterns 2 of 6 used, to move")
    assert rows[first_garden + 1] == "            a    b    c    d    e    f"
    assert rows[first_garden + 2] == "lanterns    L    L    .    .    .    ."
    assert rows[first_garden + 5] == "3 pond      2.   2F2  .    .    .    ."
    second_garden = rows.index("Player 2: 4 points, lanterns 2 of 6 used")
    assert rows[second_garden + 2] == "lanterns    L    L    .    .    .    ."
    assert rows[second_garden + 3] == "1 maple     1M1  .    .    .    .    ."
    assert rows[second_garden + 4] == "2 pagoda    .    1P3  1.   1.   .    ."


def test_one_point_is_singular():
    state, _ = play(table("1M1", "1M1"), "1M1 a1")
    assert "Player 1: 1 point, lanterns 1 of 6 used" in render_text(state)
