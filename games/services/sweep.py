"""The minute sweep: every periodic job of the site, once a minute (Celery beat), in the
order their effects feed each other."""

from datetime import datetime

from django.utils import timezone

from games import notify
from games.services import analysis, bots, deadlines, drift, notices, plans, tournaments


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """One pass of every periodic job: vacations that ran out, computer players' moves
    (lost tasks, the timeout policy ``bot``), planned moves and analyses whose task was
    lost, timeouts, tournaments whose entry window closed (started, or cancelled with too
    few players), tournament rounds whose deadline passed (their games forfeited by the
    player to move), then
    the notices the clock causes (deadline warnings, reminders, digests), the channels'
    notices due that no task sent (``notify.send_due``: web push), and a sample of
    finished games' read models checked against their events. Each job handles
    at most ``MAIL_SWEEP_BATCH`` rows and reads only rows due (indexed columns), never all
    games. Sending the emails due is the mail door's part of
    the minute (``games.mail.services.sweep``)."""
    now = now or timezone.now()
    return {
        "vacations_ended": deadlines.vacations_expire(now=now),
        "bot_moves": bots.bots_sweep(now=now),
        "planned_moves": plans.plans_sweep(now=now),
        "analyses_queued": analysis.analyses_sweep(now=now),
        "timeouts": deadlines.timeouts_apply(now=now),
        "tournaments_started": tournaments.tournaments_start_due(now=now),
        "tournament_rounds_ended": tournaments.tournaments_deadlines_apply(now=now),
        "warnings": notices.warnings_queue(now=now),
        "reminders": notices.reminders_queue(now=now),
        "digests": notices.digests_queue(now=now),
        **notify.send_due(now=now),
        "read_models_drifted": drift.drift_check(now=now),
    }
