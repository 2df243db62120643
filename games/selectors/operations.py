"""What the operator's status page reads: the deliveries of each channel (emails, pushes)
due, scheduled, in doubt and not needed, the background jobs and the games waiting on a
computer player."""

from datetime import datetime, timedelta

from django.db.models import F, QuerySet

from games.models import (
    BotLevel,
    Delivery,
    Game,
    InboundMessage,
    Outbox,
    ProcessBeat,
    PushDelivery,
    SweepFailure,
)

# Past this, the page marks the worker, the sweep or the sending as late: all run every minute.
PROCESS_LATE = timedelta(minutes=5)
# The beats the page watches (``services.operations.process_beat``'s names).
WATCHED = ("sweep", "deliveries", "heartbeat")
# The items resting after failing that the page lists, the soonest tried again first.
RESTING_SHOWN = 50


def operator_status(now) -> dict:
    """What an operator checks first: each channel's backlog and deliveries in doubt
    (``emails``, ``pushes``), when the sweep, the sending and the worker last ran, games
    waiting on a bot, the sweep's jobs that failed and the items resting after failing, the
    read models found to differ from their events (``services.drift``), and the errors of
    the last day (deliveries of every channel, replies)."""
    pending = Delivery.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    day_ago = now - timedelta(days=1)
    beats = {beat.name: beat for beat in ProcessBeat.objects.all()}
    return {
        "emails": deliveries(Outbox.objects.all(), now),
        "pushes": deliveries(PushDelivery.objects.all(), now),
        "sweep": beats.get("sweep"),
        "deliveries": beats.get("deliveries"),
        "heartbeat": beats.get("heartbeat"),
        "late": {
            name: name not in beats or beats[name].at < now - PROCESS_LATE for name in WATCHED
        },
        "waiting_on_bots": games_waiting_on_bots().count(),
        "drift": beats.get("drift"),
        "jobs_failing": _jobs_failing(beats.get("sweep jobs")),
        "resting": list(SweepFailure.objects.order_by("next_try_at")[:RESTING_SHOWN]),
        "errors": {
            "failing": pending.exclude(last_error="").count(),
            "given_up": Delivery.objects.filter(cancelled_at__gte=day_ago, withdrawn_because="")
            .exclude(last_error="")
            .count(),
            "replies_refused": InboundMessage.objects.filter(
                received_at__gte=day_ago, outcome__startswith="refused"
            ).count(),
            "replies_ignored": InboundMessage.objects.filter(
                received_at__gte=day_ago, outcome__startswith="ignored"
            ).count(),
        },
    }


def deliveries(rows, now) -> dict:
    """One channel's deliveries (``rows``): due and not yet sent (and since when), scheduled
    for later, in doubt, and not needed in the last day."""
    pending = rows.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    oldest_due = pending.filter(due_at__lte=now).order_by("due_at").values_list("due_at", flat=True)
    return {
        "backlog": pending.filter(due_at__lte=now).count(),
        "scheduled": pending.filter(due_at__gt=now).count(),
        "oldest_due": oldest_due.first(),
        "in_doubt": rows.filter(last_error__startswith="in doubt").count(),
        "withdrawn": rows.filter(cancelled_at__gte=now - timedelta(days=1))
        .exclude(withdrawn_because="")
        .count(),
    }


def _jobs_failing(beat: ProcessBeat | None) -> list[dict]:
    """The minute sweep's jobs that failed (``services.sweep``), the one failing longest
    first: how many times since when, the last time and error, and when it ran again."""
    failures = beat.detail.get("failures", {}) if beat else {}
    rows = [
        {
            "job": name,
            "count": failure["count"],
            "since": datetime.fromisoformat(failure["since"]),
            "last": datetime.fromisoformat(failure["last"]),
            "error": failure["error"],
            "recovered": failure["recovered"] and datetime.fromisoformat(failure["recovered"]),
        }
        for name, failure in failures.items()
    ]
    return sorted(rows, key=lambda row: (row["recovered"] is not None, row["since"]))


def games_waiting_on_bots() -> QuerySet[Game]:
    """Games in play whose seat to move is a computer player's."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__position=F("to_move"),
        seats__user__isnull=True,
        seats__bot__in=BotLevel.values,
    )
