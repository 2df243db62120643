"""What others wrote about a person goes with them (issue 52): an address invited to a
private tournament and a tournament's name are sealed in its event under their person's
key; a moderator's reason naming a person in a game they were not in becomes unreadable
when they close; a seat they took by invitation keeps no address; a tournament they
organised is called off; other people's downloads holding them are deleted."""

import pytest
from django.test import Client

from events import store
from events.models import Event
from games.models import DataExport, Game, Seat, Tournament
from games.notify.channels.email import render
from games.selectors.tournaments import tournament_view
from games.services import data_export
from games.services.closing import account_close
from games.services.moderation import moderate_pause
from games.services.tables import game_create, game_join
from games.services.tournaments.entry import tournament_create, tournament_join
from tests.games.helpers import every_player_moved, started
from tests.privacy.people import signed_up_by_link
from tests.privacy.test_closing import a_moderator
from tests.privacy.traces import database_dump, found_in
from tests.tournaments.test_api import SWISS

# Committed, so that pg_dump (another connection) reads what the site wrote.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    """A download's build is run here by hand, as the worker would."""
    monkeypatch.setattr(data_export, "send_quickly", lambda name, args: True)


def stored(tournament: Tournament) -> str:
    """Every event of the tournament's stream, as the database holds it."""
    return str(list(Event.objects.filter(stream=tournament.stream).values("data", "reason")))


def test_a_private_tournaments_name_and_invited_addresses_are_sealed_and_go_with_their_people(
    alice, bob
):
    _client, dora = signed_up_by_link("dora.invited@example.org")
    name = "Zelfrida Quixotewski's birthday cup"
    tournament = tournament_create(
        organiser=alice,
        public=False,
        invited=[dora.email, "stranger.no.account@example.org"],
        **{**SWISS, "name": name},
    )
    written = stored(tournament)
    assert not found_in(written.encode(), [name, dora.email, "stranger.no.account"])
    # Read back as written: the page, the invitee's right to join.
    assert tournament_view(tournament)["name"] == name
    tournament_join(tournament=tournament, user=dora)
    assert found_in(database_dump(), [name, dora.email]) == [name, dora.email]  # the rows

    account_close(user=dora)

    tournament.refresh_from_db()
    assert dora.email not in str(tournament.settings)
    assert "stranger.no.account@example.org" in tournament.settings["invited"]
    assert found_in(database_dump(), ["dora.invited"]) == []
    assert tournament_view(tournament)["name"] == name  # the organiser's, still here

    account_close(user=alice)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED  # called off
    assert found_in(database_dump(), ["Quixotewski"]) == []
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"Tournament {tournament.pk}" in page and "Quixotewski" not in page


def test_a_reason_naming_a_person_in_a_game_they_were_not_in_goes_when_they_close(bob, carol):
    _client, dora = signed_up_by_link("dora.named@example.org", first_name="Dorothea")
    maud = a_moderator("maud")
    theirs = every_player_moved(started("azul", bob, carol))
    moderate_pause(game=theirs, moderator=maud, reason="Dorothea asked Bob to stall the clock")
    moderate_pause_reason = store.load(theirs.stream)[-1].reason
    assert moderate_pause_reason.startswith("Dorothea asked")
    assert found_in(database_dump(), ["Dorothea asked"]) == []  # sealed

    account_close(user=dora)

    assert store.load(theirs.stream)[-1].reason == ""
    events = Client().get(f"/api/games/{theirs.pk}/events/").content.decode()
    assert "Dorothea" not in events
    # The game's own players keep their game: its key is not theirs to lose.
    assert Game.objects.get(pk=theirs.pk).status == Game.Status.ACTIVE


def test_a_seat_taken_by_invitation_keeps_no_address_after_closing(bob):
    _client, dora = signed_up_by_link("dora.seat@example.org")
    game = game_create(creator=bob, game="azul", players=2, invite=[dora.email], private=True)
    game_join(game=game, user=dora)
    seat = Seat.objects.get(game=game, user=dora)
    assert seat.invited_email == dora.email

    account_close(user=dora)

    seat.refresh_from_db()
    assert seat.invited_email == ""


def test_other_peoples_downloads_holding_the_person_are_deleted(alice, bob, carol):
    _client, dora = signed_up_by_link("dora.exported@example.org", first_name="Dorothea")
    every_player_moved(started("azul", dora, bob))
    every_player_moved(started("azul", bob, carol))
    lanterns = tournament_create(organiser=dora, **{**SWISS, "name": "Lantern evening cup"})
    tournament_join(tournament=lanterns, user=alice)
    downloads = {}
    for person in (alice, bob, carol):
        export = data_export.data_export_request(user=person)
        data_export.data_export_build(export_id=export.pk, email_text=render.sent_text)
        downloads[person.pk] = export.pk
    assert DataExport.objects.get(pk=downloads[bob.pk]).status == DataExport.Status.READY

    account_close(user=dora)

    # Bob's held Dorothea (a game with her), Alice's the tournament Dorothea named; Carol's
    # held neither, and stays.
    assert not DataExport.objects.filter(pk__in=[downloads[alice.pk], downloads[bob.pk]])
    assert DataExport.objects.filter(pk=downloads[carol.pk]).exists()
    assert found_in(database_dump(), ["Dorothea", "dora.exported", "Lantern evening"]) == []
