"""The site around the games: its 404 page, the favicon, the demo's moderator, the admin's
user page."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from games.models import Game, NoticeKind
from games.selectors.access import MODERATORS_GROUP, is_moderator
from games.services.tables import game_create


def test_an_unknown_address_gets_the_sites_own_404_page(client):
    response = client.get("/games/abc/")
    assert response.status_code == 404
    assert "This page does not exist" in response.text and "azulsite" in response.text


def test_the_favicon_is_served_where_browsers_ask_for_it(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_the_demo_admin_is_a_moderator(db):
    call_command("demo", verbosity=0)
    from django.contrib.auth import get_user_model

    alice = get_user_model().objects.get(email="alice@example.com")
    assert is_moderator(alice)


def test_the_admin_user_page_opens(admin_client, bob):
    response = admin_client.get(f"/admin/auth/user/{bob.pk}/change/")
    assert response.status_code == 200 and "Suspend…" in response.text


@pytest.mark.parametrize("answer", ["decline"])
def test_an_invitation_can_be_declined_and_the_seat_opens(client, alice, bob, answer):
    from games.models import Outbox, Seat

    game = game_create(creator=alice, game="azul", players=2, invite=[bob.email])
    token = Outbox.objects.get(game=game, kind=NoticeKind.INVITATION).payload["token"]
    page = client.get(f"/invite/{token}/")
    assert "Bob (invited)" in page.text and "no time limit" in page.text
    declined = client.post(f"/invite/{token}/", {"answer": answer}, follow=True)
    assert "You declined the invitation" in declined.text
    assert game.seats.filter(status=Seat.Status.OPEN).count() == 1
    assert game.status == Game.Status.OPEN


def test_a_moderator_sees_the_way_to_moderation_in_the_header(client, alice, bob):
    bob.is_staff = True
    bob.save()
    bob.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    client.force_login(alice)
    assert 'id="moderation-link"' not in client.get("/lobby/").text
    client.force_login(bob)
    page = client.get("/lobby/").text
    assert 'href="/admin/" id="moderation-link"' in page
    for link in ("/leaderboard/", "/archive/", "/players/me/", "/account/"):
        assert f'href="{link}"' in page


@pytest.mark.django_db
def test_every_page_links_the_rest_of_the_site_and_the_api_docs_in_its_footer(client, alice):
    everywhere = ["/tournaments/", "/leaderboard/", "/archive/", "/api/docs/"]
    for path in ["/", "/signin/", "/leaderboard/", "/games/abc/"]:
        footer = client.get(path, follow=True).text.split('<footer class="site">')[1]
        assert all(f'href="{link}"' in footer for link in everywhere), path
        assert 'href="/players/me/"' not in footer
    client.force_login(alice)
    for path in ["/lobby/", "/games/new/", "/account/", "/players/me/"]:
        footer = client.get(path, follow=True).text.split('<footer class="site">')[1]
        assert all(f'href="{link}"' in footer for link in [*everywhere, "/players/me/"]), path
    assert client.get("/api/docs/").status_code == 200
