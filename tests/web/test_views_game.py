"""The game page and its forms: moves in notation, undo, takeback, chat, resignation, the
"has anything changed" check, and who may see and do what."""

from django.utils import timezone

from events import store
from games import repository
from games.models import ChatMessage, Game, SeatClock
from games.selectors.access import seat_of
from games.selectors.moves import legal_moves_of
from games.services import bots
from games.services.moves import game_resign
from games.services.tables import game_create
from tests.web.helpers import play_moves, player_to_move, started_game


def other(user, *users):
    return next(u for u in users if u != user)


def test_an_open_game_shows_its_seats_and_a_join_button(client, alice, bob):
    game = game_create(creator=alice, game="azul", players=2)
    client.force_login(bob)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200 and 'id="join"' in response.text
    client.post(f"/games/{game.pk}/join/")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_player_to_move_sees_boards_and_only_legal_moves(client, alice, bob):
    game = started_game(alice, bob)
    mover = player_to_move(game, alice, bob)
    client.force_login(mover)
    response = client.get(f"/games/{game.pk}/")
    text = response.text
    assert "Your turn" in text
    legal = legal_moves_of(repository.game_table(game))
    select = text.split('<select name="move"')[1].split("</select>")[0]
    assert select.count("<option") == len(legal) + 1
    assert all(f"<option>{m['move']}</option>" in select for m in legal)
    assert 'id="legal-moves"' in text and "data-pick" in text
    assert text.count('class="board player-board"') == 2
    assert "Wild colour" in text and "Supply" in text
    assert game.rng_secret not in text


def test_viewing_the_page_tells_the_service_the_player_was_there(client, alice, bob):
    game = started_game(alice, bob)
    client.force_login(bob)
    client.get(f"/games/{game.pk}/")
    seen = SeatClock.objects.get(seat__game=game, seat__user=bob).last_seen_at
    assert (timezone.now() - seen).total_seconds() < 5


def test_a_legal_move_is_played_and_shown_in_the_move_list(client, alice, bob):
    game = started_game(alice, bob, "azul")
    mover = player_to_move(game, alice, bob)
    client.force_login(mover)
    move = legal_moves_of(repository.game_table(game))[0]["move"]
    response = client.post(f"/games/{game.pk}/move/", {"move": move, "expected_seq": game.last_seq})
    assert response.status_code == 302
    page = client.get(f"/games/{game.pk}/").text
    assert move in page and "Waiting for" in page


def test_an_illegal_move_posted_by_hand_is_refused_with_a_message_after_a_redirect(
    client, alice, bob
):
    game = started_game(alice, bob, "azul")
    mover = player_to_move(game, alice, bob)
    client.force_login(mover)
    before = game.last_seq
    unreadable = client.post(
        f"/games/{game.pk}/move/", {"typed": "F9 purple 7", "expected_seq": before}, follow=True
    )
    assert unreadable.redirect_chain == [(f"/games/{game.pk}/", 302)]
    # The text stays in its box, and what is wrong is said beside it (not at the top).
    assert 'value="F9 purple 7" aria-invalid="true" aria-describedby="typed-error"' in (
        unreadable.text
    )
    assert 'id="typed-error"' in unreadable.text and "Your turn" in unreadable.text
    assert "a colour: blue, yellow, red, black or white" in unreadable.text
    assert 'id="messages"' not in unreadable.text
    assert 'value="F9 purple 7"' not in client.get(f"/games/{game.pk}/").text
    # At the start the centre holds only the first player marker.
    illegal = client.post(
        f"/games/{game.pk}/move/", {"typed": "C blue 1", "expected_seq": before}, follow=True
    )
    assert "illegal move" in illegal.text.lower() and 'value="C blue 1"' in illegal.text
    nothing = client.post(f"/games/{game.pk}/move/", {"expected_seq": before}, follow=True)
    assert "choose a move" in nothing.text.lower()
    game.refresh_from_db()
    assert game.last_seq == before


def test_a_move_from_a_stale_page_or_out_of_turn_is_refused(client, alice, bob):
    game = started_game(alice, bob, "azul")
    mover = player_to_move(game, alice, bob)
    move = legal_moves_of(repository.game_table(game))[0]["move"]
    client.force_login(other(mover, alice, bob))
    out_of_turn = client.post(
        f"/games/{game.pk}/move/", {"move": move, "expected_seq": game.last_seq}, follow=True
    )
    assert "not your turn" in out_of_turn.text.lower()
    client.force_login(mover)
    stale = client.post(f"/games/{game.pk}/move/", {"move": move, "expected_seq": 1}, follow=True)
    assert "the game moved on while you were choosing" in stale.text.lower()
    assert "event" not in stale.text.split('id="messages"')[1].split("</div>")[0]
    bad_form = client.post(
        f"/games/{game.pk}/move/", {"move": move, "expected_seq": "x"}, follow=True
    )
    assert "not filled in as expected" in bad_form.text


