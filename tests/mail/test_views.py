"""The preferences page and unsubscribe links (GET confirms, POST acts)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import NoticeKind, Outbox, PlayerSettings
from games.notify.channels.email import tokens
from tests.mail.conftest import start_game


@pytest.mark.django_db
def test_the_preferences_link_of_an_email_opens_that_players_page(alice, client):
    page = client.get(f"/mail/preferences/{tokens.address_token(alice.email)}/")
    assert page.status_code == 200
    assert b"alice@example.com" in page.content and b"it is your turn" in page.content


@pytest.mark.django_db
def test_preferences_turn_kinds_off_and_choose_the_digest(alice, client):
    url = f"/mail/preferences/{tokens.address_token(alice.email)}/"
    saved = client.post(
        url, {"action": "save", "kinds": ["your_turn", "game_over"], "daily_digest": "on"}
    )
    assert saved.status_code == 200 and b"saved" in saved.content
    prefs = PlayerSettings.objects.get(user=alice)
    assert prefs.daily_digest
    # The form of the email column alone: the push column keeps its default (every kind).
    assert prefs.channels[NoticeKind.REMINDER] == ["push"]
    assert prefs.channels[NoticeKind.YOUR_TURN] == ["push", "email"]


@pytest.mark.django_db
def test_an_unknown_email_kind_is_refused_with_the_accepted_ones(alice, client):
    client.force_login(alice)
    refused = client.post("/mail/preferences/", {"action": "save", "kinds": ["spam"]})
    assert refused.status_code == 400 and b"accepted: game_started" in refused.content


@pytest.mark.django_db
def test_vacation_starts_and_ends_from_the_preferences_page(alice, client):
    client.force_login(alice)
    assert b"14.0 of 14 days" in client.get("/mail/preferences/").content
    client.post("/mail/preferences/", {"action": "vacation_start"})
    assert PlayerSettings.objects.get(user=alice).vacation_started_at is not None
    client.post("/mail/preferences/", {"action": "vacation_end"})
    assert PlayerSettings.objects.get(user=alice).vacation_started_at is None
    twice = client.post("/mail/preferences/", {"action": "vacation_end"})
    assert twice.status_code == 400 and b"not on vacation" in twice.content


@pytest.mark.django_db
def test_a_preferences_link_with_a_forged_token_opens_nothing(client):
    assert client.get("/mail/preferences/forged/").status_code == 404
    assert client.get("/mail/preferences/").status_code == 404


@pytest.mark.django_db
def test_opening_an_unsubscribe_link_only_asks_to_confirm(alice, client):
    page = client.get(f"/mail/unsubscribe/{tokens.address_token(alice.email)}/")
    assert page.status_code == 200 and b'<form method="post"' in page.content
    assert not PlayerSettings.objects.filter(user=alice, unsubscribed_at__isnull=False).exists()


def same_page(response) -> bytes:
    """A page without what differs on every request whoever asks: the footer's CSRF token
    (masked anew each time) and the address it returns to (the language switcher's
    ``next``, which holds the token of the page's own address)."""
    content = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)
    return re.sub(rb'name="next" value="[^"]*"', b"", content)


@pytest.mark.django_db
def test_one_click_unsubscribe_acts_on_post_and_answers_the_same_for_any_token(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    token = tokens.address_token(alice.email)
    valid = client.post(
        f"/mail/unsubscribe/{token}/",
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    forged = client.post(f"/mail/unsubscribe/{token[:-2]}xx/")
    unknown = client.post(f"/mail/unsubscribe/{tokens.address_token('nobody@example.com')}/")
    assert valid.status_code == forged.status_code == unknown.status_code == 200
    assert same_page(valid) == same_page(forged) == same_page(unknown)
    assert PlayerSettings.objects.get(user=alice).unsubscribed_at is not None
    assert same_page(client.get(f"/mail/unsubscribe/{token}/")) == same_page(
        client.get(f"/mail/unsubscribe/{token[:-2]}xx/")
    )


@pytest.mark.django_db
def test_the_operator_finds_the_emails_in_doubt_in_the_admin(client, alice, bob):
    game = start_game(alice, bob)
    doubtful = Outbox.objects.filter(game=game).first()
    Outbox.objects.filter(pk=doubtful.pk).update(
        in_doubt_at=timezone.now(), cancelled_at=timezone.now()
    )
    operator = get_user_model().objects.create_superuser("root@example.com", "root@x.org", "pw")
    client.force_login(operator)
    page = client.get("/admin/games/outbox/?delivery=in_doubt")
    assert page.status_code == 200
    assert page.context["cl"].result_count == 1
    client.force_login(alice)
    assert client.get("/admin/games/outbox/").status_code == 302


@pytest.mark.django_db
def test_the_short_link_of_an_email_opens_the_players_page_and_a_forged_one_does_not(
    alice, bob, client
):
    token = tokens.player_token(alice.pk, alice.email)
    assert len(token) < 40
    assert "alice" in client.get(f"/mail/preferences/{token}/").content.decode().lower()
    forged = tokens.player_token(alice.pk, bob.email)
    assert client.get(f"/mail/preferences/{forged}/").status_code == 404
