"""The profile, the leaderboard and the archive (issue 16) in Debian's Chromium at 1280 and 390 px:
screenshots under ``var/screenshots/ratings/``, and no sideways scrolling on a phone."""

import random

import pytest

from games.services.ratings import PROVISIONAL_GAMES
from tests.conftest import make_user
from tests.ratings.helpers import finished
from tests.web.helpers import looked_at, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def a_season():
    """Four players and enough finished games for charts and a leaderboard."""
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    chooser = random.Random(16)
    for index in range(3 * PROVISIONAL_GAMES):
        seated = chooser.sample(players, 2 + index % 3)
        game = ("azul", "summer-pavilion", "miyabi")[index % 3] if index % 4 else "azul"
        finished(game, *seated, rated=index % 7 != 6)
    return players


def test_profile_leaderboard_and_archive_at_both_sizes(windows, live_server, shoot):
    alice, *_ = a_season()
    for size, viewport in SIZES.items():
        page = signed_in_page(windows, live_server, alice, viewport)
        for name, path in (
            ("profile", f"/players/{alice.pk}/"),
            ("leaderboard", "/leaderboard/azul/"),
            ("archive", "/archive/?game=azul"),
        ):
            looked_at(page, live_server.url + path, f"ratings/{name}-{size}", viewport, shoot)
            assert "@example.com" not in page.content()
        assert page.locator("svg.rating-chart").count() == 0  # the archive has no chart
        page.goto(f"{live_server.url}/players/{alice.pk}/")
        assert page.locator("svg.rating-chart polyline").count() >= 1
