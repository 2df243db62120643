"""Download your data (issue 45) on the account page, in the real browser at 1280 and 390
px: the button asks for it, the progress moves on by itself while it is built, and the
page turns to the download link once it is ready; the link saves the ZIP. Screenshots
under var/screenshots/data-export-*.png."""

import io
import zipfile

import pytest
from playwright.sync_api import expect

from games.models import DataExport
from games.notify.channels.email import render
from games.services import data_export
from tests.conftest import make_user
from tests.web.helpers import started_game
from tests.web.test_browser_pages import check_page, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def no_worker(monkeypatch):
    """No worker builds the archive: the test moves it on itself."""
    monkeypatch.setattr(data_export, "send_quickly", lambda name, args: True)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_asking_following_and_downloading_your_data(windows, live_server, shoot, size, no_worker):
    alice, bob = make_user("alice"), make_user("bob")
    started_game(alice, bob, "azul")
    page = window_of(windows, live_server, alice, size)
    page.goto(f"{live_server.url}/account/")
    section = page.locator("#your-data")
    assert section.locator("h2").inner_text() == "Your data"
    check_page(page, shoot, f"data-export-ask-{size}")

    page.locator("#data-export-ask").click()
    page.wait_for_url("**/account/#your-data")
    assert page.locator("#data-export-text").inner_text() == "Your archive is waiting to be built."
    assert page.locator("#data-export-ask").count() == 0
    export = DataExport.objects.get(user=alice)
    # A build under way: the page's poll shows its progress without a reload.
    DataExport.objects.filter(pk=export.pk).update(
        status=DataExport.Status.BUILDING, done=12, total=40
    )
    expect(page.locator("#data-export-text")).to_have_text(
        "Building your archive: 12 of 40 games", timeout=10_000
    )
    assert page.locator("#data-export-bar").evaluate("bar => [bar.value, bar.max]") == [12, 40]
    check_page(page, shoot, f"data-export-building-{size}")

    # The build finishes: the page reloads itself with the link.
    DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.QUEUED)
    assert data_export.data_export_build(export_id=export.pk, email_text=render.sent_text) == (
        "ready"
    )
    link = page.locator("#data-export-download")
    link.wait_for(timeout=10_000)
    assert "Download your data" in link.inner_text()
    assert "then it is deleted" in page.locator("#data-export-text").inner_text()
    check_page(page, shoot, f"data-export-ready-{size}")
    with page.expect_download() as download:
        link.click()
    saved = download.value.path()
    with zipfile.ZipFile(io.BytesIO(open(saved, "rb").read())) as archive:
        names = archive.namelist()
    assert "README.txt" in names and any(name.startswith("games/") for name in names)