def test_someone_not_at_the_table_watches_but_can_neither_move_nor_chat(client, alice, bob, carol):
    game = started_game(alice, bob, "azul")
    client.force_login(carol)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    move = legal_moves_of(repository.game_table(game))[0]["move"]
    posted = client.post(
        f"/games/{game.pk}/move/", {"move": move, "expected_seq": game.last_seq}, follow=True
    )
    assert "You are not playing in this game." in posted.text
    client.post(f"/games/{game.pk}/chat/", {"text": "hi"})
    assert not ChatMessage.objects.exists()
    assert repository.game_table(game).last_seq == game.last_seq
    assert client.get(f"/games/{game.pk}/seq").status_code == 200


def test_finished_games_are_public_unless_private(client, alice, bob, carol):
    public = started_game(alice, bob, "azul")
    private = started_game(alice, bob, "azul", private=True)
    for game in (public, private):
        play_moves(game, (alice, bob), 2)
        game_resign(game=game, user=alice)
    client.force_login(carol)
    assert client.get(f"/games/{public.pk}/").status_code == 200
    assert client.get(f"/games/{public.pk}/replay/").status_code == 200
    assert client.get(f"/games/{private.pk}/").status_code == 404
    assert client.get(f"/games/{private.pk}/replay/").status_code == 404
    assert client.get("/games/999999/").status_code == 404


def test_players_chat_and_hidden_or_overlong_messages_do_not_show(client, alice, bob):
    game = started_game(alice, bob)
    client.force_login(alice)
    client.post(f"/games/{game.pk}/chat/", {"text": "good luck!"})
    hidden = ChatMessage.objects.create(game=game, author=bob, text="something rude")
    hidden.hidden_at = timezone.now()
    hidden.save()
    page = client.get(f"/games/{game.pk}/").text
    assert "good luck!" in page and "something rude" not in page
    too_long = client.post(f"/games/{game.pk}/chat/", {"text": "x" * 1001}, follow=True)
    assert "at most 1000 characters" in too_long.text
    assert client.post(f"/games/{game.pk}/chat/", {"text": "  "}).status_code == 302
    assert ChatMessage.objects.count() == 2


def test_undo_takes_the_move_back_and_strikes_it_from_the_list(client, alice, bob):
    game = started_game(alice, bob)
    mover = player_to_move(game, alice, bob)
    play_moves(game, (alice, bob), 1)
    client.force_login(mover)
    assert 'id="undo"' in client.get(f"/games/{game.pk}/").text
    assert client.post(f"/games/{game.pk}/undo/").status_code == 302
    game.refresh_from_db()
    assert game.to_move == seat_of(game, mover).position
    page = client.get(f"/games/{game.pk}/").text
    assert 'class="move voided"' in page and "took back their move" in page
    assert "–." not in page  # a taken-back move has no number
    again = client.post(f"/games/{game.pk}/undo/", follow=True)
    assert "nothing to undo" in again.text.lower()


def test_a_takeback_is_asked_and_accepted_on_the_page(client, alice, bob):
    game = started_game(alice, bob)
    play_moves(game, (alice, bob), 2)
    asker = player_to_move(game, alice, bob)
    table = repository.game_table(game)
    to_seq = table.boundaries()[-1]
    client.force_login(asker)
    assert client.post(f"/games/{game.pk}/takeback/", {"to_seq": to_seq}).status_code == 302
    request = repository.game_table(game).takeback.request
    client.force_login(other(asker, alice, bob))
    assert 'id="takeback-accept"' in client.get(f"/games/{game.pk}/").text
    answer = client.post(
        f"/games/{game.pk}/takeback/answer/", {"request": request, "accept": "yes"}
    )
    assert answer.status_code == 302
    assert repository.game_table(game).last_seq > request
    assert "Takeback agreed: the last move is taken back" in client.get(f"/games/{game.pk}/").text
    bad = client.post(f"/games/{game.pk}/takeback/", {"to_seq": 3}, follow=True)
    assert "not the end of a move" in bad.text


