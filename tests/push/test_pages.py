"""The installable app's files (manifest, service worker, offline page), the "Notify me on
this device" switch on the account and game pages, and the preferences page's grid of
kinds × channels."""

import json
import struct

import pytest
from django.contrib.staticfiles import finders

from games.models import NoticeKind, PlayerSettings, PushSubscription
from tests.conftest import make_user
from tests.mail.conftest import start_game

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")

    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == (
        "azulsite",
        "/lobby/",
        "standalone",
    )
    sizes = {icon["sizes"]: icon["src"] for icon in manifest["icons"]}
    assert set(sizes) == {"192x192", "512x512"}
    for size, src in sizes.items():
        path = finders.find(src.removeprefix("/static/"))
        assert png_size(path) == tuple(int(side) for side in size.split("x"))


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page


def test_the_worker_is_served_from_the_root_as_script_and_never_cached(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    for handler in ("install", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{handler}"' in body
    assert 'const OFFLINE = "/offline/"' in body


def test_the_offline_page_says_so(client):
    page = client.get("/offline/", headers={"accept-language": "pl"}).content.decode()

    assert "Jesteś offline" in page


def test_the_switch_is_on_the_account_page_and_a_players_game_page(alice, bob, carol, client):
    game = start_game(alice, bob)
    client.force_login(alice)

    assert "Notify me on this device" in client.get("/account/").content.decode()
    assert "Notify me on this device" in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(carol)
    assert "Notify me on this device" not in client.get(f"/games/{game.pk}/").content.decode()


def test_the_preferences_page_chooses_per_kind_email_push_both_or_neither(alice, client):
    client.force_login(alice)
    PushSubscription.objects.create(
        user=alice, endpoint="https://fcm.googleapis.com/x", p256dh="k", auth="a"
    )

    client.post(
        "/mail/preferences/",
        {
            "action": "save",
            "columns": "push",
            "kinds": ["your_turn", "game_over"],
            "push_kinds": ["your_turn", "reminder"],
        },
    )

    channels = PlayerSettings.objects.get(user=alice).channels
    assert sorted(channels[NoticeKind.YOUR_TURN]) == ["email", "push"]
    assert channels[NoticeKind.GAME_OVER] == ["email"]
    assert channels[NoticeKind.REMINDER] == ["push"]
    assert channels[NoticeKind.TIMEOUT] == []
    page = client.get("/mail/preferences/").content.decode()
    assert 'name="push_kinds" value="reminder" checked' in page
    assert 'name="push_kinds" value="game_over">' in page
    assert "Devices now: 1." in page


def test_operators_see_the_pushes_in_the_admin(alice, bob, client):
    root = make_user("root", is_staff=True, is_superuser=True)
    PushSubscription.objects.create(
        user=alice, endpoint="https://fcm.googleapis.com/x", p256dh="k", auth="a"
    )
    start_game(alice, bob)
    client.force_login(root)

    listed = client.get("/admin/games/pushdelivery/")

    assert listed.status_code == 200 and "game_started" in listed.content.decode()
    client.force_login(alice)
    assert client.get("/admin/games/pushdelivery/").status_code == 302
