"""A rematch: the same players (computer players included) and options at a new table,
seats rotated by one."""

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import Conflict, Forbidden
from games.models import Game, Seat
from games.services.tables import game_create


@transaction.atomic
def game_rematch(*, game: Game, user) -> Game:
    """Open a new game like the finished ``game``: same game, options, time control and
    rules of undo; ``user`` takes a seat and the other players are invited (each accepts
    or declines, as with any invitation) and the computer players sit again at their
    levels. Every player moves one place on: the first player of the last game plays
    second, and so on (a rematch against the computer alone starts at once, so seated)."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("a rematch can be asked once the game is over"), code="not_over")
    seats = list(game.seats.select_related("user").filter(user__isnull=False))
    computers = list(game.seats.filter(user__isnull=True).exclude(bot="").order_by("position"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise Forbidden(
            _("only the players of this game can ask for a rematch"), code="not_a_player"
        )

    def rotated(seat: Seat) -> int:
        return (seat.position + 1) % game.players

    asker = next(seat for seat in seats if seat.user_id == user.pk)
    new = game_create(
        creator=user,
        game=game.game_type,
        players=game.players,
        options=dict(game.options),
        time_control={
            k: v for k, v in game.time_control.items() if k not in ("reminders", "playing_hours")
        },
        timeout_policy=game.timeout_policy,
        timeout_bot=game.timeout_bot,
        self_undo=game.self_undo,
        private=game.private,
        invite=[seat.user.email for seat in seats if seat.user_id != user.pk],
        reminders=game.time_control.get("reminders"),
        bots=[seat.bot for seat in computers],
        playing_hours=bool(game.time_control.get("playing_hours")),
        places=[rotated(asker), *(rotated(seat) for seat in computers)],
    )
    places = {seat.user.email.lower(): rotated(seat) for seat in seats if seat is not asker}
    for seat in new.seats.filter(user__isnull=True, bot=""):
        if seat.invited_email.lower() in places:
            Seat.objects.filter(pk=seat.pk).update(position=places[seat.invited_email.lower()])
    return new
