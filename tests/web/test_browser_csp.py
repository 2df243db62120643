"""Under the Content Security Policy (no inline script or style), the pages still work in
Debian's Chromium and the browser reports no violation: signing in by the emailed link,
the lobby, a new game, a game, its replay, the API docs and the admin."""

import re

import pytest
from django.core import mail
from django.utils import timezone

from games.notify.channels import loop
from games.services.moves import game_resign
from tests.conftest import make_user
from tests.games.helpers import play, started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_page_works_without_a_csp_violation(windows, live_server):
    alice, bob = make_user("alice", is_staff=True), make_user("bob")
    game = started("azul", alice, bob)
    play(game)
    page = windows().new_page()
    violations = []
    page.on(
        "console",
        lambda message: (
            "Content Security Policy" in message.text
            and violations.append(f"{page.url}: {message.text}")
        ),
    )
    page.goto(f"{live_server.url}/signin/?next=/games/{game.pk}/")
    assert (
        "script-src 'self'" in page.context.request.get(page.url).headers["content-security-policy"]
    )
    page.fill("input[name=email]", alice.email)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Check your email")
    loop.send_due(now=timezone.now())
    link = re.search(r"https?://[^/\s]+(/signin/link/\S+)", mail.outbox[-1].body).group(1)
    page.goto(live_server.url + link)
    assert "#" not in page.url, "the code stays out of the address bar"
    assert page.input_value("#sign-in-code") == link.split("#")[1]
    page.click("#sign-in")
    page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
    page.wait_for_selector("svg")
    for path in ("/lobby/", "/games/new/", f"/games/{game.pk}/replay/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("text=azulsite API")
    page.wait_for_selector(".opblock", timeout=15000)
    game_resign(game=game, user=bob)
    page.goto(f"{live_server.url}/admin/")
    page.wait_for_load_state("networkidle")
    assert violations == []
