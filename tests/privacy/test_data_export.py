"""Download your data (issue 45): what the archive holds (everything of the player, nothing
of anyone else), asking for it (one at a time, three a day), building it (its progress,
its lease, the sweep's fallback), and the doors: the account page, the download and the
API."""

import io
import json
import zipfile
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events.models import Event
from games.errors import TooManyRequests
from games.models import (
    DataExport,
    InboundMessage,
    NoticeKind,
    Outbox,
    PushSubscription,
)
from games.notify.channels.email import render
from games.selectors.access import seat_of
from games.selectors.history import export_record
from games.services import data_export
from games.services.chat import chat_post
from games.services.tournaments.entry import tournament_create, tournament_join
from tests.games.helpers import play, started

pytestmark = pytest.mark.django_db

ALICE_SAYS = "Alice's own words in the chat"
BOB_SAYS = "Bob's private banter nobody else exports"
PUSH_PATH = "/fcm/send/device-path-that-stays-secret"


@pytest.fixture
def sent(monkeypatch) -> list:
    """The tasks sent to the broker (none reaches a worker)."""
    tasks = []
    monkeypatch.setattr(
        data_export, "send_quickly", lambda name, args: tasks.append((name, args)) or True
    )
    return tasks


@pytest.fixture
def alices_world(alice, bob, carol):
    """A game of alice and bob with a few moves and chat from both, a game of bob and carol,
    alice's device, emails to both and a reply from each."""
    game = started("azul", alice, bob)
    play(game)
    play(game)
    chat_post(game=game, user=alice, text=ALICE_SAYS)
    chat_post(game=game, user=bob, text=BOB_SAYS)
    other = started("azul", bob, carol)
    chat_post(game=other, user=carol, text="Carol chatting with Bob")
    PushSubscription.objects.create(
        user=alice,
        endpoint="https://fcm.googleapis.com" + PUSH_PATH,
        p256dh="p256dh-key-of-alice",
        auth="auth-secret-of-alice",
    )
    Outbox.objects.create(key=7, recipient=alice.email, user=alice, kind=NoticeKind.SIGN_IN)
    Outbox.objects.create(key=8, recipient=bob.email, user=bob, kind=NoticeKind.SIGN_IN)
    InboundMessage.objects.create(message_id="<reply-of-alice@x>", sender=alice.email, game=game)
    InboundMessage.objects.create(message_id="<reply-of-bob@x>", sender=bob.email, game=game)
    return game, other


def built(user, sent) -> DataExport:
    """Ask for ``user``'s data and run the task the request sent."""
    export = data_export.data_export_request(user=user)
    assert data_export.data_export_build(export_id=export.pk, email_text=render.sent_text) in (
        "ready",
        "done",
    )
    export.refresh_from_db()
    return export


def made_ready(**which) -> None:
    """The downloads ``which`` names as if built just now."""
    now = timezone.now()
    DataExport.objects.filter(**which).update(
        status=DataExport.Status.READY, ready_at=now, expires_at=now + timedelta(days=7)
    )


