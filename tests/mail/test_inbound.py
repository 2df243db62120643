"""Moving by reply: real RFC 822 replies in the styles of several mail clients."""

import json
import smtplib
import subprocess
import sys
import uuid

import pytest
from aiosmtpd.controller import Controller
from django.db import connection

from games.mail import inbound
from games.mail import services as mail
from games.management.commands.mail_server import ReplyHandler
from games.models import InboundMessage
from games.notify.channels.email import tokens
from games.services.moves import move_submit
from games.services.sweep import sweep
from tests.mail.conftest import (
    ROOT,
    body_of,
    fixture_reply,
    free_port,
    kind_of,
    moves_in,
    of_kind,
    player_to_move,
    start_game,
)

CLIENTS = [
    "gmail.eml",
    "gmail_wrapped.eml",
    "outlook.eml",
    "outlook_desktop.eml",
    "apple_mail.eml",
    "thunderbird.eml",
    "html_only.eml",
]


def new_message_id() -> str:
    return f"<{uuid.uuid4().hex}@mail.example>"


def turn_email(sink, user):
    """The latest email to ``user`` that carries a reply address."""
    sweep()
    return [m for m in sink.to(user.email) if m["Reply-To"]][-1]


def players_reply(fixture: str, player, to: str) -> bytes:
    """The player's reply "1" to the reply address ``to``, as the mail client writes it."""
    return fixture_reply(fixture, FROM=player.email, TO=to, MOVE="1", MESSAGE_ID=new_message_id())


def reply(fixture: str, *, sender: str, to: str, move: str, message_id: str | None = None):
    raw = fixture_reply(
        fixture, FROM=sender, TO=to, MOVE=move, MESSAGE_ID=message_id or new_message_id()
    )
    return mail.reply_receive(raw=raw)


@pytest.fixture
def game(alice, bob, smtp):
    return start_game(alice, bob)


