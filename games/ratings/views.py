"""Pages of the ratings (issue 16): a player's profile, the leaderboards and the archive of
finished games. Thin doors over ``games.ratings.selectors`` and one service."""

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.boards import title_of
from games.errors import Forbidden, NotFound
from games.presenters.pages import page_of
from games.ratings import selectors
from games.ratings.charts import rating_chart
from games.ratings.forms import ArchiveForm
from games.registry import GAME_TYPES
from games.replica import lag_tolerant
from games.selectors.names import display_name, players_of_games
from games.services.ratings import PROVISIONAL_GAMES, profile_visibility_set
from games.views import refusal_page

LEADERBOARD_PAGE = 50
ARCHIVE_PAGE = 25


@require_GET
@refusal_page
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's ratings with their history, games played and won, average score, current
    and finished games, and how they fare against each opponent."""
    player = selectors.player_get(player_id)
    viewer = request.user
    if not selectors.profile_visible(player, viewer):
        raise Forbidden(_("This player keeps their profile private: sign in to see it."))
    ratings = [
        {
            "rating": rating,
            "chart": rating_chart(
                [selectors.history_point(c) for c in selectors.rating_history(player, rating.game)]
            ),
        }
        for rating in selectors.ratings_of(player)
    ]
    # Every game listed may be opened: a public one in play is watched (issue 29).
    current_games = list(selectors.current_games(player, viewer)[:30])
    seated = players_of_games(current_games)
    current = [
        {"game": game, "title": title_of(game.game_type), "players": seated[game.pk]}
        for game in current_games
    ]
    versus = selectors.head_to_head(player, viewer)
    context = {
        "player": player,
        "name": display_name(player),
        "own": viewer.is_authenticated and viewer.pk == player.pk,
        "hidden": selectors.profile_hidden(player),
        "ratings": ratings,
        "stats": selectors.stats_of(player),
        "current": current,
        "finished": selectors.finished_games(player, viewer),
        "versus": versus[:15],
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "ratings/profile.html", context)


@login_required
@require_GET
def my_profile(request: HttpRequest) -> HttpResponse:
    return redirect("player", player_id=request.user.pk)


@login_required
@require_POST
def privacy_post(request: HttpRequest) -> HttpResponse:
    """Hide or show one's own profile to visitors who are not signed in."""
    profile_visibility_set(user=request.user, hidden=request.POST.get("hidden") == "on")
    return redirect("player", player_id=request.user.pk)


@require_GET
@refusal_page
@lag_tolerant
def leaderboard_page(request: HttpRequest, game: str | None = None) -> HttpResponse:
    """The ladder of one game: active players past their provisional games."""
    game = game or next(iter(GAME_TYPES))
    if game not in GAME_TYPES:
        raise NotFound(_("there is no game called %(game)s") % {"game": game})
    ratings, page = page_of(request, selectors.leaderboard(game), LEADERBOARD_PAGE)
    if not ratings and page["number"] > 1:
        # A page past the ladder's end (a link kept from when it was longer): its first.
        return redirect(request.path)
    first = (page["number"] - 1) * LEADERBOARD_PAGE
    rows = [
        selectors.leaderboard_row(rating, first + index, request.user)
        for index, rating in enumerate(ratings, start=1)
    ]
    context = {
        "game": game,
        "title": title_of(game),
        "games": [(slug, title_of(slug)) for slug in GAME_TYPES],
        "rows": rows,
        "page": page,
        "provisional_games": PROVISIONAL_GAMES,
        "active_days": selectors.ACTIVE_DAYS,
    }
    return render(request, "ratings/leaderboard.html", context)


@require_GET
@lag_tolerant
def archive_page(request: HttpRequest) -> HttpResponse:
    """Search finished games by player, game, side, players, dates and result."""
    form = ArchiveForm(request.GET or None, viewer=request.user)
    params = request.GET.copy()
    params.pop("page", None)
    context = {"form": form, "params": params.urlencode(), "searched": False}
    if request.GET and not form.is_valid():
        return render(request, "ratings/archive.html", context, status=400)
    query = form.query() if request.GET else selectors.ArchiveQuery()
    results = selectors.archive_search(query, request.user)
    rows, page = page_of(request, results, ARCHIVE_PAGE)
    count, exact = selectors.capped_count(results)
    context.update(
        searched=True,
        results=selectors.with_seats(rows),
        count=count,
        exact=exact,
        page=page,
    )
    return render(request, "ratings/archive.html", context)


@login_required
@require_GET
def archive_export(request: HttpRequest) -> StreamingHttpResponse:
    """All your games as JSON lines: each game's header line, then its events (the same
    lines as one game's export)."""
    lines = (
        json.dumps(row, separators=(",", ":")) + "\n"
        for row in selectors.export_lines(request.user)
    )
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Content-Disposition"] = 'attachment; filename="my-games.jsonl"'
    return response
