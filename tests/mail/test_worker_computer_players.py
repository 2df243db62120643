"""Computer players at the table with a real Celery worker and no minute sweep: each of
their moves is queued when the one before commits, so a person's turn comes back as soon
as the computer players have thought (issue 30's waits)."""

import time

import pytest

from games.models import Game
from games.repository import game_table
from games.services.moves import move_submit
from games.services.tables import game_create

pytestmark = pytest.mark.django_db(transaction=True)

# Far below the sweep's minute: easy computer players think for milliseconds.
LONGEST_WAIT_SECONDS = 30


def alices_turn_or_the_end(game: Game, alice) -> float:
    """Seconds until it is Alice's turn again or the game is over (the sweep never runs)."""
    started = time.monotonic()
    while True:
        game.refresh_from_db()
        mover = game.seats.filter(position=game.to_move).first()
        if game.status != Game.Status.ACTIVE or (mover and mover.user_id == alice.pk):
            return time.monotonic() - started
        assert time.monotonic() - started < LONGEST_WAIT_SECONDS, "left for the minute sweep"
        time.sleep(0.05)


def test_three_computer_players_hand_the_turn_back_through_a_whole_round(alice, start_worker):
    start_worker()
    game = game_create(
        creator=alice, game="summer-pavilion", players=4, bots=["easy", "easy", "easy"]
    )
    waits = []
    while game_table(game).state.round < 2:
        waits.append(alices_turn_or_the_end(game, alice))
        table = game_table(game)
        move = table.engine.format(table.engine.default_command(table.state))
        move_submit(game=game, user=alice, move=move)
    assert max(waits) < LONGEST_WAIT_SECONDS
