"""A whole game of each kind played on the text table against a computer player (issue 56),
as a player without sight plays it: only the keyboard drives the page, and only the
accessibility tree is read (roles, names, the live region's words): never a CSS selector.
The questions are asked, moves are typed in notation or chosen from the list in words, and
the computer's moves are heard from the polite live region."""

import time

import pytest
from playwright.sync_api import expect

from games import streams
from games.models import Game
from games.selectors.access import seat_of
from games.services import bots
from games.services.tables import game_create
from tests.conftest import make_user
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUESTIONS = ["h", "d", "b", "b 2", "s", "l", "t", "m"]


def ask(page, question: str) -> str:
    """A question typed in the box and sent with Enter: the live region's answer."""
    box = page.get_by_role("textbox", name="A move in notation, or a question (h for help)")
    box.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type(question)
    page.keyboard.press("Enter")
    status = page.get_by_role("status", name="What happened")
    page.wait_for_function("(el) => el.textContent.trim().length > 0", arg=status.element_handle())
    return status.inner_text()


def computer_answers(game, alice) -> None:
    """The computer plays until it is alice's turn or the game is over (the queued tasks
    run nowhere here: the test plays them as the worker would)."""
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.to_move == seat_of(game, alice).position:
            return
        bots.bot_move(game_id=game.pk)


def play_by_keyboard(page, turn: int) -> None:
    """One move: on even turns the list's first move typed in notation, on odd ones the
    list's move chosen with the arrow keys and played with its button."""
    moves = page.get_by_role("combobox", name="legal move")
    first = moves.get_by_role("option").first.inner_text()
    with page.expect_navigation():
        if turn % 2 == 0:
            notation = first[first.rindex("(") + 1 : -1]
            box = page.get_by_role("textbox", name="A move in notation, or a question")
            box.focus()
            page.keyboard.type(notation)
            page.keyboard.press("Enter")
        else:
            moves.focus()
            page.keyboard.press("End")
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")


@pytest.mark.parametrize("game_name", ["azul", "summer-pavilion", "miyabi"])
def test_a_whole_game_on_the_text_table_by_keyboard_hearing_the_computer(
    settings, windows, live_server, game_name
):
    settings.NEWS_STREAM_IN_THREADS = True
    alice = make_user("alice")
    game = game_create(creator=alice, game=game_name, players=2, bots=["easy"])
    computer_answers(game, alice)
    page = window_of(windows, live_server, alice, "desktop")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Text table, for screen readers").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    for question in QUESTIONS:
        assert ask(page, question), question
    assert "Factory" in ask(page, "f 1") or game_name == "miyabi"
    # Understood (where it lies, or that it lies nowhere: the deal decides).
    assert "No such place" not in ask(page, "w " + ("maple" if game_name == "miyabi" else "b"))
    if game.to_move == seat_of(game, alice).position:
        option = page.get_by_role("combobox", name="legal move").get_by_role("option").first
        move = option.inner_text()[option.inner_text().rindex("(") + 1 : -1]
        assert "at once" in ask(page, f"? {move.lower()}")
    started, heard, turns, slowest = time.monotonic(), 0, 0, 0.0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        page.get_by_role("heading", name="Your move, or a question").wait_for()
        play_by_keyboard(page, turns)
        turns += 1
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        told = game.last_seq
        computer_answers(game, alice)
        if game.last_seq != told:
            answered = time.monotonic()
            status = page.get_by_role("status", name="What happened")
            page.wait_for_function(
                "(el) => /Computer/.test(el.textContent)", arg=status.element_handle(), timeout=3000
            )
            slowest = max(slowest, time.monotonic() - answered)
            heard += 1
            if game.status == Game.Status.ACTIVE:
                page.get_by_role("heading", name="Your move, or a question").wait_for(timeout=3000)
    expect(page.get_by_role("region", name="Whose turn")).to_contain_text("Game over")
    print(
        f"{game_name}: {turns} moves by keyboard, {heard} answers heard, "
        f"{time.monotonic() - started:.1f} s, each heard within {slowest:.2f} s"
    )
    assert heard > turns // 2  # a move that ends a round may give the turn back at once
    assert not page.problems
    page.close()
    time.sleep(streams.THREAD_PING_SECONDS + 1)