def test_resigning_asks_first_then_ends_a_two_player_game(client, alice, bob):
    game = started_game(alice, bob, "azul")
    play_moves(game, (alice, bob), 2)
    client.force_login(alice)
    confirm = client.get(f"/games/{game.pk}/resign/")
    assert confirm.status_code == 200 and 'id="confirm-resign"' in confirm.text
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    client.post(f"/games/{game.pk}/resign/")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [seat_of(game, bob).position]
    assert "Game over" in client.get(f"/games/{game.pk}/").text
    again = client.post(f"/games/{game.pk}/resign/")
    assert again.status_code == 409


def test_the_change_check_answers_the_last_seq(client, alice, bob):
    game = started_game(alice, bob)
    client.force_login(bob)
    answer = client.get(f"/games/{game.pk}/seq").json()
    assert answer == {"last_seq": game.last_seq, "status": "active"}


def test_moderators_acts_show_in_the_move_list_with_who_and_why(client, alice, bob):
    """Recorded as before the table had one event per act: read through its upcaster."""
    game = started_game(alice, bob)
    store.append(
        game.stream,
        game.last_seq,
        [store.NewEvent("table.Moderated", {"action": "pause", "details": {}})],
        actor=f"user:{alice.pk}",
        reason="player on holiday",
    )
    # The page shows the position the game row names, which the write path keeps current.
    Game.objects.filter(pk=game.pk).update(last_seq=game.last_seq + 1)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/replay/").text
    assert "The clocks are paused" in page and "player on holiday" in page and "Alice" in page


def test_a_miyabi_page_says_plainly_which_values_are_provisional(client, alice, bob):
    from games.rules.miyabi import PROVISIONAL

    game = started_game(alice, bob, "miyabi")
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").text
    assert "Provisional values in this game" in page
    # No developer's file named to a player (the footer's API documentation is a page).
    assert "docs/" not in page.replace('href="/api/docs/"', "")
    for key in PROVISIONAL:
        assert key.replace("_", " ").capitalize() in page
    assert "Bonus tiles</strong>: maple 10, pagoda 9" in page
    assert page.count('class="board player-board garden"') == 2


def test_following_a_game_notes_the_player_at_most_once_a_minute(client, alice, bob):
    """Reading does not write: the page polls every few seconds, the seen time moves on
    at most once a minute."""
    game = started_game(alice, bob)
    client.force_login(alice)
    client.get(f"/games/{game.pk}/")
    clock = SeatClock.objects.get(seat__game=game, seat__user=alice)
    seen = clock.last_seen_at
    for _ in range(3):
        client.get(f"/games/{game.pk}/live?seq=0&chat=0")
    clock.refresh_from_db()
    assert seen is not None and clock.last_seen_at == seen


def test_an_action_address_opened_after_signing_in_leads_to_the_game(client, alice, bob):
    """A move posted after the session ended goes to the sign-in page; signing in there
    comes back to the move's address with a GET: the game page, not "405"."""
    game = started_game(alice, bob, "azul")
    signed_out = client.post(f"/games/{game.pk}/move/", {"typed": "x", "expected_seq": 1})
    assert signed_out.status_code == 302 and "next=" in signed_out["Location"]
    client.force_login(alice)
    for action in ("move", "undo"):
        back = client.get(f"/games/{game.pk}/{action}/")
        assert back.status_code == 302 and back["Location"] == f"/games/{game.pk}/"


def test_a_rematch_against_the_computer_says_it_has_started(client, alice):
    game = game_create(creator=alice, game="azul", players=2, bots=["easy"])
    game_resign(game=game, user=alice)
    client.force_login(alice)
    answer = client.post(f"/games/{game.pk}/rematch/", follow=True)
    assert "Rematch started against the computer." in answer.text
    assert "the other players are invited" not in answer.text


def test_the_page_checks_fast_only_while_a_computer_is_to_move(client, alice, bob):
    """Issue 43: the page polls every SOON_POLL_MILLISECONDS while the move awaited is
    seconds away (a computer's), every POLL_MILLISECONDS while it is a person's."""
    against_people = started_game(alice, bob)
    client.force_login(alice)
    assert 'data-soon=""' in client.get(f"/games/{against_people.pk}/").text
    game = game_create(creator=alice, game="azul", players=2, bots=["easy"])
    bots.bot_move(game_id=game.pk)
    game.refresh_from_db()
    play_moves(game, (alice,), 1)
    game.refresh_from_db()
    assert 'data-soon="1"' in client.get(f"/games/{game.pk}/").text
    bots.bot_move(game_id=game.pk)
    answer = client.get(f"/games/{game.pk}/live?seq={game.last_seq}&chat=0").json()
    assert answer["my_turn"] and not answer["soon"]
