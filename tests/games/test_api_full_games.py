"""Whole games played through the API alone: each player asks for the legal moves when
the game says it is their turn, picks one, and sends it with the seq they saw."""

import random

import pytest

from tests.conftest import make_user
from tests.games.api_helpers import (
    client_for,
    export_lines,
    post,
    url,
)

pytestmark = pytest.mark.django_db

MOVES_AT_MOST = 400


@pytest.mark.parametrize(
    ("game_slug", "players", "options"),
    [
        ("summer-pavilion", 2, {"board": "grey"}),
        ("azul", 3, {}),
        ("miyabi", 2, {}),
    ],
)
def test_a_whole_game_through_the_api(game_slug, players, options):
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")[:players]]
    clients = [client_for(user) for user in users]
    created = post(
        clients[0], "/api/games/", {"game": game_slug, "players": players, "options": options}
    )
    assert created.status_code == 201
    game_id = created.json()["id"]
    for client in clients[1:]:
        assert post(client, url(game_id, "join")).status_code == 200
    seat_client = {client.get(url(game_id)).json()["you"]["seat"]: client for client in clients}
    chooser = random.Random(game_slug)

    detail = clients[0].get(url(game_id)).json()
    moves = 0
    while detail["status"] == "active":
        playing = seat_client[detail["to_move"]]
        offered = playing.get(url(game_id, "legal-moves")).json()
        move = chooser.choice(offered["moves"])["move"]
        body = {"move": move, "expected_seq": offered["last_seq"]}
        played = post(playing, url(game_id, "moves"), body)
        assert played.status_code == 201, played.json()
        moves += 1
        assert moves < MOVES_AT_MOST
        detail = playing.get(url(game_id)).json()
        assert detail["last_seq"] == played.json()["last_seq"]

    assert detail["status"] == "finished" and detail["to_move"] is None
    assert detail["winners"] and len(detail["scores"]) == players
    final = clients[0].get(url(game_id, "state")).json()
    assert final["over"] is True and final["scores"] == detail["scores"]
    assert clients[0].get(url(game_id, "legal-moves")).json()["moves"] == []
    record = export_lines(client_for(make_user("eve")).get(url(game_id, "export")))
    assert record[0]["status"] == "finished" and record[0]["scores"] == detail["scores"]
    assert len(record) == detail["last_seq"] + 1
