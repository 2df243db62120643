"""Closing an account forgets its person, with history intact (issue 45): afterwards their
address, name and chat text are nowhere in a dump of the whole database, nor in any
export, replay or page of their games; the games still verify, and the other players'
games, ratings and tournaments are as they were."""

import base64
import io
import json

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client

from events.models import Event
from games.errors import ServiceError
from games.mail import services as mail
from games.models import (
    ChatMessage,
    DataExport,
    Game,
    Outbox,
    PlayerSettings,
    PushSubscription,
    Rating,
    Seat,
    Tournament,
)
from games.notify.channels.email import render
from games.selectors.access import MODERATORS_GROUP
from games.selectors.history import export_record
from games.services import data_export
from games.services.chat import chat_post
from games.services.closing import account_close
from games.services.moderation import moderate_hide_message, moderate_pause, moderate_resume
from games.services.plans import plan_replace
from games.services.push import push_subscribe
from games.services.sweep import sweep
from games.services.tables import game_create, game_join
from games.services.tournaments.entry import tournament_create, tournament_join
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, legal, play, play_to_end, started, to_move
from tests.games.test_services_plans import factory_move, legal_after
from tests.privacy.people import signed_up_by_link
from tests.privacy.traces import (
    database_dump,
    found_in,
    pages_holding,
    redis_dump,
    urls_of_game,
    urls_of_tournament,
)
from tests.tournaments.test_services import organiser_starts

ADDRESS = "zq.quixote-1@example.org"
NAME = "Zelfrida"
SURNAME = "Quixotewski"
CHAT = "my grandmother and her lemon tart recipe"
SAID_BY_EMAIL = "greetings from the orchard"
TEXTS = (ADDRESS, NAME, SURNAME, CHAT, "zq.quixote-1")


def moderator():
    maud = make_user("maud", is_staff=True)
    maud.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return maud


def the_person(smtp):
    """Zq signs up as everyone does, by the emailed link; the admin gives their name."""
    _client, user = signed_up_by_link(ADDRESS, smtp, first_name=NAME, last_name=SURNAME)
    return user


def device_key() -> str:
    """A browser's P-256 public key, as a ``PushSubscription`` gives it."""
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(point).decode().rstrip("=")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def a_full_life(zq, bob, carol, maud, smtp) -> dict:
    """Zq plays a game of each kind (one to its end, rated), chats, is quoted by a
    moderator, plans, subscribes a device, replies by email and plays a tournament."""
    games = {}
    finished = started("azul", zq, bob)
    play_to_end(finished)
    games["finished"] = finished
    pavilion = every_player_moved(started("summer-pavilion", bob, zq))
    games["pavilion"] = pavilion
    miyabi = started("miyabi", zq, bob, carol)
    games["miyabi"] = miyabi
    message = chat_post(game=pavilion, user=zq, text=CHAT)
    chat_post(game=pavilion, user=bob, text="a reply of Bob's")
    moderate_pause(game=pavilion, moderator=maud, reason=f"{NAME} asked for a pause")
    moderate_resume(game=pavilion, moderator=maud, reason=f"back: {NAME}")
    moderate_hide_message(message=message, moderator=maud, reason=f"{NAME} wrote: {CHAT}")
    push_subscribe(
        user=zq,
        endpoint="https://fcm.googleapis.com/fcm/send/zq-device",
        p256dh=device_key(),
        auth=base64.urlsafe_b64encode(b"sixteen byte key").decode().rstrip("="),
    )
    # A reply by email to the turn email of the Miyabi game, when it is Zq's turn.
    while to_move(miyabi) != zq:
        play(miyabi)
    sweep()
    turn = [m for m in smtp.to(ADDRESS) if m["Reply-To"]][-1]
    raw = (
        f"From: {NAME} {SURNAME} <{ADDRESS}>\r\nTo: {turn['Reply-To']}\r\n"
        f"Subject: Re: {turn['Subject']}\r\nMessage-ID: <zq-1@orchard.example>\r\n"
        f"In-Reply-To: {turn['Message-ID']}\r\n\r\n1\r\n{SAID_BY_EMAIL}\r\n"
    ).encode()
    assert mail.reply_receive(raw=raw).startswith("played")
    # A plan in the Azul game of the tournament-free kind: Zq answers Bob's next move.
    planned = started("azul", bob, zq)
    if to_move(planned) == zq:
        play(planned)
    first = factory_move(legal(planned))
    plan_replace(
        game=planned, user=zq, lines=[[first, factory_move(legal_after(planned, first), first)]]
    )
    tournament = tournament_create(
        organiser=bob, name="Orchard Swiss", format="swiss", game="azul", per_game=2, rounds=2
    )
    for player in (bob, zq, carol):
        tournament_join(tournament=tournament, user=player)
    organiser_starts(tournament, bob)
    games["tournament"] = tournament
    games.update(what_others_keep_of_them(zq, bob, carol, maud))
    return games


