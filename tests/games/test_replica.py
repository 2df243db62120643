"""Reads that tolerate lag go to the replica (issue 33; ``games/replica.py``): the replay,
the archive, the exports and the leaderboards; a player's own game page and every write
read the primary. In the suite the ``replica`` alias mirrors the test database (a second
connection to it), so these tests commit what they read (``transaction=True``)."""

import pytest
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.replica import ReplicaRouter, reading_lagging
from games.repository import game_table
from games.selectors.moves import legal_moves_of
from games.services.tables import game_create, game_join

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "replica"])


@pytest.fixture
def replica(settings):
    settings.READ_REPLICA = True


@pytest.fixture
def game(alice, bob):
    table = game_create(creator=alice, game="azul", players=2)
    game_join(game=table, user=bob)
    return Game.objects.get(pk=table.pk)


def queries_on(client, method: str, path: str, **kwargs) -> dict[str, int]:
    """How many queries each alias ran while ``client`` asked for ``path``."""
    with (
        CaptureQueriesContext(connections["default"]) as primary,
        CaptureQueriesContext(connections["replica"]) as lagging,
    ):
        response = getattr(client, method)(path, **kwargs)
    assert response.status_code < 400, response.content[:300]
    if hasattr(response, "streaming_content"):
        b"".join(response.streaming_content)
    return {"default": len(primary), "replica": len(lagging)}


@pytest.mark.parametrize(
    "path",
    [
        "/games/{pk}/replay/",
        "/api/games/{pk}/export/",
        "/leaderboard/",
        "/api/leaderboard/azul/",
        "/archive/",
        "/api/archive/",
    ],
)
def test_lag_tolerant_reads_go_to_the_replica(client, alice, game, replica, path):
    client.force_login(alice)
    used = queries_on(client, "get", path.format(pk=game.pk))
    assert used["replica"] > 0


def test_a_players_own_game_page_reads_the_primary(client, alice, game, replica):
    client.force_login(alice)
    used = queries_on(client, "get", f"/games/{game.pk}/")
    assert used == {"default": used["default"], "replica": 0}
    assert used["default"] > 0


def test_a_move_reads_and_writes_the_primary(client, alice, bob, game, replica):
    player = alice if game.seats.get(position=game.to_move).user == alice else bob
    client.force_login(player)
    move = legal_moves_of(game_table(game))[0]["move"]
    used = queries_on(
        client,
        "post",
        f"/api/games/{game.pk}/moves/",
        data={"move": move, "expected_seq": game.last_seq},
        content_type="application/json",
    )
    assert used["replica"] == 0


def test_without_a_replica_everything_reads_the_primary(client, alice, game):
    client.force_login(alice)
    assert queries_on(client, "get", f"/games/{game.pk}/replay/")["replica"] == 0


def test_a_read_in_a_transaction_or_outside_a_lag_tolerant_door_reads_the_primary(replica):
    router = ReplicaRouter()
    assert router.db_for_read(Game) == "default"
    with reading_lagging():
        assert router.db_for_read(Game) == "replica"
        with transaction.atomic():
            assert router.db_for_read(Game) == "default"
        assert router.db_for_write(Game) == "default"
    assert not router.allow_migrate("replica", "games")
