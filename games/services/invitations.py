"""Answering an invitation: accepting is ``game_join`` with the token; declining frees the
seat."""

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict
from games.models import Game, Seat
from games.services.common import locked_game
from games.services.tables import invitation_seat


@transaction.atomic
def invitation_decline(*, token: str) -> Seat:
    """The invited player says no: the seat is no longer kept for them and opens to
    anyone who joins. The link itself is the proof (it was sent to their address)."""
    seat = invitation_seat(token)
    game = locked_game(seat.game)
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    if seat.status != Seat.Status.INVITED or game.status != Game.Status.OPEN:
        raise Conflict(
            _("this invitation has already been answered, or the game no longer waits for players"),
            code="invitation_used",
        )
    seat.status, seat.invited_email, seat.position = Seat.Status.OPEN, "", None
    seat.save(update_fields=["status", "invited_email", "position"])
    return seat
