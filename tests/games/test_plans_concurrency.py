"""The opponent's move and a plan edit racing each other (conditional moves, issue 32):
both lock the game, so one goes first and the other sees it. Whichever wins, nothing is
lost: the move is played; a plan kept before it is answered at once, and a plan that came
too late is refused with the reason (the game moved on), never kept for a position it
was not checked on."""

import threading
from functools import partial

import pytest
from django.db import connection

from games import services, tasks
from games.errors import ServiceError
from games.models import Plan
from tests.games.helpers import started
from tests.games.test_services_plans import played, two_move_line, waiting

ROUNDS = 8


def together(*works) -> list:
    """Run ``works`` at once, each in a thread with its own connection; their results (or
    the service error each raised)."""
    start = threading.Barrier(len(works))
    results: list = [None] * len(works)

    def run(index: int) -> None:
        try:
            start.wait()
            results[index] = works[index]()
        except ServiceError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(works))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_a_move_and_a_plan_edit_at_the_same_moment_lose_nothing(alice, bob, monkeypatch):
    monkeypatch.setattr(
        "games.services.plan_following.send_quickly",
        lambda name, args, **kw: tasks.plan_move(*args) is not None,
    )
    for _ in range(ROUNDS):
        game = started("azul", alice, bob)
        planner, opponent = waiting(game)
        theirs, mine = two_move_line(game)[:2]
        seen = game.last_seq

        kept, moved = together(
            partial(
                services.plan_replace,
                game=game.pk,
                user=planner,
                lines=[[theirs, mine]],
                expected_seq=seen,
            ),
            partial(services.move_submit, game=game.pk, user=opponent, move=theirs),
        )

        assert not isinstance(moved, ServiceError), moved
        if isinstance(kept, ServiceError):
            assert kept.code in ("stale", "your_turn")
            assert [move for move, _actor in played(game)] == [theirs]
        else:
            assert played(game)[-2:] == [
                (theirs, f"user:{opponent.pk}"),
                (mine, f"plan:{planner.pk}"),
            ]
        assert not Plan.objects.filter(game=game).exists()
