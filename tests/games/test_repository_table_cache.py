"""The per-process cache of folded tables: always the same position as a full fold, and
never holding anything a rolled-back transaction appended."""

import pytest
from django.db import transaction

from games import repository
from games import table as tbl
from games import table_storage as storage
from games.services.moves import move_submit, move_undo
from tests.games.helpers import legal, play, started, to_move

pytestmark = pytest.mark.django_db(transaction=True)


def full_fold(game) -> tbl.Table:
    return tbl.fold(repository.empty_table(game), repository.records(game))


def same(a: tbl.Table, b: tbl.Table) -> bool:
    steps = [(s.seq, s.last, s.seat, s.move, s.events) for s in a.steps]
    return (a.last_seq, a.state, a.players, steps) == (
        b.last_seq,
        b.state,
        b.players,
        [(s.seq, s.last, s.seat, s.move, s.events) for s in b.steps],
    )


def test_a_cached_table_catches_up_with_moves_made_since(alice, bob):
    game = started("summer-pavilion", alice, bob)
    for _ in range(5):
        game.refresh_from_db()
        assert same(repository.game_table(game), full_fold(game))
        play(game)
    mover = to_move(game)
    play(game)
    move_undo(game=game, user=mover)
    game.refresh_from_db()
    assert same(repository.game_table(game), full_fold(game))


def test_a_rolled_back_move_never_reaches_the_cache(alice, bob):
    game = started("azul", alice, bob)
    before = repository.game_table(game)
    with pytest.raises(RuntimeError), transaction.atomic():
        move_submit(game=game, user=to_move(game), move=legal(game)[0])
        raise RuntimeError("the request failed after the move")
    game.refresh_from_db()
    after = repository.game_table(game)
    assert same(after, before) and same(after, full_fold(game))


def test_tables_read_from_the_cache_are_not_changed_by_their_readers(alice, bob):
    game = started("azul", alice, bob)
    first = repository.game_table(game)
    seq = first.last_seq
    play(game)
    assert first.last_seq == seq
    game.refresh_from_db()
    assert repository.game_table(game).last_seq > seq


def test_the_cache_keeps_the_latest_read_tables_within_its_memory_budget(alice, bob, settings):
    games = [started("azul", alice, bob) for _ in range(4)]
    for game in games:
        play(game)
        game.refresh_from_db()
    repository.tables_forgotten()
    size = repository.table_bytes(repository.game_table(games[0]))
    settings.TABLE_CACHE_MB = 2.5 * size / 2**20
    repository.tables_forgotten()
    for game in games:
        repository.game_table(game)
    assert list(repository._TABLES) == [(g.pk, g.rng_secret) for g in games[-2:]]
    assert repository._tables_bytes == sum(size for _, size in repository._TABLES.values())
    assert repository._tables_bytes <= settings.TABLE_CACHE_MB * 2**20


def test_a_tables_estimated_size_is_near_what_it_holds(alice, bob):
    game = started("summer-pavilion", alice, bob)
    for _ in range(40):
        play(game)
    game.refresh_from_db()
    table = repository.game_table(game)
    assert len(table.steps) > repository.SAMPLE_STEPS
    measured = repository.deep_size(table)
    assert 0.5 * measured <= repository.table_bytes(table) <= 2 * measured
    compact = storage.compact(table)
    measured = repository.deep_size(compact)
    assert 0.5 * measured <= repository.table_bytes(compact) <= 2 * measured
