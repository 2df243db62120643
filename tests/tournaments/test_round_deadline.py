"""A round deadline (issue 31): when it passes, the minute sweep ends the round's
unfinished games by the time-out policy (the player to move forfeits) and the next round
starts; the tournament's stream says so, and so do its page and API."""

from datetime import timedelta

import pytest
from django.utils import timezone

from events import store
from games.errors import BadRequest
from games.models import Game, Tournament, TournamentGame
from games.repository import tournament_state
from games.services.sweep import sweep
from games.services.tournaments.entry import tournament_create
from games.services.tournaments.rounds import tournaments_deadlines_apply
from tests.games.api_helpers import client_for, post
from tests.games.helpers import every_player_moved
from tests.tournaments.test_api import SWISS
from tests.tournaments.test_services import opened, organiser_starts, players, running_games

pytestmark = pytest.mark.django_db


def test_when_the_round_deadline_passes_the_player_to_move_forfeits_and_the_next_round_starts():
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2, round_days=3)
    organiser_starts(tournament, users[0])
    games = running_games(tournament)
    for game in games:
        every_player_moved(game)
    state = tournament_state(tournament)
    deadline = timezone.datetime.fromisoformat(state.deadline)
    assert timedelta(days=3) - timedelta(minutes=1) < deadline - timezone.now() <= timedelta(days=3)

    # A minute before the deadline nothing happens; a minute after, the round ends.
    assert sweep(now=deadline - timedelta(minutes=1))["tournament_rounds_ended"] == 0
    movers = {}
    for game in games:
        game.refresh_from_db()
        movers[game.pk] = game.seats.get(position=game.to_move).user_id
    assert sweep(now=deadline + timedelta(minutes=1))["tournament_rounds_ended"] == 1

    state = tournament_state(tournament)
    for table in state.round_tables(1):
        loser = movers[table.game]
        assert dict(zip(table.players, table.result.places, strict=True))[loser] == 2
    assert Game.objects.get(pk=games[0].pk).status == Game.Status.FINISHED
    tournament.refresh_from_db()
    assert tournament.current_round == 2 and len(running_games(tournament)) == 2
    types = [event.type for event in store.load(tournament.stream)]
    assert "tournament.RoundDeadlinePassed" in types
    passed = types.index("tournament.RoundDeadlinePassed")
    assert "tournament.RoundPaired" in types[passed:]
    # Round 2 has a deadline of its own, counted from its start.
    second = timezone.datetime.fromisoformat(tournament_state(tournament).deadline)
    assert second == deadline + timedelta(minutes=1, days=3)


def test_the_sweep_pass_that_ends_a_round_begins_the_next_rounds_games():
    """With no worker to ask (here no commit runs the task), the pass that ends a round at
    its deadline and pairs the next also begins the next round's games: no game waits a
    minute for the following pass."""
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2, round_days=3)
    organiser_starts(tournament, users[0])
    for game in running_games(tournament):
        every_player_moved(game)
    deadline = timezone.datetime.fromisoformat(tournament_state(tournament).deadline)

    done = sweep(now=deadline + timedelta(minutes=1))

    assert done["tournament_rounds_ended"] == 1 and done["tournament_rounds_begun"] == 1
    assert TournamentGame.objects.filter(tournament=tournament, round=2).count() == 2


def test_the_deadline_is_shown_on_the_page_and_in_the_api(client):
    users = players(2)
    tournament = opened(users, format="round_robin", per_game=2, round_days=2)
    organiser_starts(tournament, users[0])
    client.force_login(users[1])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "This round ends on" in page
    body = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert body["settings"]["round_days"] == 2
    assert body["round_deadline"] is not None


def test_days_per_round_out_of_range_are_refused_saying_what_is_accepted():
    (alice,) = players(1)
    settings = {**SWISS, "round_days": 400}
    response = post(client_for(alice), "/api/tournaments/", settings)
    assert response.status_code == 400 and "round_days" in str(response.json())
    with pytest.raises(BadRequest, match="0 .no deadline. to 365"):
        tournament_create(organiser=alice, **settings)
    assert not Tournament.objects.exists()


def test_at_a_table_of_three_the_players_to_move_forfeit_until_one_is_left():
    users = players(3)
    tournament = opened(users, format="round_robin", per_game=3, round_days=1)
    organiser_starts(tournament, users[0])
    (game,) = running_games(tournament)
    every_player_moved(game)
    game.refresh_from_db()
    order = [game.to_move, (game.to_move + 1) % 3, (game.to_move + 2) % 3]
    seated = {seat.position: seat.user_id for seat in game.seats.all()}
    deadline = timezone.datetime.fromisoformat(tournament_state(tournament).deadline)
    assert tournaments_deadlines_apply(now=deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    table = tournament_state(tournament).round_tables(1)[0]
    places = dict(zip(table.players, table.result.places, strict=True))
    # The player to move forfeits, then the next; the one left wins, and the two who
    # forfeited share the places after (as the ladder ranks players out of time).
    assert [places[seated[position]] for position in order] == [2, 2, 1]
