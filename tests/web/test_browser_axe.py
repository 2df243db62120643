"""axe-core's rules of WCAG 2.2 A and AA (tests/web/axe.py) find nothing on any page, at
1280 and 390 px, signed in and signed out (issue 56): the site's pages, each game's page in
the middle of a turn (a source picked, its choices in the bar), the game waiting for the
other player, a finished game, the replay and the text table."""

import pytest
from playwright.sync_api import expect

from games.models import NoticeKind, Outbox
from games.services.chat import chat_post
from games.services.tables import game_create
from tests.conftest import make_user
from tests.web.axe import violations
from tests.web.helpers import play_moves, player_to_move, started_game
from tests.web.test_browser_pages import SIZES, finished_game, window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = ["azul", "summer-pavilion", "miyabi"]
SIGNED_OUT = [
    "/",
    "/signin/",
    "/lobby/",
    "/leaderboard/",
    "/archive/",
    "/tournaments/",
    "/privacy/",
]
SIGNED_IN = [
    "/",
    "/lobby/",
    "/games/new/",
    "/account/",
    "/players/me/",
    "/leaderboard/",
    "/archive/",
    "/tournaments/",
    "/tournaments/new/",
    "/privacy/",
    "/mail/preferences/",
]


def found_on(page, url: str, name: str, shots) -> list[str]:
    """What axe finds on ``url``, each line starting with ``name``; its screenshot kept."""
    response = page.goto(url)
    assert response.status == 200, url
    page.screenshot(path=f"{shots}/axe-{name}.png", full_page=True)
    return [f"{name}: {line}" for line in violations(page)]


def asked(page, question: str) -> list[str]:
    """What axe finds once a question is answered on the text table."""
    page.fill("#command", question)
    page.press("#command", "Enter")
    expect(page.locator("#said")).not_to_be_empty()
    return violations(page)


@pytest.mark.parametrize("size", SIZES)
def test_no_page_breaks_a_rule_of_wcag_2_2_aa(windows, live_server, screenshots, size):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    url = live_server.url
    games = {}
    for game_name in GAMES:
        games[game_name] = started_game(alice, bob, game_name)
        play_moves(games[game_name], (alice, bob), 3)
    chat_post(game=games["azul"], user=bob, text="Good luck!")
    invited = game_create(creator=alice, game="miyabi", players=3, invite=[carol.email])
    token = Outbox.objects.get(game=invited, kind=NoticeKind.INVITATION).payload["token"]
    over = finished_game(alice, bob)
    found = []

    anonymous = window_of(windows, live_server, None, size)
    for path in SIGNED_OUT:
        found += found_on(anonymous, url + path, f"out{path}-{size}", screenshots)
    azul = f"{url}/games/{games['azul'].pk}/"
    found += found_on(anonymous, azul, f"out-game-{size}", screenshots)

    page = window_of(windows, live_server, alice, size)
    for path in SIGNED_IN:
        found += found_on(page, url + path, f"in{path}-{size}", screenshots)
    found += found_on(page, f"{url}/games/{invited.pk}/", f"waiting-{size}", screenshots)
    found += found_on(page, f"{url}/games/{over.pk}/", f"game-over-{size}", screenshots)
    found += found_on(page, f"{url}/games/{over.pk}/replay/?at=3", f"replay-{size}", screenshots)
    for game_name, game in games.items():
        mover = page if player_to_move(game, alice, bob) == alice else None
        if mover is None:
            mover = window_of(windows, live_server, bob, size)
        text_table = f"{url}/games/{game.pk}/text/"
        found += found_on(mover, text_table, f"{game_name}-text-{size}", screenshots)
        found += [f"{game_name} text-answer-{size}: {line}" for line in asked(mover, "b")]
        boards = f"{url}/games/{game.pk}/?boards"
        found += found_on(mover, boards, f"{game_name}-turn-{size}", screenshots)
        mover.locator("#table-area [data-pick].pickable").first.click()
        found += [f"{game_name} picked-{size}: {line}" for line in violations(mover)]
        waiting = window_of(windows, live_server, carol, size)
        watched = f"{game_name}-watched-{size}"
        found += found_on(waiting, boards, watched, screenshots)
        found += found_on(waiting, text_table, f"{watched}-text", screenshots)
        found += found_on(
            page, f"{url}/games/{game.pk}/replay/", f"{game_name}-replay-{size}", screenshots
        )
    guest = window_of(windows, live_server, carol, size)
    found += found_on(guest, f"{url}/invite/{token}/", f"invitation-{size}", screenshots)
    assert not found, "\n".join(found)
