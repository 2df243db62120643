"""``/api/push-subscriptions/``: a browser's ``PushSubscription.toJSON()`` stored (201, then
200), removed, and refused with a clear message when its endpoint is not a known push
service (the site would otherwise post wherever anyone asked)."""

import pytest

from games.models import PushSubscription
from games.notify.channels.push import vapid
from tests.games.api_helpers import client_for
from tests.push.conftest import Device, b64, unb64

pytestmark = pytest.mark.django_db
URL = "/api/push-subscriptions/"
FCM = "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH"


def post(user, body):
    return client_for(user).post(URL, body, format="json")


def test_a_subscription_is_stored_once_and_answered_201_then_200(alice):
    body = Device().subscription(FCM)

    first, again = post(alice, body), post(alice, body)

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == {"endpoint": FCM}
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh, stored.auth) == (
        alice,
        body["keys"]["p256dh"],
        body["keys"]["auth"],
    )


def test_a_player_has_as_many_devices_as_they_subscribe(alice):
    for number in range(3):
        assert post(alice, Device().subscription(f"{FCM}{number}")).status_code == 201

    listed = client_for(alice).get(URL).json()

    assert listed["endpoints"] == [f"{FCM}{number}" for number in range(3)]
    assert listed["public_key"] == vapid.public_key()
    assert len(unb64(listed["public_key"])) == 65


def test_a_player_keeps_their_latest_devices(alice, settings):
    from games.services.push import MAX_DEVICES

    for number in range(MAX_DEVICES + 2):
        post(alice, Device().subscription(f"{FCM}{number}"))

    kept = client_for(alice).get(URL).json()["endpoints"]
    assert kept == [f"{FCM}{number}" for number in range(2, MAX_DEVICES + 2)]


def test_a_device_signed_in_as_another_player_moves_to_them(alice, bob):
    body = Device().subscription(FCM)
    post(alice, body)

    assert post(bob, body).status_code == 201
    assert PushSubscription.objects.get().user == bob


@pytest.mark.parametrize("keys", ["another device's", "the same key with another secret"])
def test_an_endpoint_of_another_players_device_is_refused_and_stays_theirs(alice, bob, keys):
    device = Device()
    post(alice, device.subscription(FCM))
    stranger = Device() if keys == "another device's" else Device(key=device.key)

    refused = post(bob, stranger.subscription(FCM))

    assert refused.status_code == 409
    assert refused.json()["code"] == "push_endpoint_taken"
    assert "turn notifications off and on again" in refused.json()["message"]
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.p256dh, stored.auth) == (alice, device.p256dh, b64(device.auth))
    assert client_for(bob).get(URL).json()["endpoints"] == []


def test_delete_removes_the_device(alice, bob):
    post(alice, Device().subscription(FCM))

    assert client_for(bob).delete(URL, {"endpoint": FCM}, format="json").status_code == 204
    assert PushSubscription.objects.exists()
    assert client_for(alice).delete(URL, {"endpoint": FCM}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://evil.example/push",
        "http://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com:8443/fcm/send/x",
        "https://user:pw@fcm.googleapis.com/fcm/send/x",
        "http://127.0.0.1:6379/",
        "http://169.254.169.254/latest/meta-data/",
        "file:///etc/passwd",
        "https://notify.windows.com.evil.example/x",
    ],
)
def test_an_endpoint_that_is_no_known_push_service_is_refused(alice, endpoint):
    response = post(alice, Device().subscription(endpoint))

    assert response.status_code == 400
    assert response.json()["code"] == "push_endpoint_refused"
    assert response.json()["message"].startswith("this push endpoint is refused: ")
    assert not PushSubscription.objects.exists()


def test_the_refusal_names_the_host_and_the_allowed_ones(alice):
    response = post(alice, Device().subscription("https://evil.example/push"))

    assert response.json()["message"] == (
        "this push endpoint is refused: evil.example is not a known push service (allowed: "
        "fcm.googleapis.com, updates.push.services.mozilla.com, web.push.apple.com, "
        "*.notify.windows.com)"
    )


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://web.push.apple.com/QGx",
        "https://wns2-par02p.notify.windows.com/w/?token=abc",
    ],
)
def test_the_known_push_services_are_allowed(alice, endpoint):
    assert post(alice, Device().subscription(endpoint)).status_code == 201


def test_a_loopback_port_allowed_by_the_operator_takes_plain_http(alice, settings):
    settings.WEB_PUSH_ALLOWED_HOSTS = ["127.0.0.1:8765"]

    assert post(alice, Device().subscription("http://127.0.0.1:8765/push/1")).status_code == 201
    assert post(alice, Device().subscription("http://127.0.0.1:8766/push/1")).status_code == 400


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda body: body["keys"].update(p256dh="c2hvcnQ"), "keys.p256dh"),
        (lambda body: body["keys"].update(p256dh="BA" + "A" * 85), "keys.p256dh"),
        (lambda body: body["keys"].update(auth="!!"), "keys.auth"),
        (lambda body: body.pop("keys"), "keys"),
        (lambda body: body.update(expirationTime=-5), "expirationTime"),
    ],
)
def test_bad_keys_are_refused_naming_the_field(alice, change, field):
    body = Device().subscription(FCM)
    change(body)

    response = post(alice, body)

    assert response.status_code == 400
    assert (response.json()["code"], response.json()["field"]) == ("invalid_input", field)


def test_signing_in_is_needed(db):
    response = client_for().post(URL, Device().subscription(FCM), format="json")

    assert response.status_code == 401
