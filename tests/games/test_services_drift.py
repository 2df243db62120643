"""The read models checked against their events by the minute sweep (issue 34): a game
row or a table snapshot changed outside the site is found, named on the status page until
``rebuild_projections`` puts it right, and nothing is changed or sent by the check."""

import io

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.utils import timezone

from games.models import Game, Outbox, ProcessBeat, TableSnapshot
from games.selectors.access import MODERATORS_GROUP
from games.services import drift
from games.services.drift import drift_check
from games.services.moves import game_resign
from games.services.sweep import sweep
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, play, started

pytestmark = pytest.mark.django_db


def finished(alice, bob, moves: int = 0) -> Game:
    game = every_player_moved(started("azul", alice, bob))
    for _ in range(moves):
        play(game)
    game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def drifted() -> list[int]:
    return ProcessBeat.objects.get(name=drift.BEAT).detail["drifted"]


def test_finished_games_that_agree_with_their_events_are_not_reported(alice, bob, settings):
    settings.TABLE_SNAPSHOT_EVERY = 4
    games = [finished(alice, bob, moves=6) for _ in range(2)]
    assert TableSnapshot.objects.filter(game__in=games).exists()
    assert drift_check(now=timezone.now()) == 0
    assert drifted() == []
    assert ProcessBeat.objects.get(name=drift.BEAT).detail["checked"] == 2


def test_scores_rewritten_in_the_database_are_found_and_named_until_rebuilt(alice, bob):
    game = finished(alice, bob)
    truth = game.scores
    Game.objects.filter(pk=game.pk).update(scores=[99, 0])
    outbox = Outbox.objects.count()
    assert drift_check(now=timezone.now()) == 1
    assert drifted() == [game.pk]
    game.refresh_from_db()
    assert game.scores == [99, 0], "the check changes nothing: the operator sees the drift"
    assert Outbox.objects.count() == outbox
    assert drift_check(now=timezone.now()) == 1, "named again on every pass"
    call_command("rebuild_projections", stdout=io.StringIO())
    assert drift_check(now=timezone.now()) == 0
    game.refresh_from_db()
    assert game.scores == truth and drifted() == []


def test_a_snapshot_rewritten_in_the_database_is_found(alice, bob, settings):
    settings.TABLE_SNAPSHOT_EVERY = 4
    game, other = finished(alice, bob, moves=6), finished(alice, bob, moves=9)
    forged = TableSnapshot.objects.filter(game=other).order_by("-seq").first().table
    TableSnapshot.objects.filter(game=game).update(table=forged)
    assert drift.snapshots_drifted(game) and not drift.snapshots_drifted(other)
    TableSnapshot.objects.filter(game=other).update(table=b"not a table")
    assert drift.snapshots_drifted(other)


def test_each_pass_replays_the_next_few_games_in_turn(alice, bob, monkeypatch):
    monkeypatch.setattr(drift, "DRIFT_GAMES_PER_PASS", 2)
    games = [finished(alice, bob) for _ in range(3)]
    Game.objects.filter(pk=games[2].pk).update(winners=[])
    now = timezone.now()
    assert drift_check(now=now) == 0
    assert drift_check(now=now) == 1
    assert drifted() == [games[2].pk]


def test_the_sweep_checks_and_the_status_page_names_the_drifted_games(client, alice, bob):
    game = finished(alice, bob)
    Game.objects.filter(pk=game.pk).update(scores=[99, 0])
    assert sweep()["read_models_drifted"] == 1
    moderator = make_user("maud", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    client.force_login(moderator)
    page = client.get("/status/").text
    assert f'<a href="/games/{game.pk}/">#{game.pk}</a>' in page
    assert "rebuild_projections" in page
