"""Planning a line by clicking (conditional moves, issue 32) in the real browser, at phone
(390×844) and desktop (1280×900) sizes: from "Plan your answers" the waiting player opens
the analysis board, clicks the move they expect from the other player and their own
answer on the boards, adds the line, and when the other player plays that move the answer
is played from the plan."""

import pytest

from games import repository
from games.models import Plan
from games.services.moves import move_submit
from tests.games.test_services_plans import played
from tests.web.test_browser_pages import check_page, window_of
from tests.web.test_browser_plans import planning_game
from tests.web.test_browser_play import click_a_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_waiting_player_plans_a_line_by_clicking_and_its_answer_is_played(
    windows, live_server, shoot, size, monkeypatch
):
    game, mover, planner = planning_game(monkeypatch)

    page = window_of(windows, live_server, planner, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    with page.expect_navigation():
        page.click("#plan-by-clicking")
    assert "No move yet" in page.locator("#plan-board-line").inner_text()
    assert page.locator("#plan-add").count() == 0
    check_page(page, shoot, f"plan-board-start-{size}")

    theirs = click_a_move(page)
    assert page.locator("#plan-board-line").inner_text() == f"they: {theirs}"
    # A line ending with their move answers nothing: it cannot be added yet.
    assert page.locator("#plan-add").count() == 0
    check_page(page, shoot, f"plan-board-theirs-{size}")

    mine = click_a_move(page)
    assert page.locator("#plan-board-line").inner_text() == f"they: {theirs} → you: {mine}"
    check_page(page, shoot, f"plan-board-answer-{size}")
    with page.expect_navigation():
        page.click("#plan-add")
    assert "Your plan is kept. Nobody else can see it." in page.locator("#messages").inner_text()
    assert Plan.objects.get(game=game).lines == [[theirs, mine]]
    shown = page.locator("#plan-lines .plan-line").first.inner_text()
    assert f"they: {theirs}" in shown and f"you: {mine}" in shown

    move_submit(game=game, user=mover, move=theirs)
    page.wait_for_selector("#part-moves >> text=played from their plan", timeout=10000)
    assert played(game)[-2:] == [(theirs, f"user:{mover.pk}"), (mine, f"plan:{planner.pk}")]
    assert repository.game_table(game).to_move() == game.seats.get(user=mover).position
    assert not page.problems
