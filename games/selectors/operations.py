"""What the operator's status page reads: the outbox, the emails in doubt, the
background jobs and the games waiting on a computer player."""

from datetime import datetime, timedelta

from django.db.models import F, QuerySet

from games.models import BotLevel, Game, InboundMessage, Outbox, ProcessBeat

# Past this, the page marks the worker or the sweep as late: both run every minute.
PROCESS_LATE = timedelta(minutes=5)


def operator_status(now) -> dict:
    """What an operator checks first: the outbox backlog and the emails in doubt, when the
    sweep and the worker last ran, games waiting on a bot, the read models found to differ
    from their events (``services.drift``), and the errors of the last day."""
    pending = Outbox.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    day_ago = now - timedelta(days=1)
    oldest_due = pending.filter(due_at__lte=now).order_by("due_at").values_list("due_at", flat=True)
    beats = {beat.name: beat for beat in ProcessBeat.objects.all()}
    return {
        "backlog": pending.filter(due_at__lte=now).count(),
        "scheduled": pending.filter(due_at__gt=now).count(),
        "oldest_due": oldest_due.first(),
        "in_doubt": emails_in_doubt().count(),
        "withdrawn": Outbox.objects.filter(cancelled_at__gte=day_ago)
        .exclude(withdrawn_because="")
        .count(),
        "sweep": beats.get("sweep"),
        "heartbeat": beats.get("heartbeat"),
        "late": {
            name: name not in beats or beats[name].at < now - PROCESS_LATE
            for name in ("sweep", "heartbeat")
        },
        "waiting_on_bots": games_waiting_on_bots().count(),
        "drift": beats.get("drift"),
        "jobs_failing": _jobs_failing(beats.get("sweep jobs")),
        "errors": {
            "failing": pending.exclude(last_error="").count(),
            "given_up": Outbox.objects.filter(cancelled_at__gte=day_ago, withdrawn_because="")
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


def emails_in_doubt() -> QuerySet[Outbox]:
    """Emails a worker claimed and never marked sent (they may have gone out)."""
    return Outbox.objects.filter(last_error__startswith="in doubt")


def games_waiting_on_bots() -> QuerySet[Game]:
    """Games in play whose seat to move is a computer player's."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__position=F("to_move"),
        seats__user__isnull=True,
        seats__bot__in=BotLevel.values,
    )
