"""The operator's status page, for moderators: is mail flowing, are the background
processes alive, does anything wait on a bot, what failed today."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.selectors.access import is_moderator
from games.selectors.operations import operator_status
from games.sweep_words import counts_said, job_title


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
        failure["title"] = job_title(failure["job"])
    for name in ("sweep", "deliveries"):
        beat = context[name]
        context[f"{name}_counts"] = counts_said(beat.detail) if beat else []
    for item in context["resting"]:
        item.title = job_title(item.job)
    return render(request, "operator_status.html", {"now": now, **context})
