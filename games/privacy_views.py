"""The privacy page (issue 45): what the site keeps about a player, for how long, why, and
how to take it away or be forgotten. The durations are read from the settings
(``RETENTION_DAYS``, ``DATA_EXPORT_DAYS``, ``SESSION_COOKIE_AGE``), so the page says what the
retention job (``services.retention``) does."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

DAY_SECONDS = 86400


@require_GET
def privacy_page(request: HttpRequest) -> HttpResponse:
    """Anyone may read it, signed in or not."""
    days = settings.RETENTION_DAYS
    return render(
        request,
        "privacy.html",
        {
            "inbound_days": days["inbound"],
            "sign_in_days": days["sign_in"],
            "sent_bodies_days": days["sent_bodies"],
            "sent_rows_days": days["sent_rows"],
            "export_days": settings.DATA_EXPORT_DAYS,
            "session_days": max(1, settings.SESSION_COOKIE_AGE // DAY_SECONDS),
        },
    )
