"""What only a tournament's organiser (or a moderator) does: start it now, pause it, resume
it, call it off. Each a command through ``stream.tournament_act``."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Forbidden
from games.models import Tournament
from games.selectors.access import is_moderator
from games.services.common import actor_of
from games.services.tournaments.stream import locked_tournament, tournament_act
from games.tournaments import core, decider


@transaction.atomic
def tournament_start(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator starts the tournament now: the first round is
    paired, and its games begin once that is committed (``rounds.round_begin``)."""
    return _organiser_decides(tournament, user, decider.Start())


def _organiser_decides(tournament: Tournament, user, command: decider.Command) -> Tournament:
    """A command only the organiser or a moderator may give, decided now."""
    tournament = locked_tournament(tournament)
    organising(tournament, user)
    tournament_act(tournament, command, actor=actor_of(user), now=timezone.now())
    return tournament


@transaction.atomic
def tournament_pause(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator pauses a running tournament: no new round starts
    (games in play go on, and their results count) until it is resumed; a round deadline
    waits too."""
    return _organiser_decides(tournament, user, decider.Pause())


@transaction.atomic
def tournament_resume(*, tournament: Tournament, user) -> Tournament:
    """Rounds start again: the next at once if the round in play is over."""
    return _organiser_decides(tournament, user, decider.Resume())


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator calls the tournament off, before or while it runs:
    no round starts any more; games in play go on as games (rated ones still count on
    the ladder) but no more in the tournament, which has no final standing."""
    return _organiser_decides(tournament, user, decider.Cancel(core.BY_ORGANISER))


def organising(tournament: Tournament, user) -> None:
    """Refused unless ``user`` is the tournament's organiser or a moderator."""
    if user.pk != tournament.organiser_id and not is_moderator(user):
        raise Forbidden(
            _("only the tournament's organiser or a moderator can do this"),
            code="not_organiser",
        )
