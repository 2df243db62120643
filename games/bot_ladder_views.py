"""The bot ladder's page (``/bots/ladder/<game>/``) and answer (``/api/bot/ladder/<game>/``):
standings and matches, each finished match with its deal's seed (issue 55)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from games.api.toolkit import Api, errors
from games.registry import GAME_TYPES
from games.selectors.bot_ladder import matches, standings


def _kind(game: str):
    if game not in GAME_TYPES:
        raise Http404
    return GAME_TYPES[game]


def _bot(request) -> int | None:
    """The bot whose matches alone are asked for (``?bot=<id>``)."""
    asked = request.GET.get("bot", "")
    return int(asked) if asked.isdigit() and len(asked) < 10 else None


@require_GET
def ladder_page(request: HttpRequest, game: str) -> HttpResponse:
    """The standings of ``game``'s ladder, and its latest matches (``?bot=<id>``: that
    bot's)."""
    kind, bot = _kind(game), _bot(request)
    rows = standings(game)
    context = {
        "kind": kind,
        "kinds": GAME_TYPES.values(),
        "standings": rows,
        "matches": matches(game, bot_id=bot),
        "bot": next((row for row in rows if row["id"] == bot), None),
    }
    return render(request, "bot_ladder.html", context)


class LadderApi(Api):
    """The bot ladder of a game: standings, and the latest matches with their seeds
    (``?bot=<id>``: that bot's)."""

    @extend_schema(
        summary="The bot ladder of a game",
        operation_id="bot_ladder",
        responses={200: OpenApiTypes.OBJECT, **errors(404)},
    )
    def get(self, request, game):
        _kind(game)
        found = matches(game, bot_id=_bot(request))
        return Response({"standings": standings(game), "matches": found})
