"""The repository of every stream: games and their folded tables, tournaments and their
folded state, loaded for writers (services) and readers (selectors, doors) alike. A table is
folded from the game's stream, starting from the latest snapshot (``TableSnapshot``, written
here too) and kept per process for the next read; a tournament from its latest
``TournamentSnapshot``. Nothing here decides anything."""

import dataclasses
import sys
import threading
from collections import OrderedDict
from enum import Enum
from types import FunctionType, ModuleType

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext

from events import store
from events.shredding import unseal
from events.store import StoredEvent
from games import table as tbl
from games import table_storage as storage
from games.errors import NotFound
from games.models import Game, Seat, TableSnapshot, Tournament, TournamentSnapshot
from games.prepared import Prepared
from games.registry import game_type
from games.tournaments import core as tournament_core
from games.tournaments import storage as tournament_storage


def game_get(game_id) -> Game:
    """The game with that id; ``NotFound`` otherwise."""
    try:
        return Game.objects.get(pk=int(game_id))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise no_such_game(game_id) from None


def no_such_game(game_id) -> NotFound:
    """The answer about a game that does not exist (or that the reader may not know of)."""
    return NotFound(gettext("there is no game %(number)s") % {"number": game_id})


_SEATS_WITH_GAME = Prepared(
    lambda game_id: (
        Seat.objects.select_related("game", "user")
        .filter(game_id=game_id)
        .order_by("position", "pk")
    )
)


def game_with_seats(game_id) -> Game:
    """The game with that id, its seats and their players read in one statement (the
    API's reads run it on every call); ``NotFound`` otherwise."""
    try:
        seats = _SEATS_WITH_GAME(int(game_id))
    except (ValueError, TypeError):
        seats = []
    return seated(seats) if seats else game_get(game_id)


def seated(seats: list[Seat]) -> Game:
    """The game of ``seats`` (all of one game, read with it), which then answers
    ``game.seats.all()`` from them without a query."""
    game = seats[0].game
    for seat in seats:
        seat.game = game
    # As Django's own related managers do for prefetched rows: the filter is kept, and
    # built into SQL only if someone filters further (building it costs every move; the
    # figure is in docs/service.md, "What a move costs").
    cached = Seat.objects.all()
    cached._defer_next_filter = True
    cached = cached.filter(game=game)
    cached._result_cache, cached._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": cached}
    return game


def empty_table(game: Game) -> tbl.Table:
    """The game's table before its first event."""
    kind = game_type(game.game_type)
    return tbl.empty(kind.engine, kind.namespace, game.time_control)


