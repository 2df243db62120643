"""Every board piece a player can tap is a target of at least 44×44 px on a 390 px phone
(issue 29), in every step of a move of each game, and the element at its centre is the
piece itself: targets do not overlap, and nothing lies over them. Then a Miyabi tile turned
on the board before it is placed."""

import pytest

from games import repository
from games.selectors.access import seat_of
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from tests.conftest import make_user
from tests.web.helpers import choose_its_colour, player_to_move, started_game
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each target scrolled to the middle of the screen (above the move bar), then measured.
TARGETS = """() => [...document.querySelectorAll('svg .pickable')].map(el => {
  el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {pick: el.getAttribute('data-pick'), width: Math.round(r.width * 10) / 10,
          height: Math.round(r.height * 10) / 10, hit: !!(hit && el.contains(hit))};
})"""


# The targets on the screen as it is, none under the move bar.
ALL_IN_VIEW = """() => {
  const bar = document.getElementById('move-panel').getBoundingClientRect().top;
  return [...document.querySelectorAll('svg .pickable')].filter(el => {
    const r = el.getBoundingClientRect();
    return r.top < 0 || r.bottom > bar;
  }).map(el => el.getAttribute('data-pick'));
}"""


def targets(page) -> list[dict]:
    """The board's targets now, each at least 44×44 px and hit at its centre."""
    found = page.evaluate(TARGETS)
    wrong = [t for t in found if t["width"] < 44 or t["height"] < 44 or not t["hit"]]
    assert not wrong, wrong
    return found


def play_until(game, users, wanted: str, most: int = 200) -> None:
    """First legal moves, played through the service, until the player to move may make a
    move of the command type ``wanted``."""
    for _ in range(most):
        table = repository.game_table(game)
        legal = legal_moves_of(table)
        if any(move["command"]["type"] == wanted for move in legal):
            return
        user = player_to_move(game, *users)
        move_submit(game=game, user=user, move=legal[0]["move"])
    raise AssertionError(f"no {wanted} within {most} moves")


