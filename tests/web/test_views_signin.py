"""Signing in by email: the email goes through the outbox (HTML and text, automatic, its
link on SITE_URL), the link's GET shows a button, its POST signs in; the code never rides
in a path or query; bad links get a clear page; limits answer the same neutral page;
staff keep passwords, rate-limited; signing out is a POST."""

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client, RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import throttles
from games.mail import services as mail_services
from games.models import NoticeKind, Outbox
from games.notify.channels import loop
from games.notify.channels.email import tokens
from games.notify.channels.email.addresses import account_identity
from games.services.accounts import sign_in_request
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def deliver() -> None:
    """What the worker does: send the sign-in emails waiting in the outbox."""
    for pk in Outbox.objects.filter(kind=NoticeKind.SIGN_IN, sent_at__isnull=True).values_list(
        "pk", flat=True
    ):
        loop.send(delivery_id=pk)


def link_from_mail(to: str | None = None) -> tuple[str, str]:
    """The path (with its query) and the code of the newest sign-in email."""
    deliver()
    message = next(m for m in reversed(mail.outbox) if to is None or m.to == [to])
    found = re.search(r"https://play\.example(/signin/link/\S*)#(\S+)", message.body)
    return found.group(1), found.group(2)


def sign_in_with(client, path_and_code: tuple[str, str]):
    path, code = path_and_code
    next_url = re.search(r"next=([^&#]+)", path)
    return client.post(
        "/signin/link/",
        {"code": code, "next": next_url.group(1).replace("%2F", "/") if next_url else ""},
    )


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://play.example"


@pytest.fixture(autouse=True)
def steady_windows(monkeypatch):
    """Rate-limit windows that do not roll over in the middle of a test."""
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: 1_800_000_000))


def test_asking_for_a_link_queues_an_email_and_creates_no_account(client):
    response = client.post("/signin/", {"email": "Dora@Example.com"})
    assert response.status_code == 200
    assert "Check your email" in response.text
    assert mail.outbox == []
    row = Outbox.objects.get(kind=NoticeKind.SIGN_IN)
    assert row.recipient == "dora@example.com"
    assert not get_user_model().objects.filter(username="dora@example.com").exists()


def test_asking_again_within_the_minute_says_the_earlier_email_still_works(client, monkeypatch):
    start_of_a_minute = timezone.now().replace(second=1)
    monkeypatch.setattr("games.services.accounts.timezone.now", lambda: start_of_a_minute)
    first = client.post("/signin/", {"email": "dora@example.com"})
    assert 'id="already-sent"' not in first.text
    again = client.post("/signin/", {"email": "dora@example.com"})
    assert again.status_code == 200
    assert 'id="already-sent"' in again.text and "it still works" in again.text
    assert Outbox.objects.filter(kind=NoticeKind.SIGN_IN).count() == 1


def test_the_email_has_text_and_html_is_automatic_and_links_to_the_site_url(client):
    client.post("/signin/", {"email": "dora@example.com"}, HTTP_HOST="127.0.0.1")
    deliver()
    message = mail.outbox[-1]
    assert message.to == ["dora@example.com"]
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    html = message.alternatives[0][0]
    assert "https://play.example/signin/link/?next=%2Flobby%2F#" in message.body
    assert 'href="https://play.example/signin/link/?next=%2Flobby%2F#' in html
    assert "127.0.0.1" not in message.body + html


def test_the_code_names_no_address_and_never_rides_in_a_path_or_query(client):
    client.post("/signin/", {"email": "dora@example.com"})
    path, code = link_from_mail()
    assert path == "/signin/link/?next=%2Flobby%2F"
    assert "dora" not in code and "@" not in code
    assert re.fullmatch(r"\d+\.[0-9a-f]{32}", code)


def test_opening_the_link_shows_a_button_and_does_not_sign_in(client, alice):
    client.post("/signin/", {"email": alice.email})
    path, _ = link_from_mail()
    response = client.get(path)
    assert response.status_code == 200
    assert 'id="sign-in"' in response.text
    assert response["Referrer-Policy"] == "same-origin"
    assert "no-store" in response["Cache-Control"]
    assert client.get("/lobby/").status_code == 302


