"""The clock of seconds per move (issue 55): a bot that does not move in time loses, or has
its move played by the site, as the game's timeout policy says; three games in a row out of
time pause it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import Forbidden
from games.models import Game, NoticeKind, Outbox
from games.notify.channels.email import render
from games.services.bot_accounts import bot_create
from games.services.challenges import challenge_accept, challenge_create
from games.services.move_clock import clocks_fire, next_due
from games.services.moves import move_submit
from tests.games.helpers import legal, to_move


def timed_game(challenger, opponent, policy: str, seconds: int = 10) -> Game:
    challenge = challenge_create(
        challenger=challenger,
        opponent_id=opponent.pk,
        game="azul",
        seconds_per_move=seconds,
        timeout_policy=policy,
    )
    return challenge_accept(user=opponent, challenge_id=challenge.pk)


@pytest.fixture
def bots(alice):
    return [bot_create(owner=alice, name=name, games=["azul"]).user for name in ("A", "B")]


def test_out_of_time_with_forfeit_loses_the_game(bots):
    game = timed_game(*bots, Game.TimeoutPolicy.FORFEIT)
    for _turn in range(2):  # both move once: out of time before that, the game is aborted
        mover = to_move(game)
        move_submit(game=game, user=mover, move=legal(game)[0])
    game.refresh_from_db()
    due = next_due()
    assert due == game.last_move_at + timedelta(seconds=10)
    assert clocks_fire(now=due - timedelta(milliseconds=1)) == 0
    assert clocks_fire(now=due) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winners == [game.seats.get(user=mover).position]


def test_out_of_time_before_the_first_move_aborts_the_game(bots):
    game = timed_game(*bots, Game.TimeoutPolicy.FORFEIT)
    assert clocks_fire(now=timezone.now() + timedelta(seconds=11)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


@pytest.mark.parametrize("policy", [Game.TimeoutPolicy.DEFAULT_MOVE, Game.TimeoutPolicy.BOT])
def test_out_of_time_with_a_move_played_for_it_goes_on(bots, policy):
    game = timed_game(*bots, policy)
    seq = game.last_seq
    assert clocks_fire(now=timezone.now() + timedelta(seconds=11)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.last_seq > seq
    # The clock starts again from the move played for it.
    assert next_due() == game.last_move_at + timedelta(seconds=10)


def test_three_games_in_a_row_out_of_time_pause_the_bot(bots, alice):
    absent, present = bots
    for number in range(3):
        game = timed_game(present, absent, Game.TimeoutPolicy.FORFEIT)
        if to_move(game) == present:
            move_submit(game=game, user=present, move=legal(game)[0])
        clocks_fire(now=timezone.now() + timedelta(seconds=11))
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED  # the absent bot never moved
        absent.bot_account.refresh_from_db()
        assert (absent.bot_account.paused_at is not None) == (number == 2)
    assert absent.bot_account.paused_reason == "ran out of time in three games in a row"
    told = Outbox.objects.get(kind=NoticeKind.BOT_PAUSED)
    assert told.recipient == alice.email
    email = render.message(told, timezone.now())
    assert email.subject == "Your bot A is paused"
    text = " ".join(email.body.split())
    assert "ran out of time in three games in a row" in text and "/account/bots/" in text
    assert present.bot_account.paused_at is None
    with pytest.raises(Forbidden):
        challenge_create(challenger=present, opponent_id=absent.pk, game="azul")
