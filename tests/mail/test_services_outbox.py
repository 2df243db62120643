"""Sending the outbox: once per key, through a real Celery worker and a real SMTP server,
whatever happens to the worker or the broker."""

import subprocess
import sys
import time
from collections import Counter

import pytest
from django.db import connection

from games.mail import services as mail
from games.mail.selectors import outbox_in_doubt
from games.models import NoticeKind, Outbox
from games.notify.channels import channel, loop
from games.notify.channels.email import tokens
from games.repository import game_table
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit, move_undo
from games.services.notices import notices_choose
from games.services.sweep import sweep
from games.services.tables import seat_seen
from tests.mail.conftest import (
    ROOT,
    body_of,
    free_port,
    kind_of,
    moves_in,
    of_kind,
    player_to_move,
    start_game,
)


def outbox_id(message) -> int:
    return Outbox.objects.get(message_id=str(message["Message-ID"]).strip()).pk


def keys_of(messages) -> Counter:
    rows = {row.message_id: row for row in Outbox.objects.all()}
    return Counter(
        (row.game_id, row.key, str(m["To"]), row.kind)
        for m in messages
        for row in [rows[str(m["Message-ID"]).strip()]]
    )


def wait_until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_the_emails_queued_by_a_move(alice, bob, smtp, start_worker):
    start_worker()
    game = start_game(alice, bob)
    wait_until(lambda: not Outbox.objects.filter(sent_at__isnull=True, cancelled_at=None))
    wait_until(lambda: of_kind(smtp.messages, "game_started"))
    started = of_kind(smtp.messages, "game_started")
    # Bob, who joined last, sees the game start on its page: only Alice is told.
    assert [str(m["To"]) for m in started] == ["alice@example.com"]
    player = player_to_move(game)
    move_submit(game=game, user=player, move=first_legal(game))
    other = player_to_move(game)
    wait_until(lambda: of_kind(smtp.to(other.email), "your_turn"))
    assert max(keys_of(smtp.messages).values()) == 1


def first_legal(game) -> str:
    return legal_moves_of(game_table(game))[0]["move"]


def per_recipient(messages) -> Counter:
    return Counter(str(m["To"]) for m in messages)


@pytest.mark.django_db(transaction=True)
def test_an_email_whose_worker_died_after_data_stays_in_doubt_and_is_not_sent_again(
    alice, bob, carol, smtp, start_worker, clock
):
    """The SMTP server takes the first message and kills the worker before answering, so
    that worker never marks it sent. Sweeps (before and after the claim goes stale) and a
    new worker then send everything else once; the row in doubt is listed, not sent again."""
    worker = start_worker()
    killed = []

    def kill_the_worker(message) -> None:
        if not killed:
            killed.append(str(message["Message-ID"]).strip())
            worker.kill()

    smtp.on_message = kill_the_worker
    game = start_game(alice, bob, carol)
    wait_until(lambda: killed and worker.process.poll() is not None)
    for minutes in (0, 1, 2, 5, 11, 12, 60):
        sweep(now=clock.advance(minutes=minutes))
    start_worker()
    player = player_to_move(game)
    move_submit(game=game, user=player, move=moves_in(smtp.to(player.email)[-1])[0])
    sweep(now=clock.advance(minutes=1))
    wait_until(lambda: not Outbox.objects.filter(sent_at=None, cancelled_at=None))

    assert max(keys_of(smtp.messages).values()) == 1, "one email per key"
    in_doubt = Outbox.objects.get(message_id=killed[0])
    assert in_doubt.sent_at is None and in_doubt.last_error == loop.IN_DOUBT
    assert list(outbox_in_doubt()) == [in_doubt]
    sent = Outbox.objects.exclude(sent_at=None)
    assert per_recipient(smtp.messages) == per_recipient(
        [{"To": row.recipient} for row in [*sent, in_doubt]]
    )


