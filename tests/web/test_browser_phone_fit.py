"""A game played on a phone (390×844) and on a desktop (1280×900), as a new player found it
(issue 41): when a turn begins, its first target is on the screen wherever the player
left the page; the move bar wraps its choices inside the screen and takes at most two
fifths of it (issue 53: it grows up to show every choice); the replay's controls are one
row; at 1280 px every factory tile is a target of at least 24 px (WCAG 2.2, target size)."""

import pytest

from games import repository
from games.presenters import game_page as presenter
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from tests.conftest import make_user
from tests.web.helpers import play_moves, player_to_move, started_game
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAR_MOST = 844 * 2 // 5
TURNS = 24  # into Summer Pavilion's second round: its placements, then the sources again
LOOKED_AT = 15  # a turn begun after the player read the moves at the end of the page

# The first target of the turn, and whether it lies wholly on the screen (on a narrow one,
# above the move bar at its bottom).
FIRST_TARGET = """() => {
  const el = document.querySelector('[data-pick].pickable');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const panel = document.getElementById('move-panel');
  const bar = panel && window.matchMedia('(max-width: 999px)').matches;
  const free = bar ? panel.getBoundingClientRect().top : window.innerHeight;
  return {pick: el.getAttribute('data-pick'), top: Math.round(r.top),
          bottom: Math.round(r.bottom), inside: r.top >= -1 && r.bottom <= free + 1};
}"""

# The move bar's height and whatever of it reaches beyond the right edge of the screen.
BAR = """() => {
  const panel = document.getElementById('move-panel');
  const beyond = [...panel.querySelectorAll('button, summary, p, div')]
    .filter(el => el.offsetParent !== null)
    .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map(el => el.id || el.textContent.trim().slice(0, 20));
  return {height: Math.round(panel.getBoundingClientRect().height), beyond: beyond,
          sideways: panel.scrollWidth > panel.clientWidth + 1};
}"""


def answered(game, users) -> None:
    """The opponent (the second of ``users``) plays first legal moves until the first is
    to move or the game ends."""
    for _ in range(40):
        game.refresh_from_db()
        if game.status != game.Status.ACTIVE or player_to_move(game, *users) == users[0]:
            return
        legal = legal_moves_of(repository.game_table(game))
        move_submit(game=game, user=users[1], move=legal[0]["move"])


def move_by_taps(page) -> list[dict]:
    """One move made as a player makes it (a tap on the last target on the boards, or on the
    first button when the boards offer none, until Confirm), the bar measured at each step;
    then Confirm."""
    bars = [page.evaluate(BAR)]
    for _ in range(8):
        if page.locator("#confirm-move:enabled").count():
            break
        target = page.locator("[data-pick].pickable")
        if target.count():
            target.last.click()
        else:
            page.locator("#choices button.choice").first.click()
        bars.append(page.evaluate(BAR))
    with page.expect_navigation():
        page.click("#confirm-move")
    return bars


@pytest.mark.parametrize("game_name", ["azul", "summer-pavilion"])
def test_on_a_phone_each_turn_begins_with_its_first_target_on_the_screen_and_the_bar_fits(
    windows, live_server, shoot, monkeypatch, game_name
):
    monkeypatch.setattr(presenter, "POLL_MILLISECONDS", 300)
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game_name)
    page = window_of(windows, live_server, alice, "phone")
    answered(game, (alice, bob))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    begun, bars = [], []
    for turn in range(TURNS):
        page.wait_for_selector("#move-panel", timeout=15000)
        first = page.evaluate(FIRST_TARGET)
        # A turn whose choices are the bar's buttons alone (a Summer Pavilion pass, say)
        # has no target on the boards: the bar is its first thing to tap.
        if first is not None:
            begun.append(first)
        if turn == LOOKED_AT:
            page.screenshot(path=f"var/screenshots/turn-begins-{game_name}-phone.png")
        bars += move_by_taps(page)
        game.refresh_from_db()
        if game.status != game.Status.ACTIVE:
            break
        if turn % 2 and not page.locator("#move-panel").count():
            # While the other player thinks, this one reads the moves at the end of the page.
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        answered(game, (alice, bob))
    shoot(page, f"turns-{game_name}-phone")
    off = [where for where in begun if not where["inside"]]
    assert not off, f"{len(off)} of {len(begun)} turns began off the screen: {off}"
    tall = [bar for bar in bars if bar["height"] > BAR_MOST or bar["beyond"] or bar["sideways"]]
    assert not tall, tall
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.problems


def test_the_replay_controls_are_one_row_on_a_phone(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, "azul")
    play_moves(game, (alice, bob), 12)
    page = window_of(windows, live_server, alice, "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=5")
    rows = page.evaluate(
        """() => {
          const nav = document.getElementById('replay');
          const tops = [...nav.children].filter(el => el.offsetParent !== null)
            .map(el => Math.round(el.getBoundingClientRect().top + el.offsetHeight / 2));
          return {height: Math.round(nav.getBoundingClientRect().height),
                  rows: new Set(tops.map(t => Math.round(t / 10))).size};
        }"""
    )
    page.screenshot(path="var/screenshots/replay-controls-phone.png")
    assert rows["rows"] == 1, rows
    assert rows["height"] <= 70, rows
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#replay .button')].map(el => {
          const r = el.getBoundingClientRect(); return [el.id, r.width, r.height]; })"""
    )
    assert all(w >= 44 and h >= 44 for _, w, h in sizes), sizes
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("game_name", ["azul", "summer-pavilion"])
def test_at_1280_px_each_factory_tile_is_a_target_of_24_px(windows, live_server, shoot, game_name):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game_name)
    page = window_of(windows, live_server, player_to_move(game, alice, bob), "desktop")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("svg .pickable")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#table-area .factory .tile.pickable')].map(el => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return [el.getAttribute('data-pick'), Math.round(r.width * 10) / 10,
                  Math.round(r.height * 10) / 10, !!(hit && el.contains(hit))];
        })"""
    )
    shoot(page, f"factory-targets-{game_name}-desktop")
    assert sizes and all(w >= 24 and h >= 24 and hit for _, w, h, hit in sizes), sizes
