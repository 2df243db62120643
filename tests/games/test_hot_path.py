"""The move path's queries compiled once (``games.prepared``): they read and write what the
ORM would, a client's API calls authenticate as DRF's would, and the legal-moves poll
costs two statements. Writes held together (``writes_together``) land when their block
ends, all or none."""

import pytest
from django.db import DatabaseError, transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import repository
from games.errors import NotFound
from games.models import Game, Seat
from games.prepared import save_fields, write, writes_together
from games.services.common import locked_game
from tests.games.api_helpers import url
from tests.games.helpers import started, to_move

pytestmark = pytest.mark.django_db


def token_client(user, **headers) -> APIClient:
    client = APIClient(**headers)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_the_locked_read_gives_the_game_seats_players_and_clocks_the_orm_gives(alice, bob, carol):
    timed = started("azul", alice, bob, time_control={"kind": "per_move", "days": 3})
    other = started("miyabi", bob, carol)
    for game in (timed, other):
        expected = list(
            Seat.objects.select_related("game", "user", "clock")
            .filter(game=game)
            .order_by("position", "pk")
        )
        with transaction.atomic():
            locked = locked_game(game.pk)
        seats = list(locked.seats.all())
        assert [s.pk for s in seats] == [s.pk for s in expected]
        for seat, orm in zip(seats, expected, strict=True):
            assert seat.game is locked and seat.user == orm.user
            assert seat.user.email == orm.user.email and seat.position == orm.position
            assert hasattr(seat, "clock") == hasattr(orm, "clock")
            if hasattr(orm, "clock"):
                assert seat.clock.bank_seconds == orm.clock.bank_seconds
        assert (locked.game_type, locked.options, locked.scores) == (
            game.game_type,
            Game.objects.get(pk=game.pk).options,
            Game.objects.get(pk=game.pk).scores,
        )
        assert locked.time_control == Game.objects.get(pk=game.pk).time_control


def test_the_viewers_read_answers_the_seats_without_another_query(
    alice, bob, django_assert_num_queries
):
    game = started("azul", alice, bob)
    with django_assert_num_queries(1):
        read = repository.game_with_seats(game.pk)
        assert {seat.user.email for seat in read.seats.all()} == {alice.email, bob.email}
    with pytest.raises(NotFound):
        repository.game_with_seats(10**30)


def test_save_fields_writes_those_fields_only(alice, bob):
    game = started("azul", alice, bob)
    game.scores = [7, 3]
    game.private = not game.private
    save_fields(game, ["scores"])
    stored = Game.objects.get(pk=game.pk)
    assert stored.scores == [7, 3] and stored.private != game.private


def test_a_token_authenticates_as_drf_would_and_refuses_the_same_way(alice, bob):
    game = started("azul", alice, bob)
    assert token_client(alice).get(url(game, "legal-moves")).status_code == 200
    unknown = APIClient()
    unknown.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    answer = unknown.get(url(game, "legal-moves"), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 401 and answer.json()["message"].startswith("Invalid token.")
    polish = unknown.get(url(game, "legal-moves"), HTTP_ACCEPT_LANGUAGE="pl")
    assert polish.status_code == 401 and not polish.json()["message"].startswith("Invalid token.")
    suspended = token_client(bob)
    bob.is_active = False
    bob.save()
    answer = suspended.get(url(game, "legal-moves"))
    assert answer.status_code == 401 and answer.json()["message"].startswith(
        "User inactive or deleted."
    )


@pytest.mark.django_db(transaction=True)
def test_polling_the_legal_moves_costs_two_statements(alice, bob, django_assert_num_queries):
    """The caller and their token; the game with its seats and players."""
    game = started("summer-pavilion", alice, bob)
    client = token_client(to_move(game))
    repository.game_table(Game.objects.get(pk=game.pk))  # a running site has it cached
    with django_assert_num_queries(2):
        answer = client.get(url(game, "legal-moves"))
    assert answer.status_code == 200 and answer.json()["moves"]


def test_held_writes_land_when_their_block_ends_and_the_orm_runs_as_usual_inside(alice, bob, carol):
    game, other = started("azul", alice, bob), started("miyabi", bob, carol)
    seat = game.seats.get(user=bob)
    with transaction.atomic():
        with writes_together():
            game.scores = [7, 3]
            save_fields(game, ["scores"])
            with writes_together():
                write("UPDATE games_game SET private = %s WHERE id = %s", [True, other.pk])
            assert Game.objects.get(pk=game.pk).scores != [7, 3]
            # An UPDATE by the ORM, which reads its row count, is not held.
            seat.status = Seat.Status.RESIGNED
            seat.save()
            assert Seat.objects.get(pk=seat.pk).status == Seat.Status.RESIGNED
        assert Game.objects.get(pk=game.pk).scores == [7, 3]
        assert Game.objects.get(pk=other.pk).private
    assert Seat.objects.filter(game=game).count() == 2


def test_a_block_that_raises_drops_its_held_writes(alice, bob):
    game, other = started("azul", alice, bob), started("miyabi", alice, bob)
    with pytest.raises(ZeroDivisionError), writes_together():
        write("UPDATE games_game SET private = %s WHERE id = %s", [True, game.pk])
        write("UPDATE games_game SET private = %s WHERE id = %s", [True, other.pk])
        1 / 0  # noqa: B018
    assert not Game.objects.filter(private=True).exists()


def test_a_held_write_that_fails_raises_at_the_end_and_its_transaction_keeps_nothing(alice, bob):
    """History is refused by the database itself: such a write fails when it is sent."""
    game = started("azul", alice, bob)
    with pytest.raises(DatabaseError), transaction.atomic(), writes_together():
        write("UPDATE games_game SET private = %s WHERE id = %s", [True, game.pk])
        write("UPDATE events_event SET type = 'rewritten' WHERE stream = %s", [game.stream])
        assert not Game.objects.get(pk=game.pk).private
    assert not Game.objects.get(pk=game.pk).private
    assert not repository.stored_events(game)[0].type.endswith("rewritten")
