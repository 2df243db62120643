"""The inbound-mail webhook: refused while the site has no secret (and ``check`` says so),
refused without the right basic auth, and checked against the provider's signature where
anymail knows it; emailed replies are rate-limited per sender."""

import base64
import hashlib
import hmac
import json
import os
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
from django.core import checks
from django.core.management import call_command

from games import throttles
from games.mail import services as mail
from games.models import InboundMessage
from games.services.sweep import sweep
from tests.mail.conftest import player_to_move, start_game

pytestmark = pytest.mark.django_db

POSTMARK = "/mail/anymail/postmark/inbound/"
RAW = (
    "From: mallory@example.com\r\nTo: play+nothing@localhost\r\nSubject: 1\r\n"
    "Message-ID: <{number}@example.com>\r\n\r\n1\r\n"
)


def postmark_body(number: int = 1) -> str:
    raw = RAW.format(number=number)
    return json.dumps({"RecordType": "Inbound", "RawEmail": raw, "Headers": []})


def basic(credentials: str) -> str:
    return "Basic " + base64.b64encode(credentials.encode()).decode()


def test_without_a_secret_every_post_is_refused_and_nothing_is_read(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    response = client.post(
        POSTMARK, postmark_body(), content_type="application/json", HTTP_AUTHORIZATION=basic("a:b")
    )
    assert response.status_code == 403
    assert response.json()["code"] == "webhook_disabled"
    assert "ANYMAIL_WEBHOOK_SECRET" in response.json()["message"]
    assert not InboundMessage.objects.exists()


def test_the_checks_say_so_at_startup(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    found = [message.id for message in checks.run_checks(tags=[checks.Tags.security])]
    assert "games.W001" in found
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    assert "games.W001" not in [m.id for m in checks.run_checks(tags=[checks.Tags.security])]


@pytest.mark.parametrize("auth", [None, "hook:wrong", "hook:secre", "hook:secret2", ""])
def test_a_wrong_or_missing_secret_is_refused(client, settings, auth):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    headers = {"HTTP_AUTHORIZATION": basic(auth)} if auth is not None else {}
    response = client.post(POSTMARK, postmark_body(), content_type="application/json", **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Basic")
    assert not InboundMessage.objects.exists()


def test_the_right_secret_lets_the_reply_in(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    response = client.post(
        POSTMARK,
        postmark_body(),
        content_type="application/json",
        HTTP_AUTHORIZATION=basic("hook:secret"),
    )
    assert response.status_code == 200
    assert InboundMessage.objects.get().sender == "mallory@example.com"


def mailgun_form(key: bytes, *, forged: bool) -> dict:
    timestamp, token = "1800000000", "a" * 50
    signature = hmac.new(key, f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {
        "timestamp": timestamp,
        "token": token,
        "signature": "0" * 64 if forged else signature,
        "body-mime": RAW.format(number=7),
        "recipient": "play+nothing@localhost",
    }


def test_the_provider_signature_is_checked_where_anymail_supports_one(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": "k3y"}
    auth = {"HTTP_AUTHORIZATION": basic("hook:secret")}
    url = "/mail/anymail/mailgun/inbound_mime/"
    forged = client.post(url, mailgun_form(b"k3y", forged=True), **auth)
    assert forged.status_code == 400
    assert not InboundMessage.objects.exists()
    signed = client.post(url, mailgun_form(b"k3y", forged=False), **auth)
    assert signed.status_code == 200
    assert InboundMessage.objects.count() == 1


def test_replies_from_one_sender_are_counted_and_a_flood_is_ignored(monkeypatch):
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: 1_800_000_000))
    limit = int(throttles.REPLIES_PER_SENDER.split("/")[0])
    outcomes = [
        mail.reply_receive(raw=RAW.format(number=number).encode()) for number in range(limit + 3)
    ]
    assert all(outcome.startswith("refused") for outcome in outcomes[:limit])
    assert all("too many replies" in outcome for outcome in outcomes[limit:])
    other = RAW.replace("mallory", "trent").format(number=999).encode()
    assert mail.reply_receive(raw=other).startswith("refused")


def test_receive_email_needs_no_secret(settings, tmp_path, monkeypatch):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    message = tmp_path / "reply.eml"
    message.write_text(RAW.format(number=5))
    monkeypatch.setattr("sys.stdin", SimpleNamespace(buffer=message.open("rb")))
    call_command("receive_email")
    assert InboundMessage.objects.count() == 1


def reply_with_a_photo(player, reply_to: str, megabytes: int = 3) -> bytes:
    """The player's reply "1", with a photo of that size attached."""
    message = EmailMessage()
    message["From"] = f"Player <{player.email}>"
    message["To"] = reply_to
    message["Subject"] = "Re: your turn"
    message["Message-ID"] = f"<photo.{megabytes}@example.com>"
    message.set_content("1\n\nHere is the board as I see it.\n")
    message.add_attachment(
        os.urandom(megabytes * 1024 * 1024), maintype="image", subtype="jpeg", filename="b.jpg"
    )
    return message.as_bytes()


@pytest.fixture
def waiting_reply(alice, bob, smtp, settings):
    """The player to move and the reply address of their turn email; the webhook on."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": "k3y"}
    game = start_game(alice, bob)
    player = player_to_move(game)
    sweep()
    turn = [m for m in smtp.to(player.email) if m["Reply-To"]][-1]
    return game, player, str(turn["Reply-To"])


@pytest.mark.django_db(transaction=True)
def test_a_reply_with_a_photo_posted_as_json_is_played(client, waiting_reply):
    game, player, reply_to = waiting_reply
    raw = reply_with_a_photo(player, reply_to).decode()
    body = json.dumps({"RecordType": "Inbound", "RawEmail": raw, "Headers": []})
    assert len(body) > 3_000_000
    response = client.post(
        POSTMARK, body, content_type="application/json", HTTP_AUTHORIZATION=basic("hook:secret")
    )
    assert response.status_code == 200
    assert InboundMessage.objects.get().outcome.startswith("played")
    assert player_to_move(game) != player


@pytest.mark.django_db(transaction=True)
def test_a_reply_with_a_photo_posted_as_a_form_is_played(client, waiting_reply):
    game, player, reply_to = waiting_reply
    form = {
        **mailgun_form(b"k3y", forged=False),
        "body-mime": reply_with_a_photo(player, reply_to).decode(),
    }
    response = client.post(
        "/mail/anymail/mailgun/inbound_mime/", form, HTTP_AUTHORIZATION=basic("hook:secret")
    )
    assert response.status_code == 200, response.content
    assert InboundMessage.objects.get().outcome.startswith("played")
    assert player_to_move(game) != player


def test_past_the_webhooks_own_limit_a_post_gets_413_and_other_doors_keep_djangos(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    settings.MAIL_WEBHOOK_MAX_BYTES = 1_000_000
    big = json.dumps({"RecordType": "Inbound", "RawEmail": "x" * 1_000_001, "Headers": []})
    response = client.post(
        POSTMARK, big, content_type="application/json", HTTP_AUTHORIZATION=basic("hook:secret")
    )
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"
    unauthenticated = client.post(POSTMARK, big, content_type="application/json")
    assert unauthenticated.status_code == 401
    elsewhere = client.post("/signin/", {"email": "x" * 3_000_000})
    assert elsewhere.status_code == 400
    assert not InboundMessage.objects.exists()


def test_a_mangled_form_post_is_refused_without_an_error(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": "k3y"}
    response = client.post(
        "/mail/anymail/mailgun/inbound_mime/",
        b"--xx\r\nnot a part",
        content_type="multipart/form-data; boundary=xx",
        HTTP_AUTHORIZATION=basic("hook:secret"),
    )
    assert response.status_code == 400
