"""The opponent's move and a plan edit racing each other (conditional moves, issue 32):
both lock the game, so one goes first and the other sees it. Whichever wins, nothing is
lost: the move is played; a plan kept before it is answered at once, and a plan that came
too late is refused with the reason (the game moved on), never kept for a position it
was not checked on."""

from functools import partial

import pytest

from games import tasks
from games.errors import ServiceError
from games.models import Plan
from games.services.moves import move_submit
from games.services.plans import plan_replace
from tests.events.test_store_concurrency import race
from tests.games.helpers import started
from tests.games.test_services_plans import played, two_move_line, waiting

ROUNDS = 8


def attempted(calls: list, index: int):
    """What call ``index`` returned, or the service error it raised."""
    try:
        return calls[index]()
    except ServiceError as error:
        return error


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

        calls = [
            partial(
                plan_replace,
                game=game.pk,
                user=planner,
                lines=[[theirs, mine]],
                expected_seq=seen,
            ),
            partial(move_submit, game=game.pk, user=opponent, move=theirs),
        ]
        kept, moved = race(partial(attempted, calls), writers=len(calls))

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
