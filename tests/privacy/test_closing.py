"""Closing one's account (issue 45): only with proof that it is the owner, final, and the
person's games go on showing them as a deleted player, apart from any other."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from events import store
from events.models import StreamKey
from games.errors import ServiceError
from games.models import Game, NoticeKind, Outbox, PlayerSettings, Seat, Tournament
from games.notify.channels.email import render
from games.selectors.access import MODERATORS_GROUP
from games.selectors.history import move_history
from games.selectors.names import is_forgotten, players_of
from games.services.chat import report_create
from games.services.closing import account_close, account_stream
from games.services.moderation import user_suspend
from games.services.moves import game_resign
from games.services.tables import game_create, game_join
from games.services.tournaments.entry import tournament_create, tournament_join
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, started
from tests.privacy.people import sign_in_by_link, signed_up_by_link, time_passes
from tests.tournaments.test_api import SWISS

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_closing_asks_for_the_password_and_that_the_player_understands(alice, bob):
    game = every_player_moved(started("azul", alice, bob))
    client = signed_in(alice)
    page = client.get("/account/close/").content.decode()
    assert "Closing your account is final" in page and 'name="password"' in page
    refused = client.post("/account/close/", {"password": "pw-alice"})
    assert refused.status_code == 400
    assert "Tick the box to say you understand." in refused.content.decode()
    refused = client.post("/account/close/", {"password": "wrong", "understood": "on"})
    assert "This is not your password." in refused.content.decode()
    alice.refresh_from_db()
    assert alice.is_active

    closed = client.post("/account/close/", {"password": "pw-alice", "understood": "on"})

    assert closed.status_code == 302 and closed["Location"] == "/"
    alice.refresh_from_db()
    assert is_forgotten(alice) and not alice.is_active
    assert client.get("/account/").status_code == 302  # signed out
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # resigned: Bob wins
    assert Seat.objects.get(game=game, user=alice).status == Seat.Status.RESIGNED


def test_an_account_made_by_the_emailed_link_closes_after_a_fresh_sign_in_by_link(monkeypatch):
    client, dora = signed_up_by_link("dora@example.com")
    assert not dora.has_usable_password()
    # Fresh from signing up: no password is asked for, there being none.
    page = client.get("/account/close/").content.decode()
    assert 'id="close-form"' in page and 'name="password"' not in page
    time_passes(monkeypatch, 20)
    page = client.get("/account/close/").content.decode()
    assert "we email you a sign-in link" in page and 'id="close-form"' not in page
    # A POST without the fresh sign-in closes nothing.
    client.post("/account/close/", {"understood": "on"})
    dora.refresh_from_db()
    assert dora.is_active
    # The page's button asks for a link that comes back to it.
    assert sign_in_by_link(client, dora.email, next_url="/account/close/").url == "/account/close/"
    assert 'id="close-form"' in client.get("/account/close/").content.decode()
    assert client.post("/account/close/", {"understood": "on"}).status_code == 302
    dora.refresh_from_db()
    assert is_forgotten(dora)


def test_accounts_made_by_link_before_the_fix_have_no_password_either():
    """Sign-up stored ``''`` until issue 52; migration 0027 makes those unusable."""
    migration = importlib.import_module("games.migrations.0027_link_accounts_without_password")
    _client, dora = signed_up_by_link("dora@example.com")
    get_user_model().objects.filter(pk=dora.pk).update(password="")  # as sign-up stored it
    dora.refresh_from_db()
    assert dora.has_usable_password()  # Django's reading of ''

    migration.unusable_where_empty(apps, None)

    dora.refresh_from_db()
    assert not dora.has_usable_password()


def test_two_forgotten_players_of_one_game_stay_apart_and_the_moves_say_whose(alice, bob, carol):
    game = every_player_moved(started("azul", alice, bob, carol))
    account_close(user=alice)
    account_close(user=bob)
    names = [player["player"] for player in players_of(game)]
    assert sorted(names) == ["Carol", "Deleted player 1", "Deleted player 2"]
    actors = {entry["actor"] for entry in move_history(game) if entry.get("actor")}
    assert {"Deleted player 1", "Deleted player 2"} <= actors
    assert not any("alice" in actor.lower() or "bob" in actor.lower() for actor in actors)


def test_a_moderator_closes_an_account_with_a_reason_that_is_erased_with_the_person(alice):
    maud = make_user("maud", is_staff=True)
    maud.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    client = signed_in(maud)
    refused = client.post(f"/admin/auth/user/{alice.pk}/close/", {"reason": ""})
    assert refused.status_code == 200
    alice.refresh_from_db()
    assert alice.is_active

    client.post(f"/admin/auth/user/{alice.pk}/close/", {"reason": "Alice spammed the chat"})

    alice.refresh_from_db()
    assert is_forgotten(alice)
    (closed,) = store.load(account_stream(alice.pk))
    assert closed.type == "account.Closed" and closed.actor == f"moderator:{maud.pk}"
    assert closed.reason == ""  # sealed, and its key shredded with the rest
    assert not StreamKey.objects.filter(stream=account_stream(alice.pk)).exists()
    # Anyone else may not.
    with pytest.raises(ServiceError):
        account_close(user=maud, by=make_user("mallory"), reason="because")


def test_a_forgotten_player_is_told_nothing_more(alice, bob):
    game = every_player_moved(started("azul", alice, bob, timeout_policy="bot", timeout_bot="easy"))
    account_close(user=alice)
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, bot="easy")
    assert game.status == Game.Status.ACTIVE and seat.user is None
    before = Outbox.objects.count()
    game_resign(game=game, user=bob)
    assert (
        not Outbox.objects.filter(pk__gt=0, recipient="")
        .exclude(pk__in=Outbox.objects.order_by("pk").values("pk")[:before])
        .exists()
    )


def test_a_seat_goes_to_a_computer_even_where_one_of_its_level_already_plays(alice, bob):
    game = game_create(
        creator=alice,
        game="azul",
        players=3,
        bots=["easy"],
        timeout_policy="bot",
        timeout_bot="easy",
    )
    game_join(game=game, user=bob)
    game = every_player_moved(game)
    account_close(user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert list(game.seats.exclude(bot="").values_list("bot", flat=True)) == ["easy", "easy"]


def a_moderator(name: str):
    """Staff in the moderators group, as the admin makes one; not a superuser. The group
    is migration 0003's (made again as it makes it where a transactional test emptied
    the tables)."""
    user = make_user(name, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


def test_only_a_superuser_closes_a_moderator_or_a_superuser_through_the_admin(alice):
    maud, mona = a_moderator("maud"), a_moderator("mona")
    root = get_user_model().objects.create_superuser("root@example.com", "root@example.com", "pw")
    assert not maud.is_superuser
    client = signed_in(maud)
    for peer in (mona, root):
        client.post(f"/admin/auth/user/{peer.pk}/close/", {"reason": "I do not like them"})
        peer.refresh_from_db()
        assert peer.is_active and not is_forgotten(peer)
    refused = client.post(f"/admin/auth/user/{mona.pk}/close/", {"reason": "again"})
    assert "only a superuser may close the account of a moderator" in refused.content.decode()
    # A player she may close; a moderator, the superuser may.
    client.post(f"/admin/auth/user/{alice.pk}/close/", {"reason": "spam in every chat"})
    signed_in(root).post(f"/admin/auth/user/{mona.pk}/close/", {"reason": "left the team"})
    alice.refresh_from_db()
    mona.refresh_from_db()
    assert is_forgotten(alice) and is_forgotten(mona)


def test_a_moderator_closing_their_own_account_in_the_admin_is_sent_to_the_page_that_asks_proof():
    maud = a_moderator("maud")
    client = signed_in(maud)
    sent = client.post(f"/admin/auth/user/{maud.pk}/close/", {"reason": "leaving"})
    assert sent.status_code == 302 and sent["Location"] == "/account/close/"
    maud.refresh_from_db()
    assert maud.is_active
    refused = client.post("/account/close/", {"understood": "on", "password": "wrong"})
    assert "This is not your password." in refused.content.decode()
    assert (
        client.post("/account/close/", {"understood": "on", "password": "pw-maud"}).status_code
        == 302
    )
    maud.refresh_from_db()
    assert is_forgotten(maud)


def test_an_old_session_cannot_close_after_its_owner_signs_in_elsewhere(monkeypatch):
    """A shared computer keeps Dora signed in; twenty minutes later she signs in on her
    phone. The sign-in on the phone is fresh; the shared computer's is not."""
    shared, dora = signed_up_by_link("dora@example.com")
    time_passes(monkeypatch, 20)
    phone = Client()
    sign_in_by_link(phone, dora.email)

    page = shared.get("/account/close/").content.decode()
    assert "we email you a sign-in link" in page and 'id="close-form"' not in page
    shared.post("/account/close/", {"understood": "on"})
    dora.refresh_from_db()
    assert dora.is_active and not is_forgotten(dora)

    assert phone.post("/account/close/", {"understood": "on"}).status_code == 302
    dora.refresh_from_db()
    assert is_forgotten(dora)


