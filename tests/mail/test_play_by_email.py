"""Whole games played by email alone: each player only ever replies to the latest email
they got, with a move number or the move's notation."""

import random
import uuid

import pytest

from games.mail import services as mail
from games.models import Game
from games.notify.channels.email import tokens
from games.services.sweep import sweep
from tests.mail.conftest import fixture_reply, moves_in, of_kind, player_to_move, start_game

CLIENTS = ("gmail.eml", "outlook.eml", "apple_mail.eml", "thunderbird.eml")


def current_turn_email(smtp, game, player):
    """The newest email to ``player`` whose reply address is for the position now."""
    for message in reversed(smtp.to(player.email)):
        named = tokens.read_reply_address(str(message["Reply-To"] or ""))
        if named is not None and named.game_id == game.pk and named.seq == game.last_seq:
            return message
    raise AssertionError(f"no email with a reply address for event {game.last_seq}")


def play_by_email(game: Game, smtp, *, seed: int, most_moves: int) -> int:
    chooser = random.Random(seed)
    replies = 0
    while replies < most_moves:
        sweep()
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return replies
        player = player_to_move(game)
        email = current_turn_email(smtp, game, player)
        moves = moves_in(email)
        number = chooser.randrange(len(moves))
        written = str(number + 1) if replies % 2 else moves[number]
        raw = fixture_reply(
            CLIENTS[replies % len(CLIENTS)],
            FROM=player.email,
            TO=str(email["Reply-To"]),
            MOVE=written,
            MESSAGE_ID=f"<{uuid.uuid4().hex}@client.example>",
        )
        outcome = mail.reply_receive(raw=raw)
        assert outcome == f"played {moves[number]}", outcome
        replies += 1
    return replies


@pytest.mark.parametrize("kind", ["azul", "summer-pavilion"])
@pytest.mark.django_db(transaction=True)
def test_a_two_player_game_is_played_to_the_end_by_email_alone(kind, alice, bob, smtp):
    game = start_game(alice, bob, game=kind)
    replies = play_by_email(game, smtp, seed=7, most_moves=1000)
    sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winners
    assert replies > 20
    for player in (alice, bob):
        (over,) = of_kind(smtp.to(player.email), "game_over")
        assert "Winner" in over.get_body(preferencelist=("plain",)).get_content()


@pytest.mark.django_db(transaction=True)
def test_miyabi_moves_by_email_show_the_garden(alice, bob, smtp):
    game = start_game(alice, bob, game="miyabi")
    assert play_by_email(game, smtp, seed=3, most_moves=6) == 6
    sweep()
    game.refresh_from_db()
    player = player_to_move(game)
    text = current_turn_email(smtp, game, player).get_body(preferencelist=("plain",))
    assert "Centre:" in text.get_content() and moves_in(current_turn_email(smtp, game, player))
