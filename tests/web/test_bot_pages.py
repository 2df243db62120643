"""The bots page and the bot ladder's page (issue 55) in a browser at 1280 and 390 px: a
person makes a bot and its token by keyboard-reachable forms, nothing scrolls sideways,
and the tap targets are 44 px at least."""

import re

import pytest

from games.services.bot_accounts import bot_create, bot_update
from games.services.bot_ladder import ladder_pair
from tests.web.helpers import looked_at, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_person_makes_a_bot_and_its_token_and_sees_the_ladder(
    alice, bob, windows, live_server, shoot, width
):
    viewport = {"width": width, "height": 900}
    page = signed_in_page(windows, live_server, alice, viewport)
    looked_at(page, f"{live_server.url}/account/bots/", f"bots-empty-{width}", viewport, shoot)
    page.get_by_label("Name", exact=True).fill("Greedy")
    page.get_by_role("button", name="Make a bot").click()
    page.get_by_role("heading", name="BOT Greedy").wait_for()
    page.get_by_label("Name of a new token").fill("server")
    page.get_by_role("button", name="Make a token").click()
    key = page.get_by_label("Your new token “server”").input_value()
    assert key.startswith("azs_")
    shoot(page, f"bots-token-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for button in page.get_by_role("button").all():
        box = button.bounding_box()
        if box and button.is_visible():
            assert box["height"] >= 44, button.inner_text()
    mine = alice.bots_owned.get()
    other = bot_create(owner=bob, name="Rival", games=["azul"])
    for bot in (mine, other):
        bot_update(owner=bot.owner, bot_id=bot.user_id, on_ladder=True)
    ladder_pair()
    looked_at(page, f"{live_server.url}/bots/ladder/azul/", f"bot-ladder-{width}", viewport, shoot)
    # One match: two games on one deal, seats swapped.
    games = page.get_by_role("link", name=re.compile(r"^Game \d+$"))
    assert games.count() == 2
    texts = [item.inner_text() for item in page.get_by_role("listitem").all()]
    assert any("BOT Greedy – BOT Rival" in text for text in texts)
    assert any("BOT Rival – BOT Greedy" in text for text in texts)
