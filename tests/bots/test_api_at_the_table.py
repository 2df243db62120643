"""Playing against the computer through the API (issue 15): the person asks for the legal
moves when it is their turn; the bot's moves come from its task (run here in the test, as
the worker would), and the record names the bot."""

import pytest

from games import tasks
from tests.games.api_helpers import client_for, export_lines, post, url

pytestmark = pytest.mark.django_db

MOVES_AT_MOST = 400


def test_a_bot_seat_completes_a_game_with_a_person_over_the_api(alice):
    client = client_for(alice)
    created = post(client, "/api/games/", {"game": "miyabi", "players": 2, "bots": ["easy"]})
    assert created.status_code == 201, created.json()
    game = created.json()
    assert game["status"] == "active"
    assert {"player": "Computer (easy)", "bot": "easy"}.items() <= next(
        seat for seat in game["seats"] if seat["bot"]
    ).items()
    mine = game["you"]["seat"]
    for _ in range(MOVES_AT_MOST):
        game = client.get(url(game["id"])).json()
        if game["status"] != "active":
            break
        if game["to_move"] == mine:
            offered = client.get(url(game["id"], "legal-moves")).json()
            body = {"move": offered["moves"][0]["move"], "expected_seq": offered["last_seq"]}
            assert post(client, url(game["id"], "moves"), body).status_code == 201
        else:
            assert tasks.bot_move(game["id"]) >= 1
    assert game["status"] == "finished"
    record = export_lines(client.get(url(game["id"], "export")))
    assert {seat["player"] for seat in record[0]["seats"]} == {"Alice", "Computer (easy)"}
    assert any(line.get("actor") == "bot:easy" for line in record[1:])


@pytest.mark.parametrize(
    "body",
    [
        {"bots": ["grandmaster"]},
        {"bots": ["easy", "easy"]},
        {"timeout_bot": "hard"},
        {"timeout_policy": "bot", "timeout_bot": "genius"},
    ],
)
def test_the_api_says_which_bot_levels_are_accepted(alice, body):
    response = post(client_for(alice), "/api/games/", {"game": "azul", "players": 2, **body})
    assert response.status_code == 400
    assert any(word in str(response.json()) for word in ("easy", "free seat", "timeout_policy"))


def test_the_api_opens_a_game_whose_timeouts_a_bot_plays(alice):
    body = {"game": "azul", "players": 2, "timeout_policy": "bot", "timeout_bot": "hard"}
    response = post(client_for(alice), "/api/games/", body)
    assert response.status_code == 201
    assert (response.json()["timeout_policy"], response.json()["timeout_bot"]) == ("bot", "hard")
