"""The new API token is copied by a button (issue 53, found from outside): on a phone the
key, longer than its box, was to be selected by hand, and a long press selects a word of
it. At both sizes the button copies the whole key and says so."""

import pytest
from rest_framework.test import APIClient

from tests.web.test_browser_play import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_the_copy_button_copies_the_whole_new_token(size, windows, live_server, shoot):
    page = sign_in(windows, live_server, f"dora-{size}@example.com")
    page.set_viewport_size(SIZES[size])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(live_server.url + "/account/#api-tokens")
    page.get_by_label("Name of a new token").fill("my script")
    page.get_by_role("button", name="Make a token").click()
    key = page.get_by_label("Your new token “my script”").input_value()

    copy = page.get_by_role("button", name="Copy the token")
    box = copy.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= SIZES[size]["width"]
    copy.click()

    page.wait_for_selector("#token-copied:has-text('Copied.')")
    shoot(page, f"account-token-copied-{size}")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == key
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {copied}")
    assert api.get("/api/games/").status_code == 200
