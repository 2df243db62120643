"""The Celery application. Periodic jobs run from beat: each is a short task that sweeps
database columns (deadlines, reminders, the outbox); nothing waits in the broker for long."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

app = Celery("azulsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "heartbeat": {"task": "games.tasks.heartbeat", "schedule": 60.0},
    # Sends what is due (and what a lost broker dropped), applies deadlines, reminders,
    # vacations and digests; expires before the next run so runs never pile up.
    "sweep": {"task": "games.tasks.sweep", "schedule": 60.0, "options": {"expires": 55}},
}
