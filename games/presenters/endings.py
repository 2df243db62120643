"""How a game that is over ended, in words, for the end screen and the lists of games: who
resigned or ran out of time, and whether that aborted the game (issue 29: a resignation
before every player had moved aborts it, unrated)."""

from django.utils.translation import gettext

from games.models import Game
from games.selectors.seats import Departure


def departed(name: str, departure: Departure) -> str:
    """ "Carol resigned", "Carol ran out of time"."""
    if departure.timed_out:
        return gettext("%(name)s ran out of time") % {"name": name}
    return gettext("%(name)s resigned") % {"name": name}


def row_ending(game: Game, names: dict[int, str], left: list[Departure]) -> str:
    """What a list of games says of a game that a resignation or a timeout ended (``""``
    for any other, which its status and scores tell): aborted and unrated, or who won."""
    if not left or game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        return ""
    last = left[-1]
    said = departed(names.get(last.seat) or seat_name(last.seat), last)
    if game.status == Game.Status.ABORTED:
        # Translators: a game in a list; %(departure)s is "Carol resigned" or "Carol ran
        # out of time" (before every player had moved, so the game counts for nobody).
        return gettext("aborted, unrated: %(departure)s") % {"departure": said}
    if len(left) < game.players - 1 or len(game.winners or ()) != 1:
        return ""
    winner = game.winners[0]
    # Translators: a game in a list; %(departure)s is "Carol resigned" or "Carol ran out of
    # time", which left %(winner)s alone in the game.
    return gettext("%(departure)s: %(winner)s wins") % {
        "departure": said,
        "winner": names.get(winner) or seat_name(winner),
    }


def seat_name(seat: int) -> str:
    return gettext("Player %(number)s") % {"number": seat + 1}
