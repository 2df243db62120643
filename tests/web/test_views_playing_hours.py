"""Playing hours on the server-rendered pages (issue 32): joining with one's own hours,
the account page's hours, refusals said on the page (never a 500)."""

import pytest

from games.models import PlayerSettings
from games.services.tables import invitation_token
from tests.games.helpers import open_with_playing_hours

pytestmark = pytest.mark.django_db


def test_the_join_form_offers_the_players_hours_and_takes_the_seat_with_those_typed(
    client, alice, bob
):
    game = open_with_playing_hours(alice)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").text
    assert 'name="hours_start" value="08:00"' in page
    response = client.post(
        f"/games/{game.pk}/join/", {"hours_start": "19:00", "hours_end": "01:00"}, follow=True
    )
    assert response.status_code == 200
    assert game.seats.get(user=bob).playing_hours == {
        "start": "19:00",
        "end": "01:00",
        "zone": "UTC",
    }


def test_joining_with_empty_hours_is_refused_on_the_page(client, alice, bob):
    game = open_with_playing_hours(alice)
    client.force_login(bob)
    response = client.post(
        f"/games/{game.pk}/join/", {"hours_start": "10:00", "hours_end": "10:00"}, follow=True
    )
    assert "are empty" in response.text
    assert not game.seats.filter(user=bob).exists()


def test_the_account_page_keeps_the_hours_offered_when_taking_a_seat(client, alice):
    client.force_login(alice)
    response = client.post(
        "/account/",
        {
            "language": "",
            "time_zone": "Europe/Warsaw",
            "hours_start": "07:15",
            "hours_end": "21:45",
        },
    )
    assert response.status_code == 302
    prefs = PlayerSettings.objects.get(user=alice)
    assert (prefs.hours_start, prefs.hours_end) == ("07:15", "21:45")
    assert 'value="07:15"' in client.get("/account/").text


def test_short_hours_on_the_account_page_are_refused_in_polish(client, alice):
    client.force_login(alice)
    response = client.post(
        "/account/",
        {"language": "pl", "time_zone": "UTC", "hours_start": "10:00", "hours_end": "12:00"},
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    assert response.status_code == 400
    assert "są za krótkie" in response.text
    assert PlayerSettings.objects.get_or_create(user=alice)[0].hours_start == "08:00"


def test_an_invited_player_accepts_with_the_hours_they_type(client, alice, bob):
    game = open_with_playing_hours(alice, invite=[bob.email])
    token = invitation_token(game.seats.get(invited_email=bob.email))
    client.force_login(bob)
    assert 'name="hours_end" value="22:00"' in client.get(f"/invite/{token}/").text
    client.post(f"/invite/{token}/", {"hours_start": "12:00", "hours_end": "23:00"})
    assert game.seats.get(user=bob).playing_hours["start"] == "12:00"


def test_hours_in_arabic_indic_or_fullwidth_digits_are_refused_on_the_pages(client, alice, bob):
    game = open_with_playing_hours(alice)
    client.force_login(bob)
    joined = client.post(
        f"/games/{game.pk}/join/", {"hours_start": "٠٩:٠٠", "hours_end": "22:00"}, follow=True
    )
    assert joined.status_code == 200
    assert "with the digits 0 to 9" in joined.text
    assert not game.seats.filter(user=bob).exists()
    account = {"language": "", "time_zone": "UTC", "hours_start": "０９:００", "hours_end": "22:00"}
    response = client.post("/account/", account)
    assert response.status_code == 400
    assert "with the digits 0 to 9" in response.text
    assert PlayerSettings.objects.get_or_create(user=bob)[0].hours_start == "08:00"