def files_of(archive: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        return {name: opened.read(name).decode() for name in opened.namelist()}


def test_the_archive_holds_the_players_account_games_chat_emails_and_devices(
    alice, bob, alices_world, sent, django_capture_on_commit_callbacks
):
    game, other = alices_world
    with django_capture_on_commit_callbacks(execute=True):
        export = data_export.data_export_request(user=alice)
    assert sent == [("games.tasks.data_export_build", [export.pk])]
    assert data_export.data_export_build(export_id=export.pk, email_text=render.sent_text) == (
        "ready"
    )
    export.refresh_from_db()
    assert export.status == DataExport.Status.READY
    assert (export.done, export.total) == (1, 1)
    assert export.size == len(bytes(export.archive))
    assert export.expires_at - export.ready_at == timedelta(days=7)

    files = files_of(bytes(export.archive))
    assert {
        "README.txt",
        "index.json",
        "account.json",
        "ratings.json",
        "chat.json",
        "plans.json",
        "tournaments.json",
        "devices.json",
        "emails.json",
        "sign-ins.json",
        f"games/{game.pk}.json",
    } == set(files)
    for name in json.loads(files["index.json"])["files"]:
        assert name in files["README.txt"]

    account = json.loads(files["account.json"])
    assert (account["id"], account["email"], account["name"]) == (alice.pk, alice.email, "Alice")
    assert account["settings"] is None or "time_zone" in account["settings"]

    record = json.loads(files[f"games/{game.pk}.json"])
    game.refresh_from_db()
    expected = json.loads(json.dumps(export_record(game)))
    assert record["record"] == expected
    assert record["seat"]["position"] == seat_of(game, alice).position

    assert [m["text"] for m in json.loads(files["chat.json"])] == [ALICE_SAYS]
    devices = json.loads(files["devices.json"])
    assert [d["push_service"] for d in devices] == ["fcm.googleapis.com"]

    emails = json.loads(files["emails.json"])
    kinds = {row["kind"] for row in emails["sent"]}
    assert NoticeKind.SIGN_IN in kinds and len(kinds) > 1, "sign-in and the game's emails"
    written = [row for row in emails["sent"] if row["text"]]
    assert written and all(row["subject"] for row in written)
    assert all(row["text"] is None for row in emails["sent"] if row["kind"] == NoticeKind.SIGN_IN)
    assert [row["message_id"] for row in emails["received"]] == ["<reply-of-alice@x>"]
    sign_ins = json.loads(files["sign-ins.json"])
    assert len(sign_ins["sign_in_emails"]) == 1

    everything = "".join(files.values())
    for secret in (BOB_SAYS, "Carol chatting", bob.email, "carol@example.com"):
        assert secret not in everything
    for secret in (PUSH_PATH, "p256dh-key-of-alice", "auth-secret-of-alice", "<reply-of-bob@x>"):
        assert secret not in everything
    assert f"games/{other.pk}.json" not in files
    assert "play+" not in everything or "play+…@" in everything


def test_the_player_is_emailed_once_it_is_ready_with_a_link_to_the_account_page(
    alice, sent, settings
):
    settings.MAIL_BOARD_PICTURES = False
    export = built(alice, sent)
    row = Outbox.objects.get(kind=NoticeKind.DATA_EXPORT_READY)
    assert (row.user, row.recipient, row.key) == (alice, alice.email, export.pk)
    message = render.message(row, timezone.now())
    assert message.subject == "Your data is ready to download"
    assert "/account/#your-data" in message.body
    assert f"/account/data/{export.pk}/download/" not in message.body, "links only open pages"


def test_tournaments_and_ratings_of_the_player_are_in_the_archive(alice, bob, sent):
    tournament = tournament_create(
        organiser=bob, name="Spring Cup", game="azul", format="swiss", per_game=2, rounds=2
    )
    tournament_join(tournament=tournament, user=alice)
    files = files_of(bytes(built(alice, sent).archive))
    entered = json.loads(files["tournaments.json"])
    assert [(t["tournament"]["name"], t["entered"], t["organiser"]) for t in entered] == [
        ("Spring Cup", True, False)
    ]
    assert json.loads(files["ratings.json"]) == {"ratings": [], "history": []}


def test_asking_while_one_is_being_built_gives_that_one(alice, sent):
    first = data_export.data_export_request(user=alice)
    again = data_export.data_export_request(user=alice)
    assert again.pk == first.pk
    assert DataExport.objects.filter(user=alice).count() == 1


def test_a_fourth_request_in_a_day_is_refused_saying_when_to_ask_again(alice, sent, settings):
    settings.DATA_EXPORTS_PER_DAY = 3
    start = timezone.now()
    for hours in (0, 1, 2):
        export = data_export.data_export_request(user=alice, now=start + timedelta(hours=hours))
        made_ready(pk=export.pk)
    with pytest.raises(TooManyRequests) as refused:
        data_export.data_export_request(user=alice, now=start + timedelta(hours=3))
    assert refused.value.code == "data_export_limit"
    assert "3 times a day" in refused.value.message
    assert "you can ask again." in refused.value.message
    # Free again when the first request is a day old.
    assert refused.value.retry_after == pytest.approx(21 * 3600, abs=2)
    data_export.data_export_request(user=alice, now=start + timedelta(hours=24, seconds=1))


def test_a_failed_build_does_not_count_against_the_limit(alice, sent, settings):
    settings.DATA_EXPORTS_PER_DAY = 1
    export = data_export.data_export_request(user=alice)
    DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.FAILED)
    assert data_export.data_export_request(user=alice).pk != export.pk


