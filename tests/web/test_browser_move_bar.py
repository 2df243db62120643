"""The phone's move bar hides no choice (issue 53, items 2 and 3): at 390×844, after each
source of each game is tapped (every factory and the centre of Azul and Summer Pavilion,
every tile of Miyabi's display and then a place for it), every button and link of the bar
lies inside the screen and nothing covers its middle, and what is chosen is said whole."""

import pytest

from tests.conftest import make_user
from tests.web.helpers import play_moves, player_to_move, started_game
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each shown control of the bar: where it is, and whether the element at its middle is it
# (or inside it); and the line saying what is chosen, if it is cut short (where the tiles
# go is its end).
HIDDEN_CONTROLS = """() => {
  const panel = document.getElementById('move-panel');
  const chosen = [...panel.querySelectorAll('.chosen')].filter(el => el.checkVisibility()
    && el.scrollWidth > el.clientWidth + 1).map(el => ['cut: ' + el.textContent.trim()]);
  const shown = [...panel.querySelectorAll('button, summary, a, select, input')]
    .filter(el => el.checkVisibility() && el.type !== 'hidden');
  return chosen.concat(shown.filter(el => {
    const r = el.getBoundingClientRect();
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= window.innerWidth + 0.5
      && r.bottom <= window.innerHeight + 0.5 && r.width >= 1 && r.height >= 1;
    if (!inside) return true;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && (el === hit || el.contains(hit)));
  }).map(el => {
    const r = el.getBoundingClientRect();
    return [(el.textContent || el.id).trim().slice(0, 40), Math.round(r.left), Math.round(r.top),
            Math.round(r.right), Math.round(r.bottom)];
  }));
}"""

SOURCES = "#table-area [data-pick].pickable"


def phone_page(windows, live_server, game_name, moves_first):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game_name)
    play_moves(game, (alice, bob), moves_first)
    page = window_of(windows, live_server, player_to_move(game, alice, bob), "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(SOURCES)
    return page


def hidden_after_each_source(page, name: str, then_place: bool) -> dict:
    """Each source tapped in turn (and, when ``then_place``, its first place on the
    player's board too): the bar's hidden controls at each step, by source."""
    hidden = {}
    count = page.locator(SOURCES).count()
    for index in range(count):
        source = page.locator(SOURCES).nth(index)
        pick = source.get_attribute("data-pick")
        source.click()
        found = page.evaluate(HIDDEN_CONTROLS)
        if then_place and page.locator("figure.mine [data-pick].pickable").count():
            page.locator("figure.mine [data-pick].pickable").first.click()
            found += page.evaluate(HIDDEN_CONTROLS)
        if found:
            hidden[pick] = found
        page.screenshot(path=f"var/screenshots/move-bar-{name}-{index}-phone.png")
        if page.locator("#start-over").is_visible():
            page.click("#start-over")
    return hidden


@pytest.mark.parametrize(
    ("game_name", "moves_first"),
    [("azul", 1), ("summer-pavilion", 1)],
)
def test_after_each_factory_and_the_centre_no_choice_of_the_bar_is_hidden(
    windows, live_server, game_name, moves_first
):
    """One move first, so that the centre holds tiles and is a source too."""
    page = phone_page(windows, live_server, game_name, moves_first)
    sources = page.locator(SOURCES).count()
    hidden = hidden_after_each_source(page, game_name, then_place=False)
    assert sources >= 5
    assert not hidden, hidden
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.problems


def test_after_each_miyabi_tile_and_its_place_no_choice_of_the_bar_is_hidden(windows, live_server):
    page = phone_page(windows, live_server, "miyabi", 2)
    hidden = hidden_after_each_source(page, "miyabi", then_place=True)
    assert not hidden, hidden
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.problems
