"""Django's ``compilemessages``, made to work on a fresh machine: without GNU gettext's
``msgfmt`` (a slim Python image has none) the catalogs of ``LOCALE_PATHS`` are compiled
with polib instead, and the project's virtualenv is never searched for catalogs."""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.commands import compilemessages
from django.core.management.utils import find_command

NOT_OURS = (".venv", "var", "staticfiles", "node_modules")


class Command(compilemessages.Command):
    def handle(self, **options):
        options["ignore_patterns"] = [*options["ignore_patterns"], *NOT_OURS]
        if find_command(self.program) is not None:
            return super().handle(**options)
        for po_path in sorted(self.catalogs(options["locale"], options["exclude"])):
            polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
            if options["verbosity"] > 0:
                self.stdout.write(f"compiled {po_path} (polib: msgfmt is not installed)")
        return None

    @staticmethod
    def catalogs(locales, exclude):
        for base in map(Path, settings.LOCALE_PATHS):
            for po_path in base.glob("*/LC_MESSAGES/*.po"):
                language = po_path.parent.parent.name
                if (not locales or language in locales) and language not in exclude:
                    yield po_path