def test_the_progress_says_games_done_of_total(alice, sent):
    export = data_export.data_export_request(user=alice)
    export.status, export.done, export.total = DataExport.Status.BUILDING, 12, 40
    progress = data_export.data_export_progress(export)
    assert progress.text == "Building your archive: 12 of 40 games"
    assert progress.pending


def test_a_lost_task_is_sent_again_by_the_sweep_once_per_ten_minutes(alice, sent):
    start = timezone.now()
    export = data_export.data_export_request(user=alice, now=start)
    assert data_export.resume_stale_exports(now=start + timedelta(minutes=9)) == 0
    assert data_export.resume_stale_exports(now=start + timedelta(minutes=11)) == 1
    assert data_export.resume_stale_exports(now=start + timedelta(minutes=12)) == 0
    assert sent == [("games.tasks.data_export_build", [export.pk])]
    assert data_export.resume_stale_exports(now=start + timedelta(minutes=22)) == 1


def test_a_build_whose_worker_stopped_is_taken_over_and_the_old_one_writes_nothing(
    alice, bob, sent
):
    started("azul", alice, bob)
    export = data_export.data_export_request(user=alice)
    # A first build claimed it and stopped: its lease runs out.
    DataExport.objects.filter(pk=export.pk).update(
        status=DataExport.Status.BUILDING, expires_at=timezone.now() - timedelta(seconds=1)
    )
    old_lease = DataExport.objects.get(pk=export.pk).expires_at
    assert data_export.resume_stale_exports(now=timezone.now()) == 1
    assert data_export.data_export_build(export_id=export.pk, email_text=render.sent_text) == (
        "ready"
    )
    # The stopped build wakes up: its lease is no longer the row's.
    late = data_export._Build(export, old_lease, render.sent_text)
    with pytest.raises(data_export.LeaseLost):
        late.beat(1)
    assert Outbox.objects.filter(kind=NoticeKind.DATA_EXPORT_READY).count() == 1


def test_an_email_that_cannot_be_written_any_more_is_listed_by_its_facts(alice, sent):
    Outbox.objects.create(key=3, recipient=alice.email, user=alice, kind=NoticeKind.YOUR_TURN)

    def broken(row, now):
        raise LookupError("the game is gone")

    export = data_export.data_export_request(user=alice)
    assert data_export.data_export_build(export_id=export.pk, email_text=broken) == "ready"
    export.refresh_from_db()
    emails = json.loads(files_of(bytes(export.archive))["emails.json"])
    [row] = emails["sent"]
    assert (row["kind"], row["subject"], row["text"]) == (NoticeKind.YOUR_TURN, None, None)
    assert row["message_id"]


# --- the doors ----------------------------------------------------------------------------


