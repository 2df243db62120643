"""Pages of tournaments (issue 31): the list (open, running, finished) and a tournament's
page, with join, withdraw, start, pause, resume and cancel. Thin doors over the selectors
and one service each; a POST answers with a redirect to the tournament's page, a refusal
said there."""

from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.errors import BadRequest, ServiceError
from games.forms import TournamentCreateForm
from games.presenters.pages import page_of
from games.presenters.tournament_page import FORMAT_NAMES, tournament_context
from games.selectors import tournaments
from games.selectors.tournaments import (
    TOURNAMENT_LISTS,
    tournament_get,
    tournament_list_opening,
    tournament_view,
    tournaments_entered,
)
from games.services.tournaments.entry import tournament_create, tournament_join, tournament_withdraw
from games.services.tournaments.organiser import (
    tournament_cancel,
    tournament_pause,
    tournament_resume,
    tournament_start,
)
from games.views import refusal_page

LIST_NAMES = {
    "open": gettext_lazy("Open for registration"),
    "running": gettext_lazy("Running"),
    "finished": gettext_lazy("Finished"),
}
# Tournaments a page of the list shows; the older ones are on the next pages.
LIST_PAGE = 20


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Tournaments open for registration, running or finished (``?status=``; without it,
    where the viewer has something: ``tournament_list_opening``), the viewer's own
    marked, newest first, ``LIST_PAGE`` a page (``?page=``)."""
    which = request.GET.get("status", "")
    if which not in TOURNAMENT_LISTS:
        which = tournament_list_opening(request.user)
    rows, page = page_of(request, tournaments.tournament_list(which, request.user), LIST_PAGE)
    if not rows and page["number"] > 1:
        # A page past the list's end (a link kept from when it was longer): its first.
        return redirect(f"{request.path}?{urlencode({'status': which})}")
    entered = tournaments_entered(request.user, rows)
    context = {
        "which": which,
        "lists": LIST_NAMES.items(),
        "page": page,
        "params": urlencode({"status": which}),
        "rows": [
            {
                "tournament": row,
                "format": FORMAT_NAMES.get(row.format, ""),
                "entered": row.pk in entered,
            }
            for row in rows
        ],
    }
    return render(request, "tournaments/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The form that opens a tournament; the service decides what is allowed."""
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(organiser=request.user, **form.settings())
        except ServiceError as error:
            form.add_error(None, capfirst(error.message) + ".")
        else:
            return redirect("tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", {"form": form}, status=status)


@require_GET
@refusal_page
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A tournament: settings, players, standings with tie-breaks, rounds with their
    games, the viewer's game in play highlighted, and what the viewer may do."""
    tournament = tournament_get(tournament_id)
    view = tournament_view(tournament, request.user)
    return render(request, "tournaments/page.html", tournament_context(view))


def _tournament_action(view):
    """A POST on a tournament, answered by a redirect to its page (reloading never repeats
    it), a refusal said there as a message."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int) -> HttpResponse:
        try:
            view(request, tournament_get(tournament_id))
        except ServiceError as error:
            messages.error(request, capfirst(error.message) + ".")
        return redirect("tournament", tournament_id=tournament_id)

    return wrapper


@_tournament_action
def join_post(request: HttpRequest, tournament) -> None:
    tournament_join(tournament=tournament, user=request.user)


@_tournament_action
def withdraw_post(request: HttpRequest, tournament) -> None:
    tournament_withdraw(tournament=tournament, user=request.user)


@_tournament_action
def remove_post(request: HttpRequest, tournament) -> None:
    """The organiser or a moderator removes the player named by ``player``."""
    named = request.POST.get("player", "")
    # A number an id can be (larger ones are no player, not a database error).
    known = named.isdigit() and len(named) < 10
    player = get_user_model().objects.filter(pk=named).first() if known else None
    if player is None:
        raise BadRequest(gettext("there is no such player"), code="invalid_player")
    tournament_withdraw(tournament=tournament, user=request.user, player=player)


@_tournament_action
def start_post(request: HttpRequest, tournament) -> None:
    tournament_start(tournament=tournament, user=request.user)


def _calling(service):
    """The POST that calls ``service`` with the tournament and the viewer."""

    def view(request: HttpRequest, tournament) -> None:
        service(tournament=tournament, user=request.user)

    view.__name__ = view.__qualname__ = service.__name__
    return _tournament_action(view)


pause_post = _calling(tournament_pause)
resume_post = _calling(tournament_resume)
cancel_post = _calling(tournament_cancel)
