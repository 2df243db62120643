"""Computer players at the table (issue 15): bot seats play through the services, from a
task queued on commit, and the minute sweep plays a bot whose task was lost."""

import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.utils import timezone

from events import store
from games import bots, repository, tasks
from games import table_storage as storage
from games.bots import LEVELS
from games.errors import BadRequest
from games.models import BotLevel, Game, NoticeKind, Outbox, Seat
from games.notify.channels.email.render import compose
from games.selectors.history import move_history
from games.selectors.names import players_of
from games.services.bots import bot_move
from games.services.common import bot_seed
from games.services.invitations import invitation_decline
from games.services.moves import game_resign, move_submit, takeback_answer, takeback_request
from games.services.rematch import game_rematch
from games.services.sweep import sweep
from games.services.tables import game_create, game_join, invitation_token
from tests.conftest import make_user
from tests.games.helpers import every_player_moved, legal, started


@pytest.fixture(autouse=True)
def quick_hard_bot(settings):
    """The hard bot thinks for a tenth of a second here (the site's default is 2 s)."""
    settings.BOT_HARD_SECONDS = 0.1


@pytest.fixture
def bot_tasks(monkeypatch) -> list:
    """The computer players' moves the reactions asked for, instead of a broker."""
    queued = []
    for module in ("reactions", "bots"):
        monkeypatch.setattr(
            f"games.services.{module}.send_quickly",
            lambda name, args, **kw: queued.append((name, args)),
        )
    return queued


def human_seat(game: Game) -> int:
    return game.seats.get(user__isnull=False).position


def play_as_human(game: Game, user) -> None:
    move_submit(game=game, user=user, move=legal(game)[0])
    game.refresh_from_db()


@pytest.mark.django_db
def test_playing_against_the_computer_starts_at_once_with_the_bot_seated(alice):
    game = game_create(creator=alice, game="azul", players=3, bots=["easy", "medium"])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    started = store.load(game.stream)[0]
    assert sorted(started.data["players"]) == sorted([f"user:{alice.pk}", "bot:easy", "bot:medium"])
    players = players_of(game)
    assert "Alice" in {p["player"] for p in players}
    # Two computers at the table: told apart by number, in seat order.
    computers = sorted((p["seat"], p["bot"], p["player"]) for p in players if p["bot"])
    assert [name for _seat, _level, name in computers] == [
        f"Computer {number} ({level})" for number, (_seat, level, _name) in enumerate(computers, 1)
    ]
    assert {level for _seat, level, _name in computers} == {"easy", "medium"}
    assert not Outbox.objects.filter(game=game).exclude(recipient=alice.email).exists()


@pytest.mark.django_db
def test_a_bot_seat_beside_an_open_seat_waits_for_the_player(alice, bob):
    game = game_create(creator=alice, game="azul", players=3, bots=["easy"])
    assert game.status == Game.Status.OPEN
    game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(bot="easy", user__isnull=True).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("bots", "code"),
    [(["impossible"], "invalid_bot_level"), ("easy", "invalid_bot_level"), (["easy"] * 2, None)],
)
def test_bot_levels_are_checked(alice, bots, code):
    with pytest.raises(BadRequest) as refused:
        game_create(creator=alice, game="azul", players=2, bots=bots)
    assert refused.value.code == (code or "too_many_invitations")
    assert "easy, medium, hard" in refused.value.message or code is None


@pytest.mark.django_db
def test_a_bot_turn_is_queued_on_commit_and_the_task_plays_it(
    alice, django_capture_on_commit_callbacks, bot_tasks
):
    queued = bot_tasks
    with django_capture_on_commit_callbacks(execute=True):
        game = game_create(creator=alice, game="azul", players=2, bots=["easy"])
    game.refresh_from_db()
    if game.to_move == human_seat(game):
        assert queued == []
        with django_capture_on_commit_callbacks(execute=True):
            play_as_human(game, alice)
    assert queued == [("games.tasks.bot_move", [game.pk])]
    before = game.last_seq
    assert tasks.bot_move(game.pk) == 1
    game.refresh_from_db()
    assert game.last_seq > before
    assert game.to_move == human_seat(game)
    moved = [e for e in store.load(game.stream) if e.type == "table.Moved"][-1]
    assert moved.actor == "bot:easy"
    assert tasks.bot_move(game.pk) == 0, "nothing is owed: a repeated task does nothing"


