"""The seam after every append (``games.services.reactions``): each reaction on its own,
over a ``Change`` built from a real game's events, and the order they run in."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import table as tbl
from games.models import Analysis, Game, GameResult, NoticeKind, Outbox, Seat
from games.repository import game_table, records
from games.services import reactions
from games.services.common import act, locked_game
from games.services.deadlines import game_timeout
from games.services.moves import game_resign, takeback_request
from games.services.tables import game_create
from games.table_events import Moved, TakebackRequested
from tests.games.helpers import every_player_moved, play, started, to_move

pytestmark = pytest.mark.django_db


def change_of(
    game: Game, *, after_seq: int, by=None, voided=None, reason: str = ""
) -> reactions.Change:
    """What the events after ``after_seq`` did to ``game``, as the write path hands it on."""
    game = locked_game(game.pk)
    before = game_table(game, upto=after_seq)
    appended = tuple(records(game, after=after_seq))
    return reactions.Change(
        game, before, game_table(game), appended, by, timezone.now(), voided=voided, reason=reason
    )


def notices(game: Game, kind: str) -> list[str]:
    rows = Outbox.objects.filter(game=game, kind=kind, cancelled_at__isnull=True)
    return sorted(rows.values_list("recipient", flat=True))


def test_the_reactions_run_in_order_projections_first_notices_last():
    assert [reaction.__name__ for reaction in reactions.REACTIONS] == [
        "read_model",
        "seat_rows",
        "ratings",
        "analysis_asked",
        "turn_notices_withdrawn",
        "computer_player_queued",
        "plans_followed",
        "game_notices",
        "timeout_notices",
        "takeback_notices",
        "news_told",
        "tournament_moved_on",
    ]


def test_the_read_model_follows_the_table(alice, bob):
    game = started("azul", alice, bob)
    seq = game.last_seq
    play(game)
    game.refresh_from_db()
    expected = (game.last_seq, game.to_move, game.scores)
    Game.objects.filter(pk=game.pk).update(last_seq=seq, to_move=None, scores=[])
    reactions.read_model(change_of(game, after_seq=seq))
    game.refresh_from_db()
    assert (game.last_seq, game.to_move, game.scores) == expected


def test_a_game_that_ends_goes_into_the_ratings_and_asks_for_its_analysis(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    seq = game.last_seq

    game_resign(game=game, user=bob)
    GameResult.objects.filter(game=game).delete()
    Analysis.objects.filter(game=game).delete()
    change = change_of(game, after_seq=seq)
    assert change.ended
    reactions.ratings(change)
    assert GameResult.objects.filter(game=game).exists()
    reactions.analysis_asked(change)
    assert Analysis.objects.get(game=game).status == Analysis.Status.QUEUED


def test_a_move_taken_back_withdraws_its_turn_notice_before_it_leaves(alice, bob):
    game = started("azul", alice, bob)
    seq = game.last_seq
    play(game)
    game.refresh_from_db()
    waiting = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN, key=game.last_seq)
    reactions.turn_notices_withdrawn(change_of(game, after_seq=game.last_seq, voided=seq))
    waiting.refresh_from_db()
    assert waiting.cancelled_at is not None
    assert waiting.withdrawn_because == "the move was taken back"
    assert waiting.last_error == ""


@pytest.fixture
def asked(monkeypatch) -> list:
    """The tasks the reactions asked a worker for, instead of a broker."""
    sent = []
    monkeypatch.setattr(
        reactions, "send_quickly", lambda name, args, **kw: sent.append((name, args)) or True
    )
    return sent


def against_the_computer(alice) -> Game:
    game = game_create(creator=alice, game="azul", players=2, bots=["easy"])
    game.refresh_from_db()
    return game


def test_a_computer_player_to_move_is_asked_to_play_once_the_change_commits(
    alice, asked, django_capture_on_commit_callbacks
):
    game = against_the_computer(alice)
    seq = 0  # the start, when the computer player moves first
    if to_move(game) == alice:
        seq = game.last_seq
        play(game)
    with django_capture_on_commit_callbacks(execute=True):
        reactions.computer_player_queued(change_of(game, after_seq=seq))
    assert asked == [("games.tasks.bot_move", [game.pk])]


def test_a_computer_player_whose_move_leaves_it_to_move_is_asked_again_at_once(
    alice, asked, django_capture_on_commit_callbacks
):
    game = against_the_computer(alice)
    if to_move(game) == alice:
        play(game)
    game = locked_game(game.pk)
    table = game_table(game)
    its_own = tbl.Record(table.last_seq, Moved(game.to_move, "", {}), "bot:easy")
    same_seat = reactions.Change(game, table, table, (its_own,), None, timezone.now())
    assert not same_seat.turn_passed
    with django_capture_on_commit_callbacks(execute=True):
        reactions.computer_player_queued(same_seat)
    assert asked == [("games.tasks.bot_move", [game.pk])]


def test_the_start_is_told_to_every_player_but_the_one_who_started_it(alice, bob, carol):
    game = started("azul", alice, bob, carol)
    Outbox.objects.filter(game=game).delete()
    reactions.game_notices(change_of(game, after_seq=0, by=carol.pk))
    assert notices(game, NoticeKind.GAME_STARTED) == [alice.email, bob.email]


def test_the_end_is_told_to_every_player_but_the_one_who_ended_it(alice, bob):

    game = every_player_moved(started("azul", alice, bob))
    seq = game.last_seq
    game_resign(game=game, user=bob)
    Outbox.objects.filter(game=game).delete()
    reactions.game_notices(change_of(game, after_seq=seq, by=bob.pk))
    assert notices(game, NoticeKind.GAME_OVER) == [alice.email]


def test_a_new_seat_to_move_is_told_after_the_grace_period(alice, bob, settings):
    settings.YOUR_TURN_GRACE_SECONDS = 120
    game = started("azul", alice, bob)
    seq = game.last_seq
    play(game)
    Outbox.objects.filter(game=game).delete()
    reactions.game_notices(change_of(game, after_seq=seq))
    row = Outbox.objects.get(game=game, kind=NoticeKind.YOUR_TURN)
    assert row.user == to_move(game) and row.recipient == to_move(game).email
    assert 100 < (row.due_at - row.created_at).total_seconds() <= 120


def test_a_takeback_request_is_told_to_the_other_players(alice, bob, carol):

    game = started("azul", alice, bob, carol)
    mover = to_move(game)
    point = game.last_seq
    play(game)
    game.refresh_from_db()
    seq = game.last_seq
    request = takeback_request(game=game, user=mover, to_seq=point)
    Outbox.objects.filter(game=game).delete()
    change = change_of(game, after_seq=seq, by=mover.pk)
    assert change.events(TakebackRequested)[0].request == request
    reactions.takeback_notices(change)
    others = sorted(user.email for user in (alice, bob, carol) if user != mover)
    assert notices(game, NoticeKind.TAKEBACK_REQUEST) == others


def test_the_seat_rows_follow_a_resignation_and_a_seat_given_to_a_computer(alice, bob, carol):
    game = started("azul", alice, bob, carol)
    seq = game.last_seq
    game_resign(game=game, user=bob)
    Seat.objects.filter(game=game, user=bob).update(status=Seat.Status.JOINED)
    reactions.seat_rows(change_of(game, after_seq=seq))
    assert game.seats.get(user=bob).status == Seat.Status.RESIGNED
    carols = game.seats.get(user=carol).position
    seq = Game.objects.get(pk=game.pk).last_seq
    act(locked_game(game.pk), tbl.ReplaceSeat(carols, "bot:easy"), actor="system")
    seat = game.seats.get(position=carols)
    assert (seat.user_id, seat.bot) == (None, "easy")
    Seat.objects.filter(pk=seat.pk).update(user=carol, bot="")
    reactions.seat_rows(change_of(game, after_seq=seq))
    seat.refresh_from_db()
    assert (seat.user_id, seat.bot) == (None, "easy")


def test_a_timeout_is_told_once_the_policy_has_played_the_turn(alice, bob):
    game = started("azul", alice, bob, time_control={"kind": "per_move", "days": 1})
    late, seq = to_move(game), game.last_seq
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    (told,) = Outbox.objects.filter(game=game, kind=NoticeKind.TIMEOUT)
    assert told.recipient == late.email and told.payload["move"]
    told.delete()
    reactions.timeout_notices(change_of(game, after_seq=seq, reason=tbl.TIME_RAN_OUT))
    assert notices(game, NoticeKind.TIMEOUT) == [late.email]
    # A move that is not a time-out policy's is told nothing of the kind.
    Outbox.objects.filter(game=game, kind=NoticeKind.TIMEOUT).delete()
    reactions.timeout_notices(change_of(game, after_seq=seq))
    assert notices(game, NoticeKind.TIMEOUT) == []


def test_a_forfeit_on_timeout_is_told_to_the_player_who_forfeited(alice, bob):
    game = started(
        "azul",
        alice,
        bob,
        time_control={"kind": "per_move", "days": 1},
        timeout_policy=Game.TimeoutPolicy.FORFEIT,
    )
    late = to_move(game)
    game_timeout(game_id=game.pk, now=game.deadline + timedelta(minutes=1))
    assert notices(game, NoticeKind.TIMEOUT) == [late.email]
    assert game.seats.get(user=late).status == Seat.Status.RESIGNED
