"""A backup restored (issue 57, ``docs/operations.md``): a site with games of each kind, a
tournament, a plan, emails sent, one in doubt and emails still due is dumped with
``pg_dump`` as an operator would, restored with ``pg_restore`` into an empty database,
and the restored site, run as a process of its own on it, serves every game's page,
exports every game with ``verify_game`` passing, passes ``check_database``, and sends the
emails that were due once, none that had gone out before the backup, and not the one in
doubt."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection
from django.utils import timezone

from games.models import Delivery, Game
from games.notify.channels import loop
from games.services.plans import plan_replace
from games.services.sweep import sweep
from tests.games.helpers import play, started, to_move
from tests.games.test_services_plans import two_move_line
from tests.tournaments.test_services import opened, organiser_starts, players

ROOT = Path(__file__).resolve().parents[2]

# Run by the restored site: every game's page and export, verify_game on each export,
# check_database, then the minute sweep twice, once what was due at the backup is due;
# prints what it found as JSON.
RESTORED_SITE = """
import json, sys, tempfile
from datetime import timedelta
from pathlib import Path
import django
django.setup()
from django.utils import timezone
from games.services.sweep import sweep
from django.core.management import call_command
from django.test import Client
from games.models import Delivery, Game
from games.notify.channels import loop
client = Client(HTTP_HOST="localhost")
pages, verified = {}, []
folder = Path(tempfile.mkdtemp())
for game in Game.objects.order_by("pk"):
    pages[game.pk] = client.get(f"/games/{game.pk}/").status_code
    export = client.get(f"/api/games/{game.pk}/export/")
    if export.status_code == 200:
        record = folder / f"{game.pk}.jsonl"
        record.write_bytes(export.content)
        call_command("verify_game", str(record))
        verified.append(game.pk)
call_command("check_database")
# Minutes after the backup: the turn emails' short wait (for an undo) is over.
later = timezone.now() + timedelta(minutes=5)
sweep(now=later)
sweep(now=later)
print(json.dumps({
    "pages": pages,
    "verified": verified,
    "sent": sorted(Delivery.objects.exclude(sent_at=None).values_list("pk", flat=True)),
    "withdrawn": sorted(
        Delivery.objects.exclude(withdrawn_because="").values_list("pk", flat=True)
    ),
    "in_doubt": sorted(Delivery.objects.exclude(in_doubt_at=None).values_list("pk", flat=True)),
}))
"""


class DiesDuringData(BaseEmailBackend):
    """The worker's process killed while the mail server holds the message."""

    def send_messages(self, messages):
        raise SystemExit("the worker was killed")


def url_of(name: str) -> str:
    database = connection.settings_dict
    return f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{name}"


def psql(name: str, sql: str) -> None:
    subprocess.run(["psql", url_of("postgres"), "-v", "ON_ERROR_STOP=1", "-qc", sql], check=True)


@pytest.fixture
def restored_database():
    name = f"{connection.settings_dict['NAME']}_restored"
    psql("postgres", f'DROP DATABASE IF EXISTS "{name}"')
    psql("postgres", f'CREATE DATABASE "{name}"')
    yield name
    psql("postgres", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_dump_restored_into_an_empty_database_serves_and_verifies_every_game_and_sends_nothing_twice(  # noqa: E501
    alice, bob, carol, restored_database, tmp_path, settings
):
    games = [
        started("azul", alice, bob),
        started("summer-pavilion", alice, bob, carol),
        started("miyabi", bob, carol),
    ]
    # A plan of the player waiting in the first game, from its first position.
    planner = next(seat.user for seat in games[0].seats.all() if seat.user != to_move(games[0]))
    plan_replace(game=games[0], user=planner, lines=[two_move_line(games[0])[:2]])
    for game in games[1:]:
        for _move in range(3):
            play(game)
    cup = players(4)
    tournament = opened(cup, format="swiss", per_game=2, rounds=1)
    organiser_starts(tournament, cup[0])
    sweep()
    # A worker dies while the mail server has an email (after DATA, before its answer):
    # the sweep finds the claim stale and puts the email in doubt, never to be sent again
    # without an operator.
    play(games[2])
    later = timezone.now() + timedelta(minutes=3)
    settings.EMAIL_BACKEND = f"{__name__}.DiesDuringData"
    # The first email due that is still to go out (one whose turn has passed, or whose
    # reader is on the page, is withdrawn, not sent).
    doomed = None
    due = Delivery.objects.filter(sent_at=None, cancelled_at=None, due_at__lte=later)
    for row in due.order_by("pk"):
        try:
            loop.send(delivery_id=row.pk, now=later)
        except SystemExit:
            doomed = row
            break
    assert doomed is not None, "an email was due to go out"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    sweep(now=later + timedelta(minutes=11))
    assert Delivery.objects.get(pk=doomed.pk).in_doubt_at is not None
    sent_before = set(Delivery.objects.exclude(sent_at=None).values_list("pk", flat=True))
    assert sent_before and len(mail.outbox) == len(sent_before)
    play(games[1])  # its turn email is due, and not yet sent, at the backup
    due_at_backup = set(
        Delivery.objects.filter(sent_at=None, cancelled_at=None).values_list("pk", flat=True)
    )
    assert due_at_backup

    dump = tmp_path / "azulsite.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", url_of(connection.settings_dict["NAME"])],
        check=True,
    )
    subprocess.run(
        ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={url_of(restored_database)}"]
        + [str(dump)],
        check=True,
    )
    mailbox = tmp_path / "mail"
    site = subprocess.run(
        [sys.executable, "-c", RESTORED_SITE],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "azulsite.settings",
            "DATABASE_URL": url_of(restored_database),
            "EMAIL_URL": f"file://{mailbox}",
            # No worker runs beside it: the sweep sends everything itself, however long.
            "SWEEP_SECONDS": "120",
            "AZULSITE_VAR_DIR": str(tmp_path / "var"),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert site.returncode == 0, site.stdout + site.stderr
    assert "OK: the append-only triggers are in place" in site.stdout
    found = json.loads(site.stdout.strip().splitlines()[-1])

    every_game = set(Game.objects.values_list("pk", flat=True))
    assert {int(pk) for pk in found["pages"]} == every_game
    assert set(found["pages"].values()) == {200}
    assert set(found["verified"]) == every_game
    newly_sent = set(found["sent"]) - sent_before
    # What went out before the backup stays sent, and is not sent again; what was due
    # goes out once, here, or is found not needed (a later email shows the turn).
    assert sent_before <= set(found["sent"])
    assert newly_sent and newly_sent <= due_at_backup
    assert due_at_backup - newly_sent <= set(found["withdrawn"])
    written = "".join(path.read_text() for path in mailbox.iterdir())
    assert written.count("Message-ID:") == len(newly_sent)
    assert found["in_doubt"] == [doomed.pk], "in doubt stays in doubt, unsent"
    assert doomed.pk not in found["sent"]