def what_others_keep_of_them(zq, bob, carol, maud) -> dict:
    """Issue 52: Zq organises a tournament they named; Carol invites Zq's address to her
    private tournament and Bob to a private game; a moderator names Zq in a game of Bob
    and Carol; Zq names an API token; Bob downloads his data, Zq in it."""
    organised = tournament_create(
        organiser=zq,
        name=f"{SURNAME} Orchard Open",
        public=False,
        invited=[carol.email],
        format="swiss",
        game="azul",
        per_game=2,
        rounds=2,
    )
    tournament_join(tournament=organised, user=carol)
    invited_to = tournament_create(
        organiser=carol,
        name="Carol's club night",
        public=False,
        invited=[ADDRESS],
        format="swiss",
        game="azul",
        per_game=2,
        rounds=2,
    )
    tournament_join(tournament=invited_to, user=zq)
    by_invitation = game_create(creator=bob, game="azul", players=2, invite=[ADDRESS], private=True)
    game_join(game=by_invitation, user=zq)
    theirs = every_player_moved(started("azul", bob, carol))
    moderate_pause(
        game=theirs, moderator=maud, reason=f"{NAME} {SURNAME} ({ADDRESS}) asked them to wait"
    )
    assert signed_in(zq).post("/account/tokens/", {"name": f"{SURNAME} laptop"}).status_code == 200
    download = data_export.data_export_request(user=bob)
    data_export.data_export_build(export_id=download.pk, email_text=render.sent_text)
    return {
        "organised": organised,
        "invited_to": invited_to,
        "by_invitation": by_invitation,
        "named_in": theirs,
        "download": download,
    }


@pytest.mark.django_db(transaction=True)
def test_a_closed_account_is_forgotten_everywhere_and_every_game_still_verifies(
    bob, carol, smtp, tmp_path, monkeypatch
):
    monkeypatch.setattr(data_export, "send_quickly", lambda name, args: True)  # built here
    zq, maud = the_person(smtp), moderator()
    games = a_full_life(zq, bob, carol, maud, smtp)
    assert found_in(database_dump(), TEXTS) == list(TEXTS)
    bob_rating = Rating.objects.get(user=bob, game_type="azul").display
    events_before = Event.objects.count()

    account_close(user=zq)

    zq.refresh_from_db()
    assert not zq.is_active and zq.email == "" and not zq.has_usable_password()
    assert found_in(database_dump(), [*TEXTS, SAID_BY_EMAIL]) == []
    assert found_in(redis_dump(), TEXTS) == []
    # Nor in any page or answer about what others keep of them, read by each of the
    # others and by a visitor.
    readers = [signed_in(bob), signed_in(carol), signed_in(maud), Client()]
    urls = [
        *urls_of_game(games["named_in"].pk),
        *urls_of_game(games["by_invitation"].pk),
        *urls_of_tournament(games["organised"].pk),
        *urls_of_tournament(games["invited_to"].pk),
    ]
    assert pages_holding(TEXTS, urls, readers) == []
    organised = Tournament.objects.get(pk=games["organised"].pk)
    assert organised.status == Tournament.Status.CANCELLED
    assert not DataExport.objects.filter(pk=games["download"].pk).exists()
    # History intact: no event changed or lost; every game replays and verifies.
    assert Event.objects.count() > events_before
    for game in Game.objects.filter(seats__user=zq).distinct():
        record = export_record(game)
        said = json.dumps(record)
        assert not any(text in said for text in TEXTS)
        path = tmp_path / f"{game.pk}.jsonl"
        path.write_text("\n".join(json.dumps(row) for row in record) + "\n")
        out = io.StringIO()
        call_command("verify_game", str(path), stdout=out)
        assert out.getvalue().startswith("OK")
        for url in (
            f"/games/{game.pk}/",
            f"/games/{game.pk}/replay/",
            f"/api/games/{game.pk}/export/",
            f"/api/games/{game.pk}/events/",
        ):
            page = signed_in(bob).get(url)
            assert page.status_code == 200, url
            body = page.content.decode()
            assert not any(text in body for text in TEXTS), url
        if url.endswith("/") and game.pk == games["pavilion"].pk:
            assert "Deleted player" in signed_in(bob).get(f"/games/{game.pk}/").content.decode()
    # Games in play went on without them: resigned, or left to the others.
    assert not Seat.objects.filter(
        user=zq, game__status=Game.Status.ACTIVE, status=Seat.Status.JOINED
    ).exists()
    # The others are as they were.
    assert Rating.objects.get(user=bob, game_type="azul").display == bob_rating
    assert signed_in(bob).get(f"/tournaments/{games['tournament'].pk}/").status_code == 200
    assert signed_in(bob).get(f"/players/{bob.pk}/").status_code == 200
    # Nothing of them is left to read or to sign in with.
    assert not PushSubscription.objects.filter(user=zq).exists()
    assert set(ChatMessage.objects.filter(author=zq).values_list("text", flat=True)) == {""}
    assert PlayerSettings.objects.get(user=zq).forgotten_at is not None
    assert not Outbox.objects.filter(recipient__iexact=ADDRESS).exists()
    assert Tournament.objects.get(pk=games["tournament"].pk).status == Tournament.Status.RUNNING
    with pytest.raises(ServiceError):
        account_close(user=zq)
