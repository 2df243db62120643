"""The page-weight budget (issue 13): a game page under 80 KB of HTML, and no page over
150 KB of JavaScript (the API docs excepted). The site does not compress its HTML, so the
HTML is counted as sent."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from tests.web.helpers import play_moves, started_game

HTML_BUDGET = 80 * 1024
JS_BUDGET = 150 * 1024


def javascript_bytes(html: str) -> int:
    """The size of every script a page loads from the site's static files."""
    sources = re.findall(r'<script[^>]*\bsrc="/static/([^"?]+)', html)
    return sum(Path(finders.find(source)).stat().st_size for source in sources)


@pytest.mark.parametrize("game_type", ["azul", "summer-pavilion", "miyabi"])
def test_a_game_page_in_play_stays_within_its_budget(client, alice, bob, game_type):
    game = started_game(alice, bob, game_type)
    play_moves(game, (alice, bob), 12)
    client.force_login(alice)
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/replay/"):
        html = client.get(path).content
        assert len(html) < HTML_BUDGET, f"{path}: {len(html)} bytes of HTML"
        assert javascript_bytes(html.decode()) < JS_BUDGET


def test_no_other_page_loads_more_than_its_javascript_budget(client, alice):
    client.force_login(alice)
    for path in ("/lobby/", "/games/new/", "/signin/"):
        assert javascript_bytes(client.get(path).text) < JS_BUDGET, path
