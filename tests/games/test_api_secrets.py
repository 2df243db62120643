"""Nothing any endpoint answers about a running game reveals its RNG secret or the order of
the tiles in the bag: bags appear as counts only."""

import pytest

from games.registry import GAME_TYPES
from tests.games.api_helpers import (
    client_for,
    export_lines,
    mover,
    play_move,
    post,
    staff_user,
    url,
)
from tests.games.helpers import last_step_is_barrier, started

pytestmark = pytest.mark.django_db

READS = ["", "state", "events", "legal-moves", "export"]
SECRET_WORDS = ("rng", "secret", "seed")


def leaks(value, path: str = "") -> list[str]:
    """Where a JSON value holds a bag as anything but a count, or names a secret."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}"
            if "bag" in key.lower() and not (item is None or isinstance(item, int)):
                found.append(f"{where} holds {type(item).__name__}, not a count")
            if any(word in key.lower() for word in SECRET_WORDS):
                found.append(f"{where} names a secret")
            found += leaks(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leaks(item, f"{path}[{index}]")
    return found


def bodies(response) -> list:
    if response["Content-Type"].startswith("application/x-ndjson"):
        return export_lines(response)
    return [response.json()]


@pytest.mark.parametrize("game_slug", sorted(GAME_TYPES))
def test_no_response_about_a_running_game_reveals_the_rng_or_the_bag(alice, bob, game_slug):
    game = started(game_slug, alice, bob)
    answers = []
    watchers = (alice, bob, staff_user())
    for moves in range(60):
        player = mover(game)
        answers.append(play_move(game, **{"Idempotency-Key": f"m{moves}"}))
        answers += [client_for(mover(game)).get(url(game, read)) for read in READS]
        answers.append(client_for(player).get(url(game, "state") + f"?at={moves + 1}"))
        if moves > 5 and last_step_is_barrier(game):
            break
    for viewer in watchers:
        answers += [client_for(viewer).get(url(game, read)) for read in READS]
    answers.append(post(client_for(player), url(game, "takebacks"), {"to_seq": 1}))
    answers.append(post(client_for(player), url(game, "moves"), {"move": "nonsense"}))
    answers += [client_for(viewer).get("/api/games/") for viewer in watchers]
    game.refresh_from_db()
    assert game.status == "active" and last_step_is_barrier(game)

    for response in answers:
        assert response.status_code < 500
        assert game.rng_secret not in response.content.decode()
        for body in bodies(response):
            assert leaks(body) == [], response.wsgi_request.path


def test_the_leak_check_would_notice_a_bag_order():
    assert leaks({"state": {"bag": [3, 1, 4]}, "events": [{"data": {"bag_order": "rrb"}}]})
    assert leaks({"rng_state": 1})
    assert not leaks({"bag": 40, "bag_refilled_after": None, "lid": [1, 2]})
