"""Fixtures of the browser tests: Debian's Chromium driven by Playwright.

The browser is Debian's package (installed with apt when missing), never a downloaded one.
Playwright's sync API runs an event loop in the test's thread, so Django's async-safety
check is relaxed for these tests (the ORM calls are plain, synchronous test code)."""

import os
import subprocess
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        subprocess.run("apt-get update && apt-get install -y chromium", shell=True, check=True)
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def shoot(screenshots):
    """Save a full-page screenshot of ``page`` as ``var/screenshots/<name>.png``."""

    def take(page, name: str) -> Path:
        path = screenshots / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def windows(browser):
    """Browser windows (contexts) for one test, closed at its end so that no page keeps
    polling a test database that is being emptied."""
    opened = []

    def open_window(**options):
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
        opened.append(context)
        return context

    yield open_window
    for context in opened:
        context.close()
