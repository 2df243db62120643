"""The operator's status page in the real browser (issue 41): a job of the minute sweep that
keeps failing is named, with how often, since when and its error, at desktop and phone
sizes, and the page still fits."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services.sweep import sweep
from tests.games.test_minute_sweep_jobs import moderator, one_job_fails
from tests.web.test_browser_pages import check_page, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_failing_job_is_named_on_the_status_page(windows, live_server, shoot, monkeypatch, size):
    refused = ConnectionRefusedError("[Errno 111] Connection refused: push.example.com:443")
    one_job_fails(monkeypatch, "pushes", refused)
    now = timezone.now()
    for minutes_ago in (4, 3, 2):
        sweep(now=now - timedelta(minutes=minutes_ago))
    page = window_of(windows, live_server, moderator(), size)
    page.goto(live_server.url + "/status/")
    failing = page.locator("#jobs-failing")
    assert "Push notifications due" in failing.inner_text()
    assert "failed 3 times since" in failing.inner_text()
    assert "Connection refused: push.example.com:443" in failing.inner_text()
    check_page(page, shoot, f"status-job-failing-{size}")
