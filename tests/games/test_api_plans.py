"""Conditional moves (issue 32) through the REST API: your plan read, replaced and deleted,
clear 400s for lines that cannot be played, a line played when the opponent moves into it,
and a plan nobody but its player ever sees — not the opponent's API, events, export,
replay, game page or emails."""

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Outbox, Plan
from games.notify.channels.email.render import message
from tests.games.api_helpers import client_for, moderator_user, post, url
from tests.games.helpers import legal, started
from tests.games.test_services_plans import (
    factory_move,
    legal_after,
    played,
    two_move_line,
    waiting,
    worker,  # noqa: F401 (a fixture)
)

pytestmark = pytest.mark.django_db


def put_plan(user, game, **body):
    return client_for(user).put(url(game, "plan"), body, format="json")


def test_a_plan_is_replaced_read_and_deleted_through_the_api(alice, bob):
    game = started("azul", alice, bob)
    planner, _opponent = waiting(game)
    line = two_move_line(game)
    typed = [step.lower().replace("f", "factory ", 1) for step in line]

    replaced = put_plan(
        planner, game, lines=[typed], next_move="f2 BLUE 4", expected_seq=game.last_seq
    )

    assert replaced.status_code == 200, replaced.json()
    seat = game.seats.get(user=planner).position
    body = {"seat": seat, "lines": [line], "next_move": "F2 blue 4", "at_seq": game.last_seq}
    assert replaced.json() == body
    assert client_for(planner).get(url(game, "plan")).json() == replaced.json()
    assert client_for(planner).delete(url(game, "plan")).status_code == 204
    assert client_for(planner).get(url(game, "plan")).json()["lines"] == []
    assert not Plan.objects.exists()


def test_a_line_that_cannot_be_played_is_a_400_naming_the_line_the_move_and_what_is_accepted(
    alice, bob
):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    theirs = factory_move(legal(game))

    refused = put_plan(planner, game, lines=[[theirs, "C purple floor"]])

    assert refused.status_code == 400
    body = refused.json()
    assert (body["code"], body["reason"], body["line"], body["step"]) == (
        "invalid_plan",
        "unreadable",
        1,
        2,
    )
    assert body["message"].startswith('line 1, move 2: cannot read "C purple floor"')
    assert set(body["accepted"]) <= set(legal_after(game, theirs)) and body["accepted"]
    on_their_turn = put_plan(opponent, game, lines=[], next_move="F1 blue 1")
    assert on_their_turn.status_code == 409 and on_their_turn.json()["code"] == "your_turn"
    not_lines = put_plan(planner, game, lines="F1 blue 1; F2 red 2")
    assert not_lines.status_code == 400 and not_lines.json()["field"] == "lines"
    stale = put_plan(planner, game, lines=[], next_move="F1 blue 1", expected_seq=0)
    assert stale.status_code == 409 and stale.json()["code"] == "stale"


def test_only_the_seats_player_reaches_its_plan(alice, bob, carol):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    line = two_move_line(game)[:2]
    assert put_plan(planner, game, lines=[line]).status_code == 200

    assert client_for(opponent).get(url(game, "plan")).json()["lines"] == []
    assert client_for(opponent).delete(url(game, "plan")).status_code == 204
    assert client_for(carol).get(url(game, "plan")).status_code == 403
    assert put_plan(carol, game, lines=[line]).status_code == 403
    assert client_for().get(url(game, "plan")).status_code == 401
    assert Plan.objects.get(game=game).lines == [line]


def test_a_two_move_line_stored_by_the_api_is_played_as_the_opponent_moves_through_it(
    alice,
    bob,
    worker,  # noqa: F811
):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    line = two_move_line(game)
    assert put_plan(planner, game, lines=[line]).status_code == 200

    for expected in (line[0], line[2]):
        answered = worker(post, client_for(opponent), url(game, "moves"), {"move": expected})
        assert answered.status_code == 201, answered.json()

    assert [move for move, _actor in played(game)] == line
    assert [actor for _move, actor in played(game)][1::2] == [f"plan:{planner.pk}"] * 2
    assert not Plan.objects.exists()


def texts_seen_by(user, game) -> str:
    """Everything the API, the pages and the emails show ``user`` about ``game``."""
    api = client_for(user)
    page = Client()
    page.force_login(user)
    seen = [
        api.get(url(game)).content,
        api.get(url(game, "state")).content,
        api.get(url(game, "events")).content,
        api.get(url(game, "export")).content,
        page.get(f"/games/{game.pk}/").content,
        page.get(f"/games/{game.pk}/replay/").content,
    ]
    said = [part.decode() for part in seen]
    for row in Outbox.objects.filter(recipient=user.email):
        email = message(row, timezone.now())
        said += [email.subject, email.body, *(body for body, _type in email.alternatives)]
    return "\n".join(said)


def test_nobody_but_its_player_ever_sees_a_plan(alice, bob, carol, worker):  # noqa: F811
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    first = next(
        m
        for m in legal(game)
        if m.startswith("F") and any(x.startswith("C") for x in legal_after(game, m))
    )
    # Answers from the centre: no move of the opponent's can be written the same way yet.
    centre = next(m for m in legal_after(game, first) if m.startswith("C") and m.endswith("floor"))
    second = factory_move(legal_after(game, first, centre), first)
    # The line's last answer: never played, so never in the game's public record.
    last = next(
        m for m in legal_after(game, first, centre, second) if m not in (first, centre, second)
    )
    assert put_plan(planner, game, lines=[[first, centre, second, last]]).status_code == 200
    moderator = moderator_user()

    for looking in (opponent, moderator):
        seen = texts_seen_by(looking, game)
        assert centre not in seen
        assert "Plan your answers" not in seen and 'id="plan' not in seen
    assert "Plan your answers" in texts_seen_by(planner, game)
    admin = Client()
    admin.force_login(moderator)
    moderating = admin.get(f"/admin/games/game/{game.pk}/change/").text
    # Moderators learn that there is a plan, never what it is.
    assert "Has conditional moves" in moderating and 'alt="True"' in moderating
    assert centre not in moderating
    assert centre in texts_seen_by(planner, game)

    worker(post, client_for(opponent), url(game, "moves"), {"move": first})
    assert played(game)[-1] == (centre, f"plan:{planner.pk}")
    seen = texts_seen_by(opponent, game)
    # The answer played is an ordinary move of the game; the rest of the line is not.
    assert centre in seen
    assert Plan.objects.get(game=game).lines == [[second, last]]
    for looking in (opponent, moderator):
        seen = texts_seen_by(looking, game)
        api = client_for(looking)
        for public in ("events", "export"):
            assert last not in api.get(url(game, public)).content.decode()
        assert "plan-lines" not in seen and "lines" not in api.get(url(game)).json()
