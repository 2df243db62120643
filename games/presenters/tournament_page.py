"""What a tournament's page shows (issue 31), from ``selectors.tournaments.tournament_view``: the
settings in words, the standings with the tie-breaks named, the rounds with their tables,
the viewer's game in play singled out. Reads only."""

from collections.abc import Callable

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.boards import title_of
from games.models import Game, Tournament
from games.presenters.game_page import settings_words

FORMAT_NAMES = {
    "swiss": gettext_lazy("Swiss"),
    "round_robin": gettext_lazy("Round robin"),
    "knockout": gettext_lazy("Knockout"),
}
TIE_BREAK_NAMES = {
    "buchholz": gettext_lazy("Buchholz"),
    "sonneborn_berger": gettext_lazy("Sonneborn–Berger"),
    "opponents_points": gettext_lazy("Opponents' points"),
    "game_score": gettext_lazy("Game score"),
}


def tournament_context(view: dict) -> dict:
    """The page's context: the selector's view and what it says in words."""
    settings = view["settings"]
    # The game's own settings are said as a game page says them.
    game = Game(game_type=settings["game"], options=settings["options"])
    game.time_control = settings["time_control"]
    words = [
        str(FORMAT_NAMES[settings["format"]]),
        title_of(settings["game"]),
        ngettext("%(n)s player per game", "%(n)s players per game", settings["per_game"])
        % {"n": settings["per_game"]},
        *settings_words(game),
        gettext("rated") if settings["rated"] else gettext("not rated"),
        # Translators: the points for each place at a full table, e.g. "points by place: 6/4/2/0".
        gettext("points by place: %(points)s") % {"points": "/".join(map(str, settings["points"]))},
    ]
    if settings["format"] == "swiss":
        words.append(
            ngettext("%(n)s round", "%(n)s rounds", settings["rounds"]) % {"n": settings["rounds"]}
        )
    if settings["round_days"]:
        words.append(
            ngettext(
                "each round ends after %(n)s day",
                "each round ends after %(n)s days",
                settings["round_days"],
            )
            % {"n": settings["round_days"]}
        )
    if settings["min_rating"] is not None:
        words.append(gettext("rating at least %(rating)s") % {"rating": settings["min_rating"]})
    if settings["min_games"]:
        words.append(
            ngettext(
                "at least %(n)s finished game",
                "at least %(n)s finished games",
                settings["min_games"],
            )
            % {"n": settings["min_games"]}
        )
    if not settings["public"]:
        words.append(gettext("invitation only: unlisted"))
    player_url, game_url = _addresses("player"), _addresses("game")
    standings = [
        {
            **line,
            "url": player_url(line["player"]["id"]),
            "points_text": _number(line["points"], 1),
            "tie_break_texts": [_number(value, 2) for value in line["tie_breaks"]],
        }
        for line in view["standings"]
    ]
    rounds = [
        {
            **round,
            "tables": [
                {**table, "url": game_url(table["game"]) if table["game"] else ""}
                for table in round["tables"]
            ],
        }
        for round in reversed(view["rounds"])
    ]
    players = [
        {
            **player,
            "url": player_url(player["id"]),
            "rating_text": ""
            if player["rating"] is None
            else number_format(round(player["rating"])),
        }
        for player in view["players"]
    ]
    return {
        **view,
        "status_label": Tournament.Status(view["status"]).label,
        "settings_words": words,
        "tie_break_names": [str(TIE_BREAK_NAMES[name]) for name in view["tie_breaks"]],
        "standings": standings,
        "rounds": rounds,
        "players": players,
        # A round paired whose games a worker is creating (a moment, after the write that
        # paired it): the page says so and looks again shortly.
        "round_being_set_up": view["status"] == Tournament.Status.RUNNING
        and bool(rounds)
        and any(not table["game"] for table in rounds[0]["tables"]),
    }


def _addresses(name: str) -> Callable[[int], str]:
    """The address of the page ``name`` of an id: reversed once for the hundreds of links of
    a large tournament's page (a reverse for each was a tenth of the page's time)."""
    marker = "987654321"
    pattern = reverse(name, args=[int(marker)])
    return lambda pk: pattern.replace(marker, str(pk))


def _number(value: float, places: int) -> str:
    """``value`` in the reader's format: whole, or with ``places`` decimals when it has any
    (as the template filter ``floatformat:"-places"``)."""
    if value == int(value):
        return number_format(int(value))
    return number_format(round(value, places), decimal_pos=places)
