"""Who is who: every computer player at a table goes by a name of its own wherever the
players are listed (the seats, the move list, the boards and the score table), and a
person goes by one name everywhere, the header included (``selectors.names.display_name``)."""

import html
import re

import pytest
from django.contrib.auth import get_user_model

from games import repository
from games.selectors.history import move_history
from games.selectors.names import computer_numbers, display_name, players_of
from games.services.bots import bot_move
from games.services.moves import move_submit
from games.services.tables import game_create, game_join
from tests.games.helpers import legal

pytestmark = pytest.mark.django_db

THREE = ["Computer 1 (medium)", "Computer 2 (medium)", "Computer 3 (medium)"]


def against_three_computers(alice):
    """Alice against three computers of the same level, until every seat has moved."""
    game = game_create(creator=alice, game="azul", players=4, bots=["medium", "medium", "medium"])
    alice_seat = game.seats.get(user=alice).position
    while repository.game_table(game).yet_to_move():
        game.refresh_from_db()
        if game.to_move == alice_seat:
            move_submit(game=game, user=alice, move=legal(game)[0])
        else:
            bot_move(game_id=game.pk)
    game.refresh_from_db()
    return game


def test_computers_are_numbered_in_seat_order_only_when_there_are_several():
    assert computer_numbers(["medium", "", "medium", "hard"]) == {0: 1, 2: 2, 3: 3}
    assert computer_numbers(["", "medium"]) == {}
    assert computer_numbers(["", ""]) == {}


def test_three_computers_of_one_level_each_have_a_name_of_their_own(alice):
    game = against_three_computers(alice)
    players = players_of(game)
    computers = sorted((p["seat"], p["player"]) for p in players if p["bot"])
    assert [name for _seat, name in computers] == THREE
    by_seat = dict(computers)
    bot_moves = [entry for entry in move_history(game) if entry["kind"] == "move" and entry["bot"]]
    assert bot_moves, "the computers moved"
    for entry in bot_moves:
        assert entry["actor"] == by_seat[entry["seat"]]


def test_a_lone_computer_keeps_its_plain_name(alice):
    game = game_create(creator=alice, game="azul", players=2, bots=["medium"])
    names = {p["player"] for p in players_of(game)}
    assert names == {"Alice", "Computer (medium)"}


def section(page: str, start: str, end: str) -> str:
    begin = page.index(start)
    return page[begin : page.index(end, begin)]


def test_the_game_page_tells_the_three_computers_apart(client, alice):
    game = against_three_computers(alice)
    client.force_login(alice)
    page = html.unescape(client.get(f"/games/{game.pk}/").text)
    assert "Computer (medium)" not in page
    boards = section(page, '<section class="player-boards">', "</section>")
    names = re.findall(r'<span class="name">([^<]+)</span>', boards)
    assert sorted(names) == sorted(["Alice", *THREE])
    moves = section(page, 'id="move-list"', "</ol>")
    for name in THREE:
        assert name in moves, "each computer's move names it"


def test_a_person_without_a_name_is_the_same_in_the_header_and_at_the_table(client, bob):
    dave = get_user_model().objects.create_user(
        username="dave@example.com", email="dave@example.com", password="pw"
    )
    game = game_create(creator=dave, game="azul", players=2)
    game_join(game=game, user=bob)
    assert display_name(dave) == "dave"
    assert "dave" in {p["player"] for p in players_of(game)}
    client.force_login(dave)
    page = client.get(f"/games/{game.pk}/").text
    assert '<span class="who">dave</span>' in page
    assert "dave@example.com" not in page
