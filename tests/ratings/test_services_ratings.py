"""The ratings projection: the library's numbers, what counts, game-end order, and that a
rebuild from the events gives exactly what the live path wrote."""

from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from openskill.models import PlackettLuce

from games.models import Game, GameResult, Rating, RatingChange, ResultSeat
from games.selectors.access import MODERATORS_GROUP
from games.services.moderation import moderate_abort
from games.services.moves import game_resign
from games.services.ratings import (
    MODEL,
    display_rating,
    placings,
    ratings_game_finished,
    uncertainty,
)
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, play_to_end, started
from tests.ratings.helpers import (
    aborted_after_finish,
    finished,
    reverted_after_finish,
    seat_taken_by_bot,
    timed_out,
)

pytestmark = pytest.mark.django_db


def rating(user, game="azul") -> tuple[float, float, int]:
    row = Rating.objects.get(user=user, game_type=game)
    return row.mu, row.sigma, row.games


def snapshot() -> tuple[list, list]:
    ratings = sorted(
        Rating.objects.values_list("user_id", "game_type", "mu", "sigma", "display", "games")
    )
    changes = sorted(
        RatingChange.objects.values_list("result_id", "user_id", "mu_before", "mu", "sigma")
    )
    return ratings, changes


def test_the_pinned_library_gives_its_documented_numbers():
    """openskill's manual: "p1: mu=26.964294621803063, sigma=8.177962604389991" for the
    winners of a first two-against-two match, 23.035705378196937 for the losers, and
    ordinals 2.4304068086330872 and -1.4981824349730388."""
    model = PlackettLuce()
    match = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[p1, p2], [p3, p4]] = model.rate(match)
    assert (p1.mu, p1.sigma) == (26.964294621803063, 8.177962604389991)
    assert (p3.mu, p3.sigma) == (23.035705378196937, 8.177962604389991)
    assert p1.ordinal() == 2.4304068086330872
    assert p3.ordinal() == -1.4981824349730388


def test_a_known_sequence_of_results_gives_the_library_numbers(alice, bob, carol):
    finished("azul", alice, bob)
    # The library's answer for a first game between two newcomers (PlackettLuce defaults).
    assert rating(alice) == (27.635389493140497, 8.06590141354368, 1)
    assert rating(bob) == (22.364610506859503, 8.06590141354368, 1)
    # Carol wins; bob resigns first, so he is third and alice second.
    finished("azul", carol, bob, alice)
    expected = {user.pk: [MODEL.rating()] for user in (alice, bob, carol)}
    for order in ((alice, bob), (carol, alice, bob)):
        teams = [[MODEL.create_rating([r.mu, r.sigma])] for u in order for r in expected[u.pk]]
        rated = MODEL.rate(teams, ranks=list(range(1, len(order) + 1)))
        for user, [after] in zip(order, rated, strict=True):
            expected[user.pk] = [after]
    for user in (alice, bob, carol):
        mu, sigma, _ = rating(user)
        assert (mu, sigma) == (expected[user.pk][0].mu, expected[user.pk][0].sigma)
    assert rating(alice)[2] == 2 and rating(carol)[2] == 1
    row = Rating.objects.get(user=carol, game_type="azul")
    assert row.display == display_rating(row.mu, row.sigma)


def test_ladders_are_per_game(alice, bob):
    finished("azul", alice, bob)
    finished("miyabi", bob, alice)
    assert rating(alice, "azul")[0] > 25 > rating(alice, "miyabi")[0]


def test_unrated_games_and_games_with_a_bot_do_not_count(alice, bob):
    finished("azul", alice, bob, rated=False)
    with_bot = every_player_moved(started("azul", alice, bob))
    seat_taken_by_bot(with_bot, seat=0)
    human = with_bot.seats.get(position=1).user
    game_resign(game=with_bot, user=human)
    with_bot.refresh_from_db()
    assert with_bot.status == Game.Status.FINISHED
    excluded = dict(GameResult.objects.values_list("game_id", "excluded"))
    assert sorted(excluded.values()) == ["bot", "unrated"]
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    # Both still appear in the archive and the players' counts; the bot's seat has no user.
    assert ResultSeat.objects.filter(user__isnull=False).count() == 3
    assert ResultSeat.objects.get(user__isnull=True).actor == "bot:greedy"


