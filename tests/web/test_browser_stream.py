"""The page learns of a move as it is committed (issue 42), in the real browser: its event
stream (here runserver's way, a thread per stream, as ``make run`` holds them) says "look
now" and the page shows the move, while its polling is set so slow that it cannot be what
brought it. The lobby likewise shows a new game at once."""

import time

import pytest
from playwright.sync_api import expect

from games import streams
from games.presenters import game_page
from games.services.moves import move_submit
from games.services.tables import game_create, game_join
from tests.conftest import make_user
from tests.games.helpers import legal, to_move
from tests.web.helpers import play_moves
from tests.web.test_browser_pages import window_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_POLLING_MS = 120_000


@pytest.fixture(params=["redis", "files"])
def streams_in_threads(request, settings, monkeypatch, tmp_path):
    """Streams held by the live server's threads, news told by Redis or (``make run``
    without Redis) by files; polling too slow to matter. Asked for
    before ``windows``, so that it ends after them: a stream's thread notices its page
    closed at its next ping, and must be gone before the test database is."""
    settings.NEWS_STREAM_IN_THREADS = True
    if request.param == "files":
        # make run's defaults: no Redis, news told by files.
        settings.NEWS_REDIS_URL, settings.NEWS_DIR = "", tmp_path
    for name in ("POLL_MILLISECONDS", "SOON_POLL_MILLISECONDS"):
        monkeypatch.setattr(game_page, name, NO_POLLING_MS)
    monkeypatch.setattr("games.views.LOBBY_POLL_MILLISECONDS", NO_POLLING_MS)
    yield
    time.sleep(streams.THREAD_PING_SECONDS + 1)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_other_players_move_shows_on_the_open_page_at_once(
    size, streams_in_threads, windows, live_server
):
    alice, bob = make_user("alice"), make_user("bob")
    game = game_create(creator=alice, game="azul", players=2)
    game_join(game=game, user=bob)
    play_moves(game, (alice, bob), 2)
    watcher = to_move(game)
    page = window_of(windows, live_server, watcher, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    move_submit(game=game, user=watcher, move=legal(game)[0])
    shown = page.locator("#part-moves li.move:not(.voided)")
    expect(shown).to_have_count(3, timeout=5000)
    waits = []
    for _move in range(3):
        listed = shown.count()
        mover = to_move(game)
        page.wait_for_timeout(300)
        moved_at = time.monotonic()
        move_submit(game=game, user=mover, move=legal(game)[0])
        expect(shown).to_have_count(listed + 1, timeout=5000)
        waits.append(time.monotonic() - moved_at)
    print(f"move shown after {[round(wait, 3) for wait in waits]} s")
    assert max(waits) < 1.5, waits


def test_the_lobby_shows_a_new_game_at_once(streams_in_threads, windows, live_server):
    alice, bob = make_user("alice"), make_user("bob")
    page = window_of(windows, live_server, bob)
    page.goto(f"{live_server.url}/lobby/")
    page.wait_for_timeout(500)
    opened_at = time.monotonic()
    game = game_create(creator=alice, game="miyabi", players=2)
    page.wait_for_selector(f"#lobby-games a[href='/games/{game.pk}/']", timeout=5000)
    wait = time.monotonic() - opened_at
    print(f"new game listed after {wait:.3f} s")
    assert wait < 1.5
