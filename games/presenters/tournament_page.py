"""What a tournament's page shows (issue 31), from ``selectors.tournament_view``: the
settings in words, the standings with the tie-breaks named, the rounds with their tables,
the viewer's game in play singled out. Reads only."""

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
    return {
        **view,
        "status_label": Tournament.Status(view["status"]).label,
        "settings_words": words,
        "tie_break_names": [str(TIE_BREAK_NAMES[name]) for name in view["tie_breaks"]],
        "rounds": list(reversed(view["rounds"])),
    }
