"""Opening, listing, joining and leaving games through the API, signing in for a token, and
the shape of every error: JSON with a code and a message, never a 500."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, Outbox, Seat
from tests.conftest import make_user
from tests.games.api_helpers import (
    client_for,
    mover,
    play_move,
    post,
    url,
)
from tests.games.helpers import play_to_end, started

pytestmark = pytest.mark.django_db


def open_game(creator, **body):
    response = post(client_for(creator), "/api/games/", {"game": "azul", "players": 2, **body})
    assert response.status_code == 201, response.json()
    return Game.objects.get(pk=response.json()["id"])


def test_creating_a_game_seats_the_creator_and_leaves_the_other_seats_open(alice):
    response = post(
        client_for(alice),
        "/api/games/",
        {
            "game": "summer-pavilion",
            "players": 3,
            "options": {"board": "grey"},
            "time_control": {"kind": "per_move", "days": 3},
            "self_undo": False,
            "private": False,
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert body["game"] == "summer-pavilion" and body["title"] == "Azul: Summer Pavilion"
    assert body["status"] == "open" and body["players"] == 3
    assert body["options"] == {"board": "grey"}
    assert body["time_control"] == {"kind": "per_move", "days": 3}
    assert body["self_undo"] is False and body["private"] is False
    assert [seat["status"] for seat in body["seats"]] == ["joined", "open", "open"]
    assert body["seats"][0]["player"] == "Alice"
    assert body["you"]["seat"] is None and body["you"]["your_turn"] is False


def test_invited_addresses_get_a_reserved_seat_and_an_email(alice):
    game = open_game(alice, invite=["Bob@Example.com"])
    assert game.seats.get(status=Seat.Status.INVITED).invited_email == "bob@example.com"
    assert Outbox.objects.filter(game=game, kind="invitation", recipient="bob@example.com")


TWO_AZUL = {"game": "azul", "players": 2}


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"players": 2}, "invalid_input", "game"),
        ({"game": "chess", "players": 2}, "invalid_input", "game"),
        (TWO_AZUL | {"players": 5}, "invalid_input", "players"),
        (TWO_AZUL | {"players": "two"}, "invalid_input", "players"),
        (TWO_AZUL | {"invite": ["not-an-address"]}, "invalid_input", "invite.0"),
        (TWO_AZUL | {"options": "grey"}, "invalid_input", "options"),
        (TWO_AZUL | {"timeout_policy": "never"}, "invalid_input", "timeout_policy"),
        (TWO_AZUL | {"options": {"wall": "purple"}}, "invalid_options", None),
        (TWO_AZUL | {"options": {"colour": "red"}}, "invalid_options", None),
        (TWO_AZUL | {"time_control": {"kind": "sundial"}}, "invalid_time_control", None),
        (
            TWO_AZUL | {"time_control": {"kind": "per_move", "days": 4}},
            "invalid_time_control",
            None,
        ),
        (TWO_AZUL | {"invite": ["b@example.com", "c@example.com"]}, "too_many_invitations", None),
        (TWO_AZUL | {"invite": ["alice@example.com"]}, "invalid_invitation", None),
    ],
)
def test_a_bad_new_game_is_refused_saying_what_was_wrong(alice, body, code, field):
    response = post(client_for(alice), "/api/games/", body)
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == code and error["message"]
    if field:
        assert error["field"] == field and field in error["errors"]
    assert not Game.objects.exists()


def test_the_list_shows_your_games_by_filter(alice, bob, carol):
    waiting = started("azul", alice, bob)
    if mover(waiting) != alice:
        play_move(waiting)
    finished = started("miyabi", alice, bob)
    play_to_end(finished)
    open_game(alice)
    others = open_game(carol)
    client = client_for(alice)

    def ids(which: str = "") -> set[int]:
        response = client.get("/api/games/" + (f"?filter={which}" if which else ""))
        assert response.status_code == 200
        return {game["id"] for game in response.json()["results"]}

    assert ids("waiting") == {waiting.pk}
    assert waiting.pk in ids("active") and finished.pk not in ids("active")
    assert ids("finished") == {finished.pk}
    assert ids("open") == {others.pk}
    assert others.pk not in ids() and len(ids()) == 3


def test_the_list_is_paged(alice):
    for _ in range(3):
        open_game(alice)
    page = client_for(alice).get("/api/games/?limit=2&offset=2").json()
    assert page["count"] == 3 and len(page["results"]) == 1


@pytest.mark.parametrize("query", ["filter=mine", "limit=0", "limit=1000", "offset=-1"])
def test_a_bad_list_query_is_a_400_naming_the_parameter(alice, query):
    response = client_for(alice).get(f"/api/games/?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == query.split("=")[0]


def test_the_detail_tells_you_your_seat_and_whether_it_is_your_turn(alice, bob):
    game = started("azul", alice, bob)
    first = mover(game)
    other = bob if first == alice else alice
    for user, turn in ((first, True), (other, False)):
        body = client_for(user).get(url(game)).json()
        assert body["status"] == "active" and body["last_seq"] == game.last_seq
        assert body["to_move"] == game.to_move and body["scores"] == [0, 0]
        assert body["you"]["your_turn"] is turn
        assert body["you"]["seat"] == game.seats.get(user=user).position
        assert {seat["player"] for seat in body["seats"]} == {"Alice", "Bob"}
        assert body["takeback"] is None


def test_the_detail_never_shows_email_addresses(alice, bob):
    game = started("azul", alice, bob)
    assert b"@example.com" not in client_for(alice).get(url(game)).content


def test_joining_an_open_seat_starts_a_full_game(alice, bob):
    game = open_game(alice)
    response = post(client_for(bob), url(game, "join"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active" and body["you"]["seat"] in (0, 1)
    assert body["last_seq"] > 0 and body["to_move"] in (0, 1)


def test_joining_with_the_invitation_token_takes_the_invited_seat(alice, carol):
    from games.services.tables import invitation_token

    game = open_game(alice, invite=["bob@example.com"])
    token = invitation_token(game.seats.get(status=Seat.Status.INVITED))
    response = post(client_for(carol), url(game, "join"), {"token": token})
    assert response.status_code == 200 and response.json()["status"] == "active"
    assert game.seats.get(user=carol).invited_email == "bob@example.com"


@pytest.mark.parametrize(
    ("token", "status", "code"), [("forged", 404, "not_found"), ("", 400, "invalid_input")]
)
def test_a_bad_invitation_token_is_refused(alice, bob, token, status, code):
    game = open_game(alice, invite=["carol@example.com"])
    response = post(client_for(bob), url(game, "join"), {"token": token})
    assert response.status_code == status and response.json()["code"] == code
    assert not game.seats.filter(user=bob).exists()


def test_joining_twice_or_a_full_game_is_a_conflict(alice, bob, carol):
    game = open_game(alice, players=3)
    assert post(client_for(bob), url(game, "join")).status_code == 200
    again = post(client_for(bob), url(game, "join"))
    assert again.status_code == 409 and again.json()["code"] == "already_seated"
    assert post(client_for(carol), url(game, "join")).status_code == 200
    late = post(client_for(make_user("dave")), url(game, "join"))
    assert late.status_code == 409 and late.json()["code"] == "not_open"


def test_leaving_frees_the_seat_and_the_creator_cancels_instead(alice, bob):
    game = open_game(alice, players=3)
    post(client_for(bob), url(game, "join"))
    left = post(client_for(bob), url(game, "leave"))
    assert left.status_code == 200 and left.json()["you"] is None
    assert [s["status"] for s in left.json()["seats"]].count("open") == 2
    refused = post(client_for(alice), url(game, "leave"))
    assert refused.status_code == 409 and refused.json()["code"] == "creator_cannot_leave"


def test_only_the_creator_cancels_and_only_before_the_start(alice, bob):
    game = open_game(alice, players=3)
    post(client_for(bob), url(game, "join"))
    refused = post(client_for(bob), url(game, "cancel"))
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    cancelled = post(client_for(alice), url(game, "cancel"))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    again = post(client_for(alice), url(game, "cancel"))
    assert again.status_code == 409 and again.json()["code"] == "not_open"


def test_a_token_from_email_and_password_signs_api_calls_in(alice, client):
    response = client.post(
        "/api/token/", {"email": "ALICE@example.com", "password": "pw-alice"}, "application/json"
    )
    assert response.status_code == 200
    key = response.json()["token"]
    assert Token.objects.get(user=alice).key == key
    again = client.post(
        "/api/token/", {"email": "alice@example.com", "password": "pw-alice"}, "application/json"
    )
    assert again.json()["token"] == key
    games = client.get("/api/games/", headers={"Authorization": f"Token {key}"})
    assert games.status_code == 200


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"email": "alice@example.com", "password": "wrong"}, "invalid_credentials"),
        ({"email": "nobody@example.com", "password": "pw-alice"}, "invalid_credentials"),
        ({"email": "alice", "password": "pw-alice"}, "invalid_input"),
        ({"email": "alice@example.com"}, "invalid_input"),
    ],
)
def test_a_token_needs_the_right_password(alice, client, body, code):
    response = client.post("/api/token/", body, "application/json")
    assert response.status_code == 400 and response.json()["code"] == code
    assert not Token.objects.exists()


def test_a_wrong_token_is_a_401_with_a_challenge(alice, client):
    response = client.get("/api/games/", headers={"Authorization": "Token not-a-token"})
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert response.headers["WWW-Authenticate"].startswith("Token")


JSON = "application/json"
HUGE = '{"game": "' + "a" * 3_000_000 + '"}'


@pytest.mark.parametrize(
    ("method", "path", "body", "content_type", "status", "code"),
    [
        ("post", "/api/games/", "{not json", JSON, 400, "invalid_body"),
        ("post", "/api/games/", "[1, 2]", JSON, 400, "invalid_input"),
        ("post", "/api/games/", "[" * 100_000, JSON, 400, "invalid_body"),
        ("post", "/api/games/", b'{"game": "\xff"}', JSON, 400, "invalid_body"),
        ("post", "/api/games/", '{"players": NaN}', JSON, 400, "invalid_body"),
        ("post", "/api/games/", HUGE, JSON, 413, "body_too_large"),
        ("post", "/api/games/", "x", "text/plain", 415, "unsupported_media_type"),
        ("get", "/api/games/9999999/", None, None, 404, "not_found"),
        ("get", "/api/games/99999999999999999999999999/", None, None, 404, "not_found"),
        ("get", "/api/games/abc/", None, None, 404, "not_found"),
        ("get", "/api/nowhere/", None, None, 404, "not_found"),
        ("post", "/api/games/1/moves", None, None, 404, "not_found"),
        ("delete", "/api/games/", None, None, 405, "method_not_allowed"),
    ],
)
def test_every_error_is_json_with_a_code_and_a_message(
    alice, method, path, body, content_type, status, code
):
    client = client_for(alice)
    if body is None:
        response = getattr(client, method)(path)
    else:
        response = getattr(client, method)(path, body, content_type=content_type)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    error = response.json()
    assert error["code"] == code and error["message"]


def test_an_unacceptable_format_is_a_json_406(alice):
    response = client_for(alice).get("/api/games/", HTTP_ACCEPT="application/xml")
    assert response.status_code == 406 and response.json()["code"] == "not_acceptable"


def test_a_signed_in_browser_must_send_the_csrf_token(alice):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post("/api/games/", TWO_AZUL, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["message"]
    assert browser.get("/api/games/").status_code == 200
