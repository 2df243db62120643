"""Moderation through the admin: every act is an event with the moderator as actor and a
reason; only staff in the moderators group may act; the record still verifies."""

import io
import json

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.utils import formats, timezone

from events import store
from games import repository
from games.errors import Forbidden
from games.models import ChatMessage, Game, Report
from games.selectors.history import export_record
from games.services.chat import report_create
from games.services.moderation import hidden_reason_of
from tests.conftest import make_user
from tests.games.helpers import last_step_is_barrier, play, started, to_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client


@pytest.fixture
def game(alice, bob):
    return started("azul", alice, bob, time_control={"kind": "per_move", "days": 3})


def moderate(client, game, **form):
    return client.post(f"/admin/games/game/{game.pk}/moderate/", form)


def last_event(game):
    return store.load(game.stream)[-1]


def test_pausing_and_resuming_are_recorded_and_move_the_deadline(mod_client, moderator, game):
    deadline = game.deadline
    response = moderate(mod_client, game, action="pause", reason="player in hospital")
    assert response.status_code == 302
    event = last_event(game)
    assert event.type == "table.Paused"
    assert (event.actor, event.reason) == (f"moderator:{moderator.pk}", "player in hospital")
    game.refresh_from_db()
    assert game.paused_at is not None
    moderate(mod_client, game, action="resume", reason="back home")
    game.refresh_from_db()
    assert game.paused_at is None and game.deadline >= deadline


def test_extending_the_deadline(mod_client, game):
    deadline = game.deadline
    moderate(mod_client, game, action="extend_deadline", reason="holiday", hours="24")
    game.refresh_from_db()
    assert (game.deadline - deadline).total_seconds() == 24 * 3600
    event = last_event(game)
    assert (event.type, event.data) == ("table.DeadlineExtended", {"seconds": 24 * 3600})


def test_playing_the_default_move_for_the_seat_to_move(mod_client, moderator, game):
    seat = game.to_move
    moderate(mod_client, game, action="default_move", reason="absent for a week")
    step = repository.game_table(game).steps[-1]
    assert (step.seat, step.auto) == (seat, "moderator")
    moved = next(e for e in store.load(game.stream) if e.seq == step.seq)
    assert moved.actor == f"moderator:{moderator.pk}" and moved.reason == "absent for a week"


def test_replacing_a_seat(mod_client, game, alice, carol):
    seat = game.seats.get(user=alice).position
    moderate(
        mod_client,
        game,
        action="replace_seat",
        reason="alice left the site",
        seat=str(seat),
        email="carol@example.com",
    )
    assert game.seats.get(position=seat).user == carol
    assert repository.game_table(game).players[seat] == f"user:{carol.pk}"


