"""An invitation-only tournament (issue 31): the organiser lists email addresses at
creation; each is sent an invitation whose link only opens the tournament's page; only
the invited addresses (and the organiser) may join, by a POST."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.errors import BadRequest, Forbidden
from games.models import NoticeKind, Outbox, RefusedAddress, Tournament
from games.notify.channels import loop
from games.notify.channels.email import render
from games.services.tables import INVITATIONS_PER_DAY, game_create
from games.services.tournaments.entry import tournament_create, tournament_join
from tests.conftest import make_user
from tests.games.api_helpers import client_for, post
from tests.privacy.people import signed_up_by_link
from tests.tournaments.test_api import SWISS
from tests.tournaments.test_pages import signed_in
from tests.tournaments.test_services import players

pytestmark = pytest.mark.django_db


def invitation_only(organiser, invited) -> Tournament:
    return tournament_create(
        organiser=organiser, public=False, invited=invited, **{**SWISS, "name": "Club cup"}
    )


def test_invited_addresses_get_a_link_that_only_opens_the_page_and_only_they_may_join():
    alice, bob, carol = players(3)
    tournament = invitation_only(alice, [bob.email.upper(), " " + bob.email, "new@example.org"])
    rows = list(Outbox.objects.filter(kind=NoticeKind.TOURNAMENT_INVITATION).order_by("pk"))
    assert [row.recipient for row in rows] == [bob.email.lower(), "new@example.org"]
    message = render.message(rows[0], timezone.now())
    assert message.subject == "Player1 invites you to the tournament Club cup"
    link = f"/tournaments/{tournament.pk}/"
    assert link in message.body and "/join/" not in message.body
    # Opening the link changes nothing; joining is the page's button (a POST).
    page = signed_in(bob).get(link).content.decode()
    assert Tournament.objects.get(pk=tournament.pk).players == 0
    assert f'action="{link}join/"' in page
    assert f'action="{link}join/"' not in signed_in(carol).get(link).content.decode()
    with pytest.raises(Forbidden, match="by invitation only"):
        tournament_join(tournament=tournament, user=carol)
    refused = post(client_for(carol), f"/api/tournaments/{tournament.pk}/join/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_invited"
    tournament_join(tournament=tournament, user=bob)
    tournament_join(tournament=tournament, user=alice)
    # Someone who signs up later with an invited address (as sign-up goes: the sign-in
    # page, the email, its link) may join too, however they spell it.
    _client, newcomer = signed_up_by_link("New@Example.org")
    tournament_join(tournament=tournament, user=newcomer)
    tournament.refresh_from_db()
    assert tournament.players == 3


def test_bad_invitations_are_refused_saying_what_is_accepted():
    (alice,) = players(1)
    with pytest.raises(BadRequest, match="not-an-address is not an email address"):
        invitation_only(alice, ["not-an-address"])
    response = post(
        client_for(alice), "/api/tournaments/", {**SWISS, "invited": ["bob@example.org"]}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invitations_need_invitation_only"
    assert not Tournament.objects.exists()


def test_the_form_invites_addresses_one_per_line():
    (alice,) = players(1)
    answer = signed_in(alice).post(
        "/tournaments/new/",
        {
            "name": "Friends",
            "format": "round_robin",
            "game": "azul",
            "players": 2,
            "time_control": "none",
            "max_players": 8,
            "invited": "bob@example.org\ncarol@example.org, dan@example.org",
        },
    )
    assert answer.status_code == 302
    addresses = Outbox.objects.filter(kind=NoticeKind.TOURNAMENT_INVITATION)
    assert sorted(addresses.values_list("recipient", flat=True)) == [
        "bob@example.org",
        "carol@example.org",
        "dan@example.org",
    ]


def test_tournament_invitations_count_with_game_invitations_against_one_days_limit():
    alice, bob = players(2)
    client = client_for(alice)
    too_many = [f"friend{number}@example.org" for number in range(INVITATIONS_PER_DAY + 1)]
    refused = post(client, "/api/tournaments/", {**SWISS, "public": False, "invited": too_many})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_invited"
    assert f"at most {INVITATIONS_PER_DAY} addresses" in refused.json()["message"]
    for number in range(INVITATIONS_PER_DAY // 3 - 1):
        invite = [f"guest{number}-{seat}@example.org" for seat in range(3)]
        game_create(creator=alice, game="azul", players=4, invite=invite)
    invitation_only(alice, ["a@example.org", "b@example.org"])
    body = {**SWISS, "public": False, "invited": ["c@example.org", "d@example.org"]}
    refused = post(client, "/api/tournaments/", body)
    assert refused.status_code == 429 and refused.json()["code"] == "invitations_throttled"
    assert "make the tournament public" in refused.json()["message"]
    assert 0 < int(refused["Retry-After"]) <= 86400
    two = {"game": "azul", "players": 3, "invite": ["e@example.org", "f@example.org"]}
    refused = post(client, "/api/games/", two)
    assert refused.status_code == 429, "a game's invitation counts the tournament's too"
    assert Tournament.objects.count() == 1
    assert Outbox.objects.filter(recipient__in=["c@example.org", "e@example.org"]).count() == 0
    invitation_only(bob, ["c@example.org"])


def test_an_address_without_an_account_can_refuse_every_email_from_the_site():
    alice, bob = players(2)
    invitation_only(alice, ["stranger@example.org", bob.email])
    row = Outbox.objects.get(recipient="stranger@example.org")
    message = render.message(row, timezone.now())
    link = re.search(r"(http\S+/mail/unsubscribe/\S+/)\n", message.body)[1]
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    path = link.removeprefix(settings.SITE_URL)
    page = Client().get(path)
    assert "Stop every email from azulsite to this address?" in page.content.decode()
    assert not RefusedAddress.objects.exists(), "opening the link refuses nothing"
    answered = Client(enforce_csrf_checks=True).post(path)
    assert "azulsite will send nothing more to this address" in answered.content.decode()
    assert loop.send(delivery_id=row.pk) == "skipped"
    game_create(creator=alice, game="azul", players=2, invite=["Stranger@Example.org"])
    invitation_only(make_user("dave"), ["stranger@example.org"])
    to_the_game = Outbox.objects.get(recipient="stranger@example.org", kind=NoticeKind.INVITATION)
    assert "No more email from azulsite" in render.message(to_the_game, timezone.now()).body
    later = Outbox.objects.filter(recipient="stranger@example.org").exclude(pk=row.pk)
    assert [loop.send(delivery_id=each.pk) for each in later] == ["skipped", "skipped"]
    assert not Outbox.objects.filter(recipient="stranger@example.org", cancelled_at=None).exists()
    assert set(later.values_list("withdrawn_because", flat=True)) == {
        "the address refused all email"
    }
    bobs = render.message(Outbox.objects.get(recipient=bob.email), timezone.now())
    assert "/mail/unsubscribe/" in bobs.extra_headers["List-Unsubscribe"]
    assert "No more email from azulsite to this address" not in bobs.body
