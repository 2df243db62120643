"""Replays an exported game record through the rules: OK with the final scores, or the
first event that does not follow the rules (and a non-zero exit)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from games import table as tbl
from games import table_storage as storage
from games.registry import GAME_TYPES
from games.selectors.history import EXPORT_FORMAT
from games.table_verification import VerificationError, verify


class Command(BaseCommand):
    help = "Verify an exported game record (JSON lines from /api/games/{id}/export/)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the record, or - for standard input")
        parser.add_argument(
            "--seed",
            help="the game's published seed (a bot ladder match's): the draws must be its own",
        )

    def handle(self, *args, file: str, seed: str | None = None, **options) -> None:
        lines = _read(file)
        header, rows = _parse(lines)
        kind = GAME_TYPES[header["game"]]
        empty = tbl.empty(kind.engine, kind.namespace)
        try:
            table = verify(empty, _records(empty, rows), seed=seed)
        except VerificationError as error:
            raise CommandError(f"NOT OK: {error}") from None
        scores = list(table.scores())
        claimed = header.get("scores")
        if claimed and claimed != scores:
            raise CommandError(
                f"NOT OK: the header claims scores {claimed}, the rules give {scores}"
            )
        if header.get("winners") and header["winners"] != list(table.winners()):
            raise CommandError(
                f"NOT OK: the header claims winners {header['winners']}, "
                f"the rules give {list(table.winners())}"
            )
        state = "finished" if table.over else "in play"
        self.stdout.write(
            f"OK: {header['game']} game {header.get('id', '?')}, {len(rows)} events, {state}; "
            f"scores {scores}"
            + (f"; winners {list(table.winners())}" if table.over else "")
            + ("; every draw is the seed's" if seed else "")
        )


def _read(file: str) -> list[str]:
    try:
        if file == "-":
            return sys.stdin.read().splitlines()
        with open(file, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except OSError as error:
        raise CommandError(f"cannot read {file}: {error.strerror}") from None


def _parse(lines: list[str]) -> tuple[dict, list[dict]]:
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise CommandError(f"NOT OK: line {number} is not JSON ({error.msg})") from None
    if not rows or rows[0].get("format") != EXPORT_FORMAT:
        raise CommandError(f"NOT OK: the first line must be a header with format {EXPORT_FORMAT!r}")
    header = rows[0]
    if header.get("game") not in GAME_TYPES:
        raise CommandError(f"NOT OK: unknown game {header.get('game')!r}")
    return header, rows[1:]


def _records(table: tbl.Table, rows: list[dict]) -> list[tbl.Record]:
    """The events of the record as the table reads them (old forms upcast, as the event
    store reads them)."""
    try:
        return storage.read(table, rows)
    except (KeyError, TypeError, ValueError) as error:
        raise CommandError(f"NOT OK: an event cannot be read ({error})") from None
