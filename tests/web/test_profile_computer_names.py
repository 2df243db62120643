"""The profile and the archive tell a game's computer players apart as the game page, the
replay, the lobby, the emails and the API do (issue 53): "Computer 1 (easy)", "Computer 2
(easy)", never the same name twice in one finished game; and a finished game's link reads
"Azul #N", with its space, in the browser."""

import pytest

from games import repository
from games.models import Game
from games.services.bots import bot_move
from games.services.moves import game_resign, move_submit
from games.services.tables import game_create
from tests.games.helpers import legal
from tests.web.helpers import signed_in_page

pytestmark = pytest.mark.django_db


def lost_to_two_computers(alice) -> Game:
    """Alice moves once against two easy computers, then resigns: the computers finish."""
    game = game_create(creator=alice, game="azul", players=3, bots=["easy", "easy"])
    mine = game.seats.get(user=alice).position
    while repository.game_table(game).yet_to_move():
        game.refresh_from_db()
        if game.to_move == mine:
            move_submit(game=game, user=alice, move=legal(game)[0])
        else:
            bot_move(game_id=game.pk)
    game_resign(game=game, user=alice)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        bot_move(game_id=game.pk)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.parametrize("page", ["profile", "archive"])
def test_the_computers_of_a_finished_game_are_numbered(page, client, alice):
    game = lost_to_two_computers(alice)
    url = f"/players/{alice.pk}/" if page == "profile" else "/archive/?player=alice"
    text = client.get(url).text
    [row] = [row for row in text.split('class="result-row"') if f"/games/{game.pk}/replay/" in row]
    assert "Computer 1 (easy)" in row and "Computer 2 (easy)" in row
    assert "Computer (easy)" not in row


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_finished_games_link_reads_with_its_space(alice, windows, live_server):
    game = lost_to_two_computers(alice)
    page = signed_in_page(windows, live_server, alice, {"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/players/{alice.pk}/")
    link = page.locator(f'a[href="/games/{game.pk}/replay/"]')
    assert link.inner_text() == f"Azul #{game.pk}"
