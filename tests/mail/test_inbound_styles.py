"""Replies as people write them (issue 17): below the quote, between quoted blocks, in
HTML only, after a greeting and before a signature; out-of-office answers known only by
their subject; responders that answer our refusals; a character set nobody knows. Each
style through the service, and through the three doors: ``receive_email``, the webhook
and ``mail_server``."""

import json
import smtplib
import subprocess
import sys

import pytest
from aiosmtpd.controller import Controller
from django.db import connection

from games.mail import inbound
from games.mail import services as mail
from games.management.commands.mail_server import ReplyHandler
from games.services.sweep import sweep
from tests.mail.conftest import (
    ROOT,
    body_of,
    fixture_reply,
    free_port,
    moves_in,
    of_kind,
    player_to_move,
    start_game,
)
from tests.mail.test_inbound import new_message_id, turn_email

STYLES = [
    "thunderbird_bottom_posted.eml",
    "mutt_interleaved.eml",
    "gmail_html_only.eml",
    "android_greeting_and_footer.eml",
]
OUT_OF_OFFICE_SUBJECTS = [
    "Out of Office: Azul #12",
    "Automatic reply: Azul #12",
    "Abwesend: Azul #12",
    "Fuera de la oficina: Azul #12",
    "Réponse automatique : Azul #12",
    "Risposta automatica: Azul #12",
    "Afwezig: Re: Azul #12",
]


@pytest.fixture
def game(alice, bob, smtp):
    return start_game(alice, bob)


def raw_reply(fixture: str, player, to: str, move: str, **values) -> bytes:
    return fixture_reply(
        fixture, FROM=player.email, TO=to, MOVE=move, MESSAGE_ID=new_message_id(), **values
    )


def receive_email(raw: bytes) -> subprocess.CompletedProcess:
    database = connection.settings_dict
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    return subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=raw,
        cwd=ROOT,
        env={"DATABASE_URL": url, "MAIL_REPLY_DOMAIN": "play.example", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=60,
    )


def webhook(client, settings, raw: bytes):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:secret"}
    body = json.dumps({"RecordType": "Inbound", "RawEmail": raw.decode(), "Headers": []})
    return client.post(
        "/mail/anymail/postmark/inbound/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION="Basic aG9vazpzZWNyZXQ=",
    )


def smtp_server(raw: bytes, to: str) -> list[str]:
    outcomes = []
    port = free_port()
    server = Controller(ReplyHandler(outcomes.append), hostname="127.0.0.1", port=port)
    server.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.sendmail("someone@example.com", [to], raw)
    finally:
        server.stop()
    return outcomes


@pytest.mark.parametrize("fixture", STYLES)
@pytest.mark.django_db(transaction=True)
def test_a_move_written_anywhere_the_player_writes_is_played(fixture, game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    expected = moves_in(email)[2]
    raw = raw_reply(fixture, player, str(email["Reply-To"]), "3")
    assert mail.reply_receive(raw=raw) == f"played {expected}"
    assert player_to_move(game) != player


def test_the_quoted_move_list_is_never_taken_for_the_answer():
    quoted_only = (
        "On Sat, Nov 21, 2026 at 3:00 PM azulsite wrote:\n"
        ">    1. F1 blue 1          2. F1 blue 2\n"
        "> Factory display 1:\n\n-- \nBob\n"
    )
    assert inbound.strip_quoted(quoted_only) == ""
    interleaved = "> 1. F1 blue 1\nHi,\nMy move: F1 blue 2\n> 2. F1 blue 2\nBob"
    assert inbound.strip_quoted(interleaved) == "Hi,\nMy move: F1 blue 2\nBob"
    assert inbound.without_lead_in("My move: F1 blue 2") == "F1 blue 2"


@pytest.mark.django_db(transaction=True)
def test_a_bottom_posted_reply_through_receive_email(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = raw_reply("thunderbird_bottom_posted.eml", player, str(email["Reply-To"]), "2")
    done = receive_email(raw)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == f"played {moves_in(email)[1]}"


@pytest.mark.django_db(transaction=True)
def test_an_interleaved_reply_through_the_webhook(game, smtp, client, settings):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    raw = raw_reply("mutt_interleaved.eml", player, str(email["Reply-To"]), "1")
    assert webhook(client, settings, raw).status_code == 200
    assert player_to_move(game) != player


@pytest.mark.django_db(transaction=True)
def test_an_html_only_reply_through_the_development_smtp_server(game, smtp):
    player = player_to_move(game)
    email = turn_email(smtp, player)
    to = str(email["Reply-To"])
    outcomes = smtp_server(raw_reply("gmail_html_only.eml", player, to, "2"), to)
    assert outcomes and outcomes[0].endswith(f": played {moves_in(email)[1]}")


@pytest.mark.parametrize("subject", OUT_OF_OFFICE_SUBJECTS)
@pytest.mark.django_db(transaction=True)
def test_an_out_of_office_known_by_its_subject_is_not_answered(subject, game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    before = len(smtp.messages)
    raw = raw_reply("out_of_office_by_subject.eml", player, address, "1", SUBJECT=subject)
    assert mail.reply_receive(raw=raw) == "ignored: automatic reply"
    sweep()
    assert len(smtp.messages) == before
    assert player_to_move(game) == player


@pytest.mark.django_db(transaction=True)
def test_a_responder_answering_refusals_gets_one_refusal_and_no_loop(game, smtp):
    """Five rounds: the responder answers each email it gets; we answer once."""
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    first = raw_reply("android_greeting_and_footer.eml", player, address, "the blue ones")
    assert mail.reply_receive(raw=first).startswith("refused")
    for _round in range(5):
        sweep()
        latest = smtp.to(player.email)[-1]
        answer = raw_reply(
            "responder.eml",
            player,
            str(latest["Reply-To"] or address),
            "",
            IN_REPLY_TO=str(latest["Message-ID"]),
        )
        outcome = mail.reply_receive(raw=answer)
        assert outcome.startswith("refused") and "not answered" in outcome, outcome
    sweep()
    (refusal,) = of_kind(smtp.to(player.email), "reply_refused")
    assert "the blue ones" in body_of(refusal)


@pytest.mark.django_db(transaction=True)
def test_a_second_bad_reply_within_the_hour_is_not_answered(game, smtp):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    for move in ("the blue ones", "the red ones"):
        raw = raw_reply("thunderbird_bottom_posted.eml", player, address, move)
        assert mail.reply_receive(raw=raw).startswith("refused")
    sweep()
    assert len(of_kind(smtp.to(player.email), "reply_refused")) == 1


@pytest.mark.django_db(transaction=True)
def test_an_unknown_charset_is_refused_for_good_with_an_answer(game, smtp, client, settings):
    player = player_to_move(game)
    address = str(turn_email(smtp, player)["Reply-To"])
    done = receive_email(raw_reply("unknown_charset.eml", player, address, "1"))
    assert done.returncode == 0, done.stderr.decode()
    assert "character set" in done.stdout.decode() and "x-klingon" in done.stdout.decode()
    assert (
        webhook(
            client, settings, raw_reply("unknown_charset.eml", player, address, "1")
        ).status_code
        == 200
    )
    assert player_to_move(game) == player
    sweep()
    (refusal,) = of_kind(smtp.to(player.email), "reply_refused")
    assert "UTF-8" in body_of(refusal)
