"""One time left everywhere: a game with playing hours, read at the same moment on its
page, in the lobby, on the home page, through the API and in the turn email, says the same
time left in the same words (``Clock.time_left`` said by ``time_left_text``)."""

import html
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.durations import time_left_text
from games.models import Game, NoticeKind, Outbox
from games.notify.channels.email import render
from games.repository import row_table
from games.services.tables import game_join
from tests.games.api_helpers import client_for, url
from tests.games.helpers import open_with_playing_hours
from tests.games.test_api_playing_hours import opening_later
from tests.mail.test_languages import speaks

pytestmark = pytest.mark.django_db


def game_opening_later(alice, bob) -> tuple[Game, datetime]:
    """A started game of one day per move whose players' hours (UTC, the same for both)
    open about an hour from now and last eight hours: the clock of the seat to move
    rests until then."""
    hours, opening = opening_later()
    game = open_with_playing_hours(alice, hours=hours)
    game_join(game=game, user=bob, hours=hours)
    game.refresh_from_db()
    return game, opening


def said_everywhere(game: Game, player, language: str) -> dict[str, str]:
    """Each door's answer at the (frozen) time, as text: the page, the lobby and the API
    for ``player``, the home page for a visitor, and ``player``'s turn email."""
    signed_in = {"HTTP_ACCEPT_LANGUAGE": language}
    pages = Client()
    pages.force_login(player)
    row, _created = Outbox.objects.get_or_create(
        game=game, key=game.last_seq, recipient=player.email, kind=NoticeKind.YOUR_TURN
    )
    email = render.message(row, timezone.now())
    api = client_for(player).get(url(game), **signed_in).json()
    return {
        "page": html.unescape(pages.get(f"/games/{game.pk}/", **signed_in).text),
        "lobby": html.unescape(pages.get("/lobby/", **signed_in).text),
        "home": html.unescape(Client().get("/", **signed_in).text),
        "api": api["time_left"]["text"],
        "email": " ".join(email.body.split()),
    }


@pytest.mark.parametrize(
    ("language", "resting", "running"),
    [
        (
            "en",
            "8 hours of playing time left — resting until {opening:%H:%M} your time",
            "5 hours, 30 minutes of playing time left — the clock runs {hours} (UTC)",
        ),
        (
            "pl",
            "pozostały czas gry: 8 godzin — wstrzymany do {opening:%H:%M} Twojego czasu",
            "pozostały czas gry: 5 godzin i 30 minut — zegar biegnie {hours} (UTC)",
        ),
    ],
)
def test_page_lobby_home_api_and_email_say_the_same_time_left(
    language, resting, running, alice, bob, monkeypatch
):
    game, opening = game_opening_later(alice, bob)
    player = game.seats.get(position=game.to_move).user
    speaks(player, language)
    hours = f"{opening:%H:%M}–{opening + timedelta(hours=8):%H:%M}"
    for now, expected in (
        (timezone.now(), resting.format(opening=opening)),
        (opening + timedelta(hours=2, minutes=30), running.format(hours=hours)),
    ):
        monkeypatch.setattr(timezone, "now", lambda now=now: now)
        with translation.override(language):
            left = row_table(game).clock.time_left(now)
            assert time_left_text(left) == expected
        said = said_everywhere(game, player, language)
        for door in ("page", "lobby", "home", "api"):
            assert expected in said[door], door
        assert f"{expected}." in said["email"]
        detail = client_for(player).get(url(game)).json()["time_left"]
        assert detail["seconds"] == left.seconds
        assert detail["seat"] == game.to_move
