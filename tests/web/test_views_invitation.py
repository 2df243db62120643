"""The invitation link: GET shows the game and an "Accept" button, POST takes the seat."""

from games.models import Game, NoticeKind, Outbox
from games.services.tables import game_create


def invitation_link(game) -> str:
    token = Outbox.objects.get(game=game, kind=NoticeKind.INVITATION).payload["token"]
    return f"/invite/{token}/"


def test_the_invited_player_sees_the_game_and_accepts(client, alice, bob):
    game = game_create(creator=alice, game="miyabi", players=2, invite=[bob.email])
    link = invitation_link(game)
    anonymous = client.get(link)
    assert anonymous.status_code == 200 and "Sign in to accept" in anonymous.text
    client.force_login(bob)
    page = client.get(link)
    assert "Miyabi" in page.text and 'id="accept"' in page.text
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert client.post(link).url == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_used_invitation_says_so(client, alice, bob, carol):
    game = game_create(creator=alice, game="azul", players=3, invite=[bob.email])
    link = invitation_link(game)
    client.force_login(bob)
    client.post(link)
    client.force_login(carol)
    assert "has been answered" in client.get(link).text
    refused = client.post(link)
    assert refused.status_code == 409 and "already been used" in refused.text


def test_a_forged_invitation_gets_a_clear_page(client, bob):
    client.force_login(bob)
    response = client.get("/invite/forged-token/")
    assert response.status_code == 404 and "not valid" in response.text
    assert client.post("/invite/forged-token/").status_code == 404
