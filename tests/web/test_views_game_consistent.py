"""The game page reads one position (issue 41): a computer player's move committed by the
worker while the page is being built never breaks it ("Something went wrong on our side"
after Confirm, ``KeyError: 'number'`` in the takeback choices)."""

import threading

import pytest
from django.db import connection

from games.models import Game
from games.selectors.seats import actions_of
from games.services.bots import bot_move
from games.services.moves import move_submit
from games.services.tables import game_create
from tests.games.helpers import legal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def no_broker(monkeypatch):
    """No broker: the computer players' moves are played here, by the test's own worker."""
    for module in ("reactions", "analysis"):
        monkeypatch.setattr(f"games.services.{module}.send_quickly", lambda *a, **kw: False)


def against_the_computer(alice) -> Game:
    game = game_create(creator=alice, game="azul", players=4, bots=["easy"] * 3)
    game.refresh_from_db()
    return game


def alice_moves_until_the_bots_owe(game: Game, alice) -> None:
    """Alice plays until a computer player is to move (the game may begin with them)."""
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE and game.seats.get(position=game.to_move).user:
        move_submit(game=game, user=alice, move=legal(game)[0])
        game.refresh_from_db()


def test_a_move_committed_while_the_page_is_built_is_not_on_that_page(
    client, alice, no_broker, monkeypatch
):
    game = against_the_computer(alice)
    alice_moves_until_the_bots_owe(game, alice)
    seen = game.last_seq

    def a_bot_moves_meanwhile(*args, **kwargs):
        # The worker commits the computer player's move between the page's reads.
        monkeypatch.setattr("games.presenters.game_page.actions_of", actions_of)
        assert bot_move(game_id=game.pk)
        return actions_of(*args, **kwargs)

    monkeypatch.setattr("games.presenters.game_page.actions_of", a_bot_moves_meanwhile)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert page.context["table"].last_seq == seen
    history = page.context["history"]
    assert max(entry["seq"] for entry in history) <= seen
    moves = [entry for entry in history if entry["kind"] == "move"]
    assert all("number" in entry and "taken back" not in entry["words"] for entry in moves)
    live = client.get(f"/games/{game.pk}/live", {"seq": 0, "chat": 0})
    assert live.status_code == 200
    game.refresh_from_db()
    assert game.last_seq > seen


def test_pages_built_while_a_worker_plays_the_computer_players_never_fail(client, alice, no_broker):
    game = against_the_computer(alice)
    client.force_login(alice)
    stop = threading.Event()
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            while not stop.is_set():
                bot_move(game_id=game.pk)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    answers = []
    for _ in range(12):
        alice_moves_until_the_bots_owe(game, alice)
        if game.status != Game.Status.ACTIVE:
            break
        stop.clear()
        thread = threading.Thread(target=worker)
        thread.start()
        try:
            while game.seats.get(position=game.to_move).user is None:
                answers.append(client.get(f"/games/{game.pk}/").status_code)
                answers.append(client.get(f"/games/{game.pk}/live", {"seq": 0}).status_code)
                game.refresh_from_db()
        finally:
            stop.set()
            thread.join()
    assert not failures
    assert len(answers) > 24
    assert set(answers) == {200}
