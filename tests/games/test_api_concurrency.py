"""Fifty identical move requests at once, each on its own connection: exactly one is
played, every other one is told why not, and the game's history holds one move."""

import pytest

from events import store
from tests.events.test_store_concurrency import WRITERS as REQUESTS
from tests.events.test_store_concurrency import race
from tests.games.api_helpers import client_for, mover, post, url
from tests.games.helpers import legal, started


def moves_after(game, seq: int) -> list:
    return [e for e in store.load(game.stream, after=seq) if e.type == "table.Moved"]


@pytest.mark.django_db(transaction=True)
def test_fifty_identical_moves_at_once_play_exactly_one(alice, bob):
    game = started("azul", alice, bob)
    player, before = mover(game), game.last_seq
    body = {"move": legal(game)[0], "expected_seq": before}

    responses = race(lambda index: post(client_for(player), url(game, "moves"), body))

    statuses = [response.status_code for response in responses]
    assert statuses.count(201) == 1
    assert set(statuses) - {201} <= {400, 403, 409}
    for response in responses:
        assert response.status_code == 201 or response.json()["code"] in {
            "stale",
            "not_your_turn",
            "illegal_move",
        }
    assert len(moves_after(game, before)) == 1


@pytest.mark.django_db(transaction=True)
def test_fifty_retries_with_one_idempotency_key_play_once_and_agree(alice, bob):
    game = started("azul", alice, bob)
    player, before = mover(game), game.last_seq
    body = {"move": legal(game)[0], "expected_seq": before}

    responses = race(
        lambda index: post(
            client_for(player), url(game, "moves"), body, **{"Idempotency-Key": "once"}
        )
    )

    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] * (REQUESTS - 1) + [201]
    assert all(response.json() == responses[0].json() for response in responses)
    assert len(moves_after(game, before)) == 1
