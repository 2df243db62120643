"""Playing through the API: moves and every way one is refused, safe retries, undo,
takebacks (never across a draw), resigning, and reading the game back: its state at any
event, its events and its record."""

import json
import random

import pytest

from events import store
from games import repository
from games.selectors.moves import legal_moves_of
from tests.conftest import make_user
from tests.games.api_helpers import (
    client_for,
    export_lines,
    legal_moves,
    mover,
    play_move,
    post,
    url,
)
from tests.games.helpers import (
    every_player_moved,
    last_step_is_barrier,
    play_to_end,
    seated,
    started,
)

pytestmark = pytest.mark.django_db


def other_than(game, user):
    return next(u for u in seated(game).values() if u != user)


def move_of(game, user, move, **extra):
    return post(client_for(user), url(game, "moves"), {"move": move, **extra})


def state_at(game, user, at=None):
    query = "" if at is None else f"?at={at}"
    response = client_for(user).get(url(game, "state") + query)
    assert response.status_code == 200, response.json()
    return response.json()


# --- moves ----------------------------------------------------------------------------------


def test_a_legal_move_appends_its_events_and_answers_the_new_last_seq(alice, bob):
    game = started("azul", alice, bob)
    before = game.last_seq
    response = play_move(game)
    assert response.status_code == 201
    body = response.json()
    game.refresh_from_db()
    assert body["last_seq"] == game.last_seq > before
    assert [e["seq"] for e in body["events"]] == list(range(before + 1, game.last_seq + 1))
    assert body["events"][0]["type"] == "table.Moved"
    assert body["events"][1]["type"] == "azul.TilesTaken"


def test_a_move_answers_who_is_to_move_and_the_movers_next_moves_when_the_turn_stays(alice, bob):
    """A client asks legal-moves/ only when the turn comes to it: the answer to a move
    lists the mover's next moves when the turn stays with them (Summer Pavilion's
    building phase, once the other player has passed), and no one else's."""
    game = started("summer-pavilion", alice, bob)
    stayed = 0
    while True:
        game.refresh_from_db()
        if game.to_move is None:
            break
        seat, user = game.to_move, mover(game)
        body = play_move(game, random.Random(game.last_seq)).json()
        game.refresh_from_db()
        assert body["to_move"] == game.to_move
        if body["to_move"] == seat:
            stayed += 1
            assert body["moves"] == legal_moves(client_for(user), game)["moves"] != []
        else:
            assert body["moves"] == []
    assert stayed > 0


def test_the_legal_moves_are_for_the_player_to_move_only(alice, bob):
    game = started("azul", alice, bob)
    first = mover(game)
    offered = legal_moves(client_for(first), game)
    assert offered["to_move"] == game.to_move and offered["last_seq"] == game.last_seq
    assert offered["moves"] and {"move", "command"} <= set(offered["moves"][0])
    watching = legal_moves(client_for(other_than(game, first)), game)
    assert watching["moves"] == [] and watching["to_move"] == game.to_move


