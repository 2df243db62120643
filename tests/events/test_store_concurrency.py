"""Fifty writers race for one stream on the real PostgreSQL."""

import threading

import pytest
from django.db import connection, transaction

from events import store
from events.store import ConcurrencyConflict, NewEvent

WRITERS = 50


def race(work, writers: int = WRITERS) -> list:
    """``work(index)`` run by ``writers`` threads at once, each on its own connection."""
    start = threading.Barrier(writers)
    results: list = [None] * writers

    def writer(index: int) -> None:
        try:
            start.wait()
            results[index] = work(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_fifty_writers_expecting_the_same_seq_one_wins_and_each_loser_is_told():
    def append_once(index: int) -> str:
        try:
            with transaction.atomic():
                store.append("race", 0, [NewEvent("Moved", {"writer": index})], actor="system")
            return "won"
        except ConcurrencyConflict as conflict:
            assert conflict.current_seq == 1
            return "told"

    outcomes = race(append_once)
    assert outcomes.count("won") == 1
    assert outcomes.count("told") == WRITERS - 1
    assert [e.seq for e in store.load("race")] == [1]


@pytest.mark.django_db(transaction=True)
def test_fifty_writers_retrying_write_every_seq_exactly_once_without_gaps():
    def append_until_written(index: int) -> int:
        conflicts = 0
        while True:
            try:
                with transaction.atomic():
                    seen = store.current_seq("race")
                    store.append(
                        "race", seen, [NewEvent("Moved", {"writer": index})], actor=f"user:{index}"
                    )
                return conflicts
            except ConcurrencyConflict:
                conflicts += 1

    conflicts = race(append_until_written)
    events = store.load("race")
    assert [e.seq for e in events] == list(range(1, WRITERS + 1))
    assert sorted(e.data["writer"] for e in events) == list(range(WRITERS))
    assert sum(conflicts) > 0
