"""A spectator in the real browser, at 1280 and 390 px (issue 29): a public game in play,
found in the lobby, watched without move controls or a chat box; a move played by a player
arrives on the spectator's page without a reload; a private game answers as a game that
does not exist. Screenshots under var/screenshots/spectator-*.png."""

import re

import pytest

from games.services.chat import chat_post
from games.services.moves import game_resign
from games.services.tables import game_create, game_join
from tests.conftest import make_user
from tests.web.helpers import play_moves
from tests.web.test_browser_pages import SIZES, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def moves_listed(page) -> int:
    return page.locator("#part-moves li.move:not(.voided)").count()


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("who", ["visitor", "signed-in player of other games"])
def test_a_spectator_sees_a_move_arrive_with_no_controls_and_no_chat(
    windows, live_server, shoot, size, who
):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(
        creator=alice, game="azul", players=2, time_control={"kind": "per_move", "days": 3}
    )
    game_join(game=game, user=bob)
    play_moves(game, (alice, bob), 2)
    chat_post(game=game, user=alice, text="only for Bob")
    spectator = None if who == "visitor" else make_user("dave")
    page = window_of(windows, live_server, spectator, size)
    if spectator is not None:
        page.goto(f"{live_server.url}/lobby/")
        watch = page.locator("#watch")
        watch.scroll_into_view_if_needed()
        shoot(page, f"spectator-lobby-{size}")
        with page.expect_navigation():
            watch.locator(f"a[href='/games/{game.pk}/']").click()
    else:
        page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#watching")
    assert page.locator(".player").count() == 2, "both boards"
    assert page.locator("#clocks li").count() == 2, "both clocks"
    for control in ("#move-panel", "#move-form", "#confirm-move", "#chat-form", "#chat-text"):
        assert page.locator(control).count() == 0, control
    assert page.locator("a:has-text('Resign')").count() == 0
    assert page.locator("text=only for Bob").count() == 0
    assert page.locator("#chat-players-only").is_visible()
    before = moves_listed(page)
    assert before == 2
    page.evaluate("window.stillTheSamePage = true")
    play_moves(game, (alice, bob), 1)
    page.wait_for_function(
        "n => document.querySelectorAll('#part-moves li.move:not(.voided)').length > n",
        arg=before,
        timeout=15000,
    )
    assert page.evaluate("window.stillTheSamePage === true"), "updated without a reload"
    assert page.locator("#move-panel").count() == 0 and page.locator("#chat-form").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.problems, page.problems
    shoot(page, f"spectator-game-{size}-{'visitor' if spectator is None else 'signed-in'}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_private_game_looks_to_a_spectator_like_a_game_that_does_not_exist(
    windows, live_server, shoot, size
):
    alice, bob = make_user("alice"), make_user("bob")
    hidden = game_create(creator=alice, game="azul", players=2, private=True, invite=[bob.email])
    game_join(game=hidden, user=bob)
    page = window_of(windows, live_server, make_user("dave"), size)
    answers = []
    for number in (hidden.pk, hidden.pk + 1000):
        response = page.goto(f"{live_server.url}/games/{number}/")
        said = page.locator("main").inner_text().replace(str(number), "N")
        answers.append((response.status, re.sub(r"\s+", " ", said)))
        if number == hidden.pk:
            assert SIZES[size]["width"] >= page.evaluate("document.documentElement.scrollWidth")
            shoot(page, f"spectator-private-{size}")
    assert answers[0] == answers[1]
    assert answers[0][0] == 404 and "There is no game N." in answers[0][1]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_end_screen_of_a_game_aborted_by_an_early_resignation(
    windows, live_server, shoot, size
):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    play_moves(game, (alice, bob), 1)
    game_resign(game=game, user=bob)
    page = window_of(windows, live_server, alice, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#end-title").inner_text() == "Bob resigned"
    assert page.locator("#end-aborted").is_visible()
    assert page.locator("#status").inner_text().startswith("The game was aborted.")
    assert page.locator(".score-table").count() == 0
    page.goto(f"{live_server.url}/lobby/")
    assert (
        page.locator(f"li.game-row:has(a[href='/games/{game.pk}/'])")
        .inner_text()
        .endswith("aborted, unrated: Bob resigned")
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shoot(page, f"aborted-end-screen-{size}")
