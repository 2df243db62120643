"""The lobby and the create-game form."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from tests.web.helpers import play_moves, player_to_move, started_game


def test_the_lobby_needs_a_signed_in_player(client, db):
    response = client.get("/lobby/")
    assert response.status_code == 302 and response.url.startswith("/signin/")


def test_games_waiting_for_you_come_first_with_their_time_left(client, alice, bob, carol):
    waiting = started_game(alice, bob, time_control={"kind": "per_move", "days": 3})
    if player_to_move(waiting, alice, bob) != alice:
        play_moves(waiting, (alice, bob), 1)
    other = started_game(alice, carol)
    if player_to_move(other, alice, carol) == alice:
        play_moves(other, (alice, carol), 1)
    client.force_login(alice)
    first_section, rest = client.get("/lobby/").text.split("In play and waiting for players")
    assert f"/games/{waiting.pk}/" in first_section and "left" in first_section
    assert f"/games/{other.pk}/" in rest and f"/games/{other.pk}/" not in first_section


def test_open_games_of_others_can_be_joined_from_the_lobby(client, alice, bob):
    client.force_login(alice)
    client.post("/games/new/", {"game": "azul", "players": 2, "time_control": "none"})
    game = Game.objects.get()
    client.force_login(bob)
    assert f"/games/{game.pk}/join/" in client.get("/lobby/").text
    client.post(f"/games/{game.pk}/join/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_creating_a_game_with_every_setting(client, alice):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        {
            "game": "summer-pavilion",
            "opt_summer_pavilion_board": "grey",
            "players": 3,
            "time_control": "bank",
            "bank_hours": 48,
            "increment_hours": 6,
            "cap_hours": 96,
            "private": "on",
            "invite": "bob@example.com\ncarol@example.com",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert game.options == {"board": "grey"}
    assert game.time_control == {
        "kind": "bank",
        "bank_hours": 48,
        "increment_hours": 6,
        "cap_hours": 96,
    }
    assert game.private and not game.self_undo
    assert sorted(game.seats.values_list("invited_email", flat=True)) == [
        "",
        "bob@example.com",
        "carol@example.com",
    ]


def test_a_bank_that_breaks_the_rules_is_refused_with_the_reason(client, alice):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        {
            "game": "azul",
            "players": 2,
            "time_control": "bank",
            "bank_hours": 100,
            "increment_hours": 0,
            "cap_hours": 10,
        },
    )
    assert response.status_code == 400
    assert "bank_hours &lt;= cap_hours" in response.text
    assert not Game.objects.exists()


def test_bad_choices_and_too_many_invitations_are_refused(client, alice):
    client.force_login(alice)
    unknown = client.post("/games/new/", {"game": "chess", "players": 2, "time_control": "none"})
    assert unknown.status_code == 400 and "Select a valid choice" in unknown.text
    crowded = client.post(
        "/games/new/",
        {"game": "azul", "players": 2, "time_control": "none", "invite": "b@x.org c@x.org"},
    )
    assert (
        crowded.status_code == 400
        and "2 invited and 0 computer players asked for 1 free seat" in crowded.text
    )
    bad = client.post(
        "/games/new/", {"game": "azul", "players": 2, "time_control": "none", "invite": "nope"}
    )
    assert "is not an email address" in bad.text
    assert not Game.objects.exists()


def test_invitations_to_your_address_are_listed_and_accepted_from_the_lobby(client, alice, bob):
    client.force_login(alice)
    client.post(
        "/games/new/",
        {"game": "miyabi", "players": 2, "time_control": "none", "invite": "BOB@example.com"},
    )
    game = Game.objects.get()
    client.force_login(bob)
    lobby = client.get("/lobby/").text
    assert "Invitations for you" in lobby and f"/games/{game.pk}/join/" in lobby
    client.post(f"/games/{game.pk}/join/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_more_computer_players_than_free_seats_is_refused_next_to_the_field(client, alice):
    client.force_login(alice)
    response = client.post(
        "/games/new/", {"game": "azul", "players": 2, "time_control": "none", "bots": 3}
    )
    assert response.status_code in (200, 400)
    assert "Too many computer players: in a game of 2 players one seat is yours" in response.text
    assert "asked for" not in response.text
    assert not Game.objects.exists()


def test_the_checkboxes_labels_end_without_a_colon_and_time_outs_are_timed_options(client, alice):
    client.force_login(alice)
    page = client.get("/games/new/").text
    assert 'for="id_private">Private: only the players see it, even once finished</label>' in page
    assert "even once finished:</label>" not in page
    # The time-out policy, its computer player and playing hours (their two times apart).
    assert page.count('class="tc-timed"') == 3
    assert page.count('class="tc-timed playing-hours"') == 1


def test_the_form_says_games_with_computer_players_are_not_rated(client, alice):
    client.force_login(alice)
    page = client.get("/games/new/").text
    assert 'id="rated-note">Games with computer players are not rated.</span>' in page


def test_a_rated_game_asked_with_a_computer_player_says_it_is_not_rated(client, alice):
    """A post the form's script would not send (Rated ticked with a computer player): the
    game is created, and its page says it is not rated and why."""
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        {"game": "azul", "players": 2, "time_control": "none", "bots": 1, "rated": "on"},
        follow=True,
    )
    assert "This game is not rated: games with computer players are not rated." in response.text
    assert "not rated: games with computer players are not rated" in response.text


def test_a_game_page_says_whether_it_counts_for_the_ratings(client, alice):
    client.force_login(alice)
    settings = {"game": "azul", "players": 2, "time_control": "none"}
    client.post("/games/new/", {**settings, "rated": "on"})
    client.post("/games/new/", settings)
    rated, unrated = Game.objects.order_by("pk")
    assert " · rated" in client.get(f"/games/{rated.pk}/").text
    page = client.get(f"/games/{unrated.pk}/").text
    assert " · not rated" in page and "computer players" not in page


def lobby_statements(client) -> int:
    """The statements of the lobby asked again (its games' tables kept by the process once
    its reads commit: a transactional test)."""
    client.get("/lobby/")
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/lobby/").status_code == 200
    return len(captured)


@pytest.mark.django_db(transaction=True)
def test_the_lobby_reads_its_games_players_in_one_statement_however_many_it_lists(
    client, alice, bob, carol
):
    client.force_login(alice)
    # One game waiting for her, one for the other player: both lists have a row.
    for other, to_move in ((bob, alice), (carol, carol)):
        game = started_game(alice, other, time_control={"kind": "per_move", "days": 3})
        if player_to_move(game, alice, other) != to_move:
            play_moves(game, (alice, other), 1)
    few = lobby_statements(client)
    for other in (bob, carol, bob, carol):
        started_game(alice, other, time_control={"kind": "per_move", "days": 3})
    assert lobby_statements(client) == few
