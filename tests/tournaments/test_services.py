"""Tournaments through the services with real games: created, joined, started, each
round's games played to their end (by resignations: the lower-rated players resign,
worst first, so the better-rated player always wins), the next round started by the
reaction, byes, withdrawals and time-outs; the standings checked by hand."""

import io
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from events import store
from games.errors import Conflict, Forbidden
from games.models import Game, GameResult, Rating, Tournament, TournamentGame
from games.repository import tournament_state
from games.services.deadlines import game_timeout
from games.services.moves import game_resign
from games.services.tournaments.entry import (
    tournament_create,
    tournament_join,
    tournament_withdraw,
    tournaments_start_due,
)
from games.services.tournaments.organiser import tournament_start
from games.services.tournaments.rounds import tournaments_rounds_begin
from games.services.tournaments.stream import tournament_reproject
from games.tournaments import core
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, play

pytestmark = pytest.mark.django_db


def players(count: int) -> list:
    """``count`` players, the first best rated (2000, 1990, …) on Azul's ladder."""
    users = [make_user(f"player{number}") for number in range(1, count + 1)]
    for number, user in enumerate(users):
        Rating.objects.create(
            user=user,
            game_type="azul",
            mu=25,
            sigma=8,
            display=2000 - 10 * number,
            games=5,
            last_played_at=timezone.now(),
        )
    return users


def opened(users: list, **settings) -> Tournament:
    tournament = tournament_create(organiser=users[0], name="Autumn cup", game="azul", **settings)
    for user in users:
        tournament_join(tournament=tournament, user=user)
    return tournament


def cups_opened(organisers: list, count: int) -> None:
    """``count`` one-round Swiss tournaments open for registration, "Cup 0" the oldest,
    opened in turn by the ``organisers``."""
    for number in range(count):
        tournament_create(
            organiser=organisers[number % len(organisers)],
            name=f"Cup {number}",
            game="azul",
            format="swiss",
            per_game=2,
            rounds=1,
        )


def rounds_begun() -> None:
    """A paired round's games begin, as the worker begins them once the write that paired
    the round commits: here, where no worker runs and no test's write commits, by the
    sweep's part (``rounds.tournaments_rounds_begin``)."""
    tournaments_rounds_begin(now=timezone.now())


def organiser_starts(tournament: Tournament, user) -> None:
    """The organiser starts the tournament, and its first round's games begin."""
    tournament_start(tournament=tournament, user=user)
    rounds_begun()


def running_games(tournament: Tournament) -> list[Game]:
    """The tournament's games in play, once the worker has begun a round paired since."""
    rounds_begun()
    return list(
        Game.objects.filter(
            tournament_table__tournament=tournament, status=Game.Status.ACTIVE
        ).order_by("pk")
    )


def finish_round(tournament: Tournament, *, skip=()) -> None:
    """Every game in play ends: after a move each (a resignation before that aborts the
    game), its players but the best rated resign, worst first."""
    for game in running_games(tournament):
        every_player_moved(game)
        seated = sorted(
            (seat for seat in game.seats.select_related("user") if seat.user_id not in skip),
            key=lambda seat: -seat.user.ratings.get(game_type="azul").display,
        )
        for seat in reversed(seated[1:]):
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE:
                game_resign(game=game, user=seat.user)
    rounds_begun()


def play_out(tournament: Tournament) -> core.Tournament:
    for _round in range(20):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        finish_round(tournament)
    tournament.refresh_from_db()
    return tournament_state(tournament)


def ranking_names(state: core.Tournament) -> list[str]:
    names = {user.pk: user.first_name for user in _users(state)}
    return [names[player] for player in state.ranking]


def _users(state):
    return get_user_model().objects.filter(pk__in=[e.player for e in state.entrants])


