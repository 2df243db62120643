"""The locks every migration that touches the event table or the game rows takes, and for
how long, on a site of ``--games`` games (issue 57: "none holds a lock that blocks moves for
over a second"). The site is the population bench's (``bench/population.py``: its
templates played through the services and cloned in SQL), grown size by size.

At each size, every statement ``sqlmigrate`` gives for the ``events`` and ``games``
migrations that names ``events_event``, ``games_game`` or ``games_seat`` (or adds a foreign
key to ``games_game``, which locks it too) is run again on the full tables, its new objects
renamed, in a transaction rolled back, with ``lock_timeout`` of a second: printed, the
locks it held on those tables (``pg_locks``), whether they block a move (a move takes ROW
EXCLUSIVE on the event table and the game row: SHARE and above block it) and how long it
ran. A migration runs in one transaction, so a lock is held until its last statement ends:
each migration's sum is printed too. Python steps (``RunPython``) print what they do,
read by hand in ``docs/operations.md``. A foreign key added with a new, empty table is
checked here against the full table it will point from: an upper bound.

    nice -n 10 .venv/bin/python bench/migration_locks.py --games 1000 10000
"""

import argparse
import io
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import population  # noqa: E402 - after the path it needs

WATCHED = ("events_event", "games_game", "games_seat")
# Lock modes that conflict with ROW EXCLUSIVE, a move's lock on the tables it writes.
BLOCKING = {"ShareLock", "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock"}
LOCK_TIMEOUT = "1s"


def statements() -> list[tuple[str, str]]:
    """(migration, statement) for every statement of the events and games migrations
    that touches a watched table; a Python step as its comment."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    found = []
    for app, name in sorted(MigrationLoader(connection).disk_migrations):
        if app not in ("events", "games"):
            continue
        out = io.StringIO()
        call_command("sqlmigrate", app, name, stdout=out)
        # A table the migration creates is empty while it runs: nobody moves in it yet.
        created = set(re.findall(r'CREATE TABLE "(\w+)"', out.getvalue()))
        for statement in out.getvalue().split(";\n"):
            lines = [line.strip() for line in statement.splitlines() if line.strip()]
            code = " ".join(line for line in lines if not line.startswith("--"))
            if any(line.startswith("-- Raw Python") for line in lines):
                found.append((f"{app}.{name}", "-- a Python step (RunPython)"))
            touched = set(re.findall(r'"(events_event|games_game|games_seat)"', code))
            if code.startswith("CREATE TABLE") or not touched - created:
                continue
            found.append((f"{app}.{name}", code.rstrip(";")))
    return found


def renamed(statement: str) -> str | None:
    """The statement with the object it makes renamed (it exists already), or ``None``
    where it cannot be run again."""
    patterns = (
        r'(CREATE (?:UNIQUE )?INDEX ")([^"]+)(")',
        r'(ADD COLUMN ")([^"]+)(")',
        r'(ALTER COLUMN ")([^"]+)(" DROP DEFAULT)',
        r'(ADD CONSTRAINT ")([^"]+)(")',
    )
    for pattern in patterns:
        if re.search(pattern, statement):
            return re.sub(pattern, r"\1\2_lockcheck\3", statement)
    return None


def replayed(statement: str) -> tuple[float, set[str]]:
    """Run ``statement`` in a transaction rolled back: seconds, and the blocking lock
    modes it held on the watched tables."""
    from django.db import connection, transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
            began = time.perf_counter()
            cursor.execute(statement)
            took = time.perf_counter() - began
            cursor.execute(
                "SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
                " WHERE l.pid = pg_backend_pid() AND c.relname = ANY(%s)",
                [list(WATCHED)],
            )
            held = {f"{table} {mode}" for table, mode in cursor.fetchall() if mode in BLOCKING}
        transaction.set_rollback(True)
    return took, held


def measured(found: list[tuple[str, str]]) -> dict[str, float]:
    """Each statement replayed and printed; each migration's seconds of blocking locks."""
    from django.db import DatabaseError

    totals: dict[str, float] = {}
    for migration, statement in found:
        if statement.startswith("--"):
            print(f"  {migration}: {statement[3:]}")
            continue
        again = renamed(statement)
        if again is None:
            print(f"  {migration}: not run again: {statement[:100]}")
            continue
        try:
            took, held = replayed(again)
        except DatabaseError as error:
            print(f"  {migration}: not run again ({str(error).splitlines()[0]}): {statement[:60]}")
            continue
        if held:
            totals[migration] = totals.get(migration, 0.0) + took
        print(
            f"  {migration}: {took * 1000:8.1f} ms  {', '.join(sorted(held)) or 'blocks no move'}"
            f"  {statement[:90]}"
        )
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--database-url", default=population.DEFAULT_DATABASE + "_locks")
    args = parser.parse_args()
    population.setup(args.database_url, reuse=False)
    template_ids = population.templates()
    big, small = population.tournaments()
    population.prepared(template_ids)
    found = statements()
    by_size = {}
    for size in sorted(args.games):
        population.grown(size, template_ids, small)
        events = population.sql("SELECT count(*) FROM events_event")[0][0]
        print(f"\n{size:,} games, {events:,} events ({population.load()}):")
        by_size[size] = measured(found)
    print("\nseconds each migration holds a lock that blocks moves:")
    sizes = sorted(by_size)
    print("  migration" + "".join(f"  {size:>10,}" for size in sizes))
    for migration in sorted({m for totals in by_size.values() for m in totals}):
        row = "".join(f"  {by_size[size].get(migration, 0.0):10.3f}" for size in sizes)
        print(f"  {migration}{row}")


if __name__ == "__main__":
    main()