def phone_page(windows, live_server, game, users, size: str = "phone"):
    """The game page of the player to move, at 390×844 unless asked."""
    page = window_of(windows, live_server, player_to_move(game, *users), size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("svg .pickable")
    return page


def new_game(windows, live_server, name: str, size: str = "phone", **options):
    """A game of ``name`` between alice and bob, and its page at ``size`` for the player
    to move."""
    users = make_user("alice"), make_user("bob")
    game = started_game(*users, name, **options)
    return game, users, phone_page(windows, live_server, game, users, size)


def tap(page, pick: str) -> None:
    page.locator(f'svg .pickable[data-pick="{pick}"]').click()


def picked_a_colour(page, source: str) -> None:
    """A factory tapped and its first colour chosen: the board offers the places."""
    tap(page, source)
    choose_its_colour(page)
    page.wait_for_selector('svg .pickable[data-pick="line:floor"]')


def test_azul_sources_pattern_lines_and_floor_line_are_44_px_targets_on_a_phone(
    windows, live_server, shoot
):
    game, users, page = new_game(windows, live_server, "azul")
    sources = targets(page)
    assert "src:f0" in {t["pick"] for t in sources}
    picked_a_colour(page, sources[0]["pick"])
    places = targets(page)
    picks = {t["pick"] for t in places}
    assert {"line:floor", "line:0"} <= picks, picks
    assert min(t["height"] for t in places) >= 44
    shoot(page, "hit-areas-azul-phone")
    tap(page, "line:floor")
    assert page.locator("#confirm-move:enabled").count() == 1


def test_on_the_grey_wall_a_phone_tiles_the_wall_by_the_move_bar_buttons(
    windows, live_server, shoot
):
    """A wall column is drawn 30 px wide at 390 px: never a target of its own there; each
    column the tile may go to is a button in the move bar."""
    game, users, page = new_game(windows, live_server, "azul", options={"wall": "grey"})
    play_until(game, users, "PlaceOnWall")
    page = window_of(windows, live_server, player_to_move(game, *users), "phone")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#choices button.choice")
    assert not [t for t in targets(page) if t["pick"].startswith("wall:")]
    page.locator("#choices button.choice").first.click()
    assert page.locator("#confirm-move:enabled").count() == 1


def test_summer_pavilion_tiles_stars_spaces_and_supply_are_44_px_targets_on_a_phone(
    windows, live_server, shoot
):
    game, users, page = new_game(windows, live_server, "summer-pavilion")
    assert targets(page)
    play_until(game, users, "PlaceTile")
    page = phone_page(windows, live_server, game, users)
    beside = [t["pick"] for t in targets(page) if t["pick"].startswith("tile:")]
    assert beside
    for colour in beside:
        tap(page, colour)
        # No scroll between the tile and its place: the board comes into view above the bar.
        assert page.evaluate(ALL_IN_VIEW) == []
        if page.locator("svg .star.pickable").count():
            stars = targets(page)
            assert all(t["pick"].startswith("star:") for t in stars), stars
            tap(page, stars[0]["pick"])
        # The star chosen fills its picture: its spaces are the targets now (unless the
        # colour fits one space only, which is then chosen at once).
        spaces = targets(page)
        if spaces:
            break
        page.click("#start-over")
    assert spaces and all(" sp:" in t["pick"] for t in spaces), spaces
    shoot(page, "hit-areas-summer-pavilion-phone")
    page.locator(f'svg .pickable[data-pick="{spaces[0]["pick"]}"]').click()
    while not page.locator("#confirm-move:enabled").count():
        page.locator("#choices button.choice").first.click()
    play_until(game, users, "ChooseBonusTiles")
    page = phone_page(windows, live_server, game, users)
    supply = targets(page)
    assert supply and all(t["pick"].startswith("bonus:") for t in supply), supply
    shoot(page, "hit-areas-summer-pavilion-supply-phone")


def test_miyabi_displayed_tiles_and_garden_squares_are_44_px_targets_on_a_phone(
    windows, live_server, shoot
):
    game, users, page = new_game(windows, live_server, "miyabi")
    tiles = targets(page)
    labels = page.eval_on_selector_all(
        "svg .display-tile",
        "cards => cards.map(c => c.querySelector('text.label').textContent)",
    )
    assert len(labels) == len(set(labels)) == len(tiles), labels
    tap(page, tiles[0]["pick"])
    squares = targets(page)
    assert squares and all(t["pick"].startswith("sq:") for t in squares)
    shoot(page, "hit-areas-miyabi-phone")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_miyabi_tile_is_turned_on_the_board_and_placed_as_turned(
    windows, live_server, shoot, size
):
    game, users, page = new_game(windows, live_server, "miyabi", size)
    mover = player_to_move(game, *users)
    longer = page.locator('svg .display-tile.pickable:not([data-pick^="tile:1"])').first
    longer.click()
    # A square in the middle of its row: the tile can lie there turned several ways.
    pick = page.get_attribute('svg .square.pickable[data-pick^="sq:c"]', "data-pick")
    square = page.locator(f'svg .square[data-pick="{pick}"]')
    square.click()
    turn = page.locator("#turn-piece")
    assert turn.is_visible()
    first = page.input_value("#move-select")
    said = page.inner_text("#chosen")
    assert "r0" not in said.split("(")[0] and "covers" in said, said
    # The square of the tile being turned is the one target: tapping it again turns the
    # tile; so does the Turn button next to Confirm.
    assert [t["pick"] for t in targets(page)] == [pick]
    square.click()
    second = page.input_value("#move-select")
    assert second != first
    turn.click()
    third = page.input_value("#move-select")
    assert third != second
    assert page.locator("svg .square.preview").count() >= 2
    # A tap on another square of the row moves the tile there, to be turned again.
    other = pick.replace("sq:c", "sq:d")
    page.locator(f'svg .square[data-pick="{other}"]').click()
    moved = page.input_value("#move-select")
    assert moved.split()[1] == other[3:], moved
    page.locator(f'svg .square[data-pick="{other}"]').click()
    turned = page.input_value("#move-select")
    assert turned != moved and turned.split()[1] == other[3:]
    shoot(page, f"miyabi-turned-{size}")
    with page.expect_navigation():
        page.click("#confirm-move")
    table = repository.game_table(game)
    assert table.steps[-1].move == turned
    assert table.steps[-1].seat == seat_of(game, mover).position
    assert not page.problems
