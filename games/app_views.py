"""The installable app: its web manifest, the service worker (served from the site's root,
so its scope is every page) and the page it shows offline. The worker shows the pushes
(``games.notify.channels.push``) and opens a game when one is tapped."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# Colours of the site's header and pages (site.css's --navy and --paper).
THEME_COLOUR = "#1d3557"
BACKGROUND_COLOUR = "#f4efe6"


@require_GET
@cache_control(max_age=86400)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what an installed azulsite is called, how it opens, its icons."""
    data = {
        "name": "azulsite",
        "short_name": "azulsite",
        "description": _("Correspondence games of Azul, Summer Pavilion and Miyabi"),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("lobby"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {
                "src": static(f"games/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
            }
            for size in (192, 512)
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker. Served from the root (a worker controls the pages under its own
    path) and never from a cache, so a new version takes over at the next visit."""
    context = {
        "offline_url": reverse("offline"),
        "icon_url": static("games/icon-192.png"),
        "css_url": static("games/site.css"),
    }
    return render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows when a page cannot be loaded: the site needs a connection."""
    return render(request, "offline.html")
