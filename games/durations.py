"""Durations, the time left to move and time controls, in words, in the active language
and time zone: the one wording the pages, the forms, the lobby, the API, the emails and the
push notices share. The figures themselves are ``games.clock.Clock.time_left`` and a game's
``time_control``; this module only says them."""

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.clock import DAY, HOUR, TimeLeft


def days_text(days: int) -> str:
    """A number of days: "1 day", "3 days"."""
    return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}


def duration_text(seconds: int) -> str:
    """A time in words, to the minute: "2 days, 3 hours", "4 hours, 10 minutes"."""
    seconds = max(0, seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(days_text(days))
    if hours:
        parts.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    if len(parts) > 1:
        # Translators: a time in two units, "2 days, 3 hours" or "4 hours, 10 minutes".
        return gettext("%(larger)s, %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}
    return parts[0] if parts else gettext("less than a minute")


def duration_left_text(seconds: int) -> str:
    """A time left on a clock, in words: "2 days, 3 hours left"."""
    return gettext("%(time)s left") % {"time": duration_text(seconds)}


def time_left_text(left: TimeLeft) -> str:
    """The time left to the seat to move, and whether its clock runs: "2 days, 3 hours
    left"; in a game with playing hours, "1 day, 17 hours of playing time left — the clock
    runs 09:00–22:00 (Europe/Madrid)" or "… — resting until 09:00 your time" (the reader's
    clock); "… — the clock is stopped" during a pause or a vacation."""
    time = duration_text(left.seconds)
    hours = left.hours
    if hours is None:
        if left.stopped:
            # Translators: a clock stopped by a moderator or a vacation; %(time)s is a
            # duration such as "2 days, 3 hours".
            return gettext("%(time)s left — the clock is stopped") % {"time": time}
        return duration_left_text(left.seconds)
    if left.stopped:
        # Translators: in a game whose clocks run only in each player's daily playing
        # hours; %(time)s is a duration such as "1 day, 17 hours".
        return gettext("%(time)s of playing time left — the clock is stopped") % {"time": time}
    if left.resting_until is not None:
        # Translators: the clock waits outside its player's playing hours; %(until)s is a
        # time such as "09:00" on the reader's clock.
        return gettext("%(time)s of playing time left — resting until %(until)s your time") % {
            "time": time,
            "until": timezone.localtime(left.resting_until).strftime("%H:%M"),
        }
    # Translators: the clock runs now, and daily between the player's playing hours
    # (from %(start)s to %(end)s, e.g. 09:00 to 22:00) in their time zone %(zone)s.
    runs = gettext("%(time)s of playing time left — the clock runs %(start)s–%(end)s (%(zone)s)")
    return runs % {"time": time, "start": hours.start, "end": hours.end, "zone": hours.zone}


def per_move_text(days: int) -> str:
    """The time to make each move of a game with days per move: "3 days per move"."""
    return ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}


def time_control_text(control: dict | None, *, bank_in_parts: bool = False) -> str:
    """A game's time control (``Game.time_control``) as a player reads it: "3 days per
    move", "72 hours each, 12 more after every move, up to 120" or "no time limit". With
    ``bank_in_parts``, a bank of hours names each of its parts, as the invitation emails
    do: "a bank of 72 hours, 12 hours more per move, at most 120 hours"."""
    control = control or {}
    match control.get("kind", "none"):
        case "per_move":
            return per_move_text(control["days"])
        case "bank" if bank_in_parts:
            return _bank_in_parts_text(control)
        case "bank":
            return ngettext(
                "%(bank)s hour each, %(increment)s more after every move, up to %(cap)s",
                "%(bank)s hours each, %(increment)s more after every move, up to %(cap)s",
                control["bank_hours"],
            ) % {
                "bank": control["bank_hours"],
                "increment": control["increment_hours"],
                "cap": control["cap_hours"],
            }
    return gettext("no time limit")


def _bank_in_parts_text(control: dict) -> str:
    # Translators: the three parts of a time bank, e.g. "a bank of 72 hours",
    # "12 hours more per move", "at most 120 hours".
    return gettext("%(bank)s, %(increment)s, %(cap)s") % {
        "bank": ngettext(
            "a bank of %(count)s hour", "a bank of %(count)s hours", control["bank_hours"]
        )
        % {"count": control["bank_hours"]},
        "increment": ngettext(
            "%(count)s hour more per move",
            "%(count)s hours more per move",
            control["increment_hours"],
        )
        % {"count": control["increment_hours"]},
        "cap": ngettext("at most %(count)s hour", "at most %(count)s hours", control["cap_hours"])
        % {"count": control["cap_hours"]},
    }
