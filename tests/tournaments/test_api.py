"""The tournaments' REST API: lists, create, detail with standings and tie-breaks, join,
withdraw, remove, start; clear 400, 401, 403, 404 and 409 answers; in the OpenAPI
schema."""

import pytest

from games.models import Game
from tests.games.api_helpers import client_for, moderator_user, post
from tests.tournaments.test_services import players, rounds_begun

pytestmark = pytest.mark.django_db

SWISS = {"name": "Friday Swiss", "format": "swiss", "game": "azul", "per_game": 2, "rounds": 2}


def created(user, **body) -> dict:
    response = post(client_for(user), "/api/tournaments/", {**SWISS, **body})
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_tournament_is_created_joined_started_and_shows_its_standings():
    alice, bob, carol, dan = players(4)
    tournament = created(alice)
    assert tournament["status"] == "registration" and tournament["can_start"]
    assert tournament["settings"]["points"] == [1, 0]
    path = f"/api/tournaments/{tournament['id']}/"
    for user in (alice, bob, carol, dan):
        assert post(client_for(user), path + "join/").status_code == 200
    listed = client_for().get("/api/tournaments/?status=open").json()
    assert [t["id"] for t in listed["results"]] == [tournament["id"]]
    assert listed["results"][0]["players"] == 4
    started = post(client_for(alice), path + "start/").json()
    assert started["status"] == "running" and started["current_round"] == 1
    assert [len(t["players"]) for t in started["rounds"][0]["tables"]] == [2, 2]
    rounds_begun()
    mine = client_for(bob).get(path).json()
    assert mine["my_game"] == mine["rounds"][0]["tables"][0]["game"]
    assert Game.objects.get(pk=mine["my_game"]).status == Game.Status.ACTIVE
    assert mine["tie_breaks"] == ["buchholz", "sonneborn_berger"]
    assert [line["points"] for line in mine["standings"]] == [0, 0, 0, 0]
    running = client_for().get("/api/tournaments/?status=running").json()
    assert running["count"] == 1


def test_bad_settings_are_a_400_naming_what_is_accepted():
    (alice,) = players(1)
    response = post(
        client_for(alice), "/api/tournaments/", {**SWISS, "format": "knockout", "per_game": 3}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "knockout_for_two"
    response = post(client_for(alice), "/api/tournaments/", {**SWISS, "rounds": 0})
    assert response.status_code == 400 and "rounds" in response.json()["message"]
    response = post(
        client_for(alice), "/api/tournaments/", {**SWISS, "entry_closes": "2001-01-01T00:00:00Z"}
    )
    assert response.json()["code"] == "invalid_entry_closes"
    response = client_for().get("/api/tournaments/?status=soon")
    assert response.status_code == 400 and response.json()["field"] == "status"


def test_who_may_do_what_is_a_401_403_404_or_409():
    alice, bob, carol = players(3)
    tournament = created(alice)
    path = f"/api/tournaments/{tournament['id']}/"
    assert post(client_for(), path + "join/").status_code == 401
    assert post(client_for(bob), path + "join/").status_code == 200
    twice = post(client_for(bob), path + "join/")
    assert twice.status_code == 409 and twice.json()["code"] == "already_registered"
    assert post(client_for(bob), path + "start/").status_code == 403
    removal = post(client_for(carol), path + "withdraw/", {"player": bob.pk})
    assert removal.status_code == 403 and removal.json()["code"] == "not_organiser"
    assert post(client_for(carol), path + "withdraw/").status_code == 409
    too_few = post(client_for(alice), path + "start/")
    assert too_few.status_code == 409 and too_few.json()["code"] == "too_few_players"
    assert client_for().get("/api/tournaments/999999/").status_code == 404


def test_a_moderator_removes_a_player():
    alice, bob = players(2)
    maud = moderator_user()
    tournament = created(alice)
    path = f"/api/tournaments/{tournament['id']}/"
    post(client_for(bob), path + "join/")
    answer = post(client_for(maud), path + "withdraw/", {"player": bob.pk})
    assert answer.status_code == 200
    assert [p["withdrawn"] for p in answer.json()["players"]] == [True]
    missing = post(client_for(maud), path + "withdraw/", {"player": 999999})
    assert missing.status_code == 400 and missing.json()["field"] == "player"


def test_the_schema_documents_the_tournaments(client):
    schema = client.get("/api/schema/?format=json").json()
    assert {"/api/tournaments/", "/api/tournaments/{tournament_id}/join/"} <= set(schema["paths"])
    assert "Tournament" in schema["components"]["schemas"]