def computers_to_move(alice, bot_tasks: list) -> Game:
    """Alice's game of Azul against three computer players, a computer to move (Alice has
    played if the game began with her), no task asked for yet."""
    game = game_create(creator=alice, game="azul", players=4, bots=["easy"] * 3)
    game.refresh_from_db()
    if game.to_move == human_seat(game):
        play_as_human(game, alice)
    bot_tasks.clear()
    return game


@pytest.mark.django_db
def test_one_task_plays_every_computer_to_move_until_a_person_is(
    alice, django_capture_on_commit_callbacks, bot_tasks
):
    game = computers_to_move(alice, bot_tasks)
    with django_capture_on_commit_callbacks(execute=True):
        played = tasks.bot_move(game.pk)
    game.refresh_from_db()
    assert played >= 1
    assert game.to_move == human_seat(game) or game.status != Game.Status.ACTIVE
    assert bot_tasks == [], "no task asked for the moves it played itself"


@pytest.mark.django_db
def test_a_task_out_of_time_hands_the_computers_next_move_to_a_new_task(
    alice, settings, django_capture_on_commit_callbacks, bot_tasks
):
    settings.BOT_TASK_SECONDS = 0
    game = computers_to_move(alice, bot_tasks)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(game.pk) == 1
    game.refresh_from_db()
    if game.to_move != human_seat(game):
        assert bot_tasks == [("games.tasks.bot_move", [game.pk])]


@pytest.mark.django_db
def test_a_game_against_the_computer_is_played_to_the_end(alice):
    game = game_create(creator=alice, game="azul", players=2, bots=["easy"])
    game.refresh_from_db()
    for _ in range(300):
        if game.status != Game.Status.ACTIVE:
            break
        if game.to_move == human_seat(game):
            play_as_human(game, alice)
        else:
            assert bot_move(game_id=game.pk) >= 1
            game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result.excluded == "bot"
    history = move_history(game)
    assert {"Computer (easy)", "Alice"} <= {entry["actor"] for entry in history}


@pytest.mark.django_db
def test_the_sweep_plays_a_bot_seat_whose_task_was_lost(alice):
    game = game_create(creator=alice, game="miyabi", players=2, bots=["easy"])
    game.refresh_from_db()
    if game.to_move == human_seat(game):
        play_as_human(game, alice)
    bot = game.to_move
    assert sweep(now=timezone.now())["bot_moves"] == 0, "its task may still come"
    done = sweep(now=timezone.now() + timedelta(minutes=2))
    assert done["bot_moves"] == 1
    game.refresh_from_db()
    assert game.to_move != bot


@pytest.mark.django_db
def test_a_bot_plays_for_a_player_whose_time_ran_out(alice, bob):
    game = game_create(
        creator=alice,
        game="azul",
        players=2,
        time_control={"kind": "per_move", "days": 1},
        timeout_policy=Game.TimeoutPolicy.BOT,
        timeout_bot="hard",
    )
    game_join(game=game, user=bob)
    game.refresh_from_db()
    late = game.seats.get(position=game.to_move)
    done = sweep(now=game.deadline + timedelta(minutes=1))
    assert done["bot_moves"] == 1 and done["timeouts"] == 0
    game.refresh_from_db()
    assert game.to_move != late.position
    moved = [e for e in store.load(game.stream) if e.type == "table.Moved"][-1]
    assert (moved.actor, moved.data["auto"], moved.reason) == (
        "bot:hard",
        "timeout",
        "time ran out",
    )
    email = Outbox.objects.get(game=game, kind=NoticeKind.TIMEOUT)
    assert email.recipient == late.user.email and email.payload["move"] == moved.data["move"]
    entry = [e for e in move_history(game) if e["kind"] == "move"][-1]
    assert (entry["actor"], entry["auto"]) == ("Computer (hard)", "timeout")


@pytest.mark.django_db
def test_a_timeout_bot_level_needs_the_bot_policy(alice):
    with pytest.raises(BadRequest) as refused:
        game_create(creator=alice, game="azul", players=2, timeout_bot="easy")
    assert refused.value.code == "invalid_bot_level"
    game = game_create(creator=alice, game="azul", players=2, timeout_policy=Game.TimeoutPolicy.BOT)
    assert game.timeout_bot == "medium"


def test_the_site_offers_the_bots_levels():
    assert tuple(BotLevel.values) == LEVELS
    assert Seat._meta.get_field("bot").max_length >= max(map(len, LEVELS))


