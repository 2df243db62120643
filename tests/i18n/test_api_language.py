"""The API answers in the language each request asks for; its codes stay the same."""

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "there is no game 999999"),
        ("pt-BR", "não existe a partida 999999"),
        ("es", "no existe la partida 999999"),
    ],
)
def test_a_missing_game_is_said_in_the_requested_language(language, message):
    answer = Client().get("/api/games/999999/", headers={"accept-language": language})
    assert answer.status_code == 404
    assert answer.json() == {"code": "not_found", "message": message}


@pytest.mark.django_db
def test_a_missing_player_is_said_in_polish():
    answer = Client().get("/api/players/999999/", headers={"accept-language": "pl"})
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
    assert answer.json()["message"] == "nie ma gracza 999999"
