"""Calling the REST API in tests: a client per user, and the moves of a game through it."""

import json
import random

from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from games.models import Game
from games.selectors.access import MODERATORS_GROUP
from tests.conftest import make_user
from tests.games.helpers import seated


def client_for(user=None) -> APIClient:
    """An API client signed in as ``user`` (anonymous without one)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def staff_user():
    return make_user("stella", is_staff=True)


def moderator_user():
    user = make_user("maud", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


def url(game: Game | int, action: str = "") -> str:
    game_id = game.pk if isinstance(game, Game) else game
    return f"/api/games/{game_id}/" + (f"{action}/" if action else "")


def post(client: APIClient, path: str, body: dict | None = None, **headers):
    return client.post(path, body or {}, format="json", headers=headers or None)


def mover(game: Game):
    """The user whose turn it is."""
    game.refresh_from_db()
    return seated(game)[game.to_move]


def legal_moves(client: APIClient, game: Game) -> dict:
    response = client.get(url(game, "legal-moves"))
    assert response.status_code == 200, response.json()
    return response.json()


def play_move(game: Game, chooser: random.Random | None = None, **headers):
    """The player to move asks the API for the legal moves and plays one of them."""
    client = client_for(mover(game))
    offered = legal_moves(client, game)
    moves = [move["move"] for move in offered["moves"]]
    move = chooser.choice(moves) if chooser else moves[0]
    body = {"move": move, "expected_seq": offered["last_seq"]}
    return post(client, url(game, "moves"), body, **headers)


def export_lines(response) -> list[dict]:
    return [json.loads(line) for line in response.content.decode().splitlines()]
