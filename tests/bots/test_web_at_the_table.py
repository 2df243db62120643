"""Playing against the computer on the website (issue 15): the new-game form seats the
bots, the person moves on the game page, the bot's moves come from its task (run here as
the worker would), and the pages and the replay name the bot."""

from datetime import timedelta

import pytest

from games import repository, tasks
from games.models import Game
from games.selectors.moves import legal_moves_of
from games.services.sweep import sweep
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

MOVES_AT_MOST = 400


def test_a_bot_seat_completes_a_game_with_a_person_on_the_website(client, alice):
    client.force_login(alice)
    created = client.post(
        "/games/new/",
        {"game": "azul", "players": 2, "time_control": "none", "bots": 1, "bot_level": "easy"},
    )
    game = Game.objects.get()
    assert created.status_code == 302 and created.url == f"/games/{game.pk}/"
    mine = game.seats.get(user=alice).position
    for _ in range(MOVES_AT_MOST):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if game.to_move == mine:
            move = legal_moves_of(repository.game_table(game))[0]["move"]
            body = {"move": move, "expected_seq": game.last_seq}
            assert client.post(f"/games/{game.pk}/move/", body).status_code == 302
        else:
            assert tasks.bot_move(game.pk) >= 1
    assert game.status == Game.Status.FINISHED
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Computer (easy)" in page
    assert "Computer (easy)" in client.get(f"/games/{game.pk}/replay/").content.decode()


def test_the_new_game_form_offers_the_computer_and_the_bot_timeout(client, alice):
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert 'name="bots"' in page and 'name="bot_level"' in page and 'name="timeout_bot"' in page
    client.post(
        "/games/new/",
        {
            "game": "azul",
            "players": 3,
            "bots": 1,
            "bot_level": "hard",
            "time_control": "per_move",
            "days": 1,
            "timeout_policy": "bot",
            "timeout_bot": "easy",
        },
    )
    game = Game.objects.get()
    assert game.status == Game.Status.OPEN, "one seat is still open for a person"
    assert (game.timeout_policy, game.timeout_bot) == ("bot", "easy")
    assert list(game.seats.exclude(bot="").values_list("bot", flat=True)) == ["hard"]


def test_a_bot_that_took_over_a_timed_out_turn_shows_in_the_replay(client, alice):
    bob = make_user("bob")
    client.force_login(alice)
    client.post(
        "/games/new/",
        {
            "game": "azul",
            "players": 2,
            "time_control": "per_move",
            "days": 1,
            "timeout_policy": "bot",
            "timeout_bot": "easy",
            "invite": bob.email,
        },
    )
    game = Game.objects.get()
    client.force_login(bob)
    client.post(f"/games/{game.pk}/join/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert sweep(now=game.deadline + timedelta(minutes=1))["bot_moves"] == 1
    replay = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "Computer (easy)" in replay
