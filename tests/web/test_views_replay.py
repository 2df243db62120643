"""The replay viewer: any moment by its address, the move list marking it."""

import re

from games import repository
from games.services.tables import game_create
from tests.web.helpers import play_moves, started_game


def moments(text: str) -> list[int]:
    return [int(n) for n in re.search(r'data-moments="\[([\d, ]+)\]"', text).group(1).split(",")]


def test_each_moment_has_its_address_and_the_list_marks_it(client, alice, bob):
    game = started_game(alice, bob, "azul")
    play_moves(game, (alice, bob), 4)
    game.refresh_from_db()
    client.force_login(alice)
    latest = client.get(f"/games/{game.pk}/replay/").text
    steps = moments(latest)
    assert len(steps) == 5 and steps[-1] == game.last_seq
    second = client.get(f"/games/{game.pk}/replay/?at={steps[2]}").text
    assert f'class="move current" data-end="{steps[2]}"' in second
    assert f'href="?at={steps[1]}"' in second and f'href="?at={steps[3]}"' in second
    table = repository.game_table(game, upto=steps[2])
    assert f"{table.scores()[0]} point" in second


def test_odd_addresses_show_the_nearest_moment_before(client, alice, bob):
    game = started_game(alice, bob)
    play_moves(game, (alice, bob), 2)
    client.force_login(bob)
    steps = moments(client.get(f"/games/{game.pk}/replay/").text)
    between = client.get(f"/games/{game.pk}/replay/?at={steps[1] + 1}")
    assert f'class="move current" data-end="{steps[1]}"' in between.text
    for odd in ("abc", "-5", "999999"):
        assert client.get(f"/games/{game.pk}/replay/?at={odd}").status_code == 200
    last = len(steps) - 1
    assert f"step 0 of {last}" in client.get(f"/games/{game.pk}/replay/?at=-5").text
    assert f"step {last} of {last}" in client.get(f"/games/{game.pk}/replay/?at=99999").text


def test_a_game_that_does_not_exist_is_said_with_one_full_stop(client, alice):
    client.force_login(alice)
    answer = client.get("/leaderboard/chess/")
    assert answer.status_code == 404
    assert "There is no game called chess." in answer.text
    assert "chess.." not in answer.text


def test_a_game_not_started_has_nothing_to_replay(client, alice):
    game = game_create(creator=alice, game="azul", players=2)
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/replay/")
    assert response.status_code == 400 and "nothing to replay" in response.text
