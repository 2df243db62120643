"""Read models checked against their events: a cheap pass of the minute sweep.

The read models (the game row, the table snapshots) are projections anyone with the web
role's rights could rewrite (``UPDATE games_game SET scores=…`` shows in the API until
``rebuild_projections``); the events cannot be (the database refuses it). Each pass replays
a few finished games from their events, in turn by id so that every one comes round, and
compares: the game row as ``game_reproject`` would write it (in a savepoint rolled back,
so the drift stays for the operator to see and nothing is sent), and each snapshot with
the table folded to its event. Games found drifted are named on the status page
(``ProcessBeat`` ``drift``) and checked again on every pass until they agree (after
``rebuild_projections``)."""

import logging
import pickle
import zlib
from datetime import datetime

from django.db import transaction

from games import table as tbl
from games import table_storage as storage
from games.models import Game, ProcessBeat, TableSnapshot
from games.repository import empty_table, records
from games.services.tables import game_reproject

log = logging.getLogger(__name__)

# Finished games replayed per pass (a pass a minute: every game comes round in
# count / DRIFT_GAMES_PER_PASS minutes); each costs a fold of its events, milliseconds.
DRIFT_GAMES_PER_PASS = 3
# Drifted games named at most (each is checked again every pass).
DRIFT_NAMED_MOST = 20
BEAT = "drift"
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


class _Undone(Exception):
    """Rolls back the savepoint of a rebuild that was only a comparison."""

    def __init__(self, drifted: bool) -> None:
        self.drifted = drifted


def drift_check(*, now: datetime) -> int:
    """Replay the next ``DRIFT_GAMES_PER_PASS`` finished games and those found drifted
    before; record what was found for the status page. Returns how many games are known
    to have drifted."""
    beat = ProcessBeat.objects.filter(name=BEAT).first()
    detail = beat.detail if beat else {}
    cursor = int(detail.get("cursor") or 0)
    over = Game.objects.filter(status__in=OVER).order_by("pk")
    sample = list(over.filter(pk__gt=cursor)[:DRIFT_GAMES_PER_PASS])
    if len(sample) < DRIFT_GAMES_PER_PASS:
        sample += over.filter(pk__lte=cursor)[: DRIFT_GAMES_PER_PASS - len(sample)]
    named = [int(pk) for pk in detail.get("drifted", [])]
    checking = {game.pk: game for game in [*Game.objects.filter(pk__in=named), *sample]}
    drifted = sorted(pk for pk, game in checking.items() if game_drifted(game))
    if drifted:
        log.error("read models differ from their events in games %s", drifted)
    ProcessBeat.objects.update_or_create(
        name=BEAT,
        defaults={
            "at": now,
            "detail": {
                "cursor": sample[-1].pk if sample else 0,
                "checked": int(detail.get("checked") or 0) + len(sample),
                "drifted": drifted[:DRIFT_NAMED_MOST],
            },
        },
    )
    return len(drifted)


def game_drifted(game: Game) -> bool:
    """Whether the game's row or one of its table snapshots differs from what its events
    give: one fold of its events, for both."""
    check = _SnapshotsCheck(game)
    try:
        with transaction.atomic():
            raise _Undone(game_reproject(game=game, snapshots=False, folded=check))
    except _Undone as undone:
        row_drifted = undone.drifted
    return row_drifted or check.drifted()


def snapshots_drifted(game: Game) -> bool:
    """Whether a snapshot of the game, folded by the code running now, holds another table
    than its events fold to at its event (or does not read as a table at all)."""
    check = _SnapshotsCheck(game)
    if check.stored:
        table = empty_table(game)
        for record in records(game):
            table = tbl.evolve(table, record)
            check(table)
    return check.drifted()


class _SnapshotsCheck:
    """The game's snapshots, each compared with the table folded to its event as the fold
    passes it (snapshots of older code are left to be written again)."""

    def __init__(self, game: Game) -> None:
        self.stored = {s.seq: s for s in TableSnapshot.objects.filter(game=game)}
        self.code = storage.code_version(empty_table(game).engine) if self.stored else ""
        self.differs = False

    def __call__(self, table: tbl.Table) -> None:
        snapshot = self.stored.pop(table.last_seq, None)
        if self.differs or snapshot is None or snapshot.code != self.code:
            return
        try:
            self.differs = storage.loads(bytes(snapshot.table), table.engine) != storage.compact(
                table
            )
        except (pickle.UnpicklingError, zlib.error, EOFError, ValueError, TypeError):
            self.differs = True

    def drifted(self) -> bool:
        # A snapshot past the last event folds nothing the events hold.
        return self.differs or any(s.code == self.code for s in self.stored.values())
