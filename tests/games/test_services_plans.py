"""Conditional moves (issue 32) through the services: lines stored while waiting, answers
played by themselves when the game reaches them, plans trimmed, dropped and their players
told, "if still there" moves for the next turn, and plans that stay private."""

import random

import pytest
from django.contrib.auth.models import Group

from events import store
from games import repository, tasks
from games.errors import BadRequest, Conflict
from games.models import Game, NoticeKind, Outbox, Plan
from games.notify.channels.email.headlines import headline
from games.notify.channels.email.render import message
from games.selectors.access import MODERATORS_GROUP
from games.services.moderation import moderate_revert
from games.services.moves import move_submit, move_undo, takeback_answer, takeback_request
from games.services.plans import LOST_AFTER, plan_replace
from games.services.sweep import sweep
from tests.games.helpers import legal, seated, started, to_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def worker(monkeypatch, django_capture_on_commit_callbacks):
    """Planned moves are played as a worker plays them, right after the write that asked
    for them commits; ``worker(write)`` runs a write and what it asked for."""
    monkeypatch.setattr(
        "games.services.plan_following.send_quickly",
        lambda name, args, **kw: tasks.plan_move(*args) is not None,
    )

    def run(write, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return write(*args, **kwargs)

    return run


def waiting(game: Game):
    """The player who is not to move (two players), and the one who is."""
    mover = to_move(game)
    other = next(user for user in seated(game).values() if user != mover)
    return other, mover


def legal_after(game: Game, *moves: str) -> list[str]:
    """The legal moves after ``moves`` from the game's position (no draw among them)."""
    table = repository.game_table(game)
    engine, state = table.engine, table.state
    for move in moves:
        _events, state = engine.decide_and_evolve(state, engine.parse(move), random.Random(0))
    return [engine.format(command) for command in engine.legal_commands(state)]


def factory_move(moves: list[str], avoid: str = "") -> str:
    """A take from a factory display other than the one of ``avoid`` (no draw comes of it)."""
    source = avoid.split()[0] if avoid else None
    return next(m for m in moves if m.startswith("F") and m.split()[0] != source)


def played(game: Game) -> list[tuple[str, str]]:
    """Every move of the stream, with who played it."""
    return [
        (event.data["move"], event.actor)
        for event in store.load(game.stream)
        if event.type == "table.Moved"
    ]


def two_move_line(game: Game) -> list[str]:
    first = factory_move(legal(game))
    answer = factory_move(legal_after(game, first), first)
    second = factory_move(legal_after(game, first, answer), answer)
    last = factory_move(legal_after(game, first, answer, second), second)
    return [first, answer, second, last]


def test_a_two_move_line_is_played_by_itself_as_the_opponent_plays_into_it(alice, bob, worker):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    line = two_move_line(game)
    plan_replace(game=game, user=planner, lines=[line])

    worker(move_submit, game=game, user=opponent, move=line[0])

    assert played(game)[-2:] == [(line[0], f"user:{opponent.pk}"), (line[1], f"plan:{planner.pk}")]
    assert Plan.objects.get(game=game).lines == [line[2:]]
    assert to_move(game) == opponent
    worker(move_submit, game=game, user=opponent, move=line[2])
    assert played(game)[-1] == (line[3], f"plan:{planner.pk}")
    assert not Plan.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert not game.planned
    assert not Outbox.objects.filter(kind=NoticeKind.PLAN_DROPPED).exists()


def test_lines_branch_and_the_branch_the_opponent_chose_is_answered(alice, bob, worker):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    moves = [m for m in legal(game) if m.startswith("F")]
    one, other = moves[0], next(m for m in moves if m.split()[0] != moves[0].split()[0])
    answer_one = factory_move(legal_after(game, one), one)
    answer_other = factory_move(legal_after(game, other), other)
    plan_replace(game=game, user=planner, lines=[[one, answer_one], [other, answer_other]])

    worker(move_submit, game=game, user=opponent, move=other)

    assert played(game)[-1] == (answer_other, f"plan:{planner.pk}")
    assert not Plan.objects.filter(game=game).exists()


def test_a_move_no_line_expected_drops_the_plan_and_tells_its_player(alice, bob, worker):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    line = two_move_line(game)
    plan_replace(game=game, user=planner, lines=[line])
    unexpected = next(m for m in legal(game) if m != line[0])

    worker(move_submit, game=game, user=opponent, move=unexpected)

    assert played(game)[-1] == (unexpected, f"user:{opponent.pk}")
    assert not Plan.objects.filter(game=game).exists()
    told = Outbox.objects.get(kind=NoticeKind.PLAN_DROPPED)
    assert told.recipient == planner.email
    said = headline(told, game.seats.get(user=planner).position, told.created_at)
    assert said.startswith("Your plan for Azul")
    assert f"played {unexpected}, which none of your lines expected" in said
    assert said in " ".join(message(told, told.created_at).body.split())


def test_undoing_your_own_move_drops_the_plan_you_made_after_it(alice, bob, worker):
    game = started("azul", alice, bob)
    mover = to_move(game)
    first = factory_move(legal(game))
    worker(move_submit, game=game, user=mover, move=first)
    reply = factory_move(legal(game), first)
    answer = factory_move(legal_after(game, reply), reply)
    plan_replace(game=game, user=mover, lines=[[reply, answer]])

    worker(move_undo, game=game, user=mover)

    assert not Plan.objects.filter(game=game).exists()
    # Their own undo, on the page they are looking at: nothing to tell them.
    assert not Outbox.objects.filter(kind=NoticeKind.PLAN_DROPPED).exists()


def test_an_agreed_takeback_drops_the_plan(alice, bob, worker):
    game = started("azul", alice, bob)
    first_player = to_move(game)
    worker(move_submit, game=game, user=first_player, move=factory_move(legal(game)))
    planner, opponent = first_player, to_move(game)
    worker(move_submit, game=game, user=opponent, move=factory_move(legal(game)))
    # Now the planner is to move; they move, then plan their answers to the opponent.
    worker(move_submit, game=game, user=planner, move=factory_move(legal(game)))
    reply = factory_move(legal(game))
    plan_replace(
        game=game, user=planner, lines=[[reply, factory_move(legal_after(game, reply), reply)]]
    )
    back_to = repository.game_table(game).steps[-2].last

    request = worker(takeback_request, game=game, user=opponent, to_seq=back_to)
    worker(takeback_answer, game=game, user=planner, request=request, accept=True)

    assert not Plan.objects.filter(game=game).exists()


def test_a_moderators_revert_drops_the_plan_and_tells_its_player(alice, bob, carol, worker):
    carol.is_staff = True
    carol.save()
    carol.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    game = started("azul", alice, bob)
    first_player = to_move(game)
    worker(move_submit, game=game, user=first_player, move=factory_move(legal(game)))
    planner, opponent = waiting(game)
    reply = factory_move(legal(game))
    plan_replace(
        game=game, user=planner, lines=[[reply, factory_move(legal_after(game, reply), reply)]]
    )

    back_to = repository.game_table(game).steps[0].last
    worker(moderate_revert, game=game, moderator=carol, reason="misclick", to_seq=back_to)

    assert not Plan.objects.filter(game=game).exists()
    told = Outbox.objects.get(kind=NoticeKind.PLAN_DROPPED)
    assert told.recipient == planner.email
    assert "moves were taken back" in headline(told, None, told.created_at)


def test_an_if_still_there_move_is_played_at_the_start_of_the_turn(alice, bob, worker):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    theirs = factory_move(legal(game))
    mine = factory_move(legal_after(game, theirs), theirs)
    plan_replace(game=game, user=planner, lines=[], next_move=mine.lower())

    worker(move_submit, game=game, user=opponent, move=theirs)

    assert played(game)[-1] == (mine, f"plan:{planner.pk}")
    assert not Plan.objects.filter(game=game).exists()


def test_an_if_still_there_move_whose_tiles_are_gone_is_dropped_and_its_player_told(
    alice, bob, worker
):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    theirs = factory_move(legal(game))
    source, colour = theirs.split()[:2]
    plan_replace(game=game, user=planner, lines=[], next_move=f"{source} {colour} floor")

    worker(move_submit, game=game, user=opponent, move=theirs)

    assert played(game)[-1] == (theirs, f"user:{opponent.pk}")
    assert to_move(game) == planner
    assert not Plan.objects.filter(game=game).exists()
    told = Outbox.objects.get(kind=NoticeKind.PLAN_DROPPED)
    said = headline(told, None, told.created_at)
    assert said.startswith("Your planned move in Azul")
    assert f"{source} {colour} floor was no longer a legal move" in said


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([["F1 purple 3"]], 'line 1, move 1: cannot read "F1 purple 3": expected a colour'),
        ([["F9 blue 3"]], "line 1, move 1: illegal move"),
        ([["{theirs}"]], "line 1 ends with another player's move"),
        ([["{theirs}", "{mine}"], ["{theirs}", "{other}"]], "line 1 expects the same moves"),
        ([[]], "line 1 is empty"),
    ],
)
def test_a_line_that_cannot_be_played_is_refused_saying_which_move_and_what_is_accepted(
    alice, bob, lines, said
):
    game = started("azul", alice, bob)
    planner, _opponent = waiting(game)
    theirs = factory_move(legal(game))
    after = [m for m in legal_after(game, theirs) if m.startswith("F")]
    values = {"theirs": theirs, "mine": after[0], "other": after[1]}
    lines = [[step.format(**values) for step in line] for line in lines]

    with pytest.raises(BadRequest) as refused:
        plan_replace(game=game, user=planner, lines=lines)

    assert refused.value.code == "invalid_plan"
    assert said in refused.value.message
    if refused.value.details["reason"] in ("unreadable", "illegal"):
        assert theirs in refused.value.message
        assert theirs in refused.value.details["accepted"]
    assert not Plan.objects.exists()


