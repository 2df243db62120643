"""The "+1 day" button: offered to the players waiting, and it moves the deadline."""

from games.services.tables import game_create, game_join
from tests.web.helpers import player_to_move


def test_a_waiting_player_gives_the_player_to_move_one_more_day(client, alice, bob):
    game = game_create(
        creator=alice, game="azul", players=2, time_control={"kind": "per_move", "days": 2}
    )
    game_join(game=game, user=bob)
    game.refresh_from_db()
    mover = player_to_move(game, alice, bob)
    waiting = bob if mover == alice else alice
    client.force_login(mover)
    assert 'id="grant-day"' not in client.get(f"/games/{game.pk}/").text
    client.force_login(waiting)
    assert 'id="grant-day"' in client.get(f"/games/{game.pk}/").text
    deadline = game.deadline
    response = client.post(f"/games/{game.pk}/grant-day/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.deadline - deadline).days == 1
