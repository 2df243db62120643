"""The browser fixtures of ``tests/web`` (Debian's Chromium through Playwright)."""

from tests.web.conftest import browser, chromium_path, screenshots, shoot, windows  # noqa: F401
