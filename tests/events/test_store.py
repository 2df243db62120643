"""The event store on the real PostgreSQL: gapless streams, optimistic concurrency,
idempotent retries, upcasting on read and load windows."""

import psycopg
import pytest
from django.db import connection

from events import store, upcasting
from events.store import ConcurrencyConflict, NewEvent

pytestmark = pytest.mark.django_db


def numbered(*names: str) -> list[NewEvent]:
    return [NewEvent(type=name, data={"name": name}) for name in names]


def test_appends_number_each_stream_from_one_without_gaps():
    store.append("game-1", 0, numbered("A", "B"), actor="system")
    store.append("game-2", 0, numbered("X"), actor="system")
    store.append("game-1", 2, numbered("C"), actor="user:1")
    assert [(e.seq, e.type) for e in store.load("game-1")] == [(1, "A"), (2, "B"), (3, "C")]
    assert [e.seq for e in store.load("game-2")] == [1]
    assert store.current_seq("game-1") == 3
    assert store.current_seq("never-written") == 0


def test_a_stale_writer_is_told_the_current_seq_and_writes_nothing():
    store.append("game-1", 0, numbered("A", "B"), actor="system")
    with pytest.raises(ConcurrencyConflict) as conflict:
        store.append("game-1", 1, numbered("late"), actor="user:2")
    assert conflict.value.current_seq == 2
    assert conflict.value.expected_seq == 1
    assert [e.type for e in store.load("game-1")] == ["A", "B"]


@pytest.fixture
def sent(monkeypatch) -> list[str]:
    """Every statement sent to PostgreSQL from now on (Django's cursors and the store's own,
    which bypasses Django's query log)."""
    statements: list[str] = []
    execute = psycopg.Cursor.execute

    def spy(cursor, query, params=None, **options):
        statements.append(str(query))
        return execute(cursor, query, params, **options)

    monkeypatch.setattr(psycopg.Cursor, "execute", spy)
    return statements


@pytest.mark.parametrize("key", [None, "fresh-key"])
def test_an_append_is_one_statement_and_a_conflict_one_more_to_say_why(sent, key):
    store.append("game-1", 0, numbered("A", "B"), actor="system", idempotency_key="k0")
    sent.clear()
    store.append("game-1", 2, numbered("C"), actor="system", idempotency_key=key and "k2")
    assert len(sent) == 1 and "INSERT INTO events_event" in sent[0]
    sent.clear()
    with pytest.raises(ConcurrencyConflict) as conflict:
        store.append("game-1", 1, numbered("late", "later"), actor="user:2", idempotency_key=key)
    assert conflict.value.current_seq == 3
    assert len(sent) == 2 and "INSERT INTO events_event" in sent[0]
    assert store.current_seq("game-1") == 3


@pytest.mark.django_db(transaction=True)
def test_appends_are_counted_as_statements_and_survive_a_new_connection(
    django_assert_num_queries,
):
    """The store keeps one cursor per connection: its appends still show in Django's count
    of statements, and a connection closed and opened again (``CONN_MAX_AGE``) gets a new
    cursor instead of the closed one."""
    with django_assert_num_queries(1):
        store.append("game-1", 0, numbered("A"), actor="system")
    connection.close()
    store.append("game-1", 1, numbered("B"), actor="system")
    store.append("game-1", 2, numbered("C"), actor="system")
    assert [e.type for e in store.load("game-1")] == ["A", "B", "C"]


def test_a_retry_with_the_same_idempotency_key_returns_the_first_result():
    first = store.append("game-1", 0, numbered("A", "B"), actor="user:1", idempotency_key="k1")
    store.append("game-1", 2, numbered("C"), actor="user:2")
    retry = store.append("game-1", 0, numbered("A", "B"), actor="user:1", idempotency_key="k1")
    assert retry == first
    assert [e.seq for e in retry] == [1, 2]
    assert store.current_seq("game-1") == 3


def test_the_same_idempotency_key_on_another_stream_is_independent():
    store.append("game-1", 0, numbered("A"), actor="user:1", idempotency_key="k1")
    written = store.append("game-2", 0, numbered("A"), actor="user:1", idempotency_key="k1")
    assert [(e.stream, e.seq) for e in written] == [("game-2", 1)]


def test_actor_reason_and_time_are_recorded():
    [event] = store.append("game-1", 0, numbered("Paused"), actor="moderator:7", reason="storm")
    [loaded] = store.load("game-1")
    assert loaded == event
    assert (loaded.actor, loaded.reason) == ("moderator:7", "storm")
    assert loaded.recorded_at is not None


def test_old_versions_are_upcast_on_read_and_never_rewritten():
    store.append("game-1", 0, [NewEvent("dice.ScoreSet", {"points": 3}, version=1)], actor="system")

    @upcasting.upcaster("dice", "ScoreSet", 1)
    def points_to_score(data):
        return {"score": data["points"]}

    @upcasting.upcaster("dice", "ScoreSet", 2)
    def score_with_bonus(data):
        return {**data, "bonus": 0}

    [event] = store.load("game-1")
    assert (event.type, event.version, event.data) == ("dice.ScoreSet", 3, {"score": 3, "bonus": 0})
    from events.models import Event

    assert Event.objects.get(stream="game-1").data == {"points": 3}


def test_an_upcaster_of_one_game_never_touches_another_games_events():
    @upcasting.upcaster("chess", "Scored", 1)
    def doubled(data):
        return {"points": data["points"] * 2}

    store.append("game-1", 0, [NewEvent("go.Scored", {"points": 3})], actor="system")
    store.append("game-2", 0, [NewEvent("chess.Scored", {"points": 3})], actor="system")
    assert store.load("game-1")[0].data == {"points": 3}
    assert store.load("game-2")[0].data == {"points": 6}


def test_bare_names_from_before_namespaces_are_read_as_the_streams_game():
    @upcasting.upcaster("checkers", "Jumped", 1)
    def counted(data):
        return {**data, "count": 1}

    store.append("game-1", 0, [NewEvent("Jumped", {"from": 1})], actor="system")
    [event] = store.load("game-1", legacy_namespace="checkers")
    assert (event.type, event.version, event.data) == (
        "checkers.Jumped",
        2,
        {"from": 1, "count": 1},
    )


def test_an_upcaster_may_turn_an_event_into_another_type_of_its_namespace():
    @upcasting.upcaster("cards", "Acted", 1)
    def split(data):
        return upcasting.Renamed(data["action"].title(), 1, {})

    store.append("game-1", 0, [NewEvent("cards.Acted", {"action": "shuffled"})], actor="system")
    assert store.load("game-1")[0].type == "cards.Shuffled"


def test_load_windows_after_and_upto():
    store.append("game-1", 0, numbered("A", "B", "C", "D", "E"), actor="system")
    assert [e.seq for e in store.load("game-1", after=2)] == [3, 4, 5]
    assert [e.seq for e in store.load("game-1", upto=2)] == [1, 2]
    assert [e.seq for e in store.load("game-1", after=1, upto=3)] == [2, 3]
    assert store.load("game-1", after=5) == []


def test_appending_nothing_is_refused():
    with pytest.raises(ValueError):
        store.append("game-1", 0, [], actor="system")