def test_pressing_sign_in_signs_in_and_the_link_then_stops_working(client, alice):
    client.post("/signin/", {"email": alice.email})
    link = link_from_mail()
    response = sign_in_with(client, link)
    assert response.status_code == 302 and response.url == "/lobby/"
    assert client.get("/lobby/").status_code == 200
    client.post("/signout/")
    again = sign_in_with(client, link)
    assert again.status_code == 400
    assert "already been used" in again.text


def test_an_unknown_address_gets_an_account_when_its_link_is_used(client):
    client.post("/signin/", {"email": "dora@example.com"})
    sign_in_with(client, link_from_mail())
    user = get_user_model().objects.get(username="dora@example.com")
    assert user.email == "dora@example.com"
    assert client.get("/lobby/").status_code == 200


@pytest.mark.parametrize("code", ["not-a-real-code", "1.abc", "99999999999999999999.x", ""])
def test_a_forged_code_gets_a_clear_page(client, code):
    client.post("/signin/", {"email": "dora@example.com"})
    response = client.post("/signin/link/", {"code": code})
    assert response.status_code == 400
    assert "not valid" in response.text


def test_a_code_for_another_address_does_not_sign_in(client, alice, bob):
    client.post("/signin/", {"email": alice.email})
    _, code = link_from_mail()
    number, mac = code.split(".")
    Outbox.objects.filter(pk=number).update(recipient=bob.email)
    assert client.post("/signin/link/", {"code": code}).status_code == 400


def test_an_expired_link_gets_a_clear_page(client, alice):
    client.post("/signin/", {"email": alice.email})
    link = link_from_mail()
    Outbox.objects.update(created_at=timezone.now() - timedelta(minutes=31))
    response = sign_in_with(client, link)
    assert response.status_code == 400
    assert "expired" in response.text


def test_a_bad_address_is_refused_without_queueing_mail(client):
    response = client.post("/signin/", {"email": "not an address"})
    assert response.status_code == 200
    assert "Enter a valid email address" in response.text
    assert not Outbox.objects.exists()


def test_the_link_returns_to_a_local_page_only(client, alice):
    client.post("/signin/?next=https://evil.example/", {"email": alice.email})
    assert sign_in_with(client, link_from_mail()).url == "/lobby/"
    client.post("/signout/")
    Outbox.objects.all().delete()
    client.post("/signin/", {"email": alice.email, "next": "/games/new/"})
    assert sign_in_with(client, link_from_mail()).url == "/games/new/"


def test_an_unsubscribed_player_still_gets_the_sign_in_email(client, alice):
    mail_services.unsubscribe(token=tokens.address_token(alice.email))
    client.post("/signin/", {"email": alice.email})
    deliver()
    assert mail.outbox[-1].to == [alice.email]


def test_a_few_emails_per_address_then_the_same_page_and_no_more_email(client, monkeypatch):
    monkeypatch.setattr(timezone, "now", _minutes_apart())
    for _ in range(6):
        response = client.post("/signin/", {"email": "dora@example.com"})
        assert response.status_code == 200 and "Check your email" in response.text
    assert Outbox.objects.filter(kind=NoticeKind.SIGN_IN).count() == 3


def test_a_few_emails_per_client_address_then_the_same_page(client, monkeypatch):
    monkeypatch.setattr(timezone, "now", _minutes_apart())
    for number in range(12):
        response = client.post("/signin/", {"email": f"someone{number}@example.com"})
        assert "Check your email" in response.text
    assert Outbox.objects.filter(kind=NoticeKind.SIGN_IN).count() == 10


