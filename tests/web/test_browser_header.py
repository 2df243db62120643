"""The site's header in the browser (issue 53): on a desktop the tournaments, the
leaderboards and the game archive are links of the header, not hidden in the menu behind
the player's name; on a phone the header keeps one line and the menu holds them; a
moderator's menu leads to the status page."""

import pytest

from tests.games.test_minute_sweep_jobs import moderator
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTS = ("Tournaments", "Leaderboards", "Game archive")


def test_on_a_desktop_the_sites_lists_are_links_of_the_header(windows, live_server, shoot):
    page = window_of(windows, live_server, moderator(), "desktop")
    page.goto(f"{live_server.url}/lobby/")
    header = page.get_by_role("navigation", name="Site navigation")
    for name in LISTS:
        link = header.get_by_role("link", name=name, exact=True)
        assert link.count() == 1 and link.is_visible(), name
        assert link.bounding_box()["height"] >= 44
    tops = {round(header.get_by_role("link", name=name).bounding_box()["y"]) for name in LISTS}
    assert len(tops) == 1, "one row"
    page.click("#site-menu summary")
    menu = page.locator("#site-menu .menu-links")
    assert [name for name in LISTS if menu.get_by_role("link", name=name).count()] == []
    shoot(page, "header-desktop")
    menu.get_by_role("link", name="Status of the site").click()
    page.wait_for_url(f"{live_server.url}/status/")


def test_on_a_phone_the_menu_holds_them_and_the_header_keeps_one_line(windows, live_server, shoot):
    page = window_of(windows, live_server, moderator(), "phone")
    page.goto(f"{live_server.url}/lobby/")
    header = page.get_by_role("navigation", name="Site navigation")
    assert header.get_by_role("link", name="Game archive").count() == 0, "not until opened"
    assert page.evaluate("document.querySelector('header.site').offsetHeight") <= 60
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#site-menu summary")
    for name in (*LISTS, "Status of the site"):
        assert header.get_by_role("link", name=name, exact=True).is_visible(), name
    shoot(page, "header-menu-moderator-phone")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_visitor_finds_the_lists_without_signing_in(size, windows, live_server):
    page = window_of(windows, live_server, None, size)
    page.goto(f"{live_server.url}/")
    header = page.get_by_role("navigation", name="Site navigation")
    shown = [name for name in LISTS if header.get_by_role("link", name=name).count()]
    assert shown == (list(LISTS) if size == "desktop" else ["Tournaments", "Leaderboards"])
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
