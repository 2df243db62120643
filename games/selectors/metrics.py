"""What the metrics endpoint reads at each scrape (``azulsite.metrics``): each channel's
deliveries due, the oldest due, in doubt and given up, and when the periodic processes
last ran. Indexed reads (``delivery_pending``, ``delivery_in_doubt``), grouped by channel."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q

from games.models import Delivery, ProcessBeat


def deliveries_by_channel(now: datetime, given_up_within: timedelta) -> dict[str, dict]:
    """Per channel: ``due`` (due and not sent), ``oldest_due`` (its due time, or ``None``),
    ``in_doubt`` (handed over, never confirmed: never sent again without an operator) and
    ``given_up`` (given up after errors within ``given_up_within``). Every channel is
    named, with zeros."""
    figures = {
        channel: {"due": 0, "oldest_due": None, "in_doubt": 0, "given_up": 0}
        for channel in settings.NOTICE_CHANNELS
    }
    pending = Delivery.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    for row in (
        pending.filter(due_at__lte=now)
        .values("channel")
        .annotate(due=Count("pk"), oldest_due=Min("due_at"))
    ):
        figures.setdefault(row.pop("channel"), {"in_doubt": 0, "given_up": 0}).update(row)
    in_doubt = Delivery.objects.filter(in_doubt_at__isnull=False, sent_at__isnull=True)
    for row in in_doubt.values("channel").annotate(n=Count("pk")):
        figures.setdefault(row["channel"], {"due": 0, "oldest_due": None, "given_up": 0})
        figures[row["channel"]]["in_doubt"] = row["n"]
    gave_up = Delivery.objects.filter(
        Q(cancelled_at__gte=now - given_up_within),
        withdrawn_because="",
        in_doubt_at__isnull=True,
    ).exclude(last_error="")
    for row in gave_up.values("channel").annotate(n=Count("pk")):
        figures.setdefault(row["channel"], {"due": 0, "oldest_due": None, "in_doubt": 0})
        figures[row["channel"]]["given_up"] = row["n"]
    return figures


def last_runs() -> dict[str, datetime]:
    """When the minute sweep and the worker's heartbeat last ran."""
    return dict(
        ProcessBeat.objects.filter(name__in=("sweep", "heartbeat")).values_list("name", "at")
    )
