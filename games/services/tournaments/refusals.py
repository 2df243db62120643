"""What a refused tournament command tells the person: the decider's refusal (a stable
code and its facts) as the service error of its kind, said in the reader's language."""

from django.utils.translation import gettext_lazy

from games.errors import BadRequest, Conflict, Forbidden, ServiceError
from games.tournaments import core

# What a refused tournament command tells the person: the kind of error and the sentence
# (its %(…)s filled from the refusal's facts).
REFUSALS = {
    "invalid_format": (BadRequest, gettext_lazy("format must be one of %(accepted)s")),
    "invalid_per_game": (BadRequest, gettext_lazy("players per game must be %(accepted)s")),
    "knockout_for_two": (
        BadRequest,
        gettext_lazy("a knockout is played two players per game: choose 2 players per game"),
    ),
    "invalid_player_limits": (
        BadRequest,
        gettext_lazy(
            "the fewest and most players must be 2 to %(most)s, the fewest no more than the most"
        ),
    ),
    "too_few_for_a_table": (
        BadRequest,
        gettext_lazy("the fewest players must fill at least one table of %(per_game)s"),
    ),
    "invalid_rounds": (
        BadRequest,
        gettext_lazy("a Swiss tournament needs 1 to %(most)s rounds (fewer than the players)"),
    ),
    "rounds_for_swiss_only": (
        BadRequest,
        gettext_lazy(
            "only a Swiss tournament takes a number of rounds: a round robin or a knockout "
            "plays as many as its players need"
        ),
    ),
    "invalid_points": (
        BadRequest,
        gettext_lazy(
            "points by place need %(places)s whole numbers from the first place down, none "
            "below zero"
        ),
    ),
    "invitations_need_invitation_only": (
        BadRequest,
        gettext_lazy("only an invitation-only tournament (not listed) takes invited addresses"),
    ),
    "invalid_round_days": (
        BadRequest,
        gettext_lazy("days per round must be 0 (no deadline) to %(most)s"),
    ),
    "name_missing": (BadRequest, gettext_lazy("a tournament needs a name")),
    "registration_closed": (Conflict, gettext_lazy("registration for this tournament is closed")),
    "already_registered": (Conflict, gettext_lazy("you are already registered")),
    "full": (Conflict, gettext_lazy("this tournament is full: its limit is %(most)s")),
    "rating_too_low": (
        Forbidden,
        gettext_lazy("this tournament needs a rating of %(needed)s; yours is %(rating)s"),
    ),
    "too_few_games": (
        Forbidden,
        gettext_lazy("finished games this tournament needs: %(needed)s; yours: %(games)s"),
    ),
    "not_registered": (Conflict, gettext_lazy("that player is not in this tournament")),
    "finished": (Conflict, gettext_lazy("this tournament is over")),
    "not_running": (Conflict, gettext_lazy("this tournament is not running")),
    "already_paused": (Conflict, gettext_lazy("this tournament is already paused")),
    "not_paused": (Conflict, gettext_lazy("this tournament is not paused")),
    "deadline_not_passed": (
        Conflict,
        gettext_lazy("round %(round)s has no deadline passed with games unfinished"),
    ),
    "too_few_players": (
        Conflict,
        gettext_lazy("players registered: %(players)s; the tournament needs %(needed)s to start"),
    ),
}


def refusal(error: core.TournamentRefused) -> ServiceError:
    """The service error for a refusal of the decider, said in the reader's language."""
    kind, text = REFUSALS[error.code]
    params = {
        name: ", ".join(map(str, value)) if isinstance(value, tuple) else value
        for name, value in error.params.items()
    }
    return kind(str(text) % params, code=error.code)
