"""The Celery application. Periodic jobs run from beat: each is a short task that sweeps
database columns (deadlines, reminders, the outbox). Tasks are asked for when their work
is due, never with a countdown: what is due later waits in a ``due_at`` column for the
sweep, so a worker holds no message for long (``docs/service.md``, "The worker and its
broker")."""

import os

from celery import Celery
from kombu.exceptions import OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

app = Celery("azulsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "heartbeat": {"task": "games.tasks.heartbeat", "schedule": 60.0},
    # Applies deadlines, reminders, vacations and digests, plays what computers and plans
    # owe, runs tournaments; expires before the next run so runs never pile up.
    "sweep": {"task": "games.tasks.sweep", "schedule": 60.0, "options": {"expires": 55}},
    # Sends what is due (and what a lost broker dropped): a task of its own, so that a
    # job of the sweep that hangs never holds the emails and pushes (issue 58).
    "deliveries": {
        "task": "games.tasks.deliveries_sweep",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
}


def send_quickly(name: str, args: list) -> bool:
    """Ask a worker to run task ``name`` now; whether the broker took it. One quick try:
    the caller's transaction has committed, and what it asked for is also found by the
    minute sweep, so a broker that is down is reported, never waited for or raised."""
    try:
        with app.pool.acquire(block=True) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            app.send_task(name, args=args, retry=False, connection=connection)
    except (OperationalError, OSError):
        return False
    return True
