"""One pass of every periodic job (what beat runs every minute)."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext

from games.services.sweep import sweep
from games.sweep_words import counts_said


class Command(BaseCommand):
    help = (
        "Run one pass of the periodic jobs: timeouts, warnings, reminders, digests, emails. "
        "What the pass has no time for is handed to the workers, which do it only if one runs."
    )

    def handle(self, *args, **options) -> None:
        counts = sweep()
        said = counts_said(counts)
        for words, count in said:
            self.stdout.write(f"{words}: {count}")
        if not said:
            self.stdout.write(gettext("Nothing was due in the last pass."))
        if any(count for name, count in counts.items() if name.endswith("_handed")):
            self.stdout.write(
                gettext(
                    "What was handed to the workers is sent by a worker, if one runs "
                    "(make run starts one; in production, the Procfile's worker)."
                )
            )
