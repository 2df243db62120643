"""``manage.py health PROCESS``: the answer an orchestrator asks each process of the
Procfile for (compose's health checks, ``docs/operations.md``): exit 0 if it serves,
non-zero saying why not.

- ``web``, ``stream``: ``/healthz`` on the process's port answers (it reads the database).
- ``worker``, ``analysis``: the Celery worker named ``<process>@<this host>`` (the
  Procfile's ``--hostname``) answers a ping through the broker.
- ``beat``: the minute sweep beat sends ran within ``BEAT_LATE`` (beat and a worker run
  it together: with no worker, the worker's own check fails too)."""

import os
import socket
import urllib.request
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from azulsite.celery import app
from games.models import ProcessBeat

PORTS = {"web": ("PORT", "8000"), "stream": ("STREAM_PORT", "8001")}
# Beat sends the sweep every minute: past this, it has stopped (or never started).
BEAT_LATE = timedelta(minutes=3)
ASK_SECONDS = 5


class Command(BaseCommand):
    help = "Whether a process of the Procfile serves (exit 0), for an orchestrator's checks."

    def add_arguments(self, parser) -> None:
        parser.add_argument("process", choices=[*PORTS, "worker", "analysis", "beat"])

    def handle(self, *args, process: str, **options) -> None:
        if process in PORTS:
            variable, default = PORTS[process]
            url = f"http://127.0.0.1:{os.environ.get(variable, default)}/healthz"
            try:
                urllib.request.urlopen(url, timeout=ASK_SECONDS)
            except OSError as error:
                raise CommandError(f"{process}: {url} does not answer ({error})") from None
        elif process in ("worker", "analysis"):
            name = f"{process}@{socket.gethostname()}"
            if not app.control.ping(destination=[name], timeout=ASK_SECONDS):
                raise CommandError(f"{process}: the Celery worker {name} does not answer")
        else:
            beat = ProcessBeat.objects.filter(name="sweep").first()
            if beat is None or beat.at < timezone.now() - BEAT_LATE:
                raise CommandError(f"beat: the minute sweep has not run since {beat and beat.at}")
        self.stdout.write(f"{process}: ok")
