"""The minute sweep in words (issue 53), for the operator: its jobs' names and the counts
a pass returns (``services.sweep.sweep``), through translation, as the status page and
``manage.py sweep`` say them, never the names the code gives them. Counts of things the
sweep had no time for and handed to the workers say so: a worker does them, if one runs."""

from django.utils.translation import gettext_lazy

# The minute sweep's jobs (``games.services.sweep.JOBS``, each channel's notices due last).
JOB_TITLES = {
    "vacations_ended": gettext_lazy("Vacations that ran out"),
    "bot_moves": gettext_lazy("Computer players' moves"),
    "planned_moves": gettext_lazy("Planned moves"),
    "analyses_queued": gettext_lazy("Post-game analyses"),
    "timeouts": gettext_lazy("Timeouts"),
    "tournaments_started": gettext_lazy("Tournaments whose entry closed"),
    "tournament_rounds_begun": gettext_lazy("Tournament rounds whose games were not yet made"),
    "tournament_rounds_ended": gettext_lazy("Tournament rounds past their deadline"),
    "warnings": gettext_lazy("Deadline warnings"),
    "reminders": gettext_lazy("Reminders"),
    "digests": gettext_lazy("Daily digests"),
    "read_models_drifted": gettext_lazy("Read models checked against their events"),
    "data_exports": gettext_lazy("Downloads of players' data"),
    "retention": gettext_lazy("Old emails, sign-in links and downloads forgotten"),
    "emails": gettext_lazy("Emails due"),
    "pushes": gettext_lazy("Push notifications due"),
}

# What one pass did, by the name of each count: a job's own name when it returns one
# number, else the names of its counts (the retention's; a channel's ``Channel.tally``).
COUNTS = {
    "vacations_ended": gettext_lazy("vacations ended"),
    "bot_moves": gettext_lazy("games where a computer played, or that were handed to the workers"),
    "planned_moves": gettext_lazy("planned moves played, or handed to the workers"),
    "analyses_queued": gettext_lazy("post-game analyses asked for"),
    "timeouts": gettext_lazy("timeouts applied, or handed to the workers"),
    "tournaments_started": gettext_lazy("tournaments started or called off"),
    "tournament_rounds_begun": gettext_lazy("tournament rounds whose games were made"),
    "tournament_rounds_ended": gettext_lazy("tournament rounds ended at their deadline"),
    "warnings": gettext_lazy("deadline warnings written"),
    "reminders": gettext_lazy("reminders written"),
    "digests": gettext_lazy("daily digests written"),
    "read_models_drifted": gettext_lazy("games whose read model differs from their events"),
    "data_exports": gettext_lazy("downloads of players' data started again"),
    "replies_forgotten": gettext_lazy("old email replies forgotten"),
    "sign_ins_deleted": gettext_lazy("old sign-in emails deleted"),
    "emails_emptied": gettext_lazy("old emails emptied"),
    "pushes_emptied": gettext_lazy("old pushes emptied"),
    "emails_deleted": gettext_lazy("old emails deleted"),
    "pushes_deleted": gettext_lazy("old pushes deleted"),
    "downloads_deleted": gettext_lazy("expired downloads deleted"),
    "sent": gettext_lazy("emails sent by the sweep"),
    "emails_handed": gettext_lazy("emails handed to the workers to send"),
    "in_doubt": gettext_lazy("emails in doubt (a worker stopped while sending)"),
    "retried": gettext_lazy("emails to try again (a worker stopped before sending)"),
    "pushed": gettext_lazy("pushes sent by the sweep"),
    "pushes_handed": gettext_lazy("pushes handed to the workers to send"),
    "pushes_lost": gettext_lazy("pushes in doubt (a worker stopped while sending)"),
    "pushes_retried": gettext_lazy("pushes to try again"),
    "jobs_failed": gettext_lazy("jobs that failed"),
}


def job_title(name: str) -> str:
    return str(JOB_TITLES.get(name, name.replace("_", " ")))


def counts_said(counts: dict) -> list[tuple[str, int]]:
    """The counts of a pass that are not zero, each with its words (a count this module
    does not know, a channel added later, by its name with spaces)."""
    return [
        (str(COUNTS.get(name, name.replace("_", " "))), count)
        for name, count in counts.items()
        if count
    ]