@pytest.mark.django_db
def test_a_moderator_replaces_a_vanished_player_by_a_bot_through_the_admin(client, alice, bob):
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="moderators"))
    client.force_login(moderator)
    game = started("azul", alice, bob)
    vanished = game.seats.get(user=bob).position
    form = {"action": "replace_seat_bot", "reason": "Bob left the site", "seat": vanished}
    refused = client.post(f"/admin/games/game/{game.pk}/moderate/", {**form, "level": "nope"})
    assert refused.status_code == 200 and game.seats.get(position=vanished).user == bob
    client.post(f"/admin/games/game/{game.pk}/moderate/", {**form, "level": "easy"})
    seat = game.seats.get(position=vanished)
    assert (seat.user, seat.bot) == (None, "easy")
    replaced = [e for e in store.load(game.stream) if e.type == "table.SeatReplaced"][-1]
    assert replaced.data["by"] == "bot:easy" and replaced.reason == "Bob left the site"
    note = [e for e in move_history(game) if e["kind"] == "note"][-1]
    assert note["text"] == f"Computer (easy) takes over the seat of player {vanished + 1}"
    game.refresh_from_db()
    if game.to_move != vanished:
        move_submit(game=game, user=alice, move=legal(game)[0])
        game.refresh_from_db()
    assert bot_move(game_id=game.pk) == 1


@pytest.mark.django_db
def test_play_random_seats_computer_players_of_the_levels_asked():
    out = io.StringIO()
    call_command(
        "play_random", "--game", "miyabi", "--players", "3", "--bots", "easy", "easy", stdout=out
    )
    said = out.getvalue()
    assert "Computer 1 (easy)" in said and "Computer 2 (easy)" in said and "Player 1" in said
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    assert sorted(game.seats.values_list("bot", flat=True)) == ["", "easy", "easy"]
    with pytest.raises(CommandError, match="easy, medium, hard"):
        call_command("play_random", "--players", "2", "--bots", "clever", stdout=out)


@pytest.mark.django_db
def test_the_timeout_email_names_the_computer_player_that_played(alice, bob):
    game = started(
        "azul",
        alice,
        bob,
        time_control={"kind": "per_move", "days": 1},
        timeout_policy=Game.TimeoutPolicy.BOT,
        timeout_bot="easy",
    )
    sweep(now=game.deadline + timedelta(minutes=1))
    row = Outbox.objects.get(game=game, kind=NoticeKind.TIMEOUT)
    email = compose(row, timezone.now())
    assert "so Computer (easy) played this move for you: " in email.preview
    assert email.preview.endswith(f" ({row.payload['move']}).")


@pytest.mark.django_db
def test_a_resigned_seat_in_a_three_player_game_is_played_by_the_easy_bot(alice, bob, carol):
    game = every_player_moved(started("summer-pavilion", alice, bob, carol))
    resigned_after = game.last_seq
    game_resign(game=game, user=carol)
    game.refresh_from_db()
    resigned = game.seats.get(user=carol).position
    for _ in range(40):
        move_submit(game=game, user=to_move_user(game), move=legal(game)[0])
        game.refresh_from_db()
    # Every position's state, also where the table was read from a compact snapshot.
    table = storage.expand(repository.game_table(game))
    played = [
        (before, step)
        for before, step in zip(table.steps, table.steps[1:], strict=False)
        if step.seat == resigned and step.seq > resigned_after
    ]
    assert played and all(step.auto == "resigned" for _, step in played)
    events = {e.seq: e for e in store.load(game.stream)}
    for before, step in played:
        assert events[step.seq].actor == "bot:easy"
        chosen = bots.choose(
            table.engine,
            before.state,
            resigned,
            "easy",
            seed=bot_seed(game, step.seq - 1),
        )
        assert step.move == table.engine.format(chosen)
    entry = next(e for e in move_history(game) if e.get("auto") == "resigned")
    assert entry["actor"] == "Computer (easy)"


def to_move_user(game: Game):
    return game.seats.get(position=game.to_move).user


@pytest.mark.django_db
def test_a_computer_player_accepts_a_takeback_at_once(alice, bob):
    game = game_create(creator=alice, game="miyabi", players=3, bots=["easy"])
    game_join(game=game, user=bob)
    game.refresh_from_db()
    while game.seats.get(position=game.to_move).user_id is None:
        bot_move(game_id=game.pk)
        game.refresh_from_db()
    asker = game.seats.get(position=game.to_move).user
    start = repository.game_table(game).last_seq
    move_submit(game=game, user=asker, move=legal(game)[0])
    game.refresh_from_db()
    other = bob if asker == alice else alice
    takeback_request(game=game, user=asker, to_seq=start)
    table = repository.game_table(game)
    assert table.takeback is not None and table.takeback.accepted == {
        game.seats.get(bot="easy").position
    }
    answered = [e for e in store.load(game.stream) if e.type == "table.TakebackAnswered"]
    assert [e.actor for e in answered] == ["bot:easy"]
    takeback_answer(game=game, user=other, request=table.takeback.request, accept=True)
    game.refresh_from_db()
    assert game.last_seq > start and repository.game_table(game).to_move() == (
        game.seats.get(user=asker).position
    )


