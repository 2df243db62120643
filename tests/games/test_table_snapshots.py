"""Table snapshots (``TableSnapshot``): a read folds only the events after the latest one,
a snapshot folded by other code is never read, and starting from one never changes what
the table folds to, however moves were voided after it."""

import io
import pickle
import random
import zlib

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from games import repository
from games import table as tbl
from games import table_storage as storage
from games.models import Game, TableSnapshot
from games.rules import azul, summer_pavilion
from games.selectors.access import MODERATORS_GROUP, seat_of
from games.services.moderation import moderate_revert
from games.services.moves import move_submit, move_undo, takeback_answer, takeback_request
from games.table_events import MovesVoided
from tests.conftest import make_user
from tests.games.helpers import legal, play, started, to_move

pytestmark = pytest.mark.django_db(transaction=True)

EVERY = 10


@pytest.fixture(autouse=True)
def snapshot_often(settings):
    settings.TABLE_SNAPSHOT_EVERY = EVERY


@pytest.fixture
def folded(monkeypatch) -> list[int]:
    """The seqs of the events folded since the test began (every ``table.evolve``)."""
    seqs: list[int] = []
    evolve = tbl.evolve

    def counting(table, record, **known):
        seqs.append(record.seq)
        return evolve(table, record, **known)

    monkeypatch.setattr(tbl, "evolve", counting)
    return seqs


def full_fold(game: Game, upto: int | None = None) -> tbl.Table:
    return tbl.fold(repository.empty_table(game), repository.records(game, upto=upto))


def same(a: tbl.Table, b: tbl.Table) -> bool:
    """The same table, but for the rules states of earlier steps, which a snapshot leaves
    out (``table_storage.compact``): players, steps and their events, the last rules
    state, clock."""
    return storage.compact(a) == storage.compact(b)


def cold_read(game: Game) -> tbl.Table:
    """The table as a process that has never seen the game reads it."""
    repository.tables_forgotten()
    game.refresh_from_db()
    return repository.game_table(game)


def played(game_type: str, moves: int, *users) -> Game:
    game = started(game_type, *users)
    chooser = random.Random(7)
    for _ in range(moves):
        play(game, chooser=chooser)
    game.refresh_from_db()
    return game


def test_a_cold_read_of_a_long_game_folds_fewer_events_than_a_snapshot_spans(alice, bob, folded):
    game = played("azul", 40, alice, bob)
    assert game.last_seq > 4 * EVERY
    folded.clear()
    table = cold_read(game)
    assert len(folded) < EVERY
    assert folded == list(range(game.last_seq - len(folded) + 1, game.last_seq + 1))
    assert same(table, full_fold(game))


def test_a_read_at_an_earlier_event_starts_from_the_snapshot_before_it(alice, bob, folded):
    game = played("summer-pavilion", 30, alice, bob)
    for upto in range(1, game.last_seq + 1):
        expected = full_fold(game, upto)
        folded.clear()
        assert same(repository.game_table(game, upto=upto), expected)
        # The snapshot of the span ``upto`` is in may lie just after it: then the one before.
        assert len(folded) < 2 * EVERY


