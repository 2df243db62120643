"""Watching a public game in play (issue 29): anyone, signed in or not, sees its boards, its
move list and its clocks as a seat that is not theirs sees them, follows it live, and has no
move controls and no chat (the chat is the players'); the lobby lists the games to watch;
the API answers a spectator as the page does. A private game stays unknown to them."""

import json

import pytest
from django.test import Client

from games import repository
from games.models import Game
from games.selectors.lists import GAMES_TO_WATCH, games_to_watch, games_to_watch_first
from games.selectors.moves import legal_moves_of
from games.services.accounts import player_preferences_set
from games.services.chat import chat_post
from games.services.tables import game_create
from tests.conftest import make_user
from tests.games.api_helpers import client_for, url
from tests.web.helpers import play_moves, player_to_move, started_game

pytestmark = pytest.mark.django_db

TIMED = {"time_control": {"kind": "per_move", "days": 3}}


def visitor(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def in_play(alice, bob):
    """A public game of Azul in play with a clock: two moves made, and a word in the chat."""
    game = started_game(alice, bob, "azul", **TIMED)
    play_moves(game, (alice, bob), 2)
    chat_post(game=game, user=alice, text="good luck, Bob")
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("who", ["visitor", "signed-in outsider"])
def test_anyone_watches_a_public_game_in_play_without_controls_or_chat(in_play, who):
    client = visitor(None if who == "visitor" else make_user("dave"))
    response = client.get(f"/games/{in_play.pk}/")
    assert response.status_code == 200
    shown = response.content.decode()
    context = response.context
    assert len(context["boards"]) == 2 and context["watching"]
    assert [e["kind"] for e in context["history"]].count("move") == 2
    assert sorted(clock["name"] for clock in context["clocks"]) == ["Alice", "Bob"]
    assert 'id="watching"' in shown
    for control in ('id="move-panel"', 'id="move-form"', 'id="chat-form"', "Resign…", 'id="undo"'):
        assert control not in shown, control
    assert "good luck, Bob" not in shown and 'id="part-chat"' not in shown
    assert "The chat is for the game's players: only they read it." in shown
    assert in_play.rng_secret not in shown


def test_the_players_still_see_their_controls_and_their_chat(in_play, alice, bob):
    mover = player_to_move(in_play, alice, bob)
    shown = visitor(mover).get(f"/games/{in_play.pk}/").content.decode()
    assert 'id="move-panel"' in shown and "good luck, Bob" in shown
    assert 'id="watching"' not in shown


def test_a_spectators_page_follows_the_moves_and_never_the_chat(in_play, alice, bob):
    client = visitor()
    live = f"/games/{in_play.pk}/live"
    first = client.get(live, {"seq": in_play.last_seq, "chat": 0}).json()
    assert first["parts"] == {} and first["chat"] == 0
    play_moves(in_play, (alice, bob), 1)
    chat_post(game=in_play, user=bob, text="thanks!")
    in_play.refresh_from_db()
    answer = client.get(live, {"seq": in_play.last_seq - 1, "chat": 0}).json()
    assert answer["seq"] == in_play.last_seq and answer["chat"] == 0
    assert set(answer["parts"]) == {"status", "panel", "boards", "moves", "end", "plan"}
    assert "move-form" not in answer["parts"]["panel"]
    assert "Plan your answers" not in answer["parts"]["plan"]
    assert "thanks!" not in json.dumps(answer)


@pytest.mark.parametrize("who", ["visitor", "signed-in outsider"])
def test_the_api_answers_a_spectator_with_the_public_state_and_events(in_play, who):
    client = client_for(None if who == "visitor" else make_user("dave"))
    state = client.get(url(in_play, "state"))
    events = client.get(url(in_play, "events"))
    moves = client.get(url(in_play, "legal-moves"))
    assert state.status_code == events.status_code == moves.status_code == 200
    table = repository.game_table(in_play)
    assert state.json()["state"] == table.engine.view(table.state)
    assert isinstance(state.json()["state"]["bag"], int), "the bag only as a count"
    assert [e["seq"] for e in events.json()] == list(range(1, in_play.last_seq + 1))
    assert moves.json()["moves"] == []
    for body in (state.content, events.content, client.get(url(in_play)).content):
        assert in_play.rng_secret.encode() not in body


def test_a_spectator_cannot_move_resign_or_chat(in_play, alice, bob):
    dave = make_user("dave")
    client = visitor(dave)
    table = repository.game_table(in_play)
    move = legal_moves_of(table)[0]["move"]
    client.post(f"/games/{in_play.pk}/move/", {"move": move, "expected_seq": in_play.last_seq})
    client.post(f"/games/{in_play.pk}/resign/")
    client.post(f"/games/{in_play.pk}/chat/", {"text": "hello"})
    in_play.refresh_from_db()
    assert in_play.last_seq == table.last_seq and in_play.status == Game.Status.ACTIVE
    assert not in_play.chat.filter(author=dave).exists()


def test_the_lobby_lists_public_games_in_play_to_watch_latest_move_first(alice, bob, carol):
    dave = make_user("dave")
    older = started_game(alice, bob, "azul")
    newer = started_game(carol, bob, "miyabi")
    play_moves(older, (alice, bob), 1)
    play_moves(newer, (carol, bob), 1)
    hidden = started_game(alice, carol, "azul", private=True)
    mine = started_game(dave, alice, "azul")
    waiting = game_create(creator=alice, game="azul", players=2)
    watch = [row["game"].pk for row in visitor(dave).get("/lobby/").context["watch"]]
    assert watch == [newer.pk, older.pk]
    assert not {hidden.pk, mine.pk, waiting.pk} & set(watch)
    shown = visitor(dave).get("/lobby/").content.decode()
    assert "Games in play to watch" in shown and f'href="/games/{newer.pk}/"' in shown


def test_the_api_lists_the_games_to_watch_as_the_lobby_does(alice, bob, carol):
    dave = make_user("dave")
    watched = started_game(alice, bob, "azul")
    started_game(alice, carol, "azul", private=True)
    listed = client_for(dave).get("/api/games/", {"filter": "watch"}).json()
    assert [game["id"] for game in listed["results"]] == [watched.pk] and listed["count"] == 1
    own = client_for(alice).get("/api/games/", {"filter": "watch"}).json()
    assert own["results"] == []


def test_the_lobby_lists_at_most_the_latest_games_to_watch(alice, bob):
    games = [started_game(alice, bob, "azul") for _ in range(GAMES_TO_WATCH + 2)]
    watch = visitor(make_user("dave")).get("/lobby/").context["watch"]
    assert len(watch) == GAMES_TO_WATCH
    assert games[0].pk not in [row["game"].pk for row in watch]


def test_the_front_page_lists_the_games_a_visitor_may_watch(alice, bob, carol):
    watched = started_game(alice, bob, "azul")
    hidden = started_game(alice, carol, "azul", private=True)
    shown = visitor().get("/").content.decode()
    assert "Games in play to watch" in shown
    assert f'href="/games/{watched.pk}/"' in shown and f'href="/games/{hidden.pk}/"' not in shown


def test_the_lobby_says_when_there_is_nothing_to_watch_in_spanish(alice):
    player_preferences_set(user=alice, language="es", time_zone="")
    shown = visitor(alice).get("/lobby/").content.decode()
    assert "Partidas en juego para mirar" in shown
    assert "Ahora mismo no se juega ninguna otra partida." in shown


def test_a_profiles_current_games_link_to_the_games_one_may_watch(in_play, alice):
    shown = visitor(make_user("dave")).get(f"/players/{alice.pk}/").content.decode()
    assert f'href="/games/{in_play.pk}/"' in shown


def test_a_private_game_in_play_is_neither_listed_nor_shown_to_a_spectator(alice, bob):
    hidden = started_game(alice, bob, "azul", private=True)
    dave = make_user("dave")
    assert hidden.pk not in [g.pk for g in games_to_watch(dave)]
    refused = visitor(dave).get(f"/games/{hidden.pk}/")
    missing = visitor(dave).get(f"/games/{hidden.pk + 1000}/")
    assert refused.status_code == missing.status_code == 404
    said = refused.content.decode().replace(str(hidden.pk), "N")
    assert "There is no game N." in said
    assert said.count("There is no game N.") == missing.content.decode().replace(
        str(hidden.pk + 1000), "N"
    ).count("There is no game N.")
    assert client_for(dave).get(url(hidden, "state")).status_code == 404


@pytest.mark.parametrize(("newest_events", "looked_at"), [(4, 3), (40, 3), (2000, 3), (2000, 1)])
def test_the_games_to_watch_are_the_latest_moved_however_few_of_the_newest_events_are_read(
    alice, bob, carol, monkeypatch, newest_events, looked_at
):
    """The lobby finds the games moved last among the store's newest events, and sorts every
    game in play when those do not settle the list: the same list either way."""
    monkeypatch.setattr("games.selectors.lists.NEWEST_EVENTS", newest_events)
    monkeypatch.setattr("games.selectors.lists.LOOKED_AT", looked_at)
    games = [started_game(alice, bob, "azul") for _ in range(6)]
    started_game(alice, carol, "azul", private=True)
    for game in (games[3], games[0], games[4]):
        play_moves(game, (alice, bob), 1)
    dave = make_user("dave")
    expected = list(games_to_watch(dave)[:4])
    assert [g.pk for g in games_to_watch_first(dave, count=4)] == [g.pk for g in expected]
    assert [g.pk for g in expected[:3]] == [games[4].pk, games[0].pk, games[3].pk]
    assert games_to_watch_first(alice) == []