@pytest.mark.django_db(transaction=True)
def test_an_email_whose_worker_died_before_data_is_sent_again_once(
    alice, bob, smtp, start_worker, clock
):
    """The worker is killed while the server reads the first message's recipient, before
    DATA: the message never reached the server, so once the claim is stale the sweep sends
    it. Each email arrives once."""
    worker = start_worker()
    killed = []

    def kill_the_worker(address) -> None:
        if not killed:
            killed.append(address)
            worker.kill()

    smtp.on_recipient = kill_the_worker
    start_game(alice, bob)
    wait_until(lambda: killed and worker.process.poll() is not None)
    stuck = Outbox.objects.get(claimed_at__isnull=False, sent_at=None)
    assert stuck.handed_over_at is None
    sweep(now=clock.now)
    assert Outbox.objects.get(pk=stuck.pk).sent_at is None, "not before the claim is stale"
    sweep(now=clock.advance(minutes=11))
    sweep(now=clock.advance(minutes=2))

    stuck.refresh_from_db()
    assert stuck.sent_at is not None and stuck.last_error == ""
    assert not outbox_in_doubt().exists()
    sent = Outbox.objects.exclude(sent_at=None)
    assert max(keys_of(smtp.messages).values()) == 1
    assert per_recipient(smtp.messages) == per_recipient([{"To": r.recipient} for r in sent])
    assert per_recipient(smtp.messages)[killed[0]] >= 1


@pytest.mark.django_db(transaction=True)
def test_a_server_that_answers_after_the_timeout_gets_each_email_once(
    alice, bob, smtp, clock, settings
):
    """The server takes every message but answers DATA after the client's timeout: the
    emails are in doubt, not sent again by later sweeps."""
    settings.EMAIL_TIMEOUT = 1
    smtp.answer_after = 2
    game = start_game(alice, bob)
    for minutes in (0, 2, 5, 30, 120):
        sweep(now=clock.advance(minutes=minutes))

    expected = Counter({alice.email: 1})
    expected[player_to_move(game).email] += 1
    assert per_recipient(smtp.messages) == expected, (
        "Alice's game-started email (Bob joined last), and the first player's turn email "
        "(not shown by a sent one)"
    )
    assert max(keys_of(smtp.messages).values()) == 1
    doubtful = list(outbox_in_doubt())
    assert len(doubtful) == len(smtp.messages) == 2
    assert all("no answer from the mail server" in row.last_error for row in doubtful)
    assert not Outbox.objects.exclude(sent_at=None).exists()


@pytest.mark.django_db(transaction=True)
def test_moves_are_accepted_with_the_broker_down_and_the_sweep_sends_the_emails(
    alice, bob, smtp, clock
):
    closed = free_port()
    database = connection.settings_dict
    script = (
        "from django.contrib.auth.models import User\n"
        "from games.repository import game_table\n"
        "from games.selectors.moves import legal_moves_of\n"
        "from games.services.moves import move_submit\n"
        "from games.services.tables import game_create, game_join\n"
        "alice, bob = User.objects.get(username='alice@example.com'), "
        "User.objects.get(username='bob@example.com')\n"
        "game = game_create(creator=alice, game='azul', players=2)\n"
        "game_join(game=game, user=bob)\n"
        "game.refresh_from_db()\n"
        "player = game.seats.get(position=game.to_move).user\n"
        "move = legal_moves_of(game_table(game))[0]['move']\n"
        "move_submit(game=game, user=player, move=move)\n"
        "print(game.pk)\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:"
            f"{database['PORT']}/{database['NAME']}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{closed}/3",
            "YOUR_TURN_GRACE_SECONDS": "0",
        },
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b"broker unreachable" in done.stderr
    assert time.monotonic() - started < 60
    assert not smtp.messages and Outbox.objects.filter(sent_at=None).count() == 3

    sweep(now=clock.advance(minutes=1))
    kinds = sorted(kind_of(m) for m in smtp.messages)
    assert kinds == ["game_started", "your_turn"]


