"""Playing hours (issue 32): the game option, the hours each seat is taken with, and a
player's time zone followed into their games. The clock that counts only the time inside
them is ``games.clock``."""

import re
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import table as tbl
from games.clock import PlayingHours
from games.errors import BadRequest
from games.models import Game, PlayerSettings, Seat
from games.services.common import act, actor_of, locked_game

# Ruling (issue 32): a seat's playing hours last at least this long a day, so that a
# bank of hours or a day per move is never stretched over weeks.
SHORTEST_HOURS = 4
# A time of day as new hours are written: 00:00 to 23:59 in the ASCII digits only.
# Python's ``int`` also reads other digits ("٠٩:٠٠", "０９:００"): the clock
# (``games.clock.minute_of``) still reads them in hours stored before, so that those games
# replay, but pages, emails and the API would show them as typed.
TIME_OF_DAY = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def validate_playing_hours(playing_hours, time_control: dict) -> bool:
    """The game option "playing hours" (issue 32): ``true`` lets each seat's clock run only
    during its player's daily hours; it needs a time control."""
    if not isinstance(playing_hours, bool):
        raise BadRequest(
            _("playing_hours is true or false, not %(value)s") % {"value": repr(playing_hours)},
            code="invalid_playing_hours",
        )
    if playing_hours and time_control.get("kind", "none") == "none":
        raise BadRequest(
            _(
                "playing hours stop a clock at night, and a game without a time control "
                "has none: choose days per move or a bank of hours, or leave playing hours off"
            ),
            code="invalid_playing_hours",
        )
    return playing_hours


def seat_hours(user, hours) -> dict:
    """The playing hours ``user`` takes a seat with, in their time zone (UTC when they
    chose none): ``hours`` (``{"start": "HH:MM", "end": "HH:MM"}``) or, when none are
    given, the hours of their settings. An end before the start runs past midnight
    (22:00 to 06:00); a start equal to the end, or a window shorter than
    ``SHORTEST_HOURS``, is refused."""
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings()
    if hours is None:
        hours = {"start": prefs.hours_start, "end": prefs.hours_end}
    chosen = PlayingHours(**validate_hours(hours), zone=prefs.time_zone or "UTC")
    return {"start": chosen.start, "end": chosen.end, "zone": chosen.zone}


def validate_hours(hours) -> dict:
    """``{"start": "HH:MM", "end": "HH:MM"}`` checked (``seat_hours``), each in the
    digits 0 to 9 (``TIME_OF_DAY``)."""
    if not isinstance(hours, dict) or set(hours) != {"start", "end"}:
        raise BadRequest(
            _('hours are {"start": "HH:MM", "end": "HH:MM"}, such as %(example)s')
            % {"example": '{"start": "08:00", "end": "22:00"}'},
            code="invalid_hours",
        )
    for value in hours.values():
        if not TIME_OF_DAY.fullmatch(str(value)):
            raise BadRequest(
                _(
                    "%(value)s is not a time of day: write HH:MM with the digits 0 to 9, "
                    "from 00:00 to 23:59"
                )
                % {"value": repr(value)},
                code="invalid_hours",
            )
    length = PlayingHours(hours["start"], hours["end"]).minutes
    if length == 0:
        raise BadRequest(
            _(
                "playing hours from %(start)s to %(end)s are empty: choose an end other than "
                "the start (an end before the start runs past midnight, as 22:00 to 06:00)"
            )
            % hours,
            code="invalid_hours",
        )
    if length < SHORTEST_HOURS * 60:
        raise BadRequest(
            ngettext(
                "playing hours from %(start)s to %(end)s are too short: choose at least "
                "%(hours)s hour a day",
                "playing hours from %(start)s to %(end)s are too short: choose at least "
                "%(hours)s hours a day",
                SHORTEST_HOURS,
            )
            % {**hours, "hours": SHORTEST_HOURS},
            code="invalid_hours",
        )
    return {"start": hours["start"], "end": hours["end"]}


def hours_for_seat(game: Game, user, hours) -> dict | None:
    """The hours a player takes a seat of ``game`` with; none in a game without."""
    if (game.time_control or {}).get("playing_hours"):
        return seat_hours(user, hours)
    if hours is not None:
        raise BadRequest(_("this game has no playing hours: leave hours out"), code="invalid_hours")
    return None


@transaction.atomic
def hours_follow_zone(*, user, now: datetime | None = None) -> int:
    """The player's time zone changed: in every game with playing hours they are playing,
    their seat keeps its hours on the new zone's wall clock (``table.HoursChanged``: from
    the end of the seat's turn if it is theirs, so nobody stops a running clock by moving).
    The number of games told."""
    now = now or timezone.now()
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings()
    seats = (
        Seat.objects.filter(
            user=user,
            status=Seat.Status.JOINED,
            game__status=Game.Status.ACTIVE,
            playing_hours__isnull=False,
        )
        .order_by("game_id")
        .values_list("game_id", "position", "playing_hours")
    )
    told = 0
    for game_id, position, hours in list(seats):
        moved = {**hours, "zone": prefs.time_zone or "UTC"}
        if moved == hours:
            continue
        game = locked_game(Game(pk=game_id))
        _table, written = act(
            game, tbl.ChangeHours(position, PlayingHours(**moved)), actor=actor_of(user), at=now
        )
        told += bool(written)
    return told
