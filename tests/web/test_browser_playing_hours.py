"""Playing hours on the pages (issue 32), in the real browser at 1280 and 390 px: the clock
of a player outside their hours says until when it is paused, on the clock of the person
looking, in their language; the new game form offers the option. Screenshots under
var/screenshots/playing-hours-*.png."""

from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.services.accounts import player_preferences_set
from games.services.tables import game_create
from tests.conftest import make_user
from tests.web.helpers import started_game
from tests.web.test_browser_pages import check_page, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def resting_game():
    """A game whose players' hours begin about two hours from now: every clock rests.
    Alice lives in UTC; bob in Warsaw, with the same hours on his wall clock, reads
    Polish."""
    alice, bob = make_user("alice"), make_user("bob")
    opening = (timezone.now() + timedelta(hours=2)).astimezone(UTC).replace(second=0, microsecond=0)
    hours = {"start": f"{opening:%H:%M}", "end": f"{opening + timedelta(hours=10):%H:%M}"}
    warsaw = opening.astimezone(ZoneInfo("Europe/Warsaw"))
    player_preferences_set(
        user=bob,
        time_zone="Europe/Warsaw",
        language="pl",
        hours={"start": f"{warsaw:%H:%M}", "end": f"{warsaw + timedelta(hours=10):%H:%M}"},
    )
    game = started_game(
        alice,
        bob,
        "azul",
        time_control={"kind": "per_move", "days": 2},
        playing_hours=True,
        hours=hours,
    )
    return game, alice, bob, opening


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_resting_clock_says_until_when_on_the_viewers_clock(windows, live_server, shoot, size):
    game, alice, bob, opening = resting_game()
    page = window_of(windows, live_server, bob, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    warsaw = opening.astimezone(ZoneInfo("Europe/Warsaw"))
    rests = page.locator("#clocks .rests")
    assert rests.count() == 1
    # Two days of ten playing hours, none of them played yet.
    assert rests.inner_text() == (
        f"pozostały czas gry: 20 godzin — wstrzymany do {warsaw:%H:%M} Twojego czasu"
    )
    assert page.locator("#clocks .clock.running").count() == 0
    hours = page.locator("#clocks .hours").all_inner_texts()
    assert sorted(text.endswith("(UTC)") for text in hours) == [False, True]
    assert any(f"{warsaw:%H:%M}" in text and "Europe/Warsaw" in text for text in hours)
    assert rests.is_visible()
    check_page(page, shoot, f"playing-hours-clock-{size}")
    # The lobby says the same time left, and its longer words still fit a phone.
    said = rests.inner_text()
    page.goto(f"{live_server.url}/lobby/")
    assert page.locator(".game-row .time-left").first.inner_text() == said
    check_page(page, shoot, f"playing-hours-lobby-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_mover_in_english_reads_the_pause_on_their_own_clock(windows, live_server, shoot, size):
    game, alice, bob, opening = resting_game()
    page = window_of(windows, live_server, alice, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    text = page.locator("#clocks .rests").inner_text()
    assert text == f"20 hours of playing time left — resting until {opening:%H:%M} your time"
    check_page(page, shoot, f"playing-hours-clock-en-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_new_game_form_offers_playing_hours_with_the_players_own(
    windows, live_server, shoot, size
):
    alice = make_user("alice")
    player_preferences_set(user=alice, hours={"start": "07:00", "end": "23:30"})
    page = window_of(windows, live_server, alice, size)
    page.goto(f"{live_server.url}/games/new/")
    page.select_option("[name=time_control]", "per_move")
    page.check("[name=playing_hours]")
    assert page.input_value("[name=hours_start]") == "07:00"
    assert page.input_value("[name=hours_end]") == "23:30"
    page.fill("[name=hours_start]", "09:00")
    page.fill("[name=hours_end]", "09:00")
    page.locator("[name=playing_hours]").scroll_into_view_if_needed()
    page.click("#create-game")
    error = page.locator("[role=alert]")
    assert "are empty" in error.inner_text()
    page.problems.clear()  # the refusal is a 400, as it should be
    check_page(page, shoot, f"playing-hours-form-refused-{size}")
    page.fill("[name=hours_end]", "01:00")
    page.click("#create-game")
    page.wait_for_url("**/games/*/")
    assert "playing hours" in page.content()
    check_page(page, shoot, f"playing-hours-created-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_joining_takes_the_seat_with_the_hours_typed_beside_the_button(
    windows, live_server, shoot, size
):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(
        creator=alice,
        game="azul",
        players=2,
        time_control={"kind": "per_move", "days": 2},
        playing_hours=True,
    )
    page = window_of(windows, live_server, bob, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.input_value("[name=hours_start]") == "08:00"
    page.fill("[name=hours_start]", "18:30")
    page.fill("[name=hours_end]", "02:30")
    check_page(page, shoot, f"playing-hours-join-{size}")
    page.click("#join")
    page.wait_for_selector("#clocks")
    assert "18:30–02:30 (UTC)" in page.locator("#clocks").inner_text()