def test_a_plan_is_refused_on_your_own_turn_and_for_a_game_that_moved_on(alice, bob):
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    with pytest.raises(Conflict) as refused:
        plan_replace(game=game, user=opponent, lines=[], next_move="F1 blue 1")
    assert refused.value.code == "your_turn"
    with pytest.raises(Conflict) as stale:
        plan_replace(game=game, user=planner, lines=[], next_move="F1 blue 1", expected_seq=0)
    assert stale.value.code == "stale"


def test_the_sweep_plays_a_planned_move_whose_task_was_lost(alice, bob, monkeypatch):
    monkeypatch.setattr("games.services.plan_following.send_quickly", lambda *a, **kw: False)
    game = started("azul", alice, bob)
    planner, opponent = waiting(game)
    line = two_move_line(game)[:2]
    plan_replace(game=game, user=planner, lines=[line])
    move_submit(game=game, user=opponent, move=line[0])
    plan = Plan.objects.get(game=game)
    assert plan.due_at is not None

    assert sweep(now=plan.due_at)["planned_moves"] == 0, "its task may still come"
    done = sweep(now=plan.due_at + LOST_AFTER)

    assert done["planned_moves"] == 1
    assert played(game)[-1] == (line[1], f"plan:{planner.pk}")


@pytest.mark.parametrize("slug", ["azul", "summer-pavilion", "miyabi"])
def test_every_game_plays_a_planned_answer_in_its_own_notation(slug, alice, bob, worker):
    game = started(slug, alice, bob)
    planner, opponent = waiting(game)
    table = repository.game_table(game)
    seat = game.seats.get(user=planner).position
    engine = table.engine
    theirs = next(
        move
        for move in legal(game)
        if engine.to_move(
            engine.decide_and_evolve(table.state, engine.parse(move), random.Random(0))[1]
        )
        == seat
    )
    mine = legal_after(game, theirs)[-1]
    plan_replace(game=game, user=planner, lines=[[theirs, mine]])

    worker(move_submit, game=game, user=opponent, move=theirs)

    assert played(game)[-1] == (mine, f"plan:{planner.pk}")