def test_the_write_path_keeps_one_snapshot_per_span_and_only_moves_crossing_one_write(alice, bob):
    game = played("azul", 30, alice, bob)
    seqs = list(TableSnapshot.objects.filter(game=game).values_list("seq", flat=True))
    spans = [seq // EVERY for seq in sorted(seqs)]
    # One snapshot a span at most, written by the act that crossed into it: every multiple
    # of EVERY the game passed has one at or just after it (one act can cross two, as a
    # round's end appending its wall tiling, scoring and refill does: then one snapshot).
    assert seqs and len(spans) == len(set(spans))
    for multiple in range(EVERY, game.last_seq + 1, EVERY):
        assert any(multiple <= seq < multiple + 2 * EVERY for seq in seqs), multiple


def test_snapshots_folded_by_other_code_are_never_read(alice, bob, folded, monkeypatch):
    game = played("azul", 30, alice, bob)
    TableSnapshot.objects.filter(game=game).update(table=b"written by another version")
    monkeypatch.setattr(storage, "code_version", lambda engine: "another-version")
    folded.clear()
    assert cold_read(game) == full_fold(game)
    assert len(folded) == 2 * game.last_seq  # the read, then the full fold to compare


def test_a_snapshot_keeps_the_rules_state_of_its_last_step_only(alice, bob):
    game = played("azul", 30, alice, bob)
    snapshot = repository.table_snapshot(game)
    assert snapshot.state is not None and len(snapshot.steps) > 10
    assert all(step.state is None for step in snapshot.steps[:-1])
    assert same(snapshot, full_fold(game, snapshot.last_seq))


def test_the_code_version_names_the_engine_and_the_code_that_folds_it():
    assert storage.code_version(azul) != storage.code_version(summer_pavilion)
    assert storage.code_version(azul) == storage.code_version(azul)
    assert len(storage.code_version(azul)) == 16


def moderator():
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


def test_starting_from_a_snapshot_folds_like_the_whole_stream_through_undo_takebacks_and_reverts(
    alice, bob, carol
):
    """Snapshots are of a prefix of the stream: moves voided after one (an undo, an
    agreed takeback, a moderator's revert back past it) fold from it as from the start."""
    game = started("summer-pavilion", alice, bob, carol)
    chooser = random.Random(3)
    referee = moderator()
    for turn in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        table = repository.game_table(game)
        if turn % 9 == 4 and table.boundaries():
            back_to = table.boundaries()[max(0, len(table.boundaries()) - 6)]
            moderate_revert(game=game, moderator=referee, reason="a dispute", to_seq=back_to)
        elif turn % 7 == 3 and (points := tbl.takeback_points(table)):
            asking = to_move(game)
            request = takeback_request(game=game, user=asking, to_seq=points[-1])
            for user in (alice, bob, carol):
                if user != asking:
                    takeback_answer(game=game, user=user, request=request, accept=True)
        else:
            mover = to_move(game)
            play(game, chooser=chooser)
            game.refresh_from_db()
            if turn % 5 == 1:
                seat = seat_of(game, mover)
                if tbl.undoable_step(repository.game_table(game), seat.position):
                    move_undo(game=game, user=mover)
        game.refresh_from_db()
        assert same(cold_read(game), full_fold(game))
    voided = [r for r in repository.records(game) if isinstance(r.event, MovesVoided)]
    assert {r.event.cause for r in voided} == {"undo", "takeback", "revert"}
    assert TableSnapshot.objects.filter(game=game).count() >= 4
    for upto in range(1, game.last_seq + 1):
        assert same(repository.game_table(game, upto=upto), full_fold(game, upto))


def test_rebuild_projections_discards_the_snapshots_and_writes_them_again(alice, bob):
    game = played("miyabi", 20, alice, bob)
    TableSnapshot.objects.filter(game=game).update(table=b"damaged")
    call_command("rebuild_projections", stdout=io.StringIO())
    seqs = sorted(TableSnapshot.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(EVERY, game.last_seq + 1, EVERY))
    assert same(cold_read(game), full_fold(game))


def test_a_move_that_crosses_a_span_writes_its_snapshot_in_one_statement_more(
    alice, bob, django_assert_max_num_queries, settings
):
    game = started("azul", alice, bob)
    repository.game_table(game)

    def statements_of_next_move() -> list[str]:
        game.refresh_from_db()
        user, move = to_move(game), legal(game)[0]
        with django_assert_max_num_queries(20) as captured:
            move_submit(game=game, user=user, move=move)
        return [q["sql"] for q in captured.captured_queries]

    settings.TABLE_SNAPSHOT_EVERY = 10_000
    ordinary = statements_of_next_move()
    settings.TABLE_SNAPSHOT_EVERY = 1
    crossing = statements_of_next_move()
    snapshots = [sql for sql in crossing if "games_tablesnapshot" in sql]
    assert len(snapshots) == 1 and snapshots[0].startswith("INSERT")
    assert len(crossing) == len(ordinary) + 1


class Smuggled:
    def __reduce__(self):
        return (print, ("never called",))


@pytest.mark.parametrize(
    "data",
    [
        pickle.dumps(Smuggled()),
        # ModuleType, as imported by games.table (a class, but not one of the table's values).
        b"\x80\x02cgames.table\nModuleType\nX\x01\x00\x00\x00x\x85R.",
        # A class of a module whose name starts like the table's (not one of its values).
        b"\x80\x02cgames.table_storage\n_Pickler\nX\x01\x00\x00\x00x\x85R.",
        # A dotted name reaching through a module to a function.
        b"\x80\x04\x8c\x0bgames.table\x8c\x0cpickle.loads\x93C\x01.\x85R.",
        # A function of the engine.
        b"\x80\x02cgames.rules.azul\nreplay\n)\x85R.",
    ],
    ids=["builtin", "imported-class", "module-named-alike", "dotted-name", "engine-function"],
)
def test_a_snapshot_holding_anything_but_a_tables_values_is_refused(data):
    with pytest.raises(pickle.UnpicklingError):
        storage.loads(zlib.compress(data), azul)
