"""The emails that show the game (issue 17): the boards as an inline PNG picture, text
lines of at most 78 characters, the moves grouped and linked, one thread per game (and one
subject's tail), Message-IDs that never repeat."""

import re
import struct
import uuid
from email import message_from_bytes, policy

import pytest
from django.utils import timezone

from games.models import NoticeKind, Outbox
from games.notify.channels import channel
from games.notify.channels.email import pictures, raster, render
from games.notify.notice import Notice
from games.repository import game_table
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from tests.mail.conftest import moves_in, player_to_move, start_game

GAMES = [("azul", 2), ("summer-pavilion", 3), ("miyabi", 2)]


def turn_email_of(game):
    """The first player's "your turn" email, rendered and parsed as a client gets it."""
    row = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN)
    raw = render.message(row, timezone.now()).message().as_bytes()
    return row, message_from_bytes(raw, policy=policy.default)


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(("kind", "players"), GAMES)
@pytest.mark.django_db
def test_the_turn_email_of_each_game_shows_the_table_and_every_board_as_inline_pictures(
    kind, players, alice, bob, carol, settings
):
    settings.MAIL_BOARD_PICTURES = True
    game = start_game(alice, *(bob, carol)[: players - 1], game=kind)
    row, email = turn_email_of(game)
    assert email.get_content_type() == "multipart/alternative"
    text, related = email.get_payload()
    assert text.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html, *images = related.get_payload()
    assert len(images) == 1 + players, "the table and every player's board"
    page = html.get_content()
    for image in images:
        cid = image["Content-ID"].strip("<>")
        assert f'src="cid:{cid}"' in page
        assert image.get_content()[25] == 3, "a palette PNG"
        assert len(image.get_content()) <= 60 * 1024
    widths = [png_size(image.get_content())[0] for image in images]
    assert widths == [780, 780] + [384] * (players - 1), (
        "the table and the reader's board twice a phone's width (390 px), the others half"
    )
    table, own = (image["Content-ID"].strip("<>") for image in images[:2])
    assert table == f"boards-{game.pk}-table"
    reader = game.seats.get(user__email=row.recipient).position
    assert own == f"boards-{game.pk}-{reader}", "the reader's board right after the table"
    captions = re.findall(r'<p style="margin: 0 0 .3em; font-size: 14px;">([^<]*)</p>', page)
    assert len(captions) == players, "each board under its player's line, out of the picture"
    assert 'style="display: block; width: 100%; max-width: 600px;' in page


@pytest.mark.django_db
def test_a_picture_of_a_position_is_drawn_once_for_all_its_readers_and_emails(
    alice, bob, settings, monkeypatch
):
    settings.MAIL_BOARD_PICTURES = True
    game = start_game(alice, bob, game="miyabi")
    drawn = []
    monkeypatch.setattr(raster, "png", lambda svg, width: drawn.append(svg) or b"png")
    # A name no earlier run has drawn under (the cache is Redis, shared between runs).
    monkeypatch.setattr(pictures, "DRAWN_BY", uuid.uuid4().hex)
    first = turn_email_of(game)[1]
    again = turn_email_of(game)[1]
    assert len(drawn) == 3, "the table and two boards, once"
    for email in (first, again):
        assert [p.get_content() for p in email.get_payload()[1].get_payload()[1:]] == [b"png"] * 3
    view = game_table(game).engine.view(game_table(game).state)
    pictures.panels("miyabi", view, [0, 1], 1 - game.to_move)
    assert len(drawn) == 5, (
        "the other player's email draws only the two boards it shows at another width"
    )
    pictures.forget()


@pytest.mark.django_db
def test_no_picture_when_board_pictures_are_off(alice, bob, settings):
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, bob, game="azul")
    _, email = turn_email_of(game)
    assert [part.get_content_type() for part in email.get_payload()] == [
        "text/plain",
        "text/html",
    ]


@pytest.mark.parametrize(("kind", "players"), GAMES)
@pytest.mark.django_db
def test_every_text_line_fits_78_characters_and_every_move_keeps_its_number(
    kind, players, alice, bob, carol, settings
):
    settings.MAIL_REPLY_DOMAIN = "play.azulsite.example"
    settings.SITE_URL = "https://azulsite.example"
    settings.MAIL_BOARD_PICTURES = False
    game = start_game(alice, *(bob, carol)[: players - 1], game=kind)
    _, email = turn_email_of(game)
    text = email.get_body(preferencelist=("plain",)).get_content()
    assert max(len(line) for line in text.splitlines()) <= 78
    assert str(email["Reply-To"]) in text.splitlines(), "the reply address on a line of its own"
    legal = [move["move"] for move in legal_moves_of(game_table(game))]
    assert moves_in(email) == legal
    html = email.get_body(preferencelist=("html",)).get_content()
    assert f'href="https://azulsite.example/games/{game.pk}/?move=' in html
    assert html.count("?move=") == len(legal)
    assert f'style="white-space: nowrap; color: #2f4f7a;">{email["Reply-To"]}</a>' in html


@pytest.mark.django_db
def test_a_games_emails_share_a_subjects_tail_and_a_thread_and_never_repeat_a_message_id(
    alice, bob, settings
):
    settings.MAIL_BOARD_PICTURES = False
    settings.MAIL_REPLY_DOMAIN = "play.example"
    game = start_game(alice, bob)
    if player_to_move(game) == bob:
        # Alice created the game: she is told it started (Bob, who joined last, saw it).
        move_submit(game=game, user=bob, move=legal_moves_of(game_table(game))[0]["move"])
    player = alice
    payload = {"move": "F1 blue 1", "in_reply_to": "<r@x>"}
    channel("email").deliver(
        Notice(NoticeKind.MOVE_CONFIRMED, 99, game=game, user=player, payload=payload)
    )
    rows = list(Outbox.objects.filter(game=game, recipient=player.email).order_by("pk"))
    assert [row.kind for row in rows] == ["game_started", "your_turn", "move_confirmed"]
    started, turn, confirmed = (render.message(row, timezone.now()) for row in rows)
    tail = f" — Azul #{game.pk} with Bob"
    assert started.subject == "Game started" + tail
    assert turn.subject == "Your turn" + tail
    assert confirmed.subject == "Your move is played" + tail
    assert "In-Reply-To" not in started.extra_headers
    assert (
        turn.extra_headers["In-Reply-To"]
        == turn.extra_headers["References"]
        == (rows[0].message_id)
    )
    assert confirmed.extra_headers["In-Reply-To"] == "<r@x>"
    assert confirmed.extra_headers["References"] == f"{rows[0].message_id} <r@x>"
    ids = list(Outbox.objects.values_list("message_id", flat=True))
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"<[0-9a-f]{32}@play\.example>", i) for i in ids)
