"""Playing hours through the REST API (issue 32): the option and each player's hours when
opening and joining a game, what the game says of them, and clear errors for bad hours."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services.accounts import player_preferences_set
from tests.games.api_helpers import client_for, post, url
from tests.games.helpers import open_with_playing_hours

pytestmark = pytest.mark.django_db


def opening_later() -> tuple[dict, datetime]:
    """Hours that open about an hour from now (UTC, whole minutes) and last eight hours."""
    opening = (timezone.now() + timedelta(hours=1, minutes=1)).astimezone(UTC)
    opening = opening.replace(second=0, microsecond=0)
    return {"start": f"{opening:%H:%M}", "end": f"{opening + timedelta(hours=8):%H:%M}"}, opening


def test_a_game_with_playing_hours_says_each_seats_hours_and_when_the_clock_runs_again(alice, bob):
    player_preferences_set(user=bob, time_zone="Europe/Warsaw")
    hours, opening = opening_later()
    created = post(
        client_for(alice),
        "/api/games/",
        {
            "game": "azul",
            "players": 2,
            "time_control": {"kind": "per_move", "days": 1},
            "playing_hours": True,
            "hours": hours,
        },
    )
    assert created.status_code == 201, created.json()
    assert created.json()["time_control"]["playing_hours"] is True
    game = Game.objects.get(pk=created.json()["id"])
    joined = post(client_for(bob), url(game, "join"), {"hours": {"start": "20:00", "end": "04:00"}})
    assert joined.status_code == 200, joined.json()
    body = joined.json()
    by_zone = {seat_hours["zone"]: seat_hours for seat_hours in body["playing_hours"]}
    assert by_zone["UTC"] == {**hours, "zone": "UTC"}
    assert by_zone["Europe/Warsaw"] == {"start": "20:00", "end": "04:00", "zone": "Europe/Warsaw"}
    if body["playing_hours"][body["to_move"]]["zone"] == "UTC":
        assert datetime.fromisoformat(body["resting_until"]) == opening
        assert datetime.fromisoformat(body["deadline"]) == opening + timedelta(hours=8)


def test_a_game_without_playing_hours_says_none(alice):
    created = post(client_for(alice), "/api/games/", {"game": "azul", "players": 2})
    assert created.json()["playing_hours"] == []
    assert created.json()["resting_until"] is None


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"hours": {"start": "09:00", "end": "09:00"}}, "are empty"),
        ({"hours": {"start": "9", "end": "17:00"}}, "is not a time of day"),
        ({"hours": {"from": "09:00", "to": "17:00"}}, 'hours are {"start": "HH:MM"'),
        ({"hours": {"start": "09:00", "end": "10:30"}}, "too short"),
        ({"time_control": {"kind": "none"}}, "without a time control"),
    ],
)
def test_bad_playing_hours_get_a_400_saying_what_would_be_accepted(alice, body, says):
    request = {
        "game": "azul",
        "players": 2,
        "time_control": {"kind": "bank", "bank_hours": 24, "increment_hours": 4, "cap_hours": 48},
        "playing_hours": True,
        **body,
    }
    response = post(client_for(alice), "/api/games/", request)
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid_hours", "invalid_playing_hours")
    assert says in response.json()["message"]


def test_joining_with_bad_hours_leaves_the_seat_open(alice, bob):
    game = open_with_playing_hours(alice)
    response = post(client_for(bob), url(game, "join"), {"hours": {"start": "x", "end": "y"}})
    assert response.status_code == 400
    assert "is not a time of day" in response.json()["message"]
    assert game.seats.filter(user=bob).count() == 0


def test_the_schema_describes_playing_hours(alice):
    schema = client_for(alice).get("/api/schema/", {"format": "json"}).json()
    create = schema["components"]["schemas"]["GameCreate"]["properties"]
    assert "playing_hours" in create and "hours" in create
    assert "hours" in schema["components"]["schemas"]["Join"]["properties"]
    detail = schema["components"]["schemas"]["GameDetail"]["properties"]
    assert "resting_until" in detail and "playing_hours" in detail


@pytest.mark.parametrize("start", ["٠٩:٠٠", "０９:００", "۰۹:۰۰"])
def test_hours_in_other_digits_than_ascii_are_refused_saying_what_is_accepted(alice, bob, start):
    game = open_with_playing_hours(alice)
    response = post(client_for(bob), url(game, "join"), {"hours": {"start": start, "end": "22:00"}})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_hours"
    assert "write HH:MM with the digits 0 to 9" in response.json()["message"]
    assert game.seats.filter(user=bob).count() == 0