def stored_events(game: Game, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
    """The game's events as stored (upcast, types namespaced), in order."""
    namespace = game_type(game.game_type).namespace
    return store.load(game.stream, after=after, upto=upto, legacy_namespace=namespace)


def records(game: Game, *, after: int = 0, upto: int | None = None) -> list[tbl.Record]:
    """The game's events as the table reads them."""
    table = empty_table(game)
    return [as_record(table, event) for event in stored_events(game, after=after, upto=upto)]


def as_record(table: tbl.Table, event: StoredEvent) -> tbl.Record:
    decoded = storage.decode(table, event.type, event.version, event.data)
    return tbl.Record(event.seq, decoded, event.actor, event.recorded_at)


# Tables folded up to some event, per process: a stream only ever grows, so a cached table
# needs just the events appended since. This keeps a move's cost flat however long the
# game has run. Keyed by the game's secret too, so a reused id never meets a stale table.
# Tables are immutable: a cached one is shared, never copied. The least recently used go
# once the tables' estimated memory passes ``TABLE_CACHE_MB``.
_TABLES: OrderedDict[tuple[int, str], tuple[tbl.Table, int]] = OrderedDict()
_TABLES_LOCK = threading.Lock()
_tables_bytes = 0


def game_table(game: Game, upto: int | None = None) -> tbl.Table:
    """The table after event ``upto`` (default: the latest): from the per-process cache or
    the latest snapshot before it (``TableSnapshot``), folded on with the events since."""
    if upto is not None:
        start = table_snapshot(game, upto) or empty_table(game)
        return tbl.fold(start, records(game, after=start.last_seq, upto=upto))
    key = (game.pk, game.rng_secret)
    with _TABLES_LOCK:
        cached = _TABLES.get(key)
        if cached is not None and cached[0].last_seq == game.last_seq:
            # The row says nothing was appended since: the kept table, used again now (it
            # holds only what was committed, so no commit need wait for this).
            _TABLES.move_to_end(key)
            return cached[0]
    if cached is not None:
        start = cached[0]
    elif game.last_seq < settings.TABLE_SNAPSHOT_EVERY:
        # Too short to have a snapshot worth asking for.
        start = empty_table(game)
    else:
        start = table_snapshot(game) or empty_table(game)
    if start.last_seq == game.last_seq:
        # The row says nothing was appended since: no need to ask the stream.
        table = start
    else:
        table = tbl.fold(start, records(game, after=start.last_seq))
    table_remember(game, table)
    return table


def row_table(game: Game) -> tbl.Table:
    """The table at the game row's last event: for a read that derives things from both
    (the seat to move, the status, the moves offered), so that they speak of one position
    even when a move was committed after the row was read (the latest table, then, is one
    event or more ahead of the row)."""
    table = game_table(game)
    return table if table.last_seq == game.last_seq else game_table(game, upto=game.last_seq)


def table_remember(game: Game, table: tbl.Table) -> None:
    """Keep ``table`` (the game's, up to its last event) for the next read in this
    process: the writer's own table after an append, so no read folds it again."""
    key = (game.pk, game.rng_secret)
    if connection.in_atomic_block:
        # The caller may append to this table and then roll back: remember it only once
        # everything it holds is committed.
        transaction.on_commit(lambda: _remember(key, table))
    else:
        _remember(key, table)


def tables_forgotten() -> None:
    """Every table this process keeps dropped: the next read of each game folds it from
    its snapshot (a cold process, as the benches and tests measure)."""
    global _tables_bytes
    with _TABLES_LOCK:
        _TABLES.clear()
        _tables_bytes = 0


def table_snapshot(game: Game, upto: int | None = None) -> tbl.Table | None:
    """The game's latest snapshot at or before event ``upto`` that this code folded."""
    engine = game_type(game.game_type).engine
    snapshots = TableSnapshot.objects.filter(game_id=game.pk, code=storage.code_version(engine))
    if upto is not None:
        snapshots = snapshots.filter(seq__lte=upto)
    found = snapshots.order_by("-seq").values_list("table", flat=True).first()
    return None if found is None else storage.loads(bytes(found), engine)


def _remember(key: tuple[int, str], table: tbl.Table) -> None:
    global _tables_bytes
    with _TABLES_LOCK:
        cached = _TABLES.get(key)
        if cached is not None and cached[0].last_seq >= table.last_seq:
            # Kept already (or a later one): the size is known and nothing changes but
            # the order.
            _TABLES.move_to_end(key)
            return
    size = table_bytes(table)
    budget = settings.TABLE_CACHE_MB * 2**20
    with _TABLES_LOCK:
        cached = _TABLES.get(key)
        if cached is None or cached[0].last_seq < table.last_seq:
            _tables_bytes += size - (cached[1] if cached else 0)
            _TABLES[key] = (table, size)
        _TABLES.move_to_end(key)
        while _tables_bytes > budget and len(_TABLES) > 1:
            _, (_, dropped) = _TABLES.popitem(last=False)
            _tables_bytes -= dropped


def table_snapshot_write(game: Game, table: tbl.Table) -> None:
    """Store the folded table (``TableSnapshot``), for reads to fold on from: one statement,
    replacing a snapshot at the same event that other code folded."""
    snapshot = TableSnapshot(
        game=game,
        seq=table.last_seq,
        code=storage.code_version(table.engine),
        table=storage.dumps(table),
    )
    TableSnapshot.objects.bulk_create(
        [snapshot],
        update_conflicts=True,
        unique_fields=["game", "seq"],
        update_fields=["code", "table"],
    )


# Steps of a game measured to estimate what a table takes in memory (``table_bytes``).
SAMPLE_STEPS = 24
_step_bytes: dict[str, tuple[int, int, int]] = {}


def table_bytes(table: tbl.Table) -> int:
    """An estimate of the memory a folded table holds: so much per step, and so much more
    per step that holds a rules state but the last (a table read from a compact snapshot
    holds few; ``table_storage.compact``). Both are measured once per process on the first
    table of each game read with ``SAMPLE_STEPS`` steps holding theirs (before one was, on
    the first table read). Steps share most of their rules state with the step before, so
    a step's state costs far less than a whole state."""
    steps = max(1, len(table.steps))
    stated = sum(step.state is not None for step in table.steps)
    sample = _step_bytes.get(table.namespace)
    if sample is None or sample[2] < SAMPLE_STEPS <= stated:
        sample = _step_bytes[table.namespace] = _measured(table)
    per_step, per_state, _ = sample
    return steps * per_step + max(0, stated - 1) * per_state


def _measured(table: tbl.Table) -> tuple[int, int, int]:
    """(bytes per step, bytes more per step holding its state, steps holding one)."""
    steps = max(1, len(table.steps))
    compact = deep_size(storage.compact(table))
    stated = sum(step.state is not None for step in table.steps)
    per_state = (deep_size(table) - compact) // (stated - 1) if stated > 1 else 0
    return compact // steps, per_state, stated


def deep_size(root) -> int:
    """Bytes held by ``root`` and everything it reaches (objects shared counted once;
    modules, classes and functions not at all)."""
    seen: set[int] = set()
    size = 0
    stack = [root]
    while stack:
        value = stack.pop()
        if id(value) in seen or isinstance(value, _SHARED):
            continue
        seen.add(id(value))
        size += sys.getsizeof(value)
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, tuple | list | set | frozenset):
            stack.extend(value)
        elif dataclasses.is_dataclass(value):
            stack.extend(getattr(value, field.name) for field in dataclasses.fields(value))
    return size