def first_move_with_grace(alice, bob, smtp, clock, settings):
    """A game where the first player has just moved, its "your turn" email in its grace
    period: (game, the player who moved, the player to move)."""
    settings.YOUR_TURN_GRACE_SECONDS = 120
    game = start_game(alice, bob)
    sweep(now=clock.now)
    player = player_to_move(game)
    other = next(u for u in (alice, bob) if u != player)
    move_submit(game=game, user=player, move=first_legal(game))
    return game, player, other


@pytest.mark.django_db(transaction=True)
def test_a_move_taken_back_within_the_grace_period_sends_no_turn_email(
    alice, bob, smtp, clock, settings
):
    game, player, other = first_move_with_grace(alice, bob, smtp, clock, settings)
    move_undo(game=game, user=player)
    sweep(now=clock.advance(minutes=3))
    assert not of_kind(smtp.to(other.email), "your_turn")


@pytest.mark.django_db(transaction=True)
def test_a_turn_that_passes_within_the_grace_period_leaves_no_row_waiting(
    alice, bob, smtp, clock, settings
):
    """A burst of moves must not queue "your turn" rows that the delivery loop would only
    claim and skip, ahead of other games' emails: the move that passes the turn on
    withdraws the one that asked for it."""
    game, player, other = first_move_with_grace(alice, bob, smtp, clock, settings)
    move_submit(game=game, user=other, move=first_legal(game))
    asked_of_other = Outbox.objects.get(kind=NoticeKind.YOUR_TURN, recipient=other.email)
    assert asked_of_other.cancelled_at is not None
    assert asked_of_other.withdrawn_because == "no longer this player's turn"
    waiting = Outbox.objects.filter(
        kind=NoticeKind.YOUR_TURN, sent_at__isnull=True, cancelled_at__isnull=True
    )
    assert [row.recipient for row in waiting] == [player.email]
    sweep(now=clock.advance(minutes=3))
    assert not of_kind(smtp.to(other.email), "your_turn")
    assert len(of_kind(smtp.to(player.email), "your_turn")) == 1


@pytest.mark.django_db(transaction=True)
def test_no_turn_email_for_a_player_looking_at_the_game(alice, bob, smtp, clock, settings):
    game, player, other = first_move_with_grace(alice, bob, smtp, clock, settings)
    seat_seen(game=game, user=other)
    sweep(now=clock.advance(minutes=3))
    assert not of_kind(smtp.to(other.email), "your_turn")
    row = Outbox.objects.get(kind=NoticeKind.YOUR_TURN, recipient=other.email)
    assert row.withdrawn_because == "the player is on the game's page"


@pytest.mark.django_db(transaction=True)
def test_a_turn_email_is_readable_anywhere_and_can_be_unsubscribed(alice, bob, smtp, clock):
    game = start_game(alice, bob)
    player = player_to_move(game)
    other = next(u for u in (alice, bob) if u != player)
    sweep(now=clock.now)
    move_submit(game=game, user=player, move=moves_in(smtp.to(player.email)[-1])[0])
    sweep(now=clock.advance(seconds=1))
    (email,) = of_kind(smtp.to(other.email), "your_turn")
    text = body_of(email)
    html = email.get_body(preferencelist=("html",)).get_content()
    assert "reply to this email with the move or its number" in text and moves_in(email)
    assert str(email["Reply-To"]).startswith("play+")
    assert f"/games/{game.pk}/" in text and f"/games/{game.pk}/" in html
    assert "Factory displays" in text and f"/games/{game.pk}/?move=" in html
    assert "<script" not in html
    assert max(len(line) for line in text.splitlines()) <= 78
    unsubscribe = str(email["List-Unsubscribe"]).strip()
    assert unsubscribe.startswith("<http") and "/mail/unsubscribe/" in unsubscribe
    assert email["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/mail/preferences/" in text


@pytest.mark.django_db(transaction=True)
def test_a_send_the_server_refuses_is_tried_again_later(alice, bob, smtp, clock, settings):
    port = settings.EMAIL_PORT
    settings.EMAIL_PORT = free_port()
    start_game(alice, bob)
    assert sweep(now=clock.now)["sent"] == 0
    row = Outbox.objects.get(kind=NoticeKind.GAME_STARTED)
    assert row.attempts == 1 and row.claimed_at is None and "refused" in row.last_error.lower()
    settings.EMAIL_PORT = port
    assert sweep(now=clock.now)["sent"] == 0, "not before its next attempt is due"
    assert sweep(now=clock.advance(minutes=5))["sent"] >= 1
    assert Outbox.objects.get(pk=row.pk).sent_at is not None
    assert len(smtp.messages) == Outbox.objects.exclude(sent_at=None).count()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("reply", "given_up"), [("451 4.3.2 busy", False), ("550 5.1.1 no", True)])