@pytest.mark.parametrize("fixture", CLIENTS)
@pytest.mark.django_db(transaction=True)
def test_a_reply_from_each_mail_client_plays_the_move_by_number(fixture, game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    expected = moves_in(email)[2]
    outcome = reply(fixture, sender=player.email, to=str(email["Reply-To"]), move="3")
    assert outcome == f"played {expected}"
    game.refresh_from_db()
    assert player_to_move(game) != player
    sweep()
    confirmation = of_kind(smtp.to(player.email), "move_confirmed")[-1]
    assert f"Your move {expected} is played" in body_of(confirmation)


@pytest.mark.django_db(transaction=True)
def test_a_reply_in_notation_plays_that_move(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    move = moves_in(email)[-1]
    outcome = reply("gmail.eml", sender=player.email, to=str(email["Reply-To"]), move=move.upper())
    assert outcome == f"played {move}"


@pytest.mark.django_db(transaction=True)
def test_a_reply_from_another_address_is_refused(game, smtp, carol):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    outcome = reply("outlook.eml", sender=carol.email, to=str(email["Reply-To"]), move="1")
    assert outcome.startswith("refused: moves for a seat are taken only")
    assert player_to_move(game) == player
    sweep()
    (answer,) = smtp.to(carol.email)
    assert "not played" in body_of(answer)
    assert "Azul #" not in body_of(answer), "a stranger is not shown the game"


@pytest.mark.django_db(transaction=True)
def test_a_reply_whose_sender_failed_dmarc_is_refused(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = players_reply("gmail.eml", player, str(email["Reply-To"]))
    checked = b"Authentication-Results: mx.play.example; dmarc=fail header.from=example.com\r\n"
    assert "(DMARC failed)" in mail.reply_receive(raw=checked + raw)
    assert player_to_move(game) == player


@pytest.mark.django_db(transaction=True)
def test_the_opponent_cannot_move_with_the_players_reply_address(game, smtp):
    player = player_to_move(game)
    opponent = next(s.user for s in game.seats.all() if s.user != player)
    email = turn_email(smtp, player)
    outcome = reply("gmail.eml", sender=opponent.email, to=str(email["Reply-To"]), move="1")
    assert outcome.startswith("refused")
    assert player_to_move(game) == player


@pytest.mark.django_db(transaction=True)
def test_forged_and_mangled_reply_addresses_are_refused(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    local, domain = address.split("@")
    value, signature = local.removeprefix("play+").split(".")
    game_id, seat, seq = value.split("-")
    forged = f"play+{game_id}-{1 - int(seat)}-{seq}.{signature}@{domain}"
    wrong_signature = f"play+{value}.{'a' * len(signature)}@{domain}"
    for to in (forged, wrong_signature, f"play+{value}@{domain}", "someone@play.example"):
        outcome = reply("gmail.eml", sender=player.email, to=to, move="1")
        assert outcome.startswith("refused: this address does not take moves"), to
    assert player_to_move(game) == player
    sweep()
    refusals = [m for m in smtp.to(player.email) if "not be read" in m["Subject"]]
    assert len(refusals) == 1, "one refusal an hour"


@pytest.mark.django_db(transaction=True)
def test_a_reply_address_survives_a_mail_system_that_lowercases_or_uppercases_it(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    assert reply("apple_mail.eml", sender=player.email.upper(), to=address.upper(), move="1")
    assert player_to_move(game) != player


@pytest.mark.django_db(transaction=True)
def test_a_reply_to_an_old_email_is_refused_with_the_current_position(game, smtp):
    first = player_to_move(game)
    old = turn_email(smtp, first)
    assert reply("gmail.eml", sender=first.email, to=str(old["Reply-To"]), move="1").startswith(
        "played"
    )
    second = player_to_move(game)
    move_submit(game=game, user=second, move=moves_in(turn_email(smtp, second))[0])
    assert player_to_move(game) == first
    outcome = reply("gmail.eml", sender=first.email, to=str(old["Reply-To"]), move="2")
    assert outcome.startswith("refused: the game has moved on")
    sweep()
    refusal = of_kind(smtp.to(first.email), "reply_refused")[-1]
    text = body_of(refusal)
    assert "moved on" in text
    assert "Factory displays" in text, "the refusal shows the position now"
    assert moves_in(refusal), "and the legal moves, with a fresh reply address"
    assert refusal["Reply-To"] != old["Reply-To"]
    assert reply("gmail.eml", sender=first.email, to=str(refusal["Reply-To"]), move="1")
    assert player_to_move(game) == second


@pytest.mark.django_db(transaction=True)
def test_a_repeated_message_id_is_ignored(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    message_id = new_message_id()
    assert reply("gmail.eml", sender=player.email, to=address, move="1", message_id=message_id)
    game.refresh_from_db()
    seq = game.last_seq
    again = reply("gmail.eml", sender=player.email, to=address, move="1", message_id=message_id)
    assert again == "ignored: duplicate"
    game.refresh_from_db()
    assert game.last_seq == seq
    assert InboundMessage.objects.filter(message_id=message_id).count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_unreadable_or_illegal_move_is_refused_with_the_legal_moves(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    address = str(email["Reply-To"])
    for move, says in (
        ("take the blue ones please", "factory display"),
        ("999", "no move number 999"),
        ("C red 1", "illegal move"),
    ):
        outcome = reply("thunderbird.eml", sender=player.email, to=address, move=move)
        assert outcome.startswith("refused") and says in outcome, outcome
    sweep()
    (refusal,) = of_kind(smtp.to(player.email), "reply_refused")
    assert "factory display" in body_of(refusal), "the first refusal of the hour is sent"
    assert moves_in(refusal) == moves_in(email)


@pytest.mark.django_db(transaction=True)
def test_an_out_of_office_reply_is_ignored_and_not_answered(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    before = len(smtp.messages)
    assert reply("out_of_office.eml", sender=player.email, to=address, move="1") == (
        "ignored: automatic reply"
    )
    sweep()
    assert len(smtp.messages) == before
    assert player_to_move(game) == player


def test_quoted_text_and_signatures_are_stripped():
    text = "F1 blue 3\nthanks!\n-- \nBob\n> quoted"
    assert inbound.strip_quoted(text) == "F1 blue 3\nthanks!"


@pytest.mark.django_db(transaction=True)
def test_receive_email_reads_one_message_on_stdin(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    raw = fixture_reply(
        "outlook_desktop.eml", FROM=player.email, TO=address, MOVE="1", MESSAGE_ID=new_message_id()
    )
    database = connection.settings_dict
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    done = subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=raw,
        cwd=ROOT,
        env={"DATABASE_URL": url, "MAIL_REPLY_DOMAIN": "play.example", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("played")
    assert player_to_move(game) != player


@pytest.mark.django_db(transaction=True)
def test_the_development_smtp_server_feeds_the_same_code(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    outcomes = []
    port = free_port()
    server = Controller(ReplyHandler(outcomes.append), hostname="127.0.0.1", port=port)
    server.start()
    try:
        raw = fixture_reply(
            "apple_mail.eml", FROM=player.email, TO=address, MOVE="2", MESSAGE_ID=new_message_id()
        )
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.sendmail(player.email, [address], raw)
    finally:
        server.stop()
    assert outcomes and outcomes[0].endswith(": played " + moves_in(turn_email(smtp, player))[1])


@pytest.mark.django_db(transaction=True)
def test_the_anymail_webhook_plays_a_reply_from_a_hosted_provider(game, smtp, client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    raw = fixture_reply(
        "gmail.eml", FROM=player.email, TO=address, MOVE="1", MESSAGE_ID=new_message_id()
    )
    body = json.dumps({"RecordType": "Inbound", "RawEmail": raw.decode(), "Headers": []})
    refused = client.post("/mail/anymail/postmark/inbound/", body, content_type="application/json")
    assert refused.status_code == 401
    assert player_to_move(game) == player
    accepted = client.post(
        "/mail/anymail/postmark/inbound/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION="Basic aG9vazpzZWNyZXQ=",
    )
    assert accepted.status_code == 200
    assert player_to_move(game) != player


def test_reply_addresses_fit_in_a_local_part_and_name_their_seat(settings):
    settings.MAIL_REPLY_DOMAIN = "play.example"
    address = tokens.reply_address(123456, 3, 98765)
    assert len(address.split("@")[0]) <= 64
    assert tokens.read_reply_address(address) == tokens.ReplyTo(123456, 3, 98765)
    assert tokens.read_reply_address(address.replace("play.example", "other.example")) is None


# The From shapes an adversarial probe played as the victim, the attacker's own domain
# passing DMARC; and their relatives (an address in a quoted or encoded display name, or
# in a comment; two From headers).
SPOOFED_FROM = [
    "{victim} <attacker@evil.example>",
    "{victim}, attacker@evil.example",
    "{victim})<attacker@evil.example>",
    "<{victim}>attacker@evil.example",
    '"{victim}" <attacker@evil.example>',
    "=?utf-8?q?{encoded}?= <attacker@evil.example>",
    "attacker@evil.example ({victim})",
    "{victim}\r\nFrom: attacker@evil.example",
    "victims: {victim};",
]
ATTACKER_PASSES = b"Authentication-Results: mx.example; dmarc=pass header.from=evil.example\r\n"


def with_from(raw: bytes, value: str) -> bytes:
    """The reply with its (first) From header replaced by ``value``."""
    head, _sep, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    at = next(n for n, line in enumerate(lines) if line.startswith(b"From:"))
    lines[at] = b"From: " + value.encode()
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


@pytest.mark.parametrize("shape", SPOOFED_FROM)
@pytest.mark.django_db(transaction=True)
def test_a_from_naming_the_player_beside_another_address_is_refused_unanswered(game, smtp, shape):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = players_reply("gmail.eml", player, str(email["Reply-To"]))
    encoded = player.email.replace("@", "=40").replace(".", "=2E")
    spoofed = with_from(raw, shape.format(victim=player.email, encoded=encoded))
    before = len(smtp.messages)
    outcome = mail.reply_receive(raw=ATTACKER_PASSES + spoofed)
    assert outcome.startswith("refused") and outcome.endswith("(not answered)"), outcome
    assert player_to_move(game) == player
    sweep()
    assert len(smtp.messages) == before, "nobody is answered, the victim least of all"
    assert InboundMessage.objects.get(outcome=outcome[:255]).sender == ""


# Real Authentication-Results headers, as the big receivers write them, with the sender's
# domain put in; each beside a mail client's reply.
AUTHENTICATED = {
    "gmail.eml": (
        "mx.google.com;\r\n       dkim=pass header.i=@{domain} header.s=20230601 "
        "header.b=Xy12Ab3c;\r\n       spf=pass (google.com: domain of {sender} designates "
        "209.85.220.41 as permitted sender) smtp.mailfrom={sender};\r\n       dmarc=pass "
        "(p=NONE sp=QUARANTINE dis=NONE) header.from={domain}"
    ),
    "outlook.eml": (
        "spf=pass (sender IP is 40.107.20.101)\r\n smtp.mailfrom={domain}; dkim=pass "
        "(signature was verified)\r\n header.d={domain};dmarc=pass action=none\r\n "
        "header.from={domain};compauth=pass reason=100"
    ),
    "thunderbird.eml": (
        "mx6.messagingengine.com;\r\n    dkim=pass (2048-bit rsa key sha256) "
        "header.d={domain} header.i=@{domain} header.b=AbCdEf12 header.a=rsa-sha256 "
        "header.s=fm1 x-bits=2048;\r\n    dmarc=pass policy.published-domain-policy=none "
        "policy.applied-disposition=none policy.evaluated-disposition=none "
        "(p=none,d=none,d.eval=none) policy.policy-from=p header.from={domain};\r\n"
        "    iprev=pass smtp.remote-ip=66.111.4.28 (out4-smtp.messagingengine.com);\r\n"
        "    spf=pass smtp.mailfrom={sender} smtp.helo=out4-smtp.messagingengine.com"
    ),
    "apple_mail.eml": (
        "mx.play.example 1; dmarc = pass (p=quarantine dis=none)\r\n header.from = {domain}"
    ),
}


def authenticated_reply(fixture: str, player, to: str, results: str) -> bytes:
    domain = player.email.rpartition("@")[2]
    header = results.format(domain=domain, sender=player.email)
    return f"Authentication-Results: {header}\r\n".encode() + players_reply(fixture, player, to)


@pytest.mark.parametrize("fixture", list(AUTHENTICATED))
@pytest.mark.django_db(transaction=True)
def test_a_reply_whose_dmarc_passed_for_the_senders_domain_is_played(game, smtp, fixture):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = authenticated_reply(fixture, player, str(email["Reply-To"]), AUTHENTICATED[fixture])
    assert mail.reply_receive(raw=raw).startswith("played"), fixture


FAILED = [
    "mx.play.example; dmarc = fail (p=reject) header.from = {domain}",
    "mx.play.example;dmarc=FAIL header.from={domain}",
    "mx.play.example; spf=pass smtp.mailfrom={sender}; dmarc=fail header.from={domain}",
    "mx.play.example; dmarc=pass header.from=evil.example",
    "mx.play.example; dmarc=pass (header.from={domain}) header.from=evil.example",
    'mx.play.example; dkim=pass header.b="x;dmarc=pass"; dmarc=fail header.from={domain}',
]


@pytest.mark.parametrize("results", FAILED)
@pytest.mark.django_db(transaction=True)
def test_a_reply_failing_dmarc_in_any_spelling_is_refused_and_told_only_to_the_seats_player(
    game, smtp, results
):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = authenticated_reply("gmail.eml", player, str(email["Reply-To"]), results)
    before = len(smtp.messages)
    assert "(DMARC failed)" in mail.reply_receive(raw=raw)
    assert player_to_move(game) == player
    sweep()
    assert [str(told["To"]) for told in smtp.messages[before:]] == [player.email]


@pytest.mark.django_db(transaction=True)
def test_a_reply_failing_dmarc_is_told_to_the_seats_player_at_their_account_once_a_day(
    alice, bob, game, smtp
):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    forwarded = "player.forwarded@relay.example"
    failed = b"Authentication-Results: mx.play.example; dmarc=fail header.from=relay.example\r\n"
    raw = failed + players_reply("gmail.eml", player, str(email["Reply-To"]))
    before = len(smtp.messages)
    outcome = mail.reply_receive(raw=with_from(raw, forwarded))
    assert outcome.startswith("refused") and "(DMARC failed)" in outcome
    sweep()
    (told,) = smtp.messages[before:]
    assert str(told["To"]) == player.email, "the account's address, never the From as written"
    said = " ".join(body_of(told).split())
    assert "was not played" in said and "does not count as your move" in said
    assert kind_of(told) == "reply_refused"
    # Another forged reply the same day, to another of the player's games: not told again.
    other = start_game(alice, bob)
    seat = other.seats.get(user=player)
    again = failed + players_reply(
        "outlook.eml", player, tokens.reply_address(other.pk, seat.position, other.last_seq)
    )
    outcome = mail.reply_receive(raw=with_from(again, forwarded))
    assert outcome.endswith("(not answered: one answer a day about failed DMARC checks)")
    sweep()
    assert smtp.to(forwarded) == []
    assert len(of_kind(smtp.to(player.email), "reply_refused")) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failure_in_a_second_authentication_results_header_counts(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = authenticated_reply(
        "outlook.eml", player, str(email["Reply-To"]), AUTHENTICATED["outlook.eml"]
    )
    second = b"Authentication-Results: relay.example; dmarc=fail header.from=example.com\r\n"
    assert "(DMARC failed)" in mail.reply_receive(raw=second + raw)


def test_authentication_results_read_per_rfc_8601():
    results = inbound.authentication_results(
        'mx.example 1 (comment; dmarc=fail); dkim=pass header.b="a;b" (x (nested) y);'
        ' dmarc / 1 = pass reason = "ok" header . from = Example.COM; spf = none'
    )
    assert results == [
        ("dkim", "pass", {"header.b": "a b"}),
        ("dmarc", "pass", {"header.from": "example.com"}),
        ("spf", "none", {}),
    ]
    assert inbound.authentication_results("mx.example; none") == []


# From headers on which Python's own parser raises (IndexError, AttributeError,
# UnboundLocalError) instead of noting a defect; found by feeding it random headers.
UNPARSABLE_FROM = ["<", " :a==\x00\t\x00;.\x00", "a@[b]@[", "x@y\r\n\t:[[<@]"]


@pytest.mark.parametrize("value", UNPARSABLE_FROM)
def test_a_from_pythons_parser_fails_on_is_refused_not_an_error(value):
    raw = f"From: {value}\r\nTo: play+x@localhost\r\nMessage-ID: <u@x>\r\n\r\n1\r\n".encode()
    reply = inbound.read(raw)
    assert reply.sender == "" and reply.sender_refused


@pytest.mark.django_db
def test_a_reply_with_an_unparsable_from_is_recorded_and_refused_unanswered():
    raw = b"From: a@[b]@[\r\nTo: <\r\nMessage-ID: <\r\nSubject: =?x?q?<?=\r\n\r\n1\r\n"
    outcome = mail.reply_receive(raw=raw)
    assert outcome.startswith("refused: From does not parse") and "(not answered)" in outcome
    assert InboundMessage.objects.get().outcome == outcome
