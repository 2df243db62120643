"""A private game, from its creation on, is seen and joined by its players and the players
invited to it alone (moderators see it too): not listed among the open games or the games
to watch, its page and its API answering anyone else as about a game that does not exist
(issue 29), and its seats taken by nobody else (issue 34)."""

import re

import pytest
from django.test import Client

from games.models import Game, Seat
from games.services.tables import game_create, invitation_token
from tests.conftest import make_user
from tests.games.api_helpers import client_for, moderator_user, post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def private(alice, bob):
    """alice's private game of three, bob and carol invited, waiting for them."""
    return game_create(
        creator=alice,
        game="azul",
        players=3,
        private=True,
        invite=[bob.email, "carol@example.com"],
    )


@pytest.fixture
def private_with_an_open_seat(alice):
    """A private game with a seat open, as games were made before private games kept none
    (the shape the probe found listed and joined)."""
    game = game_create(creator=alice, game="azul", players=2)
    Game.objects.filter(pk=game.pk).update(private=True)
    game.refresh_from_db()
    return game


def signed_in(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_private_game_is_not_listed_among_the_open_games(private, private_with_an_open_seat, bob):
    outsider = make_user("dave")
    listed = client_for(outsider).get("/api/games/", {"filter": "open"}).json()["results"]
    assert listed == []
    for user in (outsider, bob):
        listed = client_for(user).get("/api/games/", {"filter": "open"}).json()["results"]
        assert private.pk not in [game["id"] for game in listed]
    assert f"/games/{private.pk}/" not in signed_in(outsider).get("/lobby/").text
    invited = client_for(bob).get("/api/games/", {"filter": "active"}).json()["results"]
    assert [game["id"] for game in invited] == []
    assert f"/games/{private.pk}/" in signed_in(bob).get("/lobby/").text, "under invitations"


def said_of(response, game_id: int) -> tuple[int, str]:
    """A refusal's status and what it says (a page's message, or the JSON), with the game's
    number written as N."""
    text = response.content.decode()
    message = re.search(r'<p class="error" role="alert">(.*?)</p>', text)
    return response.status_code, (message[1] if message else text).replace(str(game_id), "N")


@pytest.mark.parametrize(
    "path", ["/games/{}/", "/games/{}/seq", "/games/{}/live", "/games/{}/replay/"]
)
def test_a_private_games_pages_answer_visitors_and_outsiders_as_a_game_that_does_not_exist(
    private, alice, bob, path
):
    missing = private.pk + 1000
    for client in (signed_in(), signed_in(make_user("dave"))):
        refused = client.get(path.format(private.pk))
        assert said_of(refused, private.pk) == said_of(client.get(path.format(missing)), missing)
        assert refused.status_code == 404
    for user in (alice, bob, moderator_user()):
        assert signed_in(user).get(f"/games/{private.pk}/").status_code == 200, user


def test_a_private_games_api_answers_visitors_and_outsiders_as_a_game_that_does_not_exist(
    private, alice, bob
):
    missing = private.pk + 1000
    for client in (client_for(None), client_for(make_user("dave"))):
        for part in ("", "state", "events"):
            refused = client.get(url(private, part))
            assert refused.status_code == 404 and refused.json()["code"] == "not_found"
            assert said_of(refused, private.pk) == said_of(client.get(url(missing, part)), missing)
    for user in (alice, bob, moderator_user()):
        assert client_for(user).get(url(private)).status_code == 200


@pytest.mark.parametrize("which", ["invitations only", "with an open seat"])
def test_an_outsider_cannot_join_a_private_game(private, private_with_an_open_seat, which):
    game = private if which == "invitations only" else private_with_an_open_seat
    outsider = make_user("dave")
    response = post(client_for(outsider), url(game, "join"))
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    signed_in(outsider).post(f"/games/{game.pk}/join/")
    assert not game.seats.filter(user=outsider).exists()
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_an_outsider_cannot_join_with_an_invitation_to_another_game(private, alice):
    other = game_create(creator=alice, game="azul", players=2, invite=["erin@example.com"])
    token = invitation_token(other.seats.get(status=Seat.Status.INVITED))
    response = post(client_for(make_user("erin")), url(private, "join"), {"token": token})
    assert response.status_code == 404


def test_the_invited_players_join_and_the_game_starts(private, bob, carol):
    assert post(client_for(bob), url(private, "join")).status_code == 200
    seat = private.seats.get(invited_email=carol.email)
    token = invitation_token(seat)
    assert post(client_for(carol), url(private, "join"), {"token": token}).status_code == 200
    private.refresh_from_db()
    assert private.status == Game.Status.ACTIVE


def test_a_private_game_keeps_no_seat_open_to_anyone(alice):
    response = post(
        client_for(alice), "/api/games/", {"game": "azul", "players": 2, "private": True}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "private_game_open_seat"
    assert not Game.objects.exists()
    with_a_bot = {"game": "azul", "players": 2, "private": True, "bots": ["easy"]}
    assert post(client_for(alice), "/api/games/", with_a_bot).status_code == 201


def test_a_players_profile_shows_their_private_games_to_those_who_may_see_them(private, alice, bob):
    public = game_create(creator=alice, game="azul", players=2)
    for viewer, shown in ((make_user("dave"), False), (bob, True), (alice, True)):
        profile = client_for(viewer).get(f"/api/players/{alice.pk}/")
        ids = [game["id"] for game in profile.json()["current_games"]]
        assert public.pk in ids and (private.pk in ids) is shown, viewer
    for viewer, shown in ((make_user("erin"), False), (bob, True)):
        page = signed_in(viewer).get(f"/players/{alice.pk}/")
        ids = [row["game"].pk for row in page.context["current"]]
        assert public.pk in ids and (private.pk in ids) is shown, viewer


OUTSIDERS_POSTS = [
    {},
    {"token": "not-an-invitation"},
    {"token": ""},
    {"token": "x" * 2000},
    {"hours": "nine to five"},
    {"hours": {"start": "25:00", "end": "x"}},
]


@pytest.mark.parametrize("body", OUTSIDERS_POSTS)
def test_an_outsiders_join_of_a_private_game_is_answered_word_for_word_as_a_missing_games(
    private, body
):
    missing = private.pk + 1000
    outsider = client_for(make_user("dave"))
    refused = post(outsider, url(private, "join"), body)
    assert refused.status_code == 404
    assert said_of(refused, private.pk) == said_of(
        post(outsider, url(missing, "join"), body), missing
    )
    page = signed_in(make_user("erin"))
    form = {key: value for key, value in body.items() if isinstance(value, str)}
    refused = page.post(f"/games/{private.pk}/join/", form, follow=True)
    assert refused.status_code == 404
    assert said_of(refused, private.pk) == said_of(
        page.post(f"/games/{missing}/join/", form, follow=True), missing
    )
    assert not private.seats.filter(user__isnull=False).exclude(user=private.created_by).exists()


def test_an_unparsable_join_of_a_private_game_is_answered_as_a_missing_games(private):
    missing = private.pk + 1000
    outsider = client_for(make_user("dave"))
    said = [
        said_of(outsider.post(url(game_id, "join"), "{", content_type="application/json"), game_id)
        for game_id in (private.pk, missing)
    ]
    assert said[0] == said[1] and said[0][0] == 404
