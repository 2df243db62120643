"""The account page's API tokens in a real browser, at both sizes (issue 53): a newcomer
signed up by the emailed link makes a token, sees it once in a box that fits the screen,
uses it, and revokes it, every button a full tap target."""

import pytest
from rest_framework.test import APIClient

from tests.web.test_browser_play import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def fits(page, selector: str, viewport: dict) -> None:
    box = page.locator(selector).bounding_box()
    assert box["height"] >= 44, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], selector


@pytest.mark.parametrize("size", SIZES)
def test_a_newcomer_makes_a_token_on_the_account_page_and_revokes_it(
    size, windows, live_server, shoot
):
    viewport = SIZES[size]
    page = sign_in(windows, live_server, f"dora-{size}@example.com")
    page.set_viewport_size(viewport)
    page.goto(live_server.url + "/account/#api-tokens")
    section = page.get_by_role("region", name="API tokens")
    assert "You have no API token." in section.inner_text()
    page.get_by_label("Name of a new token").fill("my bot")
    page.get_by_role("button", name="Make a token").click()
    key = page.get_by_label("Your new token “my bot”").input_value()
    assert key.startswith("azs_")
    shoot(page, f"account-tokens-{size}")
    fits(page, "#new-token-key", viewport)
    fits(page, "#token-list button", viewport)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= viewport["width"], "the account page scrolls sideways"

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/games/").status_code == 200

    page.get_by_role("button", name="Revoke the token “my bot”").click()
    page.wait_for_selector("text=is revoked")
    shoot(page, f"account-tokens-revoked-{size}")
    assert "You have no API token." in page.get_by_role("region", name="API tokens").inner_text()
    assert api.get("/api/games/").status_code == 401