def test_the_account_page_asks_shows_progress_and_offers_the_download(client, alice, sent):
    client.force_login(alice)
    page = client.get("/account/")
    assert b'id="your-data"' in page.content and b'id="data-export-ask"' in page.content
    answer = client.post("/account/data/")
    assert answer.status_code == 302 and answer["Location"] == "/account/#your-data"
    export = DataExport.objects.get(user=alice)
    DataExport.objects.filter(pk=export.pk).update(
        status=DataExport.Status.BUILDING, done=12, total=40
    )
    page = client.get("/account/").content.decode()
    assert "Building your archive: 12 of 40 games" in page
    assert 'id="data-export-ask"' not in page, "no second archive while one is built"
    progress = client.get("/account/data/progress/").json()
    assert progress == {
        "status": "building",
        "done": 12,
        "total": 40,
        "text": "Building your archive: 12 of 40 games",
    }
    DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.QUEUED)
    data_export.data_export_build(export_id=export.pk, email_text=render.sent_text)
    page = client.get("/account/").content.decode()
    assert f'href="/account/data/{export.pk}/download/"' in page
    assert "You can download it until" in page and "then it is deleted." in page
    download = client.get(f"/account/data/{export.pk}/download/")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/zip"
    assert download["Content-Disposition"].startswith('attachment; filename="azulsite-data-')
    assert "README.txt" in files_of(download.content)


def test_the_download_is_its_owners_alone_and_only_until_it_expires(client, alice, bob, sent):
    export = built(alice, sent)
    url = f"/account/data/{export.pk}/download/"
    assert client.get(url).status_code == 302, "sign in first"
    client.force_login(bob)
    assert client.get(url).status_code == 404
    client.force_login(alice)
    assert client.get(url).status_code == 200
    DataExport.objects.filter(pk=export.pk).update(expires_at=timezone.now())
    assert client.get(url).status_code == 404
    assert "Your last archive has expired" in client.get("/account/").content.decode()


def test_the_page_says_the_limit_when_refused(client, alice, sent, settings):
    settings.DATA_EXPORTS_PER_DAY = 1
    client.force_login(alice)
    client.post("/account/data/")
    made_ready(user=alice)
    page = client.post("/account/data/", follow=True).content.decode()
    assert "You can ask for your data 1 time a day. From " in page
    assert DataExport.objects.filter(user=alice).count() == 1


def test_the_api_asks_follows_and_downloads_with_a_token(alice, bob, sent):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=alice).key)
    assert api.get("/api/data-export/").status_code == 404
    asked = api.post("/api/data-export/")
    assert asked.status_code == 202
    assert asked.json()["status"] == "queued" and asked.json()["download_url"] is None
    assert asked.json()["expires_at"] is None
    data_export.data_export_build(export_id=asked.json()["id"], email_text=render.sent_text)
    status = api.get("/api/data-export/").json()
    assert status["status"] == "ready" and status["expires_at"]
    assert status["download_url"] == f"/api/data-export/{status['id']}/archive/"
    archive = api.get(status["download_url"], HTTP_ACCEPT="application/zip")
    assert archive.status_code == 200 and archive["Content-Type"] == "application/zip"
    assert "account.json" in files_of(archive.content)

    other = APIClient()
    other.force_authenticate(bob)
    refused = other.get(status["download_url"], HTTP_ACCEPT="application/zip")
    assert refused.status_code == 404 and refused.json()["code"] == "no_data_export"
    assert APIClient().get(status["download_url"]).status_code == 401


def test_the_api_refuses_a_request_over_the_limit_with_retry_after(alice, sent, settings):
    settings.DATA_EXPORTS_PER_DAY = 1
    api = APIClient()
    api.force_authenticate(alice)
    api.post("/api/data-export/")
    made_ready(user=alice)
    refused = api.post("/api/data-export/")
    assert refused.status_code == 429
    assert refused.json()["code"] == "data_export_limit"
    assert int(refused["Retry-After"]) > 23 * 3600


def test_no_event_of_the_tournament_streams_is_needed_for_a_player_without_one(alice, sent):
    assert not Event.objects.filter(stream__startswith="tournament:").exists()
    assert json.loads(files_of(bytes(built(alice, sent).archive))["tournaments.json"]) == []
