"""The whole move in view (issue 29): at 1280×900 and at 390×844, once a source is picked,
the sources, the player's own board and the move controls are on the screen together, and
nothing lies over a place the player can tap next."""

import pytest

from games import views
from games.services.chat import chat_post
from games.services.tables import game_create
from tests.conftest import make_user
from tests.web.helpers import play_moves, player_to_move, started_game
from tests.web.test_browser_pages import window_of
from tests.web.test_browser_phone_fit import FIRST_TARGET

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = ["azul", "summer-pavilion", "miyabi"]

IN_VIEW = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  const inside = r.top >= -1 && r.bottom <= window.innerHeight + 1;
  return [Math.round(r.top), Math.round(r.bottom), inside];
}"""

COVERED = """() => [...document.querySelectorAll('svg .pickable')].filter(el => {
  const r = el.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= window.innerHeight) return false;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return !(hit && el.contains(hit));
}).map(el => el.getAttribute('data-pick'))"""


def game_page(windows, live_server, shoot, game_name, size):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game_name)
    mover = player_to_move(game, alice, bob)
    page = window_of(windows, live_server, mover, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("svg .pickable")
    return game, page


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game_name", GAMES)
def test_sources_own_board_and_controls_in_view_while_moving(
    windows, live_server, shoot, game_name, size
):
    game, page = game_page(windows, live_server, shoot, game_name, size)
    page.locator("#table-area .pickable").first.click()
    shoot(page, f"move-in-view-{game_name}-{size}")
    page.screenshot(path=f"var/screenshots/viewport-{game_name}-{size}.png")
    for selector in ("#table-area svg", "figure.mine svg", "#confirm-move"):
        top, bottom, inside = page.evaluate(IN_VIEW, selector)
        assert inside, f"{selector} at {top}..{bottom}"
    assert page.evaluate(COVERED) == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_page_stays_where_the_player_was_after_a_move_and_undo_begins_the_turn_again(
    windows, live_server, shoot, size
):
    """After a move the page comes back where the player was; an undo makes it their turn
    again, and a turn begins with its first target on the screen (issue 41)."""
    game, page = game_page(windows, live_server, shoot, "azul", size)
    page.evaluate("window.scrollTo(0, 150)")
    for _ in range(6):
        if page.locator("#confirm-move:enabled").count():
            break
        pickable = page.locator("svg .pickable")
        if pickable.count():
            pickable.first.click()
        else:
            page.locator("#choices button.choice").first.click()
    page.locator("#confirm-move").scroll_into_view_if_needed()
    where = page.evaluate("window.scrollY")
    assert where > 0
    with page.expect_navigation():
        page.click("#confirm-move")
    page.wait_for_selector("#undo")
    assert kept_or_at_the_end(page, where)
    page.evaluate("window.scrollTo(0, 120)")
    page.locator("#undo").scroll_into_view_if_needed()
    with page.expect_navigation():
        page.click("#undo")
    page.wait_for_selector("#confirm-move")
    first = page.evaluate(FIRST_TARGET)
    assert first["inside"], first


def kept_or_at_the_end(page, where: int) -> bool:
    """The page is where it was, or as near as its new length lets it be (after a move the
    move panel is gone and the page may end sooner)."""
    now, end = page.evaluate(
        "[window.scrollY, document.documentElement.scrollHeight - window.innerHeight]"
    )
    return abs(now - where) <= 2 or (now < where and abs(now - end) <= 2)


def test_every_board_target_is_44_px_on_a_phone_for_the_sources(windows, live_server, shoot):
    """At 390 px a tile on a factory is drawn about 19 px wide: the factory (and the centre)
    is the target, and the colour is then a button in the move bar."""
    game, page = game_page(windows, live_server, shoot, "azul", "phone")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('svg .pickable')].map(el => {
          const r = el.getBoundingClientRect();
          return [el.getAttribute('data-pick'), Math.round(r.width), Math.round(r.height)];
        })"""
    )
    assert sizes and all(w >= 44 and h >= 44 for _, w, h in sizes), sizes
    page.locator("svg .pickable").first.click()
    assert page.locator("#choices button.choice").count() >= 1
    assert page.evaluate(IN_VIEW, "#choices")[2]


def test_the_header_fits_one_line_on_a_phone_and_holds_the_players_pages(
    windows, live_server, shoot
):
    alice = make_user("alice")
    page = window_of(windows, live_server, alice, "phone")
    page.goto(f"{live_server.url}/lobby/")
    assert page.evaluate("document.querySelector('header.site').offsetHeight") <= 60
    page.click("#site-menu summary")
    for name in ("/leaderboard/", "/archive/", "/players/me/", "/account/"):
        assert page.locator(f"#site-menu a[href='{name}']").is_visible(), name
    assert page.locator("#moderation-link").count() == 0
    shoot(page, "header-menu-phone")


def test_unread_chat_shows_at_the_top_of_a_phone_screen(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, "azul")
    page = window_of(windows, live_server, alice, "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    chat_post(game=game, user=bob, text="Good luck!")
    page.wait_for_selector("#unread-top:not([hidden])", timeout=15000)
    assert page.evaluate(IN_VIEW, "#unread-top")[2]
    assert "1" in page.inner_text("#unread-top")


def test_the_lobby_updates_itself(windows, live_server, monkeypatch):
    monkeypatch.setattr(views, "LOBBY_POLL_MILLISECONDS", 500)
    alice, bob = make_user("alice"), make_user("bob")
    page = window_of(windows, live_server, alice, "phone")
    page.goto(f"{live_server.url}/lobby/")
    game = game_create(creator=bob, game="miyabi", players=2)
    page.wait_for_selector(f"#lobby-games a[href='/games/{game.pk}/']", timeout=15000)
    assert not page.problems


def test_the_replay_steps_in_place_with_its_controls_in_view_on_a_phone(
    windows, live_server, shoot
):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, "azul")
    play_moves(game, (alice, bob), 4)
    page = window_of(windows, live_server, alice, "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=99999")
    last = int(page.get_attribute("#replay", "data-index"))
    moments = page.evaluate("JSON.parse(document.getElementById('replay').dataset.moments)")
    # The address names the step shown.
    assert page.url.endswith(f"?at={moments[-1]}")
    page.evaluate("window.marker = 'same page'")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(IN_VIEW, "#previous")[2]
    page.click("#previous")
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.index === '{last - 1}'"
    )
    assert page.url.endswith(f"?at={moments[-2]}")
    assert f"step {last - 1} of {last}" in page.inner_text("#position")
    assert page.evaluate("window.marker") == "same page"  # no full page load
    assert page.evaluate(IN_VIEW, "#next")[2]
    page.go_back()
    page.wait_for_function(f"() => document.getElementById('replay').dataset.index === '{last}'")
    page.screenshot(path="var/screenshots/viewport-replay-phone.png")
    assert not page.problems
