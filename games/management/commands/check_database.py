"""Checks a database (a restored backup, or the live one): the event table's append-only
triggers are in place and enabled, every game's stream replays through the rules
(``verify``, as ``verify_game`` checks an export), every game's read model and snapshots
equal what its events give (the sweep's drift check, ``game_drifted``), and every
tournament's row equals what its stream gives (``tournament_reproject``, rolled back).
Nothing is written. Exits non-zero naming what failed (``docs/operations.md``)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from games.models import Game, Tournament
from games.repository import empty_table, records
from games.services.drift import game_drifted
from games.services.tournaments.stream import tournament_reproject
from games.table_verification import VerificationError, verify

# The triggers of events migrations 0002 and 0003 (PostgreSQL).
APPEND_ONLY_TRIGGERS = ("events_event_append_only", "events_event_no_truncate")
# pg_trigger.tgenabled: fires in every session ("O": origin, "A": always), not "D"isabled
# nor "R" (only where session_replication_role = replica).
FIRING = ("O", "A")
# Named at most per kind of failure.
NAMED_MOST = 20


class Command(BaseCommand):
    help = (
        "Check a database (a restored backup, or any): the event table's append-only "
        "triggers, every game replayed through the rules, every read model and tournament "
        "row equal to its events. Writes nothing; exits non-zero if anything differs."
    )

    def handle(self, *args, **options) -> None:
        problems = self._triggers()
        games = Game.objects.exclude(last_seq=0).order_by("pk")
        refused, drifted = [], []
        for game in games.iterator():
            try:
                verify(empty_table(game), records(game))
            except VerificationError as error:
                refused.append(f"game {game.pk}: {error}")
                continue
            if game_drifted(game):
                drifted.append(game.pk)
        count = games.count()
        self.stdout.write(f"{count - len(refused)} of {count} games replay through the rules.")
        problems += refused[:NAMED_MOST]
        if drifted:
            problems.append(f"read models differ from their events in games {drifted[:NAMED_MOST]}")
        tournaments = list(Tournament.objects.order_by("pk"))
        moved = [t.pk for t in tournaments if _tournament_drifted(t)]
        self.stdout.write(
            f"{len(tournaments) - len(moved)} of {len(tournaments)} tournaments' rows equal "
            "their events."
        )
        if moved:
            problems.append(f"tournament rows differ from their events: {moved[:NAMED_MOST]}")
        if problems:
            raise CommandError("NOT OK:\n  " + "\n  ".join(problems))
        self.stdout.write(
            "OK: the append-only triggers are in place; every read model equals its events."
        )

    def _triggers(self) -> list[str]:
        if connection.vendor != "postgresql":
            return []
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tgname, tgenabled FROM pg_trigger "
                "WHERE tgrelid = 'events_event'::regclass AND NOT tgisinternal"
            )
            found = dict(cursor.fetchall())
        problems = [
            f"the event table's trigger {name} is missing"
            for name in APPEND_ONLY_TRIGGERS
            if name not in found
        ]
        problems += [
            f"the event table's trigger {name} is disabled ({found[name]})"
            for name in APPEND_ONLY_TRIGGERS
            if name in found and found[name] not in FIRING
        ]
        return problems


def _tournament_drifted(tournament: Tournament) -> bool:
    """Whether the tournament's row differs from its stream: rebuilt, compared, rolled back."""
    with transaction.atomic():
        drifted = tournament_reproject(tournament=tournament)
        transaction.set_rollback(True)
    return drifted
