"""A newcomer's first script against the API (issue 53, found from outside): signed up by the
emailed link, with a token from the account page, they open a game against the computer
and guess a field's name. The API refused nothing and opened a game waiting for a second
person; it says now which field it does not know and which it accepts."""

import pytest

from tests.web.test_api_tokens import account_post, api_with, new_key, signed_up_by_link

pytestmark = pytest.mark.django_db


def newcomers_api():
    client = signed_up_by_link("dora@example.com")
    return api_with(new_key(account_post(client, "/account/tokens/", {"name": "my script"})))


def test_a_misspelt_field_of_a_new_game_is_refused_naming_the_accepted_ones():
    api = newcomers_api()

    guessed = api.post("/api/games/", {"game": "azul", "players": 2, "computers": 1}, format="json")

    assert guessed.status_code == 400
    refusal = guessed.json()
    assert refusal["code"] == "invalid_input" and refusal["field"] == "computers"
    assert refusal["message"].startswith("computers: unknown field; accepted: game, players,")
    assert "bots" in refusal["message"]
    assert api.get("/api/games/").json()["count"] == 0, "no game opened by the guess"

    meant = api.post("/api/games/", {"game": "azul", "players": 2, "bots": ["easy"]}, format="json")
    assert meant.status_code == 201 and meant.json()["status"] == "active"


def test_a_misspelt_field_of_a_new_tournament_is_refused():
    api = newcomers_api()

    guessed = api.post(
        "/api/tournaments/",
        {"name": "Cup", "game": "azul", "format": "swiss", "per_game": 2, "round": 3},
        format="json",
    )

    assert guessed.status_code == 400
    assert guessed.json()["field"] == "round"
    assert "rounds" in guessed.json()["message"]
    assert api.get("/api/tournaments/").json()["count"] == 0
