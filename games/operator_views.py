"""The operator's status page, for moderators: is mail flowing, are the background
processes alive, does anything wait on a bot, what failed today."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.selectors.access import is_moderator
from games.selectors.operations import operator_status

# The minute sweep's jobs (``games.services.sweep.JOBS``, each channel's notices due last) as the
# status page names them.
JOB_TITLES = {
    "vacations_ended": gettext_lazy("Vacations that ran out"),
    "bot_moves": gettext_lazy("Computer players' moves"),
    "planned_moves": gettext_lazy("Planned moves"),
    "analyses_queued": gettext_lazy("Post-game analyses"),
    "timeouts": gettext_lazy("Timeouts"),
    "tournaments_started": gettext_lazy("Tournaments whose entry closed"),
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


@never_cache
@login_required
@require_GET
def status(request: HttpRequest) -> HttpResponse:
    """Moderators only (``selectors.access.is_moderator``); anyone else gets 403."""
    if not is_moderator(request.user):
        return render(
            request,
            "refused.html",
            {"message": gettext("the status page is for moderators")},
            status=403,
        )
    now = timezone.now()
    context = operator_status(now)
    for failure in context["jobs_failing"]:
        failure["title"] = JOB_TITLES.get(failure["job"], failure["job"])
    return render(request, "operator_status.html", {"now": now, **context})