_SHARED = (ModuleType, type, FunctionType, Enum)


# --- tournaments ------------------------------------------------------------------------------

TOURNAMENT_NAMESPACE = "tournament"


def tournament_state(tournament: Tournament) -> tournament_core.Tournament:
    """The tournament folded from its stream ``tournament:<id>``: from its latest snapshot
    that this code folded (``TournamentSnapshot``), and the events after it."""
    found = (
        TournamentSnapshot.objects.filter(
            tournament_id=tournament.pk, code=tournament_storage.code_version()
        )
        .order_by("-seq")
        .values_list("seq", "state")
        .first()
    )
    seq, state = (found[0], tournament_storage.loads(bytes(found[1]))) if found else (0, None)
    events = store.load(tournament.stream, after=seq)
    return tournament_core.fold([tournament_event(event) for event in events], state)


def tournament_event(event: StoredEvent) -> tournament_core.Event:
    """A stored tournament event as the decider's value: a creation's name and invited
    addresses unsealed (``services.tournaments.stream._sealed``; "" and left out once
    their person is forgotten; an event written before sealing reads as written)."""
    name = event.type.removeprefix(f"{TOURNAMENT_NAMESPACE}.")
    data = event.data
    if name == "TournamentCreated":
        keys: dict = {}
        invited = [unseal(event.stream, text, keys) for text in data["settings"]["invited"]]
        data = {
            **data,
            "name": unseal(event.stream, data["name"], keys),
            "settings": {**data["settings"], "invited": [text for text in invited if text]},
        }
    return tournament_core.CODEC.decode({**data, "type": name, "version": event.version})
