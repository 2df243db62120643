"""Post-game analysis in Debian's Chromium at 1280 and 390 px (issue 15): the progress bar
moves on by itself and gives way to the accuracy when the analysis is done; the replay's
"?"/"??" marks and the suggestion drawn on the board. Screenshots under
``var/screenshots/analysis/``; no sideways scrolling, tap targets of 44 px."""

import pytest

from games import tasks
from games.models import Analysis, Game
from games.selectors.history import move_history
from tests.games.helpers import play_to_end, started
from tests.web.helpers import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(autouse=True)
def few_simulations(settings):
    """Analyses search 8 simulations a move here (the site's default is 300)."""
    settings.ANALYSIS_SIMULATIONS = 8


@pytest.fixture
def finished(alice, bob) -> Game:
    """Alice and Bob's game of Azul played to its end with random legal moves."""
    game = started("azul", alice, bob)
    play_to_end(game, seed=3)
    game.refresh_from_db()
    return game


def signed_in(windows, live_server, user, viewport):
    return signed_in_page(windows, live_server, user, viewport, has_touch=viewport["width"] < 500)


def no_sideways_scroll(page, viewport) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= viewport["width"], f"{page.url} scrolls sideways at {viewport['width']} px"


def test_the_progress_gives_way_to_the_accuracy(windows, live_server, shoot, finished, alice):
    from playwright.sync_api import expect

    Analysis.objects.filter(game=finished).update(status="running", done=36, total=112)
    for size, viewport in SIZES.items():
        page = signed_in(windows, live_server, alice, viewport)
        page.goto(f"{live_server.url}/games/{finished.pk}/")
        assert page.locator("#analysis-text").inner_text() == "Analysing move 37 of 112"
        page.locator("#analysis").scroll_into_view_if_needed()
        shoot(page, f"analysis/progress-{size}")
        no_sideways_scroll(page, viewport)
        Analysis.objects.filter(game=finished).update(done=40)
        expect(page.locator("#analysis-text")).to_have_text(
            "Analysing move 41 of 112", timeout=10_000
        )
        Analysis.objects.filter(game=finished).update(status="running", done=36)

    Analysis.objects.filter(game=finished).update(status="queued", done=0, total=0)
    page = signed_in(windows, live_server, alice, SIZES["wide"])
    page.goto(f"{live_server.url}/games/{finished.pk}/")
    tasks.analysis_run(finished.pk)
    page.wait_for_selector("#accuracy", timeout=15_000)
    for size, viewport in SIZES.items():
        page = signed_in(windows, live_server, alice, viewport)
        page.goto(f"{live_server.url}/games/{finished.pk}/")
        assert page.locator("#accuracy tbody tr").count() == 2
        page.locator("#end-screen").scroll_into_view_if_needed()
        shoot(page, f"analysis/end-screen-{size}")
        no_sideways_scroll(page, viewport)


def test_the_replay_marks_moves_and_draws_the_suggestion(
    windows, live_server, shoot, finished, alice
):
    tasks.analysis_run(finished.pk)
    worse = Analysis.objects.get(game=finished).moves.filter(judgement="??").first()
    worse = worse or Analysis.objects.get(game=finished).moves.exclude(judgement="").first()
    end = next(e["end"] for e in move_history(finished) if e["seq"] == worse.seq)
    for size, viewport in SIZES.items():
        page = signed_in(windows, live_server, alice, viewport)
        page.goto(f"{live_server.url}/games/{finished.pk}/replay/?at={end}")
        assert page.locator("#move-list .mark").count() >= 1
        button = page.locator("#show-suggestion")
        assert button.bounding_box()["height"] >= 44
        assert page.locator(".suggested").count() == 0
        if size == "phone":
            button.tap()
        else:
            button.hover()
        page.wait_for_selector(".suggested")
        assert page.locator(".suggested").count() >= 1
        shoot(page, f"analysis/replay-{size}")
        no_sideways_scroll(page, viewport)
        mark = page.locator("#move-list li.current .mark")
        assert mark.inner_text() == worse.judgement
        if size == "wide":
            page.mouse.move(0, 0)
            assert page.locator(".suggested").count() == 0
            mark.hover()
            assert page.locator(".suggested").count() >= 1
        link = page.locator("#move-list li.current a")
        assert link.bounding_box()["height"] >= 44
