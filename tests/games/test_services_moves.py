"""Moving: who may move, bad input, stale writers, idempotent retries, 50 racing players."""

import random
import threading

import pytest
from django.db import connection

from events import store
from games import repository
from games import table as tbl
from games import table_storage as storage
from games.errors import BadRequest, Conflict, Forbidden
from games.models import Game
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from tests.games.helpers import legal, play_to_end, seated, started, to_move

pytestmark = pytest.mark.django_db


def test_a_move_appends_who_moved_then_the_rules_events(alice, bob):
    game = started("azul", alice, bob)
    before = game.last_seq
    move = legal(game)[0]
    mover = to_move(game)
    result = move_submit(game=game, user=mover, move=move.upper())
    moved, *rules = result.events
    assert moved.type == "table.Moved" and moved.seq == before + 1
    assert moved.data["move"] == move and moved.actor == f"user:{mover.pk}"
    assert rules and all(not e.type.startswith("table.") for e in rules)
    game.refresh_from_db()
    assert game.last_seq == result.events[-1].seq
    assert to_move(game) != mover


def test_only_the_seat_to_move_may_move(alice, bob, carol):
    game = started("azul", alice, bob)
    waiting = next(u for u in (alice, bob) if u != to_move(game))
    with pytest.raises(Forbidden) as refused:
        move_submit(game=game, user=waiting, move=legal(game)[0])
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Forbidden) as refused:
        move_submit(game=game, user=carol, move=legal(game)[0])
    assert refused.value.code == "not_a_player"


def test_unreadable_notation_says_what_was_expected_and_lists_the_legal_moves(alice, bob):
    game = started("summer-pavilion", alice, bob)
    with pytest.raises(BadRequest) as refused:
        move_submit(game=game, user=to_move(game), move="take everything")
    assert refused.value.code == "invalid_notation"
    assert refused.value.details["expected"]
    assert {m["move"] for m in refused.value.details["legal_moves"]} == set(legal(game))


def test_an_illegal_but_readable_move_gives_its_reason_and_records_nothing(alice, bob):
    game = started("summer-pavilion", alice, bob)
    seq = game.last_seq
    with pytest.raises(BadRequest) as refused:
        move_submit(game=game, user=to_move(game), move="pass")
    assert refused.value.code == "illegal_move"
    assert refused.value.details["reason"]
    game.refresh_from_db()
    assert game.last_seq == seq == store.current_seq(game.stream)


def test_a_stale_expected_seq_is_a_conflict_with_the_current_seq(alice, bob):
    game = started("azul", alice, bob)
    with pytest.raises(Conflict) as refused:
        move_submit(
            game=game, user=to_move(game), move=legal(game)[0], expected_seq=game.last_seq - 1
        )
    assert refused.value.code == "stale"
    assert refused.value.details["current_seq"] == game.last_seq


def test_a_retry_with_the_same_idempotency_key_changes_nothing(alice, bob):
    game = started("azul", alice, bob)
    mover, move = to_move(game), legal(game)[0]
    first = move_submit(game=game, user=mover, move=move, idempotency_key="abc")
    seq = store.current_seq(game.stream)
    retry = move_submit(game=game, user=mover, move=move, idempotency_key="abc")
    assert retry.replayed and retry.events == first.events
    assert store.current_seq(game.stream) == seq


def test_a_used_key_sent_with_a_move_legal_again_is_refused_by_the_append(alice, bob):
    """Nothing refuses the move before the append (it is the player's turn again and the
    move legal): the INSERT finds the key used, writes nothing, and the retry is answered."""
    game = started("azul", alice, bob)
    first_mover = to_move(game)
    move_submit(game=game, user=first_mover, move=legal(game)[0], idempotency_key="k")
    while to_move(game) != first_mover:
        move_submit(game=game, user=to_move(game), move=legal(game)[0])
    seq = store.current_seq(game.stream)
    with pytest.raises(Conflict) as refused:
        move_submit(game=game, user=first_mover, move=legal(game)[-1], idempotency_key="k")
    assert refused.value.code == "idempotency_key_reused"
    assert store.current_seq(game.stream) == seq


