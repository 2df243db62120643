"""The text table (issue 56) as the server sends it: the position in headings, lists and
tables with every tile in words, the legal moves in words, a move typed in notation refused
as an email reply is (one parser), and the forms bringing the player back to the table."""

import pytest

from games import repository
from games.selectors.moves import legal_moves_of
from tests.web.helpers import player_to_move, started_game


@pytest.mark.parametrize(
    ("game_name", "said"),
    [
        ("azul", ["Factory 1:", "Centre:", "Pattern lines", "Wall", "Floor line:", "Bag:"]),
        ("summer-pavilion", ["Factory 1:", "Supply:", "Wild colour:", "Stars", "Tower:"]),
        ("miyabi", ["Displayed tiles", "Garden", "Bonus tiles (level 5)", "No lantern lit yet"]),
    ],
)
def test_the_text_table_says_the_whole_position_and_the_moves_in_words(
    client, alice, bob, game_name, said
):
    game = started_game(alice, bob, game_name)
    mover = player_to_move(game, alice, bob)
    client.force_login(mover)
    page = client.get(f"/games/{game.pk}/text/").text
    for words in said:
        assert words in page, words
    assert 'role="status" aria-live="polite"' in page
    assert "<table" in page and "<caption>" in page and 'scope="row"' in page
    assert f"{mover.first_name} (you)" in page
    legal = legal_moves_of(repository.game_table(game))
    assert page.count('<option value="') == len(legal)
    assert page.count('at once"') == len(legal)
    assert f'href="/games/{game.pk}/text/"' in client.get(f"/games/{game.pk}/?boards").text


def test_a_move_typed_on_the_text_table_is_refused_as_an_email_reply_and_comes_back_there(
    client, alice, bob
):
    game = started_game(alice, bob, "azul")
    client.force_login(player_to_move(game, alice, bob))
    before = game.last_seq
    refused = client.post(
        f"/games/{game.pk}/move/",
        {"typed": "F9 purple 7", "expected_seq": before, "back": "text"},
        follow=True,
    )
    assert refused.redirect_chain == [(f"/games/{game.pk}/text/", 302)]
    assert 'id="typed-error" role="alert"' in refused.text
    assert "a colour: blue, yellow, red, black or white" in refused.text
    move = legal_moves_of(repository.game_table(game))[0]["move"]
    played = client.post(
        f"/games/{game.pk}/move/",
        {"typed": move, "expected_seq": before, "back": "text"},
        follow=True,
    )
    assert played.redirect_chain == [(f"/games/{game.pk}/text/", 302)]
    game.refresh_from_db()
    assert game.last_seq > before and "Waiting for" in played.text
    assert 'id="undo"' in played.text and 'name="back" value="text"' in played.text
    undone = client.post(f"/games/{game.pk}/undo/", {"back": "text"}, follow=True)
    assert undone.redirect_chain == [(f"/games/{game.pk}/text/", 302)]
    assert "Your move, or a question" in undone.text


def test_a_person_watching_reads_the_table_without_a_move_list(client, alice, bob, carol):
    game = started_game(alice, bob, "summer-pavilion")
    client.force_login(carol)
    page = client.get(f"/games/{game.pk}/text/").text
    assert "Factory 1:" in page and '<select name="move"' not in page
    assert "Ask a question" in page


def test_the_text_table_speaks_polish(client, alice, bob):
    game = started_game(alice, bob, "azul")
    client.force_login(player_to_move(game, alice, bob))
    page = client.get(f"/games/{game.pk}/text/", HTTP_ACCEPT_LANGUAGE="pl").text
    assert 'lang="pl"' in page
    for words in ("Stół tekstowy", "Warsztat 1:", "Linie wzoru", "Twój ruch albo pytanie"):
        assert words in page, words


def test_the_text_table_once_chosen_opens_in_place_of_the_boards_until_they_are_chosen(
    client, alice, bob
):
    game = started_game(alice, bob, "miyabi")
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    client.get(f"/games/{game.pk}/text/")
    again = client.get(f"/games/{game.pk}/")
    assert again.status_code == 302 and again["Location"] == f"/games/{game.pk}/text/"
    emailed = client.get(f"/games/{game.pk}/?move=2M2+a1", follow=True)
    assert emailed.redirect_chain[-1][0] == f"/games/{game.pk}/text/?move=2M2+a1"
    assert client.get(f"/games/{game.pk}/?boards").status_code == 200
    assert client.get(f"/games/{game.pk}/").status_code == 200
