"""The organiser's and moderators' pause, resume and cancel (issue 31): a paused
tournament starts no new round (games in play go on) until resumed; a cancelled one
starts none again and its games in play count no more. Events in the stream; buttons on
the page; API actions with 403 for others and 409 when the state does not allow it."""

from datetime import datetime, timedelta

import pytest

from events import store
from games.errors import Conflict, Forbidden
from games.models import Game, Tournament
from games.repository import tournament_state
from games.services.tournaments.organiser import (
    tournament_cancel,
    tournament_pause,
    tournament_resume,
)
from games.services.tournaments.rounds import tournaments_deadlines_apply
from tests.games.api_helpers import client_for, moderator_user, post
from tests.tournaments.test_pages import signed_in
from tests.tournaments.test_services import (
    finish_round,
    opened,
    organiser_starts,
    players,
    running_games,
)

pytestmark = pytest.mark.django_db


def started(count: int = 4, **settings) -> tuple[Tournament, list]:
    users = players(count)
    tournament = opened(users, format="swiss", per_game=2, rounds=2, **settings)
    organiser_starts(tournament, users[0])
    return tournament, users


def test_a_paused_tournament_starts_no_new_round_until_it_is_resumed():
    tournament, users = started()
    tournament_pause(tournament=tournament, user=users[0])
    # Games in play go on and their results count, but round 2 waits.
    finish_round(tournament)
    state = tournament_state(tournament)
    assert state.paused and state.round == 1 and state.round_complete()
    assert running_games(tournament) == []
    tournament_resume(tournament=tournament, user=users[0])
    tournament.refresh_from_db()
    assert tournament.current_round == 2 and len(running_games(tournament)) == 2
    types = [event.type for event in store.load(tournament.stream)]
    resumed = types.index("tournament.TournamentResumed")
    assert types.index("tournament.TournamentPaused") < resumed
    assert types[resumed + 1] == "tournament.RoundPaired"


def test_a_paused_tournament_waits_past_its_round_deadline():
    tournament, users = started(round_days=1)
    tournament_pause(tournament=tournament, user=users[0])
    deadline = datetime.fromisoformat(tournament_state(tournament).deadline)
    ended = tournaments_deadlines_apply(now=deadline + timedelta(hours=1))
    assert ended == 0 and len(running_games(tournament)) == 2
    tournament_resume(tournament=tournament, user=users[0])
    assert tournaments_deadlines_apply(now=deadline + timedelta(hours=1)) == 1


def test_a_cancelled_tournament_lets_its_games_go_on_but_counts_them_no_more():
    tournament, users = started()
    moderator = moderator_user()
    tournament_cancel(tournament=tournament, user=moderator)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.finished_at
    assert len(running_games(tournament)) == 2
    finish_round(tournament)
    state = tournament_state(tournament)
    assert all(table.result is None for table in state.tables)
    assert (
        Game.objects.filter(tournament_table__tournament=tournament)
        .exclude(status=Game.Status.ACTIVE)
        .count()
        == 2
    )
    with pytest.raises(Conflict, match="over"):
        tournament_cancel(tournament=tournament, user=users[0])


def test_only_the_organiser_or_a_moderator_may_pause_resume_or_cancel():
    tournament, users = started()
    for service in (tournament_pause, tournament_cancel):
        with pytest.raises(Forbidden, match="organiser or a moderator"):
            service(tournament=tournament, user=users[1])
    with pytest.raises(Conflict, match="not paused"):
        tournament_resume(tournament=tournament, user=users[0])
    tournament_pause(tournament=tournament, user=users[0])
    with pytest.raises(Conflict, match="already paused"):
        tournament_pause(tournament=tournament, user=users[0])


def test_the_api_pauses_resumes_and_cancels_with_clear_403_and_409():
    tournament, users = started()
    path = f"/api/tournaments/{tournament.pk}/"
    assert client_for(users[0]).get(path).json()["can_pause"]
    assert not client_for(users[1]).get(path).json()["can_pause"]
    refused = post(client_for(users[1]), path + "pause/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    assert post(client_for(), path + "pause/").status_code == 401
    paused = post(client_for(users[0]), path + "pause/").json()
    assert paused["paused"] and paused["can_resume"] and not paused["can_pause"]
    again = post(client_for(users[0]), path + "pause/")
    assert again.status_code == 409 and again.json()["code"] == "already_paused"
    resumed = post(client_for(moderator_user()), path + "resume/").json()
    assert not resumed["paused"]
    cancelled = post(client_for(users[0]), path + "cancel/").json()
    assert cancelled["status"] == "cancelled" and not cancelled["can_cancel"]
    assert post(client_for(users[0]), path + "pause/").json()["code"] == "not_running"
    schema = client_for().get("/api/schema/").content.decode()
    assert "tournament_pause" in schema and "tournament_cancel" in schema


def test_the_organiser_pauses_and_cancels_from_the_page_and_players_see_no_buttons():
    tournament, users = started()
    page = f"/tournaments/{tournament.pk}/"
    assert "Pause" not in signed_in(users[1]).get(page).content.decode()
    organiser = signed_in(users[0])
    assert organiser.post(page + "pause/").status_code == 302
    shown = organiser.get(page).content.decode()
    assert "Paused: no new round starts" in shown and "Resume" in shown
    refused = signed_in(users[1]).post(page + "cancel/", follow=True).content.decode()
    assert "Only the tournament&#x27;s organiser or a moderator can do this" in refused
    organiser.post(page + "cancel/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