def test_the_closing_page_stops_guessing_passwords_as_the_sign_in_does(alice, monkeypatch):
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: 1_800_000_000))
    client = signed_in(alice)
    for guess in range(5):
        answer = client.post("/account/close/", {"understood": "on", "password": f"guess{guess}"})
        assert answer.status_code == 400
    stopped = client.post("/account/close/", {"understood": "on", "password": "pw-alice"})
    assert stopped.status_code == 429 and int(stopped["Retry-After"]) > 0
    assert "Too many tries" in stopped.content.decode()
    alice.refresh_from_db()
    assert alice.is_active
    # The same budget as signing in with her password.
    signed_out = Client().post(
        "/signin/password/", {"username": alice.email, "password": "pw-alice"}
    )
    assert signed_out.status_code == 429


def test_an_organiser_who_closes_calls_their_tournament_off_and_its_players_are_told(
    alice, bob, carol
):
    tournament = tournament_create(
        organiser=alice, **{**SWISS, "name": "Alice's autumn cup"}, organiser_plays=True
    )
    for player in (bob, carol):
        tournament_join(tournament=tournament, user=player)

    account_close(user=alice)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    told = Outbox.objects.filter(
        kind=NoticeKind.TOURNAMENT_CANCELLED, cancelled_at__isnull=True
    ).order_by("recipient")
    assert [row.recipient for row in told] == [bob.email, carol.email]
    email = render.message(told[0], timezone.now())
    assert email.subject == f"Tournament {tournament.pk} is called off"
    assert "Alice" not in email.body
    # Nobody can enter it any more, and the list of open tournaments no longer shows it.
    with pytest.raises(ServiceError):
        tournament_join(tournament=tournament, user=make_user("dora"))
    assert f"/tournaments/{tournament.pk}/" not in Client().get("/tournaments/").content.decode()


def test_reports_and_suspensions_that_name_a_person_lose_their_reason_when_they_close(
    alice, bob, carol
):
    _client, dora = signed_up_by_link("dora.reported@example.org", first_name="Dorothea")
    game = every_player_moved(started("azul", alice, bob))
    report = report_create(game=game, reporter=bob, reason="Alice plays for Dorothea here")
    user_suspend(user=carol, moderator=a_moderator("maud"), reason="alt account of Dorothea")

    account_close(user=dora)

    report.refresh_from_db()
    assert report.reason == ""
    assert PlayerSettings.objects.get(user=carol).suspended_reason == ""
