"""API tokens on the account page (issue 53): a person who signed up by the emailed link,
and so has no password for ``POST /api/token/``, makes a named token, sees it once, uses it,
sees it listed, revokes it, and the API refuses it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from games.models import ApiToken, NoticeKind, Outbox
from games.notify.channels import loop
from games.services import data_export_files
from games.services.tokens import MOST_TOKENS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://play.example"


def signed_up_by_link(address: str) -> Client:
    """Sign up as a newcomer does: ask for a link, follow the emailed link, press the
    button."""
    client = Client(enforce_csrf_checks=True)
    page = client.get("/signin/")
    client.post("/signin/", {"email": address, "csrfmiddlewaretoken": csrf(client, page)})
    for row in Outbox.objects.filter(kind=NoticeKind.SIGN_IN, sent_at__isnull=True):
        loop.send(delivery_id=row.pk)
    body = next(m for m in reversed(mail.outbox) if m.to == [address]).body
    code = re.search(r"/signin/link/\S*#(\S+)", body).group(1)
    page = client.get("/signin/link/")
    signed_in = client.post(
        "/signin/link/", {"code": code, "csrfmiddlewaretoken": csrf(client, page)}
    )
    assert signed_in.status_code == 302
    return client


def csrf(client: Client, page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)


def account_post(client: Client, path: str, data: dict):
    """A POST from the account page's form, with its CSRF token."""
    page = client.get("/account/")
    return client.post(path, {**data, "csrfmiddlewaretoken": csrf(client, page)})


def new_key(page) -> str:
    return re.search(r'id="new-token-key" value="([^"]+)"', page.text).group(1)


def api_with(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def test_a_person_signed_up_by_link_makes_a_token_uses_it_and_revokes_it():
    client = signed_up_by_link("dora@example.com")
    dora = get_user_model().objects.get(email="dora@example.com")
    refused = APIClient().post(
        "/api/token/", {"email": "dora@example.com", "password": "anything"}, format="json"
    )
    assert refused.status_code == 400, "no password: the account page is the way"
    assert "You have no API token." in client.get("/account/").text

    made = account_post(client, "/account/tokens/", {"name": "  my   bot "})

    assert made.status_code == 200
    assert "Copy it now: it is shown only this once." in made.text
    key = new_key(made)
    assert key.startswith("azs_") and len(key) > 40
    token = ApiToken.objects.get(user=dora)
    assert token.name == "my bot" and key not in (token.digest, token.hint)
    assert 'action="/account/" class="card narrow"' in made.text, "the settings still save"
    page = client.get("/account/").text
    assert key not in page, "shown once"
    assert "my bot" in page and "never used" in page and f"begins {key[:8]}…" in page

    api = api_with(key)
    created = api.post("/api/games/", {"game": "azul", "players": 2}, format="json")
    assert created.status_code == 201
    listed = api.get("/api/games/?filter=active")
    assert listed.status_code == 200
    assert [game["id"] for game in listed.json()["results"]] == [created.json()["id"]]
    assert "last used" in client.get("/account/").text

    revoked = account_post(client, f"/account/tokens/{token.pk}/revoke/", {})

    assert revoked.status_code == 302 and revoked["Location"] == "/account/#api-tokens"
    page = client.get("/account/").text
    assert "The token “my bot” is revoked: the API refuses it from now on." in page
    after = api.get("/api/games/")
    assert after.status_code == 401
    assert "/account/#api-tokens" in after.json()["message"]


def test_token_actions_are_posts_with_the_pages_csrf_token():
    client = signed_up_by_link("dora@example.com")
    assert client.get("/account/tokens/").status_code == 405
    assert client.post("/account/tokens/", {"name": "no csrf"}).status_code == 403
    assert not ApiToken.objects.exists()


def test_a_name_is_needed_unused_and_there_is_a_most():
    client = signed_up_by_link("dora@example.com")
    empty = account_post(client, "/account/tokens/", {"name": "   "})
    assert empty.status_code == 400
    assert "Give the token a name, such as the program or device that will use it." in empty.text
    account_post(client, "/account/tokens/", {"name": "phone"})
    again = account_post(client, "/account/tokens/", {"name": "phone"})
    assert again.status_code == 400
    assert "You already have a token named “phone”: choose another name." in again.text
    long = account_post(client, "/account/tokens/", {"name": "x" * 61})
    assert long.status_code == 400 and "at most 60 characters" in long.text
    for number in range(2, MOST_TOKENS + 1):
        assert account_post(client, "/account/tokens/", {"name": f"t{number}"}).status_code == 200
    over = account_post(client, "/account/tokens/", {"name": "one more"})
    assert over.status_code == 400 and "revoke one you no longer use" in over.text


def test_one_persons_token_cannot_be_revoked_by_another(alice):
    client = signed_up_by_link("dora@example.com")
    key = new_key(account_post(client, "/account/tokens/", {"name": "mine"}))
    token = ApiToken.objects.get(name="mine")
    other = Client()
    other.force_login(alice)
    answer = other.post(f"/account/tokens/{token.pk}/revoke/")
    assert answer.status_code == 302
    assert "No such token of yours" in other.get("/account/").text
    assert api_with(key).get("/api/games/").status_code == 200


def test_a_password_token_is_listed_and_revoked_too(alice):
    answer = APIClient().post(
        "/api/token/", {"email": alice.email, "password": "pw-alice"}, format="json"
    )
    key = answer.json()["token"]
    client = Client()
    client.force_login(alice)
    assert "Password token (from POST /api/token/)" in client.get("/account/").text
    client.post("/account/tokens/0/revoke/")
    assert api_with(key).get("/api/games/").status_code == 401


def test_the_download_of_ones_data_lists_ones_tokens_without_their_keys():
    client = signed_up_by_link("dora@example.com")
    key = new_key(account_post(client, "/account/tokens/", {"name": "bot"}))
    dora = get_user_model().objects.get(email="dora@example.com")
    [token] = data_export_files.account(dora)["api_tokens"]
    assert token["name"] == "bot" and token["last_used_at"] is None
    assert key not in str(token) and key[:8] not in str(token)


def test_a_closed_accounts_tokens_are_refused():
    client = signed_up_by_link("dora@example.com")
    key = new_key(account_post(client, "/account/tokens/", {"name": "bot"}))
    get_user_model().objects.filter(email="dora@example.com").update(is_active=False)
    assert api_with(key).get("/api/games/").status_code == 401
