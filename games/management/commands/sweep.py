"""One pass of every periodic job (what beat runs every minute)."""

from django.core.management.base import BaseCommand

from games.services.sweep import sweep


class Command(BaseCommand):
    help = "Run one pass of the periodic jobs: timeouts, warnings, reminders, digests, emails."

    def handle(self, *args, **options) -> None:
        counts = sweep()
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in counts.items()))
