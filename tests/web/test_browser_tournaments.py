"""A tournament's page and the list in Debian's Chromium at 1280 and 390 px: screenshots
under ``var/screenshots/tournaments/``, no sideways scrolling on a phone, every link and
button in the page's body at least 44 px tall."""

import pytest

from games.services.tournaments.entry import tournament_create
from games.services.tournaments.organiser import tournament_pause, tournament_start
from games.services.tournaments.rounds import round_begin
from tests.tournaments.test_services import (
    cups_opened,
    finish_round,
    opened,
    organiser_starts,
    players,
)
from tests.web.helpers import looked_at, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

SMALL_TARGETS = """() => [...document.querySelectorAll('main a, main button')]
  .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
  .map(e => e.textContent.trim())"""


def test_the_tournament_page_and_list_at_both_sizes(windows, live_server, shoot):
    users = players(8)
    tournament = opened(users, format="swiss", per_game=2, rounds=3)
    organiser_starts(tournament, users[0])
    finish_round(tournament)
    open_one = tournament_create(
        organiser=users[0], name="Winter cup", format="swiss", game="azul", per_game=2, rounds=3
    )
    # Newer than the Winter cup, and enough of them to put it on the list's second page.
    cups_opened(users, 20)
    for size, viewport in SIZES.items():
        page = signed_in_page(windows, live_server, users[2], viewport)
        for name, path in (
            ("page", f"/tournaments/{tournament.pk}/"),
            ("list", "/tournaments/"),
            ("list-open", "/tournaments/?status=open"),
            ("new", "/tournaments/new/"),
            ("open-page", f"/tournaments/{open_one.pk}/"),
        ):
            looked_at(page, live_server.url + path, f"tournaments/{name}-{size}", viewport, shoot)
            assert page.evaluate(SMALL_TARGETS) == [], path
        page.goto(f"{live_server.url}/tournaments/")
        assert page.locator("nav.tabs [aria-current=page]").inner_text() == "Running"
        assert page.locator("ul.tournaments .you-play").count() == 1
        page.goto(f"{live_server.url}/tournaments/?status=open")
        assert page.locator("ul.tournaments li").count() == 20
        assert page.get_by_text("Winter cup").count() == 0
        page.get_by_role("link", name="Next").click()
        assert page.get_by_role("link", name="Winter cup").is_visible()
        page.goto(f"{live_server.url}/tournaments/{open_one.pk}/")
        assert page.locator("#join-call").get_by_role("button", name="Join").is_visible()
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        assert page.locator("#my-game a").count() == 1
        assert page.locator("table.standings tr.mine").count() == 1
        assert page.locator("table.entrants th").all_inner_texts()[1:] == [
            "Rating at entry",
            "Rating now",
        ]


def test_the_organisers_page_of_a_paused_tournament_with_a_round_deadline(
    windows, live_server, shoot
):
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2, round_days=7)
    organiser_starts(tournament, users[0])
    tournament_pause(tournament=tournament, user=users[0])
    for size, viewport in SIZES.items():
        page = signed_in_page(windows, live_server, users[0], viewport)
        path = f"{live_server.url}/tournaments/{tournament.pk}/"
        looked_at(page, path, f"tournaments/organiser-paused-{size}", viewport, shoot)
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.locator(".round-deadline").count() == 1
        assert page.get_by_role("button", name="Resume").count() == 1
        assert page.get_by_role("button", name="Cancel the tournament").count() == 1


def test_a_knocked_out_players_page_says_they_are_out_at_both_sizes(windows, live_server, shoot):
    users = players(8)
    tournament = opened(users, format="knockout", per_game=2)
    organiser_starts(tournament, users[0])
    finish_round(tournament)
    for size, viewport in SIZES.items():
        page = signed_in_page(windows, live_server, users[7], viewport)
        path = f"{live_server.url}/tournaments/{tournament.pk}/"
        looked_at(page, path, f"tournaments/knocked-out-{size}", viewport, shoot)
        assert page.evaluate(SMALL_TARGETS) == []
        assert "finish 5–8 of 8" in page.locator("#knocked-out").inner_text()
        assert page.get_by_role("button", name="Withdraw").count() == 0


def test_a_round_being_set_up_says_so_and_shows_its_games_once_they_are_there(
    windows, live_server, shoot
):
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2)
    # Started, and no worker here: the round is paired, its games not yet created.
    tournament_start(tournament=tournament, user=users[0])
    for size, viewport in SIZES.items():
        page = signed_in_page(windows, live_server, users[1], viewport)
        path = f"{live_server.url}/tournaments/{tournament.pk}/"
        looked_at(page, path, f"tournaments/round-being-set-up-{size}", viewport, shoot)
        assert page.evaluate(SMALL_TARGETS) == []
        note = page.locator("#round-setting-up")
        assert "The games of round 1 are being set up" in note.inner_text()
        assert page.locator("#my-game").count() == 0
    # The worker creates them; the page, looking again by itself, shows the player's game.
    round_begin(tournament.pk)
    page.locator("#my-game a").wait_for(timeout=10_000)
    assert page.locator("#round-setting-up").count() == 0
