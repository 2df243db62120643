"""Planning a line by clicking (conditional moves, issue 32) without a browser: the
analysis board of the player who waits shows the position after the line so far with the
moves of whoever is to move there, adds the move picked, offers "Add this line" (with the
plan's other lines kept) once the line ends with the player's answer, says why a move
cannot be played, starts again when the game moved on, and is for the waiting player
only."""

import json
import random

from django.utils.html import escape

from games import repository
from games.selectors.seats import plan_of
from games.services.plans import plan_replace
from tests.games.helpers import legal
from tests.games.test_services_plans import factory_move, legal_after, waiting
from tests.web.helpers import play_moves, started_game


def board(client, game, **params):
    return client.get(f"/games/{game.pk}/plan/board/", {"seq": game.last_seq, **params})


def offered(page) -> list[str]:
    data = page.text.split('<script id="legal-moves" type="application/json">')[1]
    return [m[0] for m in json.loads(data.split("</script>")[0])["moves"]]


def test_each_move_picked_is_added_and_a_line_ending_with_an_answer_can_be_added(
    client, alice, bob
):
    game = started_game(alice, bob, game="azul")
    planner, _mover = waiting(game)
    theirs = factory_move(legal(game))
    mine = factory_move(legal_after(game, theirs), theirs)
    other = factory_move(legal(game), theirs)
    plan_replace(
        game=game, user=planner, lines=[[other, factory_move(legal_after(game, other), other)]]
    )
    client.force_login(planner)

    start = board(client, game)
    assert start.status_code == 200 and "No move yet" in start.text
    assert offered(start) == legal(game) and 'id="plan-add"' not in start.text

    expected = board(client, game, move=theirs)
    assert f"they: <code>{theirs}</code>" in expected.text
    assert "Next: your answer." in expected.text
    assert offered(expected) == legal_after(game, theirs)
    assert 'id="plan-add"' not in expected.text

    answered = board(client, game, line=theirs, move=mine)
    assert f"you: <code>{mine}</code>" in answered.text
    kept = plan_of(game, planner).lines
    lines = "\n".join("; ".join(line) for line in [*kept, [theirs, mine]])
    assert f'name="lines" value="{escape(lines)}"' in answered.text


def test_a_move_that_cannot_be_played_ends_the_line_before_it_and_says_why(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, _mover = waiting(game)
    theirs = factory_move(legal(game))
    client.force_login(planner)
    refused = board(client, game, line=theirs, typed="F9 purple 2")
    assert "Line 1, move 2: cannot read" in refused.text
    assert (
        f"they: <code>{theirs}</code>" in refused.text and "F9 purple 2</code>" not in refused.text
    )
    assert offered(refused) == legal_after(game, theirs)


def test_a_line_begun_before_the_game_moved_on_starts_again(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    planner, _mover = waiting(game)
    client.force_login(planner)
    stale = client.get(
        f"/games/{game.pk}/plan/board/",
        {"seq": game.last_seq + 1, "line": factory_move(legal(game))},
    )
    assert "The game moved on since" in stale.text and "No move yet" in stale.text


def test_only_the_player_who_waits_gets_the_analysis_board(client, alice, bob, carol):
    game = started_game(alice, bob, game="azul")
    _planner, mover = waiting(game)
    for user in (mover, carol):
        client.force_login(user)
        page = board(client, game)
        assert page.status_code == 302 and page.url == f"/games/{game.pk}/"
    client.logout()
    assert "/signin/" in board(client, game).url


def test_a_line_ends_where_new_tiles_are_drawn(client, alice, bob):
    game = started_game(alice, bob, game="azul")
    for _ in range(40):
        table = repository.game_table(game)
        engine = table.engine
        drawing = [
            engine.format(command)
            for command in engine.legal_commands(table.state)
            if any(
                engine.is_barrier(event)
                for event in engine.decide_and_evolve(table.state, command, random.Random(0))[0]
            )
        ]
        if drawing:
            break
        play_moves(game, (alice, bob), 1)
    planner, _mover = waiting(game)
    client.force_login(planner)
    ended = board(client, game, move=drawing[0])
    assert "The line ends here" in ended.text
    assert 'id="legal-moves"' not in ended.text and 'id="plan-add"' not in ended.text
