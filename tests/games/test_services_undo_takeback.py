"""Taking moves back, as events: own moves until another player acts and no draw lies in
between; beyond that, a takeback all the others agree to. Nothing is ever deleted."""

import pytest

from events import store
from games import repository
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Outbox
from games.services.moves import (
    game_resign,
    move_submit,
    move_undo,
    takeback_answer,
    takeback_request,
)
from tests.games.helpers import (
    every_player_moved,
    last_step_is_barrier,
    legal,
    play,
    started,
    to_move,
)

pytestmark = pytest.mark.django_db


def state(game, upto=None):
    return repository.game_table(game, upto=upto).state


def test_undo_takes_back_your_own_move_and_keeps_it_in_the_log(alice, bob):
    game = started("azul", alice, bob)
    before, mover = game.last_seq, to_move(game)
    play(game)
    played = store.current_seq(game.stream)
    move_undo(game=game, user=mover)
    game.refresh_from_db()
    assert state(game) == state(game, upto=before)
    assert to_move(game) == mover
    assert [e.type for e in store.load(game.stream, after=played)] == ["table.MovesVoided"]
    assert store.current_seq(game.stream) == played + 1
    assert game.last_seq == played + 1


def test_undo_sends_no_your_turn_email_for_the_move_taken_back(alice, bob):
    game = started("azul", alice, bob)
    mover = to_move(game)
    play(game)
    game.refresh_from_db()
    queued = Outbox.objects.get(game=game, kind="your_turn", key=game.last_seq)
    move_undo(game=game, user=mover)
    queued.refresh_from_db()
    assert queued.cancelled_at is not None and queued.sent_at is None


def test_no_undo_once_another_player_has_moved(alice, bob):
    game = started("azul", alice, bob)
    first = to_move(game)
    play(game)
    play(game)
    with pytest.raises(Conflict) as refused:
        move_undo(game=game, user=first)
    assert refused.value.code == "nothing_to_undo"


def test_no_undo_across_a_draw_of_new_tiles(alice, bob):
    game = started("azul", alice, bob)
    while not last_step_is_barrier(game):
        mover = to_move(game)
        play(game)
    with pytest.raises(Conflict) as refused:
        move_undo(game=game, user=mover)
    assert refused.value.code == "nothing_to_undo"


def test_a_game_may_forbid_undo(alice, bob):
    game = started("azul", alice, bob, self_undo=False)
    mover = to_move(game)
    play(game)
    with pytest.raises(Forbidden) as refused:
        move_undo(game=game, user=mover)
    assert refused.value.code == "undo_not_allowed"


def test_a_takeback_the_other_accepts_returns_to_the_chosen_point(alice, bob):
    game = started("azul", alice, bob)
    asker = to_move(game)
    other = bob if asker == alice else alice
    point = game.last_seq
    play(game)
    play(game)
    request = takeback_request(game=game, user=asker, to_seq=point)
    assert Outbox.objects.filter(kind="takeback_request", recipient=other.email).exists()
    with pytest.raises(Forbidden):
        takeback_answer(game=game, user=asker, request=request, accept=True)
    takeback_answer(game=game, user=other, request=request, accept=True)
    game.refresh_from_db()
    assert state(game) == state(game, upto=point)
    assert to_move(game) == asker
    assert [s.move for s in repository.game_table(game).steps] == ["start"]


def test_a_declined_takeback_changes_nothing_and_closes(alice, bob):
    game = started("azul", alice, bob)
    asker = to_move(game)
    other = bob if asker == alice else alice
    point = game.last_seq
    play(game)
    request = takeback_request(game=game, user=asker, to_seq=point)
    moves = len(repository.game_table(game).steps)
    takeback_answer(game=game, user=other, request=request, accept=False)
    table = repository.game_table(game)
    assert table.takeback is None and len(table.steps) == moves
    with pytest.raises(NotFound):
        takeback_answer(game=game, user=other, request=request, accept=True)


def test_a_takeback_request_lapses_when_anyone_moves(alice, bob):
    game = started("azul", alice, bob)
    asker = to_move(game)
    point = game.last_seq
    play(game)
    request = takeback_request(game=game, user=asker, to_seq=point)
    mover = to_move(game)
    play(game)
    assert repository.game_table(game).takeback is None
    with pytest.raises(NotFound):
        takeback_answer(game=game, user=mover, request=request, accept=True)


def test_with_three_players_every_other_player_must_accept(alice, bob, carol):
    game = started("azul", alice, bob, carol)
    asker = to_move(game)
    others = [u for u in (alice, bob, carol) if u != asker]
    point = game.last_seq
    play(game)
    request = takeback_request(game=game, user=asker, to_seq=point)
    takeback_answer(game=game, user=others[0], request=request, accept=True)
    assert len(repository.game_table(game).steps) == 2
    takeback_answer(game=game, user=others[1], request=request, accept=True)
    assert len(repository.game_table(game).steps) == 1


def test_a_takeback_must_return_to_the_end_of_a_move_and_never_cross_a_draw(alice, bob):
    game = started("azul", alice, bob)
    asker = to_move(game)
    play(game)
    with pytest.raises(BadRequest) as refused:
        takeback_request(game=game, user=asker, to_seq=2)
    assert refused.value.code == "invalid_takeback" and refused.value.details["accepted"]
    point = repository.game_table(game).boundaries()[0]
    while not last_step_is_barrier(game):
        play(game)
    with pytest.raises(Conflict) as refused:
        takeback_request(game=game, user=asker, to_seq=point)
    assert refused.value.code == "takeback_crosses_draw"


def test_resigning_a_two_player_game_gives_the_other_the_win(alice, bob):
    game = every_player_moved(started("summer-pavilion", alice, bob))
    game_resign(game=game, user=alice)
    game.refresh_from_db()
    bob_seat = game.seats.get(user=bob).position
    assert game.status == Game.Status.FINISHED and game.winners == [bob_seat]
    over = Outbox.objects.filter(kind="game_over").values_list("recipient", flat=True)
    assert list(over) == [bob.email], "Alice, who resigned, sees the end on the page"


def test_a_resigned_seat_in_a_three_player_game_is_played_for_and_cannot_win(alice, bob, carol):
    game = every_player_moved(started("azul", alice, bob, carol))
    game_resign(game=game, user=alice)
    game.refresh_from_db()
    alice_seat = game.seats.get(user=alice).position
    assert game.status == Game.Status.ACTIVE and game.to_move != alice_seat
    while game.status == Game.Status.ACTIVE:
        assert game.to_move != alice_seat
        move_submit(game=game, user=to_move(game), move=legal(game)[0])
        game.refresh_from_db()
    steps = repository.game_table(game).steps
    assert any(s.seat == alice_seat and s.auto == "resigned" for s in steps)
    assert alice_seat not in game.winners
