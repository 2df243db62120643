"""Opening a table: invitations, joining, leaving, cancelling, and the start."""

import pytest

from events import store
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, NoticeKind, Outbox, Seat
from games.services.tables import game_cancel, game_create, game_join, game_leave, invitation_seat
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_creating_a_game_seats_the_creator_invites_by_email_and_leaves_seats_open(alice):
    game = game_create(
        creator=alice, game="azul", players=3, invite=["Bob@Example.com"], options={"wall": "grey"}
    )
    seats = list(game.seats.order_by("pk"))
    assert [(s.status, s.user, s.invited_email) for s in seats] == [
        ("joined", alice, ""),
        ("invited", None, "bob@example.com"),
        ("open", None, ""),
    ]
    assert game.options == {"wall": "grey"} and game.status == Game.Status.OPEN
    invitation = Outbox.objects.get(kind=NoticeKind.INVITATION)
    assert invitation.recipient == "bob@example.com"
    assert invitation_seat(invitation.payload["token"]) == seats[1]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"game": "chess"}, "invalid_game"),
        ({"players": 5}, "invalid_players"),
        ({"players": "2"}, "invalid_players"),
        ({"options": {"wall": "purple"}}, "invalid_options"),
        ({"options": {"board": "grey"}}, "invalid_options"),
        ({"time_control": {"kind": "per_move", "days": 4}}, "invalid_time_control"),
        (
            {
                "time_control": {
                    "kind": "bank",
                    "bank_hours": 200,
                    "increment_hours": 1,
                    "cap_hours": 100,
                }
            },
            "invalid_time_control",
        ),
        ({"time_control": {"kind": "blitz"}}, "invalid_time_control"),
        ({"invite": ["not an address"]}, "invalid_invitation"),
        ({"invite": ["alice@example.com"]}, "invalid_invitation"),
        ({"invite": ["b@example.com", "c@example.com"]}, "too_many_invitations"),
    ],
)
def test_bad_game_settings_are_refused_with_what_is_accepted(alice, changes, code):
    settings = {"game": "azul", "players": 2, **changes}
    with pytest.raises(BadRequest) as refused:
        game_create(creator=alice, **settings)
    assert refused.value.code == code and refused.value.message
    assert not Game.objects.exists()


def test_the_game_starts_when_the_last_seat_is_taken_with_a_shuffled_order(alice, bob, carol):
    game = game_create(
        creator=alice, game="summer-pavilion", players=3, invite=["carol@example.com"]
    )
    game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and not store.load(game.stream)
    token = Outbox.objects.get(kind="invitation").payload["token"]
    game_join(game=game, user=carol, token=token)
    game.refresh_from_db()
    first, *rules = store.load(game.stream)
    assert first.type == "table.Started"
    seats = {s.position: f"user:{s.user_id}" for s in game.seats.all()}
    assert first.data["players"] == [seats[0], seats[1], seats[2]]
    assert rules[0].type == "summer_pavilion.GameStarted"
    assert game.status == Game.Status.ACTIVE and game.to_move is not None
    assert game.last_seq == len(rules) + 1
    started = Outbox.objects.filter(kind="game_started").values_list("recipient", flat=True)
    assert sorted(started) == [alice.email, bob.email], "Carol sees it start: she joined last"
    assert Outbox.objects.filter(kind="your_turn").count() == 1


def test_an_invited_seat_is_kept_for_its_address_and_open_seats_for_anyone(alice, bob, carol):
    game = game_create(creator=alice, game="azul", players=2, invite=["bob@example.com"])
    with pytest.raises(Conflict) as refused:
        game_join(game=game, user=carol)
    assert refused.value.code == "no_seat"
    game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_forged_invitation_token_is_refused(alice, bob):
    game = game_create(creator=alice, game="azul", players=2, invite=["x@example.com"])
    with pytest.raises(NotFound):
        game_join(game=game, user=bob, token="forged:token")


def test_joining_twice_or_a_started_game_is_refused(alice, bob, carol):
    game = game_create(creator=alice, game="azul", players=3)
    game_join(game=game, user=bob)
    with pytest.raises(Conflict, match="already have a seat"):
        game_join(game=game, user=bob)
    game_join(game=game, user=carol)
    with pytest.raises(Conflict, match="no longer waiting"):
        game_join(game=game, user=make_user("dave"))


def test_players_may_leave_before_the_start_and_the_creator_may_cancel(alice, bob, carol):
    game = game_create(creator=alice, game="azul", players=3)
    game_join(game=game, user=bob)
    game_leave(game=game, user=bob)
    assert game.seats.filter(status=Seat.Status.OPEN).count() == 2
    with pytest.raises(Conflict):
        game_leave(game=game, user=alice)
    with pytest.raises(Forbidden):
        game_cancel(game=game, user=carol)
    game_cancel(game=game, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    with pytest.raises(Conflict):
        game_join(game=game, user=carol)
