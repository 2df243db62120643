"""A round's games are created after the commit of the result that completed the round
before it, by a worker (the sweep as its fallback): the move that ends a round never waits
for the next round's games. And a format is one class behind one protocol in one
registry."""

import pytest
from django.utils import timezone

from games import tasks
from games.models import Game, Seat, TournamentGame
from games.repository import tournament_state
from games.services.moves import game_resign
from games.services.tournaments import rounds
from games.services.tournaments.entry import tournament_withdraw
from games.services.tournaments.rounds import tournaments_rounds_begin
from games.tournaments import core, pairing
from games.tournaments.formats import FORMATS
from tests.games.helpers import every_player_moved
from tests.tournaments import helpers
from tests.tournaments.test_pages import signed_in
from tests.tournaments.test_services import opened, organiser_starts, players, running_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    """The tasks the tournament's reactions asked for, instead of a broker."""
    sent = []
    monkeypatch.setattr(
        "games.services.tournaments.reactions.send_quickly",
        lambda name, args: sent.append((name, args)) or True,
    )
    return sent


def round_two_paired(django_capture_on_commit_callbacks):
    """Four players in a Swiss of two rounds: round 1 played out, the last game ended by a
    resignation committed; the tournament and its users."""
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2)
    organiser_starts(tournament, users[0])
    games = running_games(tournament)
    for game in games:
        every_player_moved(game)
    game_resign(game=games[0], user=games[0].seats.get(position=1).user)
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(game=games[1], user=games[1].seats.get(position=1).user)
    tournament.refresh_from_db()
    return tournament, users


def games_of_round(tournament, number: int) -> int:
    return TournamentGame.objects.filter(tournament=tournament, round=number).count()


def test_the_move_that_ends_a_round_asks_a_worker_for_the_next_rounds_games(
    queued, django_capture_on_commit_callbacks
):
    tournament, _ = round_two_paired(django_capture_on_commit_callbacks)
    assert tournament.current_round == 2
    # Paired in the move's transaction; its games not created there.
    assert len(tournament_state(tournament).round_tables()) == 2
    assert games_of_round(tournament, 2) == 0
    assert queued == [("games.tasks.tournament_round_begin", [tournament.pk])]
    assert tasks.tournament_round_begin(tournament.pk) is True
    assert games_of_round(tournament, 2) == 2
    # Asked twice (a task run again, the sweep meanwhile): the round begins once.
    assert tasks.tournament_round_begin(tournament.pk) is False
    assert tournaments_rounds_begin(now=timezone.now()) == 0
    assert games_of_round(tournament, 2) == 2


def test_the_sweep_begins_a_round_whose_task_was_lost(queued, django_capture_on_commit_callbacks):
    tournament, _ = round_two_paired(django_capture_on_commit_callbacks)
    assert tournaments_rounds_begin(now=timezone.now()) == 1
    assert games_of_round(tournament, 2) == 2
    state = tournament_state(tournament)
    assert all(table.game for table in state.round_tables())


def test_the_page_says_a_round_is_being_set_up_until_its_games_begin(
    queued, django_capture_on_commit_callbacks
):
    tournament, users = round_two_paired(django_capture_on_commit_callbacks)
    path = f"/tournaments/{tournament.pk}/"
    page = signed_in(users[1]).get(path).content.decode()
    assert "The games of round 2 are being set up" in page
    assert 'id="round-setting-up"' in page and "tournament.js" in page
    tasks.tournament_round_begin(tournament.pk)
    page = signed_in(users[1]).get(path).content.decode()
    assert "being set up" not in page and 'id="my-game"' in page


def test_a_player_who_withdraws_before_the_games_begin_resigns_their_new_game(
    queued, django_capture_on_commit_callbacks
):
    tournament, users = round_two_paired(django_capture_on_commit_callbacks)
    leaving = tournament_state(tournament).round_tables()[0].players[0]
    gone = next(user for user in users if user.pk == leaving)
    tournament_withdraw(tournament=tournament, user=gone)
    tasks.tournament_round_begin(tournament.pk)
    link = TournamentGame.objects.get(tournament=tournament, round=2, game__seats__user=gone)
    seat = link.game.seats.get(user=gone)
    assert seat.status == Seat.Status.RESIGNED
    # Nobody had moved: the game is aborted, and counts as lost by who left.
    assert Game.objects.get(pk=link.game_id).status == Game.Status.ABORTED
    table = next(t for t in tournament_state(tournament).tables if t.game == link.game_id)
    assert table.result is not None


class EveryoneMeetsTheTopSeed:
    """A made-up format: round after round, the top seed meets the next seed down."""

    name = "gauntlet"

    def refusal(self, settings):
        return ("rounds_for_swiss_only", {}) if settings.rounds else None

    def needed(self, settings):
        return settings.min_players

    def pairing(self, state):
        number = state.round + 1
        if number >= len(state.seeds):
            return None
        return pairing.Round(((state.seeds[0], state.seeds[number]),))

    def knocked_out(self, state):
        return {}


def test_a_new_format_is_one_class_and_one_line_in_the_registry(monkeypatch):
    monkeypatch.setitem(FORMATS, "gauntlet", EveryoneMeetsTheTopSeed())
    ratings = {1: 1900.0, 2: 1800.0, 3: 1700.0, 4: 1600.0}
    state, _ = helpers.opened(ratings, format="gauntlet", per_game=2, game="azul")
    state, _ = helpers.run(state, helpers.by_rating(ratings))
    assert state.status == core.FINISHED
    assert [set(table.players) for table in state.tables] == [{1, 2}, {1, 3}, {1, 4}]
    assert state.ranking[0] == 1


def test_a_tournament_whose_round_cannot_begin_does_not_hold_up_the_others(
    queued, monkeypatch, caplog
):
    users = players(4)
    first, second = (opened(users, format="swiss", per_game=2, rounds=2) for _ in range(2))
    organiser_starts(first, users[0])
    organiser_starts(second, users[0])
    # Round 1 of both played out; round 2 of both paired, their games not yet created.
    for game in Game.objects.filter(status=Game.Status.ACTIVE):
        every_player_moved(game)
        game_resign(game=game, user=game.seats.get(position=1).user)
    real = rounds.round_begin

    def broken(pk, **kwargs):
        if pk == first.pk:
            raise RuntimeError("a game that cannot be created")
        return real(pk, **kwargs)

    monkeypatch.setattr(rounds, "round_begin", broken)
    assert rounds.tournaments_rounds_begin(now=timezone.now()) == 1
    assert games_of_round(first, 2) == 0 and games_of_round(second, 2) == 2
    assert f"tournament {first.pk}: the sweep's job tournament_rounds_begun failed" in caplog.text
