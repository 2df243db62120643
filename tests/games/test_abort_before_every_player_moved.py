"""A resignation, or a forfeit on timeout, before every player has made a move of their own
aborts the game, unrated (issue 29, as lichess does): no winner, no rating change, status
aborted; the game page and the lobby say who resigned or ran out of time. Once everyone has
moved, resigning is what it always was. Old aborts (a moderator's, without a seat) replay."""

from datetime import timedelta

import pytest
from django.test import Client

from events import store
from events.store import NewEvent
from games import repository
from games import table as tbl
from games import table_storage as storage
from games.models import Game, GameResult, Rating, RatingChange
from games.registry import GAME_TYPES
from games.services.accounts import player_preferences_set
from games.services.deadlines import game_timeout
from games.services.moves import game_resign
from games.services.tables import game_reproject
from games.table_events import Aborted
from tests.games.helpers import every_player_moved, play, seated, started, to_move
from tests.ratings.helpers import finished

pytestmark = pytest.mark.django_db


def ratings_now() -> list:
    return sorted(Rating.objects.values_list("user_id", "game_type", "mu", "sigma", "games"))


def page(user, game: Game, language: str = "") -> str:
    client = Client()
    client.force_login(user)
    if language:
        player_preferences_set(user=user, language=language, time_zone="")
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def lobby(user, language: str = "") -> str:
    client = Client()
    client.force_login(user)
    if language:
        player_preferences_set(user=user, language=language, time_zone="")
    return client.get("/lobby/").content.decode()


def test_resigning_before_the_other_player_moved_aborts_the_game_and_no_rating_changes(alice, bob):
    finished("azul", alice, bob)
    before = (ratings_now(), RatingChange.objects.count())
    game = started("azul", alice, bob)
    play(game)
    first = to_move(game)
    assert first is not None
    game_resign(game=game, user=first)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winners == []
    assert (ratings_now(), RatingChange.objects.count()) == before
    assert not GameResult.objects.filter(game=game).exists()
    table = repository.game_table(game)
    assert table.aborted and table.aborted_by == game.seats.get(user=first).position


def test_resigning_at_once_aborts_the_game_for_either_player(alice, bob):
    for leaver in (alice, bob):
        game = started("summer-pavilion", alice, bob)
        game_resign(game=game, user=leaver)
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED, leaver


def test_in_a_game_of_three_resigning_before_the_last_player_moved_aborts_it(alice, bob, carol):
    game = started("azul", alice, bob, carol)
    play(game)
    play(game)
    game_resign(game=game, user=seated(game)[0])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.to_move is None


def test_once_every_player_has_moved_resigning_gives_the_other_the_win(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    game_resign(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [game.seats.get(user=bob).position]
    assert GameResult.objects.filter(game=game).exists()


def test_a_forfeit_on_timeout_before_every_player_moved_aborts_the_game(alice, bob):
    game = started(
        "azul",
        alice,
        bob,
        time_control={"kind": "per_move", "days": 1},
        timeout_policy=Game.TimeoutPolicy.FORFEIT,
    )
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert not GameResult.objects.filter(game=game).exists() and not Rating.objects.exists()


def test_a_move_played_for_a_player_on_timeout_is_not_a_move_of_their_own(alice, bob):
    game = started("azul", alice, bob, time_control={"kind": "per_move", "days": 1})
    late = to_move(game)
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.get(user=late).position in repository.game_table(game).yet_to_move()
    game_resign(game=game, user=late)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_the_page_says_who_resigned_and_that_the_game_is_aborted_in_english_and_spanish(alice, bob):
    game = started("azul", alice, bob)
    game_resign(game=game, user=bob)
    english = page(alice, game)
    assert "Bob resigned</h2>" in english
    assert "The game is aborted and unrated: not every player had made a move." in english
    assert "The game was aborted." in english
    assert "wins" not in english and 'class="score-table"' not in english
    spanish = page(alice, game, "es")
    assert "Bob ha abandonado</h2>" in spanish
    assert "La partida queda anulada y no puntúa: no todos los jugadores habían movido" in spanish


def test_the_resign_page_warns_that_resigning_now_aborts_the_game(alice, bob):
    game = started("azul", alice, bob)
    client = Client()
    client.force_login(alice)
    assert 'id="resign-aborts"' in client.get(f"/games/{game.pk}/resign/").text
    every_player_moved(game)
    assert 'id="resign-aborts"' not in client.get(f"/games/{game.pk}/resign/").text


def test_the_page_of_a_game_won_by_a_resignation_names_who_resigned(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    game_resign(game=game, user=bob)
    shown = page(alice, game)
    assert "Alice wins</h2>" in shown and '<p class="departed">Bob resigned.</p>' in shown


def test_the_lobby_row_says_who_resigned_or_ran_out_of_time_in_english_and_polish(alice, bob):
    aborted = started("azul", alice, bob)
    game_resign(game=aborted, user=bob)
    won = every_player_moved(
        started(
            "azul",
            alice,
            bob,
            time_control={"kind": "per_move", "days": 1},
            timeout_policy=Game.TimeoutPolicy.FORFEIT,
        )
    )
    late = to_move(won)
    game_timeout(game_id=won.pk, now=won.deadline + timedelta(minutes=1))
    other = "Alice" if late == bob else "Bob"
    english = lobby(alice)
    assert "aborted, unrated: Bob resigned" in english
    assert f"{late.first_name} ran out of time: {other} wins" in english
    assert "finished: 0 – 0" not in english
    polish = lobby(alice, "pl")
    assert "przerwana, nierankingowa: Bob poddaje grę" in polish
    assert f"Czas gracza {late.first_name} się skończył: wygrywa {other}" in polish


def test_the_move_list_tells_the_abort_apart_from_a_moderators(alice, bob):
    game = started("azul", alice, bob)
    game_resign(game=game, user=bob)
    shown = page(alice, game)
    assert "Bob resigns" in shown
    assert "The game is aborted and unrated: not every player had made a move" in shown
    assert "called off by a moderator" not in shown


def test_an_abort_stored_before_it_named_a_seat_reads_as_a_moderators():
    kind = GAME_TYPES["azul"]
    table = tbl.empty(kind.engine, kind.namespace)
    old = [
        {"seq": 1, "type": "table.Aborted", "version": 1, "data": {}},
        {"seq": 2, "type": "table.Moderated", "version": 1, "data": {"action": "abort"}},
    ]
    assert [record.event for record in storage.read(table, old)] == [Aborted(None)] * 2
    assert storage.encode(table, Aborted(1)) == ("table.Aborted", 2, {"seat": 1})


def test_a_game_a_moderator_aborted_before_the_abort_named_a_seat_still_replays(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    store.append(
        game.stream, game.last_seq, [NewEvent("table.Aborted", {}, 1)], actor="moderator:1"
    )
    Game.objects.filter(pk=game.pk).update(last_seq=game.last_seq + 1)
    game.refresh_from_db()
    game_reproject(game=game)
    game.refresh_from_db()
    table = repository.game_table(game)
    assert table.aborted and table.aborted_by is None
    assert game.status == Game.Status.ABORTED
    shown = page(alice, game)
    assert "The game was called off" in shown and "called off by a moderator" in shown
    assert "not every player had made a move" not in shown
