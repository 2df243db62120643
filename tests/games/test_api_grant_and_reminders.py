"""An opponent's "+1 day" and a game's own reminder policy, through the API."""

import pytest

from events import store
from tests.games.api_helpers import client_for, post, url
from tests.games.helpers import started, to_move

pytestmark = pytest.mark.django_db


def test_an_opponent_gives_the_player_to_move_one_more_day(alice, bob):
    game = started("azul", alice, bob, time_control={"kind": "per_move", "days": 3})
    waiting = bob if to_move(game) == alice else alice
    deadline = game.deadline
    response = post(client_for(waiting), url(game, "grant-day"))
    assert response.status_code == 200
    game.refresh_from_db()
    assert (game.deadline - deadline).days == 1
    granted = store.load(game.stream)[-1]
    assert granted.type == "table.TimeGranted" and granted.actor == f"user:{waiting.pk}"


def test_the_player_to_move_cannot_give_themselves_time(alice, bob):
    game = started("azul", alice, bob, time_control={"kind": "per_move", "days": 3})
    response = post(client_for(to_move(game)), url(game, "grant-day"))
    assert response.status_code == 403 and response.json()["code"] == "own_turn"


def test_a_game_without_time_control_has_no_day_to_give(alice, bob):
    game = started("azul", alice, bob)
    waiting = bob if to_move(game) == alice else alice
    response = post(client_for(waiting), url(game, "grant-day"))
    assert response.status_code == 409 and response.json()["code"] == "no_deadline"


def test_a_game_can_be_created_with_its_own_reminder_policy(alice):
    body = {
        "game": "azul",
        "players": 2,
        "time_control": {"kind": "per_move", "days": 2},
        "reminders": {"first_hours": 12, "warning_hours": 6},
    }
    response = post(client_for(alice), "/api/games/", body)
    assert response.status_code == 201
    bad = post(client_for(alice), "/api/games/", {**body, "reminders": {"hourly": 1}})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_reminders"