def test_a_cancelled_or_aborted_game_has_no_result(alice, bob, moderator):
    game = started("azul", alice, bob)
    moderate_abort(game=game, moderator=moderator, reason="players asked")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert not GameResult.objects.exists()


def test_a_seat_that_ran_out_of_time_is_placed_last(alice, bob):
    game = timed_out("azul", alice, bob)
    seats = {seat.user_id: seat for seat in ResultSeat.objects.filter(result__game=game)}
    assert seats[bob.pk].timed_out and seats[bob.pk].place == 2
    assert seats[alice.pk].place == 1 and seats[alice.pk].won
    assert rating(alice)[0] > rating(bob)[0]


def test_timed_out_seats_are_last_even_with_the_best_score():
    table = SimpleNamespace(
        players=("user:1", "user:2", "user:3"),
        steps=[SimpleNamespace(seat=0, auto="timeout"), SimpleNamespace(seat=2, auto="")],
        scores=lambda: (90, 40, 60),
        winners=lambda: (0,),
    )
    resigned = SimpleNamespace(type="table.Resigned", seq=7, data={"seat": 1}, reason="")
    places = {p.seat: p.place for p in placings(table, [resigned])}
    assert places == {2: 1, 1: 2, 0: 3}


def test_equal_results_share_a_place():
    table = SimpleNamespace(
        players=("user:1", "user:2", "user:3"),
        steps=[],
        scores=lambda: (50, 50, 30),
        winners=lambda: (0, 1),
    )
    assert [p.place for p in placings(table, [])] == [1, 1, 3]


def test_rebuild_gives_the_same_numbers_as_the_live_path(alice, bob, carol):
    finished("azul", alice, bob)
    finished("azul", carol, alice, bob)
    finished("azul", bob, carol, rated=False)
    timed_out("azul", carol, bob)
    finished("summer-pavilion", bob, alice)
    live = snapshot()
    assert len(live[1]) == 9
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    ResultSeat.objects.all().delete()
    GameResult.objects.all().delete()
    call_command("rebuild_projections", stdout=StringIO())
    assert snapshot() == live


def test_a_revert_of_a_finished_game_recomputes_what_follows(alice, bob, carol):
    first = started("miyabi", alice, bob)
    play_to_end(first)
    later = finished("miyabi", carol, bob)
    assert rating(bob, "miyabi")[2] == 2
    reverted_after_finish(first, back_to=first.last_seq - 5)
    first.refresh_from_db()
    assert first.status == Game.Status.ACTIVE
    assert not GameResult.objects.filter(game=first).exists()
    assert not Rating.objects.filter(user=alice).exists()
    # Bob's only rated game now is his loss to carol, rated from a newcomer's rating.
    assert rating(bob, "miyabi") == (22.364610506859503, 8.06590141354368, 1)
    assert RatingChange.objects.filter(result__game=later, user=bob).get().mu_before == 25.0
    live = snapshot()
    call_command("rebuild_projections", stdout=StringIO())
    assert snapshot() == live


def test_an_abort_of_a_finished_game_recomputes_what_follows(alice, bob, carol):
    first = finished("azul", alice, bob)
    finished("azul", carol, bob)
    aborted_after_finish(first)
    first.refresh_from_db()
    assert first.status == Game.Status.ABORTED
    assert rating(bob) == (22.364610506859503, 8.06590141354368, 1)
    assert not Rating.objects.filter(user=alice).exists()


def test_finishing_again_changes_nothing(alice, bob):
    game = finished("azul", alice, bob)
    before = snapshot()
    ratings_game_finished(game)
    assert snapshot() == before


def test_display_rating_and_uncertainty():
    assert display_rating(25.0, 25 / 3) == 1500
    assert uncertainty(2.0) == 80


@pytest.fixture
def moderator(db):
    from django.contrib.auth.models import Group

    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user
