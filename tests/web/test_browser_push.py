"""The service worker in Debian's Chromium: registered by every page, it shows a pushed
message as a notification (delivered by the DevTools protocol's
``ServiceWorker.deliverPushMessage``, as a push service would) and a tap on it opens the
game; the app is installable. The "Notify me on this device" switch stores the browser's
subscription through the API and removes it, with screenshots at phone and desktop sizes.

Headless Chromium has no push service of its own to subscribe with (Chrome's is Google's,
out of reach here): the switch test gives the page a stand-in ``PushManager`` that answers
as a subscribed browser does; what the site does with the subscription is real."""

import json
import time

import pytest

from games.models import NoticeKind, PushDelivery, PushSubscription
from games.notify.channels.push import texts
from tests.conftest import make_user
from tests.mail.conftest import start_game
from tests.push.conftest import Device
from tests.web.test_browser_pages import SIZES, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FCM = "https://fcm.googleapis.com/fcm/send/browser-test-device"
# What a subscribed browser's PushManager answers, for a browser without a push service.
STAND_IN_PUSH_MANAGER = """
(() => {
  let subscribed = null;
  const subscription = (key) => ({
    endpoint: "%(endpoint)s",
    options: { applicationServerKey: key.buffer },
    toJSON() { return %(json)s; },
    unsubscribe() { subscribed = null; return Promise.resolve(true); },
  });
  PushManager.prototype.getSubscription = function () { return Promise.resolve(subscribed); };
  PushManager.prototype.subscribe = function (options) {
    window.subscribedWithKey = Array.from(options.applicationServerKey);
    subscribed = subscription(options.applicationServerKey);
    return Promise.resolve(subscribed);
  };
})();
"""


def signed_in_window(windows, live_server, user, size="desktop"):
    """A window of ``user`` (``window_of``) whose site may show notifications."""
    page = window_of(windows, live_server, user, size)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    return page.context, page


def until(page, script: str, timeout: float = 15.0):
    """Poll ``script`` (an expression, maybe a promise) until it is truthy. Not
    ``wait_for_function``: its polling evaluates a string, which the site's CSP forbids."""
    deadline = time.monotonic() + timeout
    while not (found := page.evaluate(script)):
        assert time.monotonic() < deadline, f"timed out waiting for {script}"
        page.wait_for_timeout(100)
    return found


def worker_ready(page) -> None:
    """The worker is active and controls the page."""
    until(page, "navigator.serviceWorker.ready.then(r => Boolean(r.active))")
    until(page, "Boolean(navigator.serviceWorker.controller)")


def test_a_pushed_message_is_shown_and_its_tap_opens_the_game(windows, live_server, shoot):
    alice, bob = make_user("alice"), make_user("bob")
    device = Device()
    PushSubscription.objects.create(
        user=alice,
        endpoint=FCM,
        p256dh=device.p256dh,
        auth=device.subscription(FCM)["keys"]["auth"],
    )
    game = start_game(alice, bob)
    row = PushDelivery.objects.get(kind=NoticeKind.GAME_STARTED)
    message = texts.message(row)
    message["url"] = f"{live_server.url}/games/{game.pk}/"
    context, page = signed_in_window(windows, live_server, alice)
    session = context.new_cdp_session(page)
    registrations = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    session.send("ServiceWorker.enable")
    page.goto(f"{live_server.url}/lobby/")
    worker_ready(page)
    page.evaluate(
        "window.shown = []; navigator.serviceWorker.addEventListener("
        "'message', (event) => window.shown.push(event.data))"
    )
    page.wait_for_timeout(200)
    [registration] = [
        r for r in registrations if r["scopeURL"] == f"{live_server.url}/" and not r["isDeleted"]
    ][-1:]

    session.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "data": json.dumps(message),
        },
    )

    until(page, "window.shown.length > 0")
    assert page.evaluate("window.shown[0].message.title") == f"Azul #{game.pk} has started"
    shown = page.evaluate(
        """navigator.serviceWorker.ready.then(r => r.getNotifications())
            .then(found => found.map(n => [n.title, n.body, n.tag, n.data.url]))"""
    )
    assert shown == [[message["title"], message["body"], f"game-{game.pk}", message["url"]]]

    # A tap: the worker's notificationclick handler, dispatched in the worker (the protocol
    # cannot click a system notification).
    [worker] = context.service_workers
    worker.evaluate(
        """async () => {
            const [notification] = await self.registration.getNotifications();
            try {
              self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
            } catch (untrusted) {
              // waitUntil refuses a script's event once the handler has started its work.
            }
        }"""
    )
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/", timeout=10000)
    shoot(page, "push-opened-game-desktop")
    assert (
        page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => n.length)"
        )
        == 0
    )
    assert not page.problems, page.problems


