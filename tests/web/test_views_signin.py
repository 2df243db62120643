"""Signing in by email: the link's GET shows a button, its POST signs in; bad links get a
clear page; staff keep passwords; signing out is a POST."""

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import mail

from games import services
from games.services import accounts


def link_from_mail() -> str:
    return re.search(r"http://testserver(/signin/link/\S+)", mail.outbox[-1].body).group(1)


def test_asking_for_a_link_sends_it_at_once_and_creates_no_account(client, db):
    response = client.post("/signin/", {"email": "Dora@Example.com"})
    assert response.status_code == 200
    assert "Check your email" in response.text
    assert mail.outbox[-1].to == ["dora@example.com"]
    assert "/signin/link/" in mail.outbox[-1].body
    assert not get_user_model().objects.filter(username="dora@example.com").exists()


def test_opening_the_link_shows_a_button_and_does_not_sign_in(client, alice):
    client.post("/signin/", {"email": alice.email})
    response = client.get(link_from_mail())
    assert response.status_code == 200
    assert 'id="sign-in"' in response.text
    assert client.get("/lobby/").status_code == 302


def test_pressing_sign_in_signs_in_and_the_link_then_stops_working(client, alice):
    client.post("/signin/", {"email": alice.email})
    link = link_from_mail()
    response = client.post(link)
    assert response.status_code == 302 and response.url == "/lobby/"
    assert client.get("/lobby/").status_code == 200
    client.post("/signout/")
    again = client.post(link)
    assert again.status_code == 400
    assert "already been used" in again.text


def test_an_unknown_address_gets_an_account_when_its_link_is_used(client, db):
    client.post("/signin/", {"email": "dora@example.com"})
    client.post(link_from_mail())
    user = get_user_model().objects.get(username="dora@example.com")
    assert user.email == "dora@example.com"
    assert client.get("/lobby/").status_code == 200


def test_a_forged_link_gets_a_clear_page(client, db):
    response = client.post("/signin/link/not-a-real-token/")
    assert response.status_code == 400
    assert "not valid" in response.text


def test_an_expired_link_gets_a_clear_page(client, alice, monkeypatch):
    token = services.sign_in_token(email=alice.email)
    monkeypatch.setattr(accounts, "SIGN_IN_MAX_AGE", timedelta(seconds=-1))
    response = client.post(f"/signin/link/{token}/")
    assert response.status_code == 400
    assert "expired" in response.text


def test_a_bad_address_is_refused_without_sending_mail(client, db):
    response = client.post("/signin/", {"email": "not an address"})
    assert response.status_code == 200
    assert "Enter a valid email address" in response.text
    assert mail.outbox == []


def test_the_link_returns_to_a_local_page_only(client, alice):
    client.post("/signin/?next=https://evil.example/", {"email": alice.email})
    assert client.post(link_from_mail()).url == "/lobby/"
    client.post("/signout/")
    client.post("/signin/", {"email": alice.email, "next": "/games/new/"})
    assert client.post(link_from_mail()).url == "/games/new/"


def test_staff_sign_in_with_a_password_and_sign_out_with_a_post(client, alice):
    response = client.post("/signin/password/", {"username": alice.email, "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get("/lobby/").status_code == 200
    assert client.get("/signout/").status_code == 405
    client.post("/signout/")
    assert client.get("/lobby/").status_code == 302