@pytest.mark.django_db
def test_a_takeback_against_the_computer_alone_is_accepted_and_the_computer_plays_again(
    alice, django_capture_on_commit_callbacks, bot_tasks
):
    queued = bot_tasks
    game = game_create(creator=alice, game="azul", players=3, bots=["easy", "medium"])
    game.refresh_from_db()
    ends = []
    while len(ends) < 2:
        if game.to_move == human_seat(game):
            play_as_human(game, alice)
            ends.append(game.last_seq)
        else:
            bot_move(game_id=game.pk)
            game.refresh_from_db()
    computer = game.to_move
    assert computer != human_seat(game)
    back_to = ends[0]
    assert repository.game_table(game).step_at(back_to + 1).seat != human_seat(game)
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        takeback_request(game=game, user=alice, to_seq=back_to)
    game.refresh_from_db()
    events = store.load(game.stream)
    requested = [e for e in events if e.type == "table.TakebackRequested"]
    answered = [e for e in events if e.type == "table.TakebackAnswered"]
    assert [e.actor for e in requested] == [f"user:{alice.pk}"], "computer players never ask"
    assert sorted(e.actor for e in answered) == ["bot:easy", "bot:medium"]
    assert all(e.data["accepted"] for e in answered)
    table = repository.game_table(game)
    assert table.takeback is None and table.steps[-1].last == back_to
    assert game.to_move != human_seat(game), "the move after that point was a computer's"
    assert queued == [("games.tasks.bot_move", [game.pk])], "asked to play again at once"
    assert bot_move(game_id=game.pk) >= 1
    game.refresh_from_db()
    assert game.to_move == human_seat(game), "the computers played on to Alice's turn"


@pytest.mark.django_db
def test_a_rematch_keeps_the_computer_players(alice, bob):
    alone = game_create(creator=alice, game="azul", players=3, bots=["hard", "easy"])
    before = {s.user_id or s.bot: s.position for s in alone.seats.all()}
    Game.objects.filter(pk=alone.pk).update(status=Game.Status.FINISHED)
    alone.refresh_from_db()
    for _rematch in range(3):
        again = game_rematch(game=alone, user=alice)
        assert again.status == Game.Status.ACTIVE, "against the computer alone it starts at once"
        after = {s.user_id or s.bot: s.position for s in again.seats.all()}
        assert after == {who: (place + 1) % 3 for who, place in before.items()}
        order = store.load(again.stream)[0].data["players"]
        assert order == [
            f"user:{who}" if isinstance(who, int) else f"bot:{who}"
            for who, _place in sorted(after.items(), key=lambda item: item[1])
        ]
        Game.objects.filter(pk=again.pk).update(status=Game.Status.FINISHED)
        again.refresh_from_db()
        alone, before = again, after

    table = game_create(creator=alice, game="azul", players=3, bots=["medium"])
    game_join(game=table, user=bob)
    table.refresh_from_db()
    before = {s.user_id or s.bot: s.position for s in table.seats.all()}
    Game.objects.filter(pk=table.pk).update(status=Game.Status.FINISHED)
    table.refresh_from_db()
    rematch = game_rematch(game=table, user=alice)
    game_join(game=rematch, user=bob)
    after = {s.user_id or s.bot: s.position for s in rematch.seats.all()}
    assert after == {who: (place + 1) % 3 for who, place in before.items()}


@pytest.mark.django_db
def test_a_rematch_whose_invitation_was_declined_starts_when_someone_else_joins(alice, bob, carol):
    table = game_create(creator=alice, game="azul", players=3, bots=["easy"])
    game_join(game=table, user=bob)
    Game.objects.filter(pk=table.pk).update(status=Game.Status.FINISHED)
    table.refresh_from_db()
    rematch = game_rematch(game=table, user=alice)
    invited = rematch.seats.get(invited_email=bob.email.lower())
    invitation_decline(token=invitation_token(invited))
    game_join(game=rematch, user=carol)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    assert sorted(rematch.seats.values_list("position", flat=True)) == [0, 1, 2]