def test_polling_the_legal_moves_with_their_etag_is_a_304_until_the_game_moves_on(alice, bob):
    """A client waiting for its turn asks again with the ETag it was given: 304, no body,
    while nothing changed; once a move is played, the new answer with a new ETag. The
    player to move and a player waiting are told apart (their lists differ)."""
    game = started("azul", alice, bob)
    first, second = mover(game), other_than(game, mover(game))
    waiting, moving = client_for(second), client_for(first)
    polled = waiting.get(url(game, "legal-moves"))
    etag = polled["ETag"]
    assert polled.status_code == 200 and etag and polled.json()["moves"] == []
    assert "private" in polled["Cache-Control"] and "no-cache" in polled["Cache-Control"]
    again = waiting.get(url(game, "legal-moves"), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    offered = moving.get(url(game, "legal-moves"))
    assert offered["ETag"] != etag and offered.json()["moves"]
    stale = moving.get(url(game, "legal-moves"), headers={"If-None-Match": etag})
    assert stale.status_code == 200 and stale.json() == offered.json()

    assert play_move(game).status_code == 201
    turn = waiting.get(url(game, "legal-moves"), headers={"If-None-Match": etag})
    assert turn.status_code == 200 and turn["ETag"] != etag
    assert turn.json() == legal_moves(client_for(mover(game)), game)
    assert turn.json()["to_move"] == game.seats.get(user=second).position
    assert turn.json()["moves"] and turn.json()["last_seq"] > polled.json()["last_seq"]
    unchanged = waiting.get(url(game, "legal-moves"), headers={"If-None-Match": turn["ETag"]})
    assert unchanged.status_code == 304


def test_an_unreadable_or_foreign_etag_gets_the_whole_answer(alice, bob):
    """A client sending a malformed, foreign or wildcard ``If-None-Match`` is never refused
    nor sent a 500: a tag that is not this answer's gets the list (``*`` matches any
    current answer, as HTTP says, so it is a 304)."""
    game = started("azul", alice, bob)
    playing = client_for(mover(game))
    offered = playing.get(url(game, "legal-moves")).json()
    for header in ('"not-ours"', "no quotes at all", 'W/"weak", "', "\x00\xff", ""):
        answer = playing.get(url(game, "legal-moves"), headers={"If-None-Match": header})
        assert answer.status_code == 200 and answer.json() == offered, header
    anything = playing.get(url(game, "legal-moves"), headers={"If-None-Match": "*"})
    assert anything.status_code == 304


def test_unreadable_notation_is_a_400_with_what_is_accepted_and_the_legal_moves(alice, bob):
    game = started("azul", alice, bob)
    response = move_of(game, mover(game), "F1 purple 1")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "invalid_notation" and "purple" in error["message"]
    assert error["expected"] and error["legal_moves"]


def test_an_unreadable_move_names_the_engines_code_for_programs(alice, bob):
    game = started("azul", alice, bob)
    error = move_of(game, mover(game), "F1 purple 1").json()
    assert (error["engine_code"], error["engine_params"]) == ("azul_expected_colour", {})
    assert error["message"] == f'cannot read "F1 purple 1": {error["expected"]}'


def test_refusals_follow_accept_language_and_keep_their_codes(alice, bob):
    """Needs the Polish catalog (locale/pl): the same refusal in English and in Polish,
    with the same machine-readable codes; the player's account language does not apply to
    the API, the request's Accept-Language does."""
    game = started("azul", alice, bob)
    player = mover(game)
    said = {
        language: post(
            client_for(player), url(game, "moves"), {"move": move}, **{"Accept-Language": language}
        ).json()
        for language in ("en", "pl")
        for move in ("F9 red 1",)
    }
    english, polish = said["en"], said["pl"]
    assert english["message"].startswith("illegal move: ")
    assert (polish["code"], polish["engine_code"], polish["engine_params"]) == (
        english["code"],
        english["engine_code"],
        english["engine_params"],
    )
    assert polish["message"] != english["message"] and polish["reason"] != english["reason"]
    assert "9" in polish["reason"]
    unreadable = {
        language: move_of_in(game, player, "F1 purple 1", language) for language in ("en", "pl")
    }
    assert unreadable["en"]["code"] == unreadable["pl"]["code"] == "invalid_notation"
    assert unreadable["en"]["engine_code"] == unreadable["pl"]["engine_code"]
    assert unreadable["en"]["expected"] != unreadable["pl"]["expected"]
    not_yours = post(
        client_for(other_than(game, player)),
        url(game, "moves"),
        {"move": "F1 red 1"},
        **{"Accept-Language": "pl"},
    ).json()
    assert not_yours["code"] == "not_your_turn" and not_yours["message"] != "it is not your turn"


def move_of_in(game, user, move, language):
    return post(
        client_for(user), url(game, "moves"), {"move": move}, **{"Accept-Language": language}
    ).json()


def test_an_illegal_move_is_a_400_with_the_reason_and_the_legal_moves(alice, bob):
    game = started("azul", alice, bob)
    response = move_of(game, mover(game), "F9 red 1")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "illegal_move" and "factory display 9" in error["reason"]
    assert error["message"] == "illegal move: " + error["reason"]
    assert error["engine_code"] == "no_such_factory"
    assert error["engine_params"] == {"factory": 8, "players": 2, "factories": 5}
    assert {move["move"] for move in error["legal_moves"]} == {
        move["move"] for move in legal_moves_of(repository.game_table(game))
    }


def test_moving_out_of_turn_is_a_403(alice, bob):
    game = started("azul", alice, bob)
    response = move_of(game, other_than(game, mover(game)), "F1 blue 1")
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_turn"
    assert response.json()["to_move"] == game.to_move


def test_a_stale_expected_seq_is_a_409_with_the_current_seq(alice, bob):
    game = started("azul", alice, bob)
    first = mover(game)
    offered = legal_moves(client_for(first), game)
    stale = offered["last_seq"] - 1
    response = move_of(game, first, offered["moves"][0]["move"], expected_seq=stale)
    assert response.status_code == 409
    assert response.json() | {"message": ""} == {
        "code": "stale",
        "message": "",
        "current_seq": game.last_seq,
    }
    assert store.current_seq(game.stream) == game.last_seq


def test_a_finished_game_takes_no_moves(alice, bob):
    game = started("miyabi", alice, bob)
    play_to_end(game)
    response = move_of(game, alice, "pass")
    assert response.status_code == 409 and response.json()["code"] == "not_active"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "move"),
        ({"move": ""}, "move"),
        ({"move": "F1 blue 1" * 50}, "move"),
        ({"move": "F1 blue 1", "expected_seq": -1}, "expected_seq"),
        ({"move": "F1 blue 1", "expected_seq": "three"}, "expected_seq"),
        ({"move": "F1 blue 1", "expected_seq": 10**40}, "expected_seq"),
        ({"move": ["F1 blue 1"]}, "move"),
    ],
)
def test_a_malformed_move_request_names_the_field(alice, bob, body, field):
    game = started("azul", alice, bob)
    response = post(client_for(mover(game)), url(game, "moves"), body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input" and response.json()["field"] == field


# --- idempotent retries ---------------------------------------------------------------------


def test_a_retry_with_the_same_idempotency_key_gets_the_same_answer_and_appends_nothing(alice, bob):
    game = started("azul", alice, bob)
    first = play_move(game, **{"Idempotency-Key": "move-1"})
    appended = store.current_seq(game.stream)
    game.refresh_from_db()
    retry = post(
        client_for(other_than(game, mover(game))),
        url(game, "moves"),
        json.loads(first.wsgi_request.body),
        **{"Idempotency-Key": "move-1"},
    )
    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()
    assert store.current_seq(game.stream) == appended


def test_a_retry_after_the_game_moved_on_still_gets_the_first_answer(alice, bob):
    game = started("azul", alice, bob)
    first_mover = mover(game)
    first = play_move(game, **{"Idempotency-Key": "k"})
    play_move(game)
    appended = store.current_seq(game.stream)
    retry = post(
        client_for(first_mover),
        url(game, "moves"),
        json.loads(first.wsgi_request.body),
        **{"Idempotency-Key": "k"},
    )
    assert retry.status_code == 200 and retry.json() == first.json()
    assert store.current_seq(game.stream) == appended


def test_a_retry_answers_the_moves_played_for_a_resigned_seat_too(alice, bob, carol):
    game = every_player_moved(started("azul", alice, bob, carol))
    seats = seated(game)
    playing = mover(game)
    next_seat = seats[(game.to_move + 1) % 3]
    assert post(client_for(next_seat), url(game, "resign")).status_code == 200
    first = play_move(game, **{"Idempotency-Key": "before-resigned"})
    assert first.status_code == 201
    autos = [e["data"].get("auto") for e in first.json()["events"] if e["type"] == "table.Moved"]
    assert autos == ["", "resigned"]
    retry = post(
        client_for(playing),
        url(game, "moves"),
        json.loads(first.wsgi_request.body),
        **{"Idempotency-Key": "before-resigned"},
    )
    assert retry.status_code == 200 and retry.json() == first.json()


def test_idempotency_keys_belong_to_one_player(alice, bob):
    game = started("azul", alice, bob)
    first = play_move(game, **{"Idempotency-Key": "shared"})
    second = play_move(game, **{"Idempotency-Key": "shared"})
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json()["last_seq"] > first.json()["last_seq"]


def test_a_key_reused_for_another_move_or_a_move_taken_back_is_refused(alice, bob):
    game = started("azul", alice, bob)
    player = mover(game)
    first = play_move(game, **{"Idempotency-Key": "k1"})
    undone = post(client_for(player), url(game, "undo"))
    assert (first.status_code, undone.status_code) == (201, 200)
    moves = [move["move"] for move in legal_moves(client_for(player), game)["moves"]]
    played = json.loads(first.wsgi_request.body)["move"]
    other = next(move for move in moves if move != played)
    response = post(
        client_for(player), url(game, "moves"), {"move": other}, **{"Idempotency-Key": "k1"}
    )
    assert response.status_code == 409 and response.json()["code"] == "idempotency_key_reused"
    respelled = post(
        client_for(player),
        url(game, "moves"),
        {"move": played.upper()},
        **{"Idempotency-Key": "k1"},
    )
    assert respelled.status_code == 409 and respelled.json()["code"] == "move_taken_back"


@pytest.mark.parametrize("key", ["", "x" * 129, "tab\there"])
def test_a_bad_idempotency_key_is_refused_before_anything_is_played(alice, bob, key):
    game = started("azul", alice, bob)
    response = play_move(game, **{"Idempotency-Key": key})
    assert response.status_code == 400 and response.json()["field"] == "Idempotency-Key"
    assert store.current_seq(game.stream) == game.last_seq


# --- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_your_move_while_nobody_else_has_acted(alice, bob):
    game = started("azul", alice, bob)
    player, before = mover(game), game.last_seq
    play_move(game)
    detail = client_for(player).get(url(game)).json()
    assert detail["you"]["can_undo"] is True
    response = post(client_for(player), url(game, "undo"))
    assert response.status_code == 200
    body = response.json()
    assert body["you"]["your_turn"] is True and body["you"]["can_undo"] is False
    assert state_at(game, player)["state"] == state_at(game, player, before)["state"]
    events = client_for(player).get(url(game, "events") + f"?after={before}").json()
    assert events[-1]["type"] == "table.MovesVoided"


def test_no_undo_for_the_other_player_or_once_they_have_moved(alice, bob):
    game = started("azul", alice, bob)
    first = mover(game)
    play_move(game)
    second = mover(game)
    refused = post(client_for(second), url(game, "undo"))
    assert refused.status_code == 409 and refused.json()["code"] == "nothing_to_undo"
    play_move(game)
    too_late = post(client_for(first), url(game, "undo"))
    assert too_late.status_code == 409 and too_late.json()["code"] == "nothing_to_undo"


def test_no_undo_in_a_game_without_it(alice, bob):
    game = started("azul", alice, bob, self_undo=False)
    player = mover(game)
    play_move(game)
    response = post(client_for(player), url(game, "undo"))
    assert response.status_code == 403 and response.json()["code"] == "undo_not_allowed"


def test_no_undo_across_a_draw_of_new_tiles(alice, bob):
    game = started("azul", alice, bob)
    while True:
        player = mover(game)
        play_move(game)
        if last_step_is_barrier(game):
            break
    response = post(client_for(player), url(game, "undo"))
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_undo"


# --- takebacks --------------------------------------------------------------------------------


def test_an_agreed_takeback_returns_the_game_to_that_point(alice, bob):
    game = started("azul", alice, bob)
    asking, point = mover(game), game.last_seq
    play_move(game)
    answering = mover(game)
    play_move(game)
    requested = post(client_for(asking), url(game, "takebacks"), {"to_seq": point})
    assert requested.status_code == 201
    request = requested.json()["request"]
    assert requested.json() == {"request": request, "to_seq": point}
    seat = game.seats.get(user=asking).position
    detail = client_for(answering).get(url(game)).json()
    assert detail["takeback"] == {"request": request, "seat": seat, "to_seq": point, "accepted": []}
    assert detail["you"]["can_answer_takeback"] is True
    answered = post(
        client_for(answering), url(game, f"takebacks/{request}/answer"), {"accept": True}
    )
    assert answered.status_code == 200
    assert answered.json()["takeback"] is None and answered.json()["to_move"] == seat
    assert state_at(game, asking)["state"] == state_at(game, asking, point)["state"]
    assert mover(game) == asking


def test_a_declined_takeback_changes_nothing(alice, bob):
    game = started("azul", alice, bob)
    asking, point = mover(game), game.last_seq
    play_move(game)
    answering = mover(game)
    played = state_at(game, asking)["state"]
    request = post(client_for(asking), url(game, "takebacks"), {"to_seq": point}).json()["request"]
    declined = post(
        client_for(answering), url(game, f"takebacks/{request}/answer"), {"accept": False}
    )
    assert declined.status_code == 200 and declined.json()["takeback"] is None
    assert state_at(game, asking)["state"] == played


def test_a_takeback_request_lapses_when_someone_moves(alice, bob):
    game = started("azul", alice, bob)
    point = game.last_seq
    play_move(game)
    answering = mover(game)
    asking = other_than(game, answering)
    request = post(client_for(asking), url(game, "takebacks"), {"to_seq": point}).json()["request"]
    play_move(game)
    late = post(client_for(answering), url(game, f"takebacks/{request}/answer"), {"accept": True})
    assert late.status_code == 404 and late.json()["code"] == "no_takeback"


def test_you_do_not_answer_your_own_takeback_request(alice, bob):
    game = started("azul", alice, bob)
    asking, point = mover(game), game.last_seq
    play_move(game)
    request = post(client_for(asking), url(game, "takebacks"), {"to_seq": point}).json()["request"]
    own = post(client_for(asking), url(game, f"takebacks/{request}/answer"), {"accept": True})
    assert own.status_code == 403 and own.json()["code"] == "own_request"
    again = post(client_for(asking), url(game, "takebacks"), {"to_seq": point})
    assert again.status_code == 409 and again.json()["code"] == "takeback_open"


def test_a_takeback_must_return_to_the_end_of_a_move(alice, bob):
    game = started("azul", alice, bob)
    play_move(game)
    response = post(client_for(alice), url(game, "takebacks"), {"to_seq": game.last_seq + 1})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_takeback" and response.json()["accepted"]


def test_no_takeback_crosses_a_draw_of_new_tiles(alice, bob):
    game = started("azul", alice, bob)
    point = game.last_seq
    play_move(game)
    while not last_step_is_barrier(game):
        play_move(game)
    response = post(client_for(alice), url(game, "takebacks"), {"to_seq": point})
    assert response.status_code == 409 and response.json()["code"] == "takeback_crosses_draw"


@pytest.mark.parametrize(
    ("action", "body", "field"),
    [
        ("takebacks", {}, "to_seq"),
        ("takebacks", {"to_seq": "last"}, "to_seq"),
        ("takebacks/5/answer", {}, "accept"),
        ("takebacks/5/answer", {"accept": "perhaps"}, "accept"),
    ],
)
def test_a_malformed_takeback_request_names_the_field(alice, bob, action, body, field):
    game = started("azul", alice, bob)
    response = post(client_for(alice), url(game, action), body)
    assert response.status_code == 400 and response.json()["field"] == field


# --- resigning ------------------------------------------------------------------------------


def test_resigning_a_game_of_two_makes_the_other_player_the_winner(alice, bob):
    game = every_player_moved(started("summer-pavilion", alice, bob))
    response = post(client_for(alice), url(game, "resign"))
    assert response.status_code == 200
    body = response.json()
    bob_seat = game.seats.get(user=bob).position
    assert body["status"] == "finished" and body["winners"] == [bob_seat]
    again = post(client_for(alice), url(game, "resign"))
    assert again.status_code == 409 and again.json()["code"] == "not_active"


# --- reading a game back ------------------------------------------------------------------------


def test_the_state_at_any_event_is_the_table_as_it_was(alice, bob):
    game = started("azul", alice, bob)
    opening = game.last_seq
    play_move(game)
    game.refresh_from_db()
    latest = state_at(game, alice)
    assert latest["at"] == latest["last_seq"] == game.last_seq
    assert latest["started"] and latest["state"]["boards"] and latest["over"] is False
    then = state_at(game, alice, opening)
    assert then["at"] == opening and then["state"] != latest["state"]
    assert then["state"]["to_move"] == then["to_move"] != latest["to_move"]
    before_start = state_at(game, alice, 0)
    assert before_start["started"] is False and before_start["state"] is None


def test_the_state_can_be_read_after_every_event(alice, bob):
    game = started("azul", alice, bob)
    play_move(game)
    game.refresh_from_db()
    states = [state_at(game, bob, at) for at in range(game.last_seq + 1)]
    assert [state["started"] for state in states[:2]] == [False, False]
    assert all(state["started"] and state["state"] for state in states[2:])


@pytest.mark.parametrize("at", ["-1", "abc", "1.5", "99", str(2**63)])
def test_a_state_outside_the_game_is_a_400_with_the_accepted_range(alice, bob, at):
    game = started("azul", alice, bob)
    response = client_for(alice).get(url(game, "state") + f"?at={at}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input" and response.json()["field"] == "at"
    if at == "99":
        assert response.json()["accepted"] == {"from": 0, "to": game.last_seq}


def test_the_events_after_a_seq_come_in_order(alice, bob):
    game = started("azul", alice, bob)
    play_move(game)
    play_move(game)
    game.refresh_from_db()
    events = client_for(bob).get(url(game, "events")).json()
    assert [e["seq"] for e in events] == list(range(1, game.last_seq + 1))
    assert events[0]["type"] == "table.Started"
    later = client_for(bob).get(url(game, "events") + "?after=3").json()
    assert later == events[3:]
    assert client_for(bob).get(url(game, "events") + "?after=1000").json() == []
    refused = client_for(bob).get(url(game, "events") + "?after=-2")
    assert refused.status_code == 400 and refused.json()["field"] == "after"


def test_the_export_is_a_header_then_every_event_as_json_lines(alice, bob):
    game = started("azul", alice, bob)
    play_move(game)
    game.refresh_from_db()
    response = client_for(alice).get(url(game, "export"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    header, *events = export_lines(response)
    assert header["game"] == "azul" and header["options"] == {"wall": "colored"}
    assert {seat["player"] for seat in header["seats"]} == {"Alice", "Bob"}
    assert [e["seq"] for e in events] == list(range(1, game.last_seq + 1))
    assert events == client_for(alice).get(url(game, "events")).json()


def test_an_export_refused_is_still_a_json_error(alice, bob):
    game = started("azul", alice, bob, private=True)
    response = client_for(make_user("dave")).get(url(game, "export"))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"