def test_an_eight_player_swiss_of_three_rounds_runs_to_the_end_by_itself():
    users = players(8)
    tournament = opened(
        users, format="swiss", per_game=2, rounds=3, time_control={"kind": "per_move", "days": 3}
    )
    organiser_starts(tournament, users[0])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    first = running_games(tournament)
    assert len(first) == 4
    assert first[0].time_control["days"] == 3 and first[0].rated
    # Seeds 1-2, 3-4…: the better seed sits first in round 1.
    assert [s.user for s in first[0].seats.order_by("position")] == users[:2]
    state = play_out(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert state.round == 3
    assert TournamentGame.objects.filter(tournament=tournament).count() == 12
    pairs = Counter(frozenset(t.players) for t in state.tables)
    assert max(pairs.values()) == 1
    # Hand-computed: the better-rated player always wins. Round 1 (1-2, 3-4, 5-6, 7-8)
    # leaves 1, 3, 5, 7 on a point; round 2 pairs 1-3, 5-7 and 2-4, 6-8; round 3 pairs
    # the unbeaten 1 with 5, and so on: points 3, 2, 2, 2, 1, 1, 1, 0.
    assert [s.points for s in state.standings()] == [3, 2, 2, 2, 1, 1, 1, 0]
    assert ranking_names(state)[0] == "Player1" and ranking_names(state)[-1] == "Player8"
    # Rated tournament games go into the ladder like any other.
    assert GameResult.objects.filter(game__tournament_table__tournament=tournament).count() == 12


def test_a_nine_player_swiss_for_three_seats_plays_three_tables_a_round():
    users = players(9)
    tournament = opened(users, format="swiss", per_game=3, rounds=2)
    organiser_starts(tournament, users[0])
    assert [g.players for g in running_games(tournament)] == [3, 3, 3]
    state = play_out(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    # Round 1: the three table winners (Player1, 4, 7) take 4 points each and meet in round 2.
    assert {u.first_name for u in _users(state) if u.pk in state.round_tables(2)[0].players} == {
        "Player1",
        "Player4",
        "Player7",
    }
    assert [s.points for s in state.standings()][:1] == [8]


def test_a_six_player_round_robin_plays_fifteen_games():
    users = players(6)
    tournament = opened(users, format="round_robin", per_game=2)
    organiser_starts(tournament, users[0])
    state = play_out(tournament)
    assert state.status == core.FINISHED and state.round == 5
    assert len(state.tables) == 15
    assert [s.points for s in state.standings()] == [5, 4, 3, 2, 1, 0]


def test_an_eight_player_knockout_crowns_the_top_seed_in_seven_games():
    users = players(8)
    tournament = opened(users, format="knockout", per_game=2)
    organiser_starts(tournament, users[0])
    state = play_out(tournament)
    assert [len(state.round_tables(r)) for r in (1, 2, 3)] == [4, 2, 1]
    assert ranking_names(state)[:2] == ["Player1", "Player2"]


def test_a_withdrawal_resigns_the_game_in_play_and_later_rounds_give_a_bye():
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=3)
    organiser_starts(tournament, users[0])
    # Player 1 (top seed) withdraws during round 1: Player 2 wins that game.
    tournament_withdraw(tournament=tournament, user=users[0])
    finish_round(tournament)
    state = play_out(tournament)
    assert all(users[0].pk not in t.players for t in state.tables if t.round > 1)
    assert len({bye.player for bye in state.byes}) == 2
    lines = {s.player: s for s in state.standings()}
    assert lines[users[0].pk].withdrawn and lines[users[0].pk].points == 0
    assert lines[users[1].pk].points == 3


def test_a_player_who_times_out_of_two_games_in_a_row_is_withdrawn():
    users = players(4)
    tournament = opened(
        users, format="swiss", per_game=2, rounds=3, time_control={"kind": "per_move", "days": 1}
    )
    organiser_starts(tournament, users[0])
    absent = users[3]
    for _round in (1, 2):
        for game in running_games(tournament):
            if game.seats.filter(user=absent).exists():
                # Whoever is to move first: the absent player's turn comes and runs out.
                while game.status == Game.Status.ACTIVE:
                    game.refresh_from_db()
                    mover = game.seats.get(position=game.to_move).user
                    if mover == absent:
                        game_timeout(game_id=game.pk, now=game.deadline + timedelta(seconds=1))
                    else:
                        play(game)
                    game.refresh_from_db()
        finish_round(tournament, skip={absent.pk})
    state = tournament_state(tournament)
    assert state.entrant(absent.pk).withdrawn
    assert core.PlayerWithdrew(absent.pk, core.TIMED_OUT) in [
        core.CODEC.decode({**e.data, "type": e.type.split(".")[1], "version": e.version})
        for e in store.load(tournament.stream)
    ]
    assert all(absent.pk not in t.players for t in state.round_tables(3))


def test_refusals_say_who_may_do_what():
    users = players(3)
    tournament = opened(users[:2], format="swiss", per_game=2, rounds=1)
    with pytest.raises(Conflict) as twice:
        tournament_join(tournament=tournament, user=users[1])
    assert twice.value.code == "already_registered"
    with pytest.raises(Forbidden) as outsider:
        organiser_starts(tournament, users[2])
    assert outsider.value.code == "not_organiser"
    with pytest.raises(Forbidden):
        tournament_withdraw(tournament=tournament, user=users[2], player=users[1])


def test_the_sweep_starts_a_tournament_whose_entry_window_closed_or_cancels_it():
    users = players(3)
    closes = timezone.now() + timedelta(hours=1)
    full = opened(users[:2], format="swiss", per_game=2, rounds=1, entry_closes=closes)
    empty = opened(users[2:], format="swiss", per_game=2, rounds=1, entry_closes=closes)
    assert tournaments_start_due(now=closes + timedelta(minutes=1)) == 2
    full.refresh_from_db()
    empty.refresh_from_db()
    assert full.status == Tournament.Status.RUNNING and len(running_games(full)) == 1
    assert empty.status == Tournament.Status.CANCELLED


def test_the_read_model_is_rebuilt_from_the_events():
    users = players(4)
    tournament = opened(users, format="knockout", per_game=2)
    organiser_starts(tournament, users[0])
    finish_round(tournament)
    tournament.refresh_from_db()
    columns = ("status", "current_round", "players", "last_seq", "started_at")
    expected = [getattr(tournament, column) for column in columns]
    assert not tournament_reproject(tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        status="registration", current_round=0, players=0, last_seq=0, started_at=None
    )
    call_command("rebuild_projections", stdout=io.StringIO())
    tournament.refresh_from_db()
    assert [getattr(tournament, column) for column in columns] == expected


def test_a_resignation_before_every_player_moved_aborts_the_game_but_loses_the_tournament_game():
    users = players(2)
    tournament = opened(
        users, format="swiss", per_game=2, rounds=1, time_control={"kind": "per_move", "days": 3}
    )
    organiser_starts(tournament, users[0])
    (game,) = running_games(tournament)
    game_resign(game=game, user=users[1])

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert not GameResult.objects.filter(game=game).exists()
    state = play_out(tournament)
    assert ranking_names(state) == [users[0].first_name, users[1].first_name]
    assert [s.points for s in state.standings()] == [1, 0]