def test_a_flood_of_sign_in_requests_gets_429_with_retry_after(client):
    statuses = [client.post("/signin/", {"email": "x@example.com"}).status_code for _ in range(25)]
    assert statuses.count(200) == 20 and statuses[20:] == [429] * 5
    response = client.post("/signin/", {"email": "x@example.com"})
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert "Too many tries" in response.text
    other = client.post("/signin/", {"email": "x@example.com"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200


def test_guessing_codes_is_rate_limited(client):
    statuses = [client.post("/signin/link/", {"code": f"{n}.x"}).status_code for n in range(22)]
    assert statuses[:20] == [400] * 20 and statuses[20:] == [429, 429]


def _minutes_apart():
    """``timezone.now`` a minute later at every call: each request is its own email."""
    start, calls = timezone.localtime(), []

    def now():
        calls.append(None)
        return start + timedelta(minutes=len(calls))

    return now


def test_anyone_with_a_password_is_offered_the_password_form_not_only_staff(client):
    page = client.get("/signin/").text
    assert "Staff" not in page
    assert 'Have a password? <a href="/signin/password/">Sign in with it</a>.' in page


def test_staff_sign_in_with_a_password_and_sign_out_with_a_post(client, alice):
    form = client.get("/signin/password/").text
    assert "Your email address" in form and "Username" not in form
    response = client.post("/signin/password/", {"username": alice.email, "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get("/lobby/").status_code == 200
    assert client.get("/signout/").status_code == 405
    client.post("/signout/")
    assert client.get("/lobby/").status_code == 302


def test_wrong_passwords_are_rate_limited_per_account_even_before_the_right_one(client, alice):
    for _ in range(5):
        wrong = client.post("/signin/password/", {"username": alice.email, "password": "guess"})
        assert wrong.status_code == 200
    right = client.post("/signin/password/", {"username": alice.email, "password": "pw-alice"})
    assert right.status_code == 429
    assert int(right["Retry-After"]) > 0
    assert client.get("/lobby/").status_code == 302


def test_password_tries_are_rate_limited_per_client_address(client):
    statuses = [
        client.post(
            "/signin/password/", {"username": f"u{n}@example.com", "password": "x"}
        ).status_code
        for n in range(21)
    ]
    assert statuses[:20] == [200] * 20 and statuses[20] == 429


def test_behind_proxies_the_limits_count_the_address_the_proxy_saw(rf, settings):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="10.0.0.1")
    assert throttles.client_ip(request) == "10.0.0.1"
    settings.NUM_PROXIES = 1
    assert throttles.client_ip(request) == "203.0.113.9"
    settings.NUM_PROXIES = 2
    assert throttles.client_ip(request) == "6.6.6.6"


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_for_one_address_queue_one_email_a_minute():
    def ask(_):
        try:
            sign_in_request(email="dora@example.com")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(ask, range(16)))
    rows = Outbox.objects.filter(kind=NoticeKind.SIGN_IN).count()
    assert 1 <= rows <= 2  # one, or two if the minute turned meanwhile


# Spellings of alice@example.com: each is the same account to the sign-in (Django's form
# reads a username in Unicode's compatibility form), so each counts against one limit.
SAME_ACCOUNT = {
    "fullwidth": "ａｌｉｃｅ@example.com",
    "mixed case": "Alice@Example.COM",
    "compatibility": "𝐚lice@ｅｘａｍｐｌｅ.com",
    "spaced": "  alice@example.com ",
}
# A confusable (Cyrillic а) is another account: it must not open alice's.
CONFUSABLE = "аlice@example.com"


@pytest.mark.parametrize("spelling", list(SAME_ACCOUNT.values()), ids=list(SAME_ACCOUNT))
def test_every_spelling_of_an_account_is_the_one_the_limit_counts(spelling):
    assert account_identity(spelling) == "alice@example.com"
    assert account_identity(CONFUSABLE) != "alice@example.com"


@pytest.mark.parametrize(
    "spelling", [*SAME_ACCOUNT.values(), CONFUSABLE], ids=[*SAME_ACCOUNT, "confusable"]
)
def test_after_five_wrong_passwords_no_look_alike_spelling_signs_in(client, alice, spelling):
    for _ in range(5):
        client.post("/signin/password/", {"username": alice.email, "password": "guess"})
    right = client.post("/signin/password/", {"username": spelling, "password": "pw-alice"})
    assert right.status_code == (429 if spelling != CONFUSABLE else 200)
    assert client.get("/lobby/").status_code == 302


def test_wrong_passwords_under_look_alike_spellings_count_against_the_account(client, alice):
    for spelling in [*SAME_ACCOUNT.values(), "ＡＬＩＣＥ@EXAMPLE.COM"]:
        client.post("/signin/password/", {"username": spelling, "password": "guess"})
    right = client.post("/signin/password/", {"username": alice.email, "password": "pw-alice"})
    assert right.status_code == 429


def test_any_spelling_of_the_account_signs_in_with_the_right_password(client, alice):
    response = client.post(
        "/signin/password/", {"username": SAME_ACCOUNT["fullwidth"], "password": "pw-alice"}
    )
    assert response.status_code == 302
    assert client.get("/lobby/").status_code == 200


def test_the_admin_sign_in_is_limited_per_account_like_the_sites(client, alice):
    alice.is_staff = True
    alice.save()
    for _ in range(5):
        client.post("/admin/login/", {"username": alice.email, "password": "guess"})
    right = client.post(
        "/admin/login/", {"username": SAME_ACCOUNT["fullwidth"], "password": "pw-alice"}
    )
    assert right.status_code == 429
    assert client.get("/admin/").status_code == 302


def test_the_api_token_is_limited_per_account_whatever_the_spelling(alice, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "token-account", "3/hour")
    api = APIClient()
    for _ in range(3):
        api.post("/api/token/", {"email": alice.email, "password": "guess"}, format="json")
    right = api.post(
        "/api/token/", {"email": "Alice@Example.com", "password": "pw-alice"}, format="json"
    )
    assert right.status_code == 429


def test_sign_in_emails_to_spellings_of_one_address_count_as_one_address(client):
    for spelling in ("dora@example.com", "Dora@example.com", "dora@ｅｘａｍｐｌｅ.com"):
        client.post("/signin/", {"email": spelling})
    rows = Outbox.objects.filter(kind=NoticeKind.SIGN_IN)
    assert set(rows.values_list("recipient", flat=True)) == {"dora@example.com"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("new_account", [False, True], ids=["existing account", "new account"])
def test_ten_simultaneous_posts_of_one_code_sign_in_once(new_account, settings):
    settings.SITE_URL = "https://play.example"
    email = "dora@example.com" if new_account else make_user("erin").email
    Client().post("/signin/", {"email": email})
    path_and_code = link_from_mail(email)
    start = threading.Barrier(10)

    def post(_):
        client = Client()
        try:
            start.wait()
            return sign_in_with(client, path_and_code).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(post, range(10)))
    assert statuses.count(302) == 1, statuses
    assert set(statuses) == {302, 400}
    assert get_user_model().objects.filter(username=email).count() == 1


def cut_the_cache(settings) -> None:
    """The rate limits' cache unreachable (nothing listens on port 1), configured as
    production's Redis is: errors ignored and logged, a short time to connect."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.2,
                "SOCKET_TIMEOUT": 0.2,
            },
        }
    }


@pytest.fixture
def cache_down(settings):
    cut_the_cache(settings)


def test_with_the_cache_down_password_tries_are_refused_for_a_minute(client, alice, cache_down):
    response = client.post("/signin/password/", {"username": alice.email, "password": "pw-alice"})
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert "try again in a minute" in response.text
    assert client.get("/lobby/").status_code == 302
    admin = client.post("/admin/login/", {"username": alice.email, "password": "pw-alice"})
    assert admin.status_code == 503


def test_with_the_cache_down_no_sign_in_email_goes_out(client, cache_down):
    response = client.post("/signin/", {"email": "dora@example.com"})
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert not Outbox.objects.exists()
    assert not throttles.sign_in_email_allowed(RequestFactory().post("/"), "dora@example.com")


def test_with_the_cache_down_pages_and_links_already_sent_still_work(client, alice, settings):
    client.post("/signin/", {"email": alice.email})
    link = link_from_mail()
    cut_the_cache(settings)
    assert client.get("/signin/").status_code == 200
    assert sign_in_with(client, link).status_code == 302
    assert client.get("/lobby/").status_code == 200


def test_with_the_cache_down_the_api_token_is_refused_and_reads_go_on(alice, cache_down):
    api = APIClient()
    token = api.post("/api/token/", {"email": alice.email, "password": "pw-alice"}, format="json")
    assert token.status_code == 429 and token["Retry-After"] == "60"
    assert api.get("/api/games/999999/").status_code == 404
