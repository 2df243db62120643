"""The privacy page (issue 45): anyone may read it, every page's footer links to it, and it
names the retention days of the settings, so it says what the retention job does. In the
real browser at desktop (1280×900) and phone (390×844) sizes: opened from the footer, no
sideways scroll, tap targets of 44 px, footer links too; a screenshot of each under
var/screenshots/."""

import pytest

from tests.web.test_browser_pages import SIZES, check_page, window_of

# Days no default has, so that the page can only have them from the settings.
DAYS = {"inbound": 17, "sign_in": 3, "sent_bodies": 61, "sent_rows": 123}
EXPORT_DAYS = 5


@pytest.fixture(autouse=True)
def retention_days(settings):
    settings.RETENTION_DAYS = DAYS
    settings.DATA_EXPORT_DAYS = EXPORT_DAYS


def said(text: str) -> dict[str, bool]:
    """Whether the page names each duration of the settings where it speaks of it."""
    return {
        "inbound": "after 17 days, we forget who sent them" in text,
        "sign_in": "deleted after 3 days" in text,
        "sent_bodies": "61 days after they went out" in text,
        "sent_rows": "123 days after they went out, that fact goes too" in text,
        "export": "deleted 5 days after it is ready" in text,
    }


@pytest.mark.django_db
def test_the_page_answers_signed_out_and_names_the_days_of_the_settings(client):
    response = client.get("/privacy/")
    assert response.status_code == 200
    text = " ".join(response.text.split())
    assert said(text) == dict.fromkeys(
        ("inbound", "sign_in", "sent_bodies", "sent_rows", "export"), True
    )
    assert "for an hour at most" in text
    assert 'href="/account/#your-data"' in text


@pytest.mark.django_db
def test_every_page_links_to_it_from_the_footer(client, alice):
    assert 'id="privacy-link"' in client.get("/").text
    client.force_login(alice)
    assert 'href="/privacy/" id="privacy-link"' in client.get("/lobby/").text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", SIZES)
def test_opened_from_the_footer_it_fits_and_its_targets_are_tappable(
    windows, live_server, shoot, size
):
    page = window_of(windows, live_server, None, size)
    page.goto(live_server.url + "/leaderboard/")
    page.click("footer #privacy-link")
    page.wait_for_url("**/privacy/")
    assert page.locator("h1").inner_text() == "Your data is yours"
    assert all(said(" ".join(page.locator("main").inner_text().split())).values())
    check_page(page, shoot, f"privacy-{size}")
    small = page.evaluate(
        """() => [...document.querySelectorAll('footer a, footer button')]
            .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 43.5)
            .map(([t, r]) => t + ':' + Math.round(r.height))"""
    )
    assert not small, f"footer targets under 44 px: {small}"
    assert not page.problems
