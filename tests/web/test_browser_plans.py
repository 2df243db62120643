"""Planning answers on the game page (conditional moves, issue 32) in the real browser, at
phone (390×844) and desktop (1280×900) sizes: the "Plan your answers" card of the player
who waits, a line refused with what was wrong beside it, a line kept and shown with theirs
and yours told apart, a line deleted; the other player's page shows no plan; a line
answered while the page is open follows without a reload."""

import pytest

from games import repository, tasks
from games.models import Plan
from games.services.moves import move_submit
from games.services.plans import plan_replace
from tests.conftest import make_user
from tests.games.helpers import legal
from tests.games.test_services_plans import factory_move, legal_after
from tests.web.helpers import player_to_move, started_game
from tests.web.test_browser_pages import check_page, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def planning_game(monkeypatch):
    """An Azul game of alice and bob, its player to move and the other, who plans; a plan's
    move is played at once (its task run in the request instead of by a worker)."""
    monkeypatch.setattr(
        "games.services.plan_following.send_quickly",
        lambda name, args, **kw: tasks.plan_move(*args) is not None,
    )
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, game="azul")
    mover = player_to_move(game, alice, bob)
    return game, mover, bob if mover == alice else alice


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_waiting_player_plans_a_line_on_the_game_page(
    windows, live_server, shoot, size, monkeypatch
):
    game, mover, planner = planning_game(monkeypatch)
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

    with page.expect_navigation():
        page.click(".plan-line-delete")
    assert not Plan.objects.filter(game=game).exists()
    assert page.locator("#plan-lines").count() == 0

    # Planned again, then answered while the page is open: it follows without a reload.
    plan_replace(game=game, user=planner, lines=[[theirs, mine]])
    page.reload()
    assert page.locator("#plan-lines .plan-line").count() == 1
    move_submit(game=game, user=mover, move=theirs)
    page.wait_for_selector("#part-moves >> text=played from their plan", timeout=10000)
    page.wait_for_selector("#plan-lines", state="detached", timeout=10000)
    assert page.locator("#plan-title").is_visible()
    # A plan being written is left alone by the live page; on the player's turn it hides.
    page.fill("#plan-text", "a draft")
    move_submit(game=game, user=mover, move=legal(game)[0])
    page.wait_for_selector("#move-panel", timeout=10000)
    assert page.locator("#plan").is_hidden() and page.input_value("#plan-text") == "a draft"
    assert not page.problems


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_dropped_plan_is_said_live_until_seen(windows, live_server, shoot, monkeypatch, size):
    game, mover, planner = planning_game(monkeypatch)
    expected = factory_move(legal(game))
    answer = factory_move(legal_after(game, expected), expected)
    plan_replace(game=game, user=planner, lines=[[expected, answer]])
    page = window_of(windows, live_server, planner, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")

    played = next(move for move in legal(game) if move != expected)
    move_submit(game=game, user=mover, move=played)

    note = page.locator("#plan-dropped")
    note.wait_for(timeout=15_000)
    assert "which none of your lines expected" in note.inner_text()
    check_page(page, shoot, f"plan-dropped-{size}")
    page.get_by_role("button", name="Got it").click()
    page.wait_for_load_state()
    assert page.locator("#plan-dropped").count() == 0
