"""Durations and the time left to move, in words, in the active language and time zone:
the one wording the pages, the lobby, the API and the emails share. The figure itself is
``games.clock.Clock.time_left``; this module only says it."""

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.clock import DAY, HOUR, TimeLeft


def duration_text(seconds: int) -> str:
    """A time in words, to the minute: "2 days, 3 hours", "4 hours, 10 minutes"."""
    seconds = max(0, seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    if len(parts) > 1:
        # Translators: a time in two units, "2 days, 3 hours" or "4 hours, 10 minutes".
        return gettext("%(larger)s, %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}
    return parts[0] if parts else gettext("less than a minute")


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
        return gettext("%(time)s left") % {"time": time}
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