def test_a_recipient_refused_for_now_is_tried_again_and_one_refused_for_good_is_not(
    alice, bob, smtp, clock, reply, given_up
):
    """RFC 5321 4.2.1: a 4yz reply to RCPT TO is temporary, a 5yz one permanent (found by
    the simulated community: a busy server's 451 lost the email for good)."""

    async def refuse(server, session, envelope, address, rcpt_options) -> str:
        return reply

    smtp.handle_RCPT = refuse
    start_game(alice, bob)
    assert sweep(now=clock.now)["sent"] == 0
    row = Outbox.objects.filter(kind=NoticeKind.GAME_STARTED).first()
    assert (row.cancelled_at is not None) is given_up, row.last_error
    del smtp.handle_RCPT
    sweep(now=clock.advance(minutes=5))
    assert (Outbox.objects.get(pk=row.pk).sent_at is None) is given_up


@pytest.mark.django_db(transaction=True)
def test_turned_off_kinds_and_an_unsubscribe_stop_those_emails(alice, bob, smtp, clock):
    email = channel("email")
    notices_choose(user=alice, channel_name="email", wanted_kinds=["your_turn"], daily_digest=False)
    notices_choose(
        user=bob, channel_name="email", wanted_kinds=list(email.optional_kinds), daily_digest=False
    )
    mail.unsubscribe(token=tokens.address_token(bob.email))
    game = start_game(alice, bob)
    sweep(now=clock.now)
    assert not smtp.to(bob.email), "unsubscribed"
    assert not of_kind(smtp.to(alice.email), "game_started")
    turned_off = Outbox.objects.get(kind=NoticeKind.GAME_STARTED, recipient=alice.email)
    assert turned_off.withdrawn_because == "turned off in the preferences"
    assert turned_off.last_error == "", "not an error"
    if player_to_move(game) == alice:
        table = game_table(game)
        move_submit(
            game=game,
            user=alice,
            move=table.engine.format(table.engine.default_command(table.state)),
        )
    game.refresh_from_db()
    address = tokens.reply_address(game.pk, game.to_move, game.last_seq)
    raw = (
        f"From: {bob.email}\r\nTo: {address}\r\nMessage-ID: <x1@client.example>\r\n"
        "Subject: Re\r\n\r\n1\r\n"
    ).encode()
    assert mail.reply_receive(raw=raw).startswith("played")
    sweep(now=clock.advance(seconds=1))
    assert [kind_of(m) for m in smtp.to(bob.email)] == ["move_confirmed"], (
        "answers to a player's own reply still go out"
    )


@pytest.mark.django_db(transaction=True)
def test_an_email_that_cannot_be_written_does_not_hold_up_the_others(alice, bob, smtp, clock):
    game = start_game(alice, bob)
    broken = Outbox.objects.create(game=game, key=1, recipient=alice.email, kind="from_the_future")
    assert sweep(now=clock.now)["sent"] >= 1
    due = Outbox.objects.filter(sent_at=None, cancelled_at=None, due_at__lte=clock.now)
    assert not due.exists(), "every other email due was sent"
    broken.refresh_from_db()
    assert broken.sent_at is None and broken.attempts == 1 and broken.due_at > clock.now
