"""What a notice about a plan (conditional moves, issue 32) says, in the reader's
language when it leaves, whatever channel carries it."""

from django.utils.translation import gettext as _

from games.models import Game
from games.selectors.names import players_of

# The reasons that drop the whole plan; the others drop only the move for the next turn.
WHOLE_PLAN = ("deviated", "taken_back")


def plan_dropped_reason(game: Game, payload: dict) -> str:
    """Why the plan (or its move for the next turn) was dropped, from the notice's facts."""
    move = payload.get("move", "")
    match payload.get("reason"):
        case "deviated":
            names = {player["seat"]: player["player"] for player in players_of(game)}
            # Translators: %(player)s is a player's name, %(move)s a move in the notation.
            return _("%(player)s played %(move)s, which none of your lines expected") % {
                "player": names.get(payload.get("player")) or _("another player"),
                "move": move,
            }
        case "taken_back":
            return _("moves were taken back")
        case "new_tiles":
            return _("new tiles were drawn before your turn, so %(move)s was not played") % {
                "move": move
            }
    return _("%(move)s was no longer a legal move at the start of your turn") % {"move": move}


def plan_dropped_title(game_title: str, payload: dict) -> str:
    """The notice's first words: the whole plan dropped, or the move for the turn."""
    if payload.get("reason") in WHOLE_PLAN:
        # Translators: %(game)s is a game's title, e.g. "Azul #12".
        return _("Your plan for %(game)s is dropped") % {"game": game_title}
    return _("Your planned move in %(game)s was not played") % {"game": game_title}
