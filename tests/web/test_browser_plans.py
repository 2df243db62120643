"""Planning answers on the game page (conditional moves, issue 32) in the real browser, at
phone (390×844) and desktop (1280×900) sizes: the "Plan your answers" card of the player
who waits, a line refused with what was wrong beside it, a line kept and shown with theirs
and yours told apart, a line deleted; the other player's page shows no plan."""

import pytest

from games import repository
from games.models import Plan
from tests.conftest import make_user
from tests.games.test_services_plans import factory_move, legal_after
from tests.web.helpers import player_to_move, started_game
from tests.web.test_browser_pages import check_page, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_waiting_player_plans_a_line_on_the_game_page(windows, live_server, shoot, size):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game="azul")
    mover = player_to_move(game, alice, bob)
    planner = bob if mover == alice else alice
    table = repository.game_table(game)
    theirs = factory_move(
        [table.engine.format(c) for c in table.engine.legal_commands(table.state)]
    )
    mine = factory_move(legal_after(game, theirs), theirs)

    page = window_of(windows, live_server, planner, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#plan-title").inner_text() == "Plan your answers"
    page.fill("#plan-text", f"{theirs}; F9 purple 2")
    with page.expect_navigation():
        page.click("#plan-save")
    error = page.locator("#plan-error").inner_text()
    assert error.startswith('Line 1, move 2: cannot read "F9 purple 2"')
    assert page.input_value("#plan-text") == f"{theirs}; F9 purple 2"
    check_page(page, shoot, f"plan-refused-{size}")

    page.fill("#plan-text", f"{theirs}; {mine}\n{theirs}; {mine}")
    with page.expect_navigation():
        page.click("#plan-save")
    assert "Your plan is kept. Nobody else can see it." in page.locator("#messages").inner_text()
    shown = page.locator("#plan-lines .plan-line").first.inner_text()
    assert f"they: {theirs}" in shown and f"you: {mine}" in shown
    assert Plan.objects.get(game=game).lines == [[theirs, mine]]
    check_page(page, shoot, f"plan-kept-{size}")

    other = window_of(windows, live_server, mover, size)
    other.goto(f"{live_server.url}/games/{game.pk}/")
    assert other.locator("#plan").count() == 0
    assert mine not in other.locator("#plan-lines").all_inner_texts()

    with page.expect_navigation():
        page.click(".plan-line-delete")
    assert not Plan.objects.filter(game=game).exists()
    assert page.locator("#plan-lines").count() == 0