def test_the_app_is_installable_and_shows_its_offline_page(
    browser, chromium_path, live_server, tmp_path
):
    """In a browser profile of its own: Chromium installs no app from an incognito window,
    which every window of the ``windows`` fixture is."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        viewport=SIZES["desktop"],
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/lobby/")
        worker_ready(page)
        session = context.new_cdp_session(page)

        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        manifest = session.send("Page.getAppManifest")

        assert errors == [], errors
        assert not manifest.get("errors"), manifest
        context.set_offline(True)
        page.goto(f"{live_server.url}/games/12345/")
        assert page.locator("h1").inner_text() == "You are offline"
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_switch_stores_this_devices_subscription_and_removes_it(
    windows, live_server, shoot, size
):
    alice = make_user("alice")
    device = Device()
    context, page = signed_in_window(windows, live_server, alice, size)
    context.add_init_script(
        STAND_IN_PUSH_MANAGER % {"endpoint": FCM, "json": json.dumps(device.subscription(FCM))}
    )
    page.goto(f"{live_server.url}/account/")
    worker_ready(page)
    switch = page.get_by_role("switch", name="Notify me on this device")
    page.wait_for_selector(".push-state:not(:empty)")
    assert not switch.is_checked()
    shoot(page, f"push-switch-off-{size}")

    switch.click()

    until(page, "document.querySelector('.push-state').textContent.includes('shows')")
    assert switch.is_checked()
    stored = PushSubscription.objects.get()
    assert (stored.user, stored.endpoint) == (alice, FCM)
    shoot(page, f"push-switch-on-{size}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for target in ("label.switch", ".push-switch a"):
        assert page.locator(target).bounding_box()["height"] >= 44, target

    switch.click()

    until(page, "document.querySelector('.push-state').textContent.includes('is not notified')")
    assert not PushSubscription.objects.exists()
    page.get_by_role("link", name="Choose what comes by email and what by notification").click()
    page.wait_for_url("**/mail/preferences/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, f"push-preferences-{size}")
    assert not page.problems, page.problems


# A browser whose push service cannot be reached: its subscription never answers, until
# ``window.pushServiceBack()`` (the stand-in above takes over).
UNREACHABLE_PUSH_SERVICE = """
(() => {
  const answering = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function () { return new Promise(() => {}); };
  window.pushServiceBack = () => { PushManager.prototype.subscribe = answering; };
})();
"""


def test_a_push_service_that_never_answers_is_given_up_and_can_be_tried_again(
    windows, live_server, shoot
):
    alice = make_user("alice")
    device = Device()
    context, page = signed_in_window(windows, live_server, alice, "phone")
    context.add_init_script(
        STAND_IN_PUSH_MANAGER % {"endpoint": FCM, "json": json.dumps(device.subscription(FCM))}
    )
    context.add_init_script(UNREACHABLE_PUSH_SERVICE)
    page.clock.install()
    page.goto(f"{live_server.url}/account/")
    worker_ready(page)
    switch = page.get_by_role("switch", name="Notify me on this device")
    page.wait_for_selector(".push-state:not(:empty)")

    switch.click()
    until(page, "document.querySelector('input[role=switch]').disabled")
    page.clock.run_for(11_000)

    until(page, "document.querySelector('.push-state').textContent.includes('did not answer')")
    assert not switch.is_checked() and switch.is_enabled()
    assert not PushSubscription.objects.exists()
    shoot(page, "push-switch-gave-up-phone")

    page.evaluate("window.pushServiceBack()")
    switch.click()
    until(page, "document.querySelector('.push-state').textContent.includes('shows')")
    assert switch.is_checked()
    assert PushSubscription.objects.get().endpoint == FCM
    assert not page.problems, page.problems
