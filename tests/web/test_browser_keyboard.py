"""The boards by keyboard alone (issue 56, WCAG 2.2's 2.1.1, 2.4.11 and 2.5.7): at 1280 and
390 px, on each game's page, Tab stops once on each board with targets, the arrow keys
reach every target of a board, the target with the focus is on the screen and nothing (the
phone's move bar) covers it, Enter chooses, Escape steps back, and a whole move is made and
confirmed with the keyboard."""

import pytest

from tests.conftest import make_user
from tests.web.helpers import play_moves, player_to_move, started_game
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The focused key's target and whether it is wholly on the screen, above the move bar on a
# narrow screen, with nothing over its middle.
FOCUSED = """() => {
  const key = document.activeElement;
  if (!key || !key.classList || !key.classList.contains('key')) return null;
  const r = key.getBoundingClientRect();
  const panel = document.getElementById('move-panel');
  const bar = panel && window.matchMedia('(max-width: 999px)').matches;
  const bottom = bar ? panel.getBoundingClientRect().top : window.innerHeight;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const target = key.parentNode;
  const svg = key.ownerSVGElement;
  return {key: [...svg.querySelectorAll('.key[role=button]')].indexOf(key),
          board: [...document.querySelectorAll('svg')].indexOf(svg),
          seen: r.top >= -1 && r.bottom <= bottom + 1 && !!hit && target.contains(hit)};
}"""

KEYS = """(board) => document.querySelectorAll('svg')[board]
  .querySelectorAll('.key[role=button]').length"""

FOCUS = """([board, key]) => document.querySelectorAll('svg')[board]
  .querySelectorAll('.key[role=button]')[key].focus()"""


def turn_page(windows, live_server, game_name, size):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game_name)
    play_moves(game, (alice, bob), 1)
    page = window_of(windows, live_server, player_to_move(game, alice, bob), size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("svg .key[role=button]")
    return page


def tab_to_board(page) -> dict:
    """Tab from the top of the page to the first key of a board."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.evaluate("window.scrollTo(0, 0)")
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused:
            return focused
    raise AssertionError("Tab never reached a board")


def reached_by_arrows(page, first: dict) -> tuple[set, list]:
    """Every target of the focused board that the arrow keys reach from ``first`` (each
    target visited is left by each arrow), and those seen covered or off the screen."""
    seen, todo, hidden = {first["key"]}, [first["key"]], []
    while todo:
        key = todo.pop()
        for arrow in ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"):
            page.evaluate(FOCUS, [first["board"], key])
            page.keyboard.press(arrow)
            focused = page.evaluate(FOCUSED)
            assert focused and focused["board"] == first["board"], (key, arrow, focused)
            if not focused["seen"]:
                hidden.append(focused["key"])
            if focused["key"] not in seen:
                seen.add(focused["key"])
                todo.append(focused["key"])
    return seen, hidden


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game_name", ["azul", "summer-pavilion", "miyabi"])
def test_every_target_is_reached_by_tab_and_arrows_chosen_by_enter_and_undone_by_escape(
    windows, live_server, screenshots, game_name, size
):
    page = turn_page(windows, live_server, game_name, size)
    first = tab_to_board(page)
    assert first["seen"], first
    every = set(range(page.evaluate(KEYS, first["board"])))
    reached, hidden = reached_by_arrows(page, first)
    assert reached == every
    assert not hidden, hidden

    page.evaluate(FOCUS, [first["board"], first["key"]])
    page.keyboard.press("Enter")
    assert page.locator("#chosen").inner_text()
    page.screenshot(path=f"{screenshots}/keyboard-{game_name}-{size}.png")
    page.keyboard.press("Escape")
    assert page.locator("#chosen").inner_text() == ""
    assert page.evaluate(FOCUSED), "Escape leaves the keyboard on the board"

    for _ in range(8):
        if page.locator("#confirm-move:enabled").count():
            break
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "confirm-move"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#undo").count() == 1
    assert not page.problems
