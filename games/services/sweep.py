"""The minute sweep: every periodic job of the site, once a minute (Celery beat), in the
order their effects feed each other, each apart from the others.

One job that fails never stops the others (issue 41: a finished game against the computer
made the read-model check raise every minute, and the emails after it were never sent). The
runner catches a job's error, logs it with the job's name and traceback, counts it for the
operator's status page (``ProcessBeat`` ``sweep jobs``: "failed N times since …") and goes on
to the next job. Transactions: every job already writes item by item (a game, a row, a
tournament), each in a transaction of its own; the runner adds none around a whole job, so
that a failure rolls back only the item it was in, and so that the sending jobs can commit
their claim on a row before handing it to the mail server or the push service."""

import logging
import traceback
from collections.abc import Callable, Iterable
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from azulsite import metrics
from games import notify
from games.models import ProcessBeat
from games.services import (
    analysis,
    bots,
    data_export,
    deadlines,
    drift,
    notices,
    plans,
    retention,
)
from games.services.sweep_failures import usable_again
from games.services.tournaments import entry, rounds
from games.sweeping import JobOverran, sweep_pass, time_bound

log = logging.getLogger(__name__)

# A job of the minute: called with ``now=``, it returns how many things it did (or a count
# per kind, as the channels' sending does).
Job = Callable[..., int | dict[str, int]]

# The status page's record of the jobs that failed.
BEAT = "sweep jobs"
# The last lines of a failed job's traceback kept for the status page.
ERROR_LINES = 6

# The jobs of the games, tournaments and notices to write (beat's ``sweep``).
SWEEP_JOBS: tuple[tuple[str, Job], ...] = (
    ("vacations_ended", deadlines.vacations_expire),
    # Computer players' moves whose task was lost, and the timeout policy ``bot``.
    ("bot_moves", bots.bots_sweep),
    ("planned_moves", plans.plans_sweep),
    ("analyses_queued", analysis.analyses_sweep),
    ("timeouts", deadlines.timeouts_apply),
    # Entry windows that closed: started, or cancelled with too few players.
    ("tournaments_started", entry.tournaments_start_due),
    # Rounds whose deadline passed: their games forfeited by the player to move, and the
    # next round paired, before the job that begins it, so that its games begin in the
    # same pass even when no worker can be asked to (issue 58).
    ("tournament_rounds_ended", rounds.tournaments_deadlines_apply),
    # Paired rounds whose games the task asked for did not create.
    ("tournament_rounds_begun", rounds.tournaments_rounds_begin),
    ("warnings", notices.warnings_queue),
    ("reminders", notices.reminders_queue),
    ("digests", notices.digests_queue),
    ("read_models_drifted", drift.drift_check),
    # Downloads of one's data whose task was lost (issue 45).
    ("data_exports", data_export.resume_stale_exports),
    # What is needed only for a while goes (issue 45): settled emails and pushes only.
    ("retention", retention.forget_expired),
)
# Each channel's notices due that no task sent, and the claims of workers that stopped:
# beat's ``deliveries``, a task of their own, so that nothing that hangs among the jobs
# above holds them (issue 58).
DELIVERY_JOBS: tuple[tuple[str, Job], ...] = tuple(notify.due_jobs())
# A whole pass (a command, a test): the deliveries last, so that what the jobs before
# them told goes out in the same pass.
JOBS = (*SWEEP_JOBS, *DELIVERY_JOBS)


def sweep(*, now: datetime | None = None, jobs: Iterable[tuple[str, Job]] | None = None) -> dict:
    """One pass of every periodic job (``jobs``, else ``JOBS``: the notices due last). Each
    job handles at most ``MAIL_SWEEP_BATCH`` rows and reads only rows due (indexed
    columns), never all games; the jobs share ``SWEEP_SECONDS`` to do things one at a time
    themselves, and hand the rest to the workers (``games.sweeping``); a job that runs past
    ``SWEEP_JOB_SECONDS`` is stopped and counted as failed. Returns each job's counts and
    ``jobs_failed``, how many jobs raised."""
    now = now or timezone.now()
    jobs = JOBS if jobs is None else jobs
    done: dict = {}
    failed: dict[str, str] = {}
    with sweep_pass():
        for name, job in jobs:
            try:
                with time_bound(settings.SWEEP_JOB_SECONDS), metrics.sweep_job(name):
                    counts = job(now=now)
            except (Exception, JobOverran):
                log.exception("minute sweep: the job %s failed; the other jobs go on", name)
                failed[name] = _last_lines(traceback.format_exc())
                usable_again()
                continue
            done.update(counts if isinstance(counts, dict) else {name: counts})
    _jobs_record([name for name, _ in jobs], failed, now)
    done["jobs_failed"] = len(failed)
    return done


def _last_lines(text: str) -> str:
    return "\n".join(text.strip().splitlines()[-ERROR_LINES:])


def _jobs_record(names: list[str], failed: dict[str, str], now: datetime) -> None:
    """Count each failed job on the status page ("failed N times since …", the last error);
    a job that ran again keeps its count, with when it recovered."""
    with transaction.atomic():
        beat, _ = ProcessBeat.objects.select_for_update().get_or_create(
            name=BEAT, defaults={"at": now}
        )
        failures = dict(beat.detail.get("failures", {}))
        for name in names:
            if name in failed:
                earlier = failures.get(name) or {}
                still = earlier and not earlier.get("recovered")
                failures[name] = {
                    "count": (earlier.get("count", 0) if still else 0) + 1,
                    "since": earlier["since"] if still else now.isoformat(),
                    "last": now.isoformat(),
                    "error": failed[name],
                    "recovered": None,
                }
            elif name in failures and not failures[name].get("recovered"):
                failures[name] = {**failures[name], "recovered": now.isoformat()}
        beat.at = now
        beat.detail = {"failures": failures}
        beat.save(update_fields=["at", "detail"])