def test_a_finished_game_takes_no_more_moves(alice, bob):
    game = started("miyabi", alice, bob)
    play_to_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners
    with pytest.raises(Conflict):
        move_submit(game=game, user=alice, move="pass")


@pytest.mark.django_db(transaction=True)
def test_fifty_identical_moves_at_once_only_one_is_accepted(alice, bob):
    game = started("summer-pavilion", alice, bob)
    mover, move, seq = to_move(game), legal(game)[0], game.last_seq
    outcomes: list = [None] * 50
    gate = threading.Barrier(50)

    def submit(index: int) -> None:
        try:
            gate.wait()
            move_submit(game=Game(pk=game.pk), user=mover, move=move, expected_seq=seq)
            outcomes[index] = "accepted"
        except (Conflict, Forbidden, BadRequest) as refused:
            outcomes[index] = refused.code
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("accepted") == 1
    assert set(outcomes) - {"accepted"} <= {"stale", "not_your_turn"}
    moves = [e for e in store.load(game.stream, after=seq) if e.type == "table.Moved"]
    assert len(moves) >= 1 and moves[0].data["move"] == move
    assert sum(1 for e in moves if e.actor == f"user:{mover.pk}") == 1


def test_a_seat_with_a_single_legal_move_plays_it_without_being_asked(alice, bob):
    game = started("summer-pavilion", alice, bob)
    play_to_end(game, seed=3)
    forced = [s for s in repository.game_table(game).steps if s.auto == "forced"]
    assert forced, "someone ran out of tiles and passed automatically"
    for step in forced:
        before = repository.game_table(game, upto=step.seq - 1)
        assert legal_moves_of_table(before) == [step.move]


def legal_moves_of_table(table) -> list[str]:
    return [move["move"] for move in legal_moves_of(table)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_type", ["azul", "summer-pavilion", "miyabi"])
def test_the_write_path_folds_no_rules_event_twice(game_type, alice, bob, monkeypatch):
    """The engine's ``decide_and_evolve`` gives the state after a move's last rules event;
    only those before it (a round's end, a refill) are folded again."""
    game = started(game_type, alice, bob)
    engine = repository.game_table(game).engine  # a running site has the table cached
    folded = []
    evolve = engine.evolve

    def counting(state, event):
        folded.append(event)
        return evolve(state, event)

    monkeypatch.setattr(engine, "evolve", counting)
    chooser = random.Random(5)
    for _ in range(30):
        folded.clear()
        mover, moves = to_move(game), legal(game)
        result = move_submit(game=game, user=mover, move=chooser.choice(moves))
        rules = [e for e in result.events if not e.type.startswith("table.")]
        moves_played = sum(e.type == "table.Moved" for e in result.events)
        assert len(folded) == len(rules) - moves_played
    game.refresh_from_db()
    monkeypatch.undo()
    repository.tables_forgotten()
    whole = tbl.fold(repository.empty_table(game), repository.records(game))
    assert storage.compact(repository.game_table(game)) == storage.compact(whole)


def test_seats_are_all_people_at_the_table(alice, bob):
    game = started("azul", alice, bob)
    assert set(seated(game).values()) == {alice, bob}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_type", ["azul", "summer-pavilion", "miyabi"])
def test_a_move_takes_five_sql_statements(game_type, alice, bob, django_assert_num_queries):
    """One locked read of the game and its seats, one INSERT of the events (which checks
    the key: it is checked once), one statement for the game row's changed columns, the
    clocks and the turn email, BEGIN and COMMIT counted: no savepoints (the issue allows
    seven)."""
    game = started(game_type, alice, bob, time_control={"kind": "per_move", "days": 3})
    repository.game_table(game)  # a running site has the table cached
    player, move = to_move(game), legal(game)[0]
    with django_assert_num_queries(5) as captured:
        move_submit(game=game, user=player, move=move, idempotency_key="one-move")
    statements = [q["sql"] for q in captured.captured_queries]
    together = next(sql for sql in statements if sql.startswith("WITH held_0"))
    assert all(table in together for table in ("games_game", "games_seatclock", "games_delivery"))
    assert not [sql for sql in statements if "SAVEPOINT" in sql]
    assert len([sql for sql in statements if "INSERT INTO events_event" in sql]) == 1
    assert len([sql for sql in statements if "idempotency_key" in sql]) == 1
