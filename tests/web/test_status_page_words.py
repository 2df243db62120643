"""The operator's status page (issue 53): linked from the moderation menu and the admin's
index, the minute sweep's jobs and counts said in words through translation (never the
code's names), and a time that ends a sentence without a second full stop."""

import re
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.models import Outbox, PlayerSettings
from games.services.operations import process_beat
from games.services.sweep import sweep
from tests.community.world import Broker, FakeClock
from tests.games.test_minute_sweep_jobs import moderator, one_job_fails

pytestmark = pytest.mark.django_db

AFTERNOON = datetime(2026, 12, 7, 15, 30, tzinfo=UTC)


def swept() -> None:
    """A whole pass of the minute sweep, its counts recorded for the page as beat's task
    records them."""
    process_beat(name="sweep", detail=sweep())


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_status_page_is_linked_from_the_menu_and_the_admin_for_moderators(alice):
    client = signed_in(moderator())
    assert 'href="/status/" id="status-link"' in client.get("/lobby/").text
    assert 'id="admin-status-link"' in client.get("/admin/").text
    assert 'id="status-link"' not in signed_in(alice).get("/lobby/").text


def test_the_sweeps_counts_are_said_in_words(monkeypatch):
    Outbox.objects.create(key=1, recipient="x@example.com", kind="digest")
    one_job_fails(monkeypatch, "tournament_rounds_begun", RuntimeError("no"))
    swept()
    monkeypatch.setattr(timezone, "now", lambda: AFTERNOON)
    page = signed_in(moderator()).get("/status/").text
    counts = re.search(r'id="sweep-counts">(.*?)</dd>', page, re.S)[1]
    assert "Emails sent by the sweep: 1" in counts and "Jobs that failed: 1" in counts
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", counts), "no name from the code"
    assert "Tournament rounds whose games were not yet made" in page
    assert "tournament_rounds_begun" not in page
    assert "p.m. (reload the page to update)" in page and ".." not in page


def test_manage_py_sweep_says_what_it_did_in_words():
    out = StringIO()
    call_command("sweep", stdout=out)
    assert out.getvalue() == "Nothing was due in the last pass.\n"
    Outbox.objects.create(key=1, recipient="x@example.com", kind="digest")
    out = StringIO()
    call_command("sweep", stdout=out)
    assert out.getvalue() == "emails sent by the sweep: 1\n"


@pytest.mark.django_db(transaction=True)
def test_manage_py_sweep_says_what_it_handed_to_the_workers_and_did_not_send(settings):
    Outbox.objects.create(key=1, recipient="x@example.com", kind="digest")
    settings.SWEEP_SECONDS = 0
    broker = Broker(FakeClock(timezone.now()))
    try:
        out = StringIO()
        call_command("sweep", stdout=out)
    finally:
        broker.close()
    said = out.getvalue().splitlines()
    assert said[0] == "emails handed to the workers to send: 1"
    assert said[1].startswith("What was handed to the workers is sent by a worker, if one runs")
    assert not Outbox.objects.filter(sent_at__isnull=False).exists()


def test_the_status_page_speaks_polish_to_a_polish_moderator():
    """Needs the catalogs: the translators' Polish."""
    maud = moderator()
    PlayerSettings.objects.create(user=maud, language="pl")
    Outbox.objects.create(key=1, recipient="x@example.com", kind="digest")
    swept()
    page = signed_in(maud).get("/status/").text
    counts = re.search(r'id="sweep-counts">(.*?)</dd>', page, re.S)[1]
    assert counts == "E-maile wysłane przez przegląd: 1"
    assert "Stan na " in page and "(odśwież stronę, aby zaktualizować)" in page
    assert 'id="status-link">Stan serwisu</a>' in page
