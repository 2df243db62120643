"""The legal moves of the seat to move (with their ``ETag``), and an event's public
form."""

import hashlib
from functools import lru_cache, partial
from types import ModuleType
from typing import Any

from events.store import StoredEvent
from games import table as tbl
from games import table_storage as storage
from games.models import Game


def legal_moves_of(table: tbl.Table) -> list[dict]:
    """Every legal move for the seat to move: its notation and structured form."""
    if table.to_move() is None:
        return []
    engine = table.engine
    return [
        {"move": move, "command": encoded}
        for move, encoded in map(partial(_said, engine), engine.legal_commands(table.state))
    ]


def legal_moves_etag(game: Game, table: tbl.Table, listed_for: int | None) -> str:
    """The ``ETag`` of a ``legal-moves/`` answer: the game's table at its last event, and
    the seat whose moves it lists (``None``: an empty list), so it changes whenever the
    answer may. The game's secret is in the digest, never readable from it, so a game
    of the same id in a database restored from an older backup never matches; the
    rules' code version too, since the notation may change with it."""
    said = f"{game.rng_secret}:{table.last_seq}:{listed_for}:{storage.code_version(table.engine)}"
    return '"' + hashlib.sha256(said.encode()).hexdigest()[:24] + '"'


@lru_cache(maxsize=50_000)
def _said(engine: ModuleType, command: Any) -> tuple[str, Any]:
    """A command in notation and structured. Commands are values, and a game offers the
    same ones over and over (a poll of legal-moves lists them all): each is said once per
    process. The structured form is shared between answers, so it must never change."""
    return engine.format(command), engine.encode_command(command)


def public_event(event: StoredEvent) -> dict:
    """An event as anyone allowed to see the game may read it. Events hold facts already
    visible at the table (tiles drawn onto factories are seen by all); the RNG secret lives
    only on the game row and never appears here."""
    return {
        "seq": event.seq,
        "type": event.type,
        "version": event.version,
        "data": event.data,
        "actor": event.actor,
        "reason": event.reason,
        "recorded_at": event.recorded_at.isoformat(),
    }