def test_reverting_across_a_draw_then_playing_on(mod_client, game):
    point = game.last_seq
    while not last_step_is_barrier(game):
        play(game)
    moderate(
        mod_client, game, action="revert", reason="a misclick everyone agreed on", to_seq=str(point)
    )
    game.refresh_from_db()
    assert last_event(game).type == "table.MovesVoided"
    assert repository.game_table(game).state == repository.game_table(game, upto=point).state
    play(game)
    play(game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_aborting_ends_the_game_without_a_result(mod_client, game):
    moderate(mod_client, game, action="abort", reason="cheating investigation")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winners == []


def test_an_action_without_a_reason_or_its_value_is_refused_and_records_nothing(mod_client, game):
    seq = game.last_seq
    response = moderate(mod_client, game, action="pause", reason="")
    assert response.status_code == 200 and b"This field is required" in response.content
    response = moderate(mod_client, game, action="revert", reason="why not")
    assert b"The chosen action needs this field." in response.content
    response = moderate(mod_client, game, action="revert", reason="x", to_seq="2")
    assert b"not the end of a move" in response.content
    assert store.current_seq(game.stream) == seq


def test_hiding_a_chat_message_is_an_event_of_its_game(mod_client, game, alice):
    message = ChatMessage.objects.create(game=game, author=alice, text="rude words")
    response = mod_client.post(
        f"/admin/games/chatmessage/{message.pk}/hide/", {"reason": "insults"}
    )
    assert response.status_code == 302
    message.refresh_from_db()
    assert message.hidden_at is not None and hidden_reason_of(message) == "insults"
    assert "insults" not in message.hidden_reason  # sealed, as in the event (issue 52)
    event = last_event(game)
    assert (event.type, event.data) == ("table.MessageHidden", {"message": message.pk})


def test_suspended_players_cannot_move_and_are_reinstated_with_a_reason(mod_client, game):
    player = to_move(game)
    mod_client.post(f"/admin/auth/user/{player.pk}/suspension/", {"reason": "abuse"})
    player.refresh_from_db()
    assert not player.is_active and player.player_settings.suspended_reason == "abuse"
    with pytest.raises(Forbidden):
        play(game)
    mod_client.post(f"/admin/auth/user/{player.pk}/suspension/", {"reason": "apologised"})
    player.refresh_from_db()
    assert player.is_active
    play(game)


def test_reports_are_listed_and_closed(mod_client, game, alice):
    report = report_create(game=game, reporter=alice, reason="stalling")
    listing = mod_client.get("/admin/games/report/?status__exact=open")
    assert b"stalling" in listing.content
    mod_client.post(
        "/admin/games/report/", {"action": "mark_handled", "_selected_action": [report.pk]}
    )
    report.refresh_from_db()
    assert report.status == Report.Status.HANDLED


@pytest.mark.parametrize("who", ["anonymous", "player", "staff outside the group", "superuser"])
def test_only_moderators_may_moderate(client, game, who):
    if who != "anonymous":
        user = make_user(who.split()[0], is_staff=who != "player", is_superuser=who == "superuser")
        client.force_login(user)
    seq = game.last_seq
    response = moderate(client, game, action="abort", reason="no")
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert "/admin/login/" in response["Location"]
    assert client.get("/admin/games/game/").status_code in (302, 403)
    assert store.current_seq(game.stream) == seq


def test_the_game_page_shows_seats_and_the_event_log(mod_client, game):
    moderate(mod_client, game, action="pause", reason="checking")
    page = mod_client.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    assert b"table.Paused" in page.content and b"checking" in page.content
    assert b"alice@example.com" in page.content


def test_search_by_player_email_and_filter_by_staleness(mod_client, game):
    assert str(game.pk).encode() in mod_client.get("/admin/games/game/?q=bob@example").content
    assert mod_client.get("/admin/games/game/?stale_days=7").status_code == 200


def test_the_record_still_verifies_after_moderation(mod_client, game, alice, carol, tmp_path):
    moderate(mod_client, game, action="pause", reason="a")
    moderate(mod_client, game, action="resume", reason="b")
    moderate(mod_client, game, action="default_move", reason="c")
    point = game.last_seq
    play(game)
    moderate(mod_client, game, action="revert", reason="d", to_seq=str(point))
    moderate(
        mod_client,
        game,
        action="replace_seat",
        reason="e",
        seat=str(game.seats.get(user=alice).position),
        email="carol@example.com",
    )
    play(game)
    path = tmp_path / "record.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in export_record(game)))
    out = io.StringIO()
    call_command("verify_game", str(path), stdout=out)
    assert out.getvalue().startswith("OK")


def test_the_replay_shows_moderator_acts_as_annotations(mod_client, moderator, game, alice):
    moderate(mod_client, game, action="extend_deadline", reason="storm cut the power", hours="12")
    moderate(mod_client, game, action="default_move", reason="away without a word")
    from django.test import Client

    player = Client()
    player.force_login(alice)
    page = player.get(f"/games/{game.pk}/replay/").text
    assert "storm cut the power" in page and "away without a word" in page
    assert moderator.first_name in page
    assert f"{moderator.first_name} (moderator)" in page
    assert formats.date_format(timezone.localtime(), "SHORT_DATE_FORMAT") in page
