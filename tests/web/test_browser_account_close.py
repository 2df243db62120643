"""Closing one's account in a real browser, at both sizes (issue 45): the page says what
closing does before anything happens, fits the screen, and closing signs the player out
with a word of goodbye."""

import pytest

from games.selectors.names import is_forgotten
from tests.games.helpers import every_player_moved, started
from tests.web.helpers import looked_at, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_a_player_closes_their_account_from_the_account_page(
    size, alice, bob, windows, live_server, shoot
):
    viewport = SIZES[size]
    every_player_moved(started("azul", alice, bob))
    page = signed_in_page(windows, live_server, alice, viewport)
    page.goto(live_server.url + "/account/")
    page.get_by_role("link", name="Close your account").click()
    looked_at(page, page.url, f"account-close-{size}", viewport, shoot)
    assert "Closing your account is final" in page.inner_text("#closing")
    button = page.locator("#confirm-close")
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= viewport["width"]
    page.fill("input[name=password]", "pw-alice")
    tick = page.locator(".tick label").bounding_box()
    assert tick["height"] >= 44
    page.check("input[name=understood]")
    button.click()
    page.wait_for_url(live_server.url + "/")
    shoot(page, f"account-closed-{size}")
    assert "Your account is closed and your data erased." in page.inner_text("body")
    alice.refresh_from_db()
    assert is_forgotten(alice)
