"""Conditional moves by email (issue 32): a reply to a turn email gives the move and, on
rows starting with "plan:", the lines of the player's plan for the moves after it. The
plan is kept and confirmed to the player alone, or refused with the line and move at
fault; a row of the plan is never read as the move."""

import uuid

import pytest
from django.utils import translation

from games import repository
from games.mail import services as mail
from games.models import NoticeKind, Outbox, Plan
from games.services.sweep import sweep
from tests.games.test_services_plans import factory_move, legal_after
from tests.mail.conftest import body_of, fixture_reply, of_kind, player_to_move, start_game
from tests.mail.test_play_by_email import current_turn_email

pytestmark = pytest.mark.django_db(transaction=True)


def legal_now(game) -> list[str]:
    table = repository.game_table(game)
    return [table.engine.format(c) for c in table.engine.legal_commands(table.state)]


def reply(email, player, written: str) -> str:
    raw = fixture_reply(
        "thunderbird.eml",
        FROM=player.email,
        TO=str(email["Reply-To"]),
        MOVE=written,
        MESSAGE_ID=f"<{uuid.uuid4().hex}@client.example>",
    )
    return mail.reply_receive(raw=raw)


def test_a_reply_plays_its_move_and_keeps_the_plan_rows_for_the_moves_after_it(alice, bob, smtp):
    game = start_game(alice, bob)
    sweep()
    player = player_to_move(game)
    mine = factory_move(legal_now(game))
    theirs = factory_move(legal_after(game, mine), mine)
    answer = factory_move(legal_after(game, mine, theirs), theirs)
    # A one-move row reads as a move too: the plan row must not be taken for the move.
    written = f"plan: {theirs.lower()}; {answer}\n{mine}"

    outcome = reply(current_turn_email(smtp, game, player), player, written)

    assert outcome.startswith(f"played {mine}; plan: "), outcome
    assert Plan.objects.get(game=game).lines == [[theirs, answer]]
    sweep()
    confirmed = of_kind(smtp.to(player.email), NoticeKind.MOVE_CONFIRMED)[-1]
    assert "Your plan is kept: 1 line. Nobody else can see it." in body_of(confirmed)
    other = bob if player == alice else alice
    assert smtp.to(other.email), "the other player was told of the move"
    for message in smtp.to(other.email):
        body = " ".join(body_of(message).split())
        assert "Your plan" not in body and f"{theirs}; {answer}" not in body


def test_a_plan_row_that_cannot_be_played_is_refused_in_the_confirmation(alice, bob, smtp):
    game = start_game(alice, bob)
    sweep()
    player = player_to_move(game)
    mine = factory_move(legal_now(game))

    outcome = reply(current_turn_email(smtp, game, player), player, f"{mine}\nplan: F9 purple 1")

    assert outcome.startswith(f"played {mine}; plan: ")
    assert not Plan.objects.exists()
    sweep()
    confirmed = of_kind(smtp.to(player.email), NoticeKind.MOVE_CONFIRMED)[-1]
    said = " ".join(body_of(confirmed).split())
    assert 'Your plan was not kept: line 1, move 1: cannot read "F9 purple 1"' in said
    assert Outbox.objects.filter(kind=NoticeKind.MOVE_CONFIRMED).count() == 1


def test_a_plan_row_starts_with_plan_or_the_word_of_the_readers_language():
    with translation.override("pt"):
        assert mail._plan_line("Plano: F1 blue 3; F2 red 1") == "F1 blue 3; F2 red 1"
        assert mail._plan_line("plan:F1 blue 3") == "F1 blue 3"
        assert mail._plan_line("My move: F1 blue 3") is None
        assert mail._plan_line("F1 blue 3") is None
