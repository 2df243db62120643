"""Playing hours on the clock value (``games.clock``, issue 32): pure, no database. The
deadline only counts time inside a seat's daily hours, in its player's time zone, across
midnight and daylight-saving changes (Europe/Warsaw: clocks forward at 02:00 on the last
Sunday of March, back at 03:00 on the last Sunday of October)."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games import clock as clocks
from games.clock import Clock, PlayingHours, TimeControl

WARSAW = ZoneInfo("Europe/Warsaw")
ZONES = ("UTC", "Europe/Warsaw", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu")
# The Warsaw changes of 2026: forward on 29 March, back on 25 October.
SPRING = datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
AUTUMN = datetime(2026, 10, 25, 1, 0, tzinfo=UTC)


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def warsaw(*args) -> datetime:
    return datetime(*args, tzinfo=WARSAW)


@st.composite
def hours(draw, zones=ZONES):
    start = draw(st.integers(0, 24 * 60 - 1))
    length = draw(st.integers(1, 24 * 60 - 1))
    zone = draw(st.sampled_from(zones))
    return PlayingHours(hhmm(start), hhmm((start + length) % (24 * 60)), zone)


# Moments of 2026, more of them near Warsaw's changes.
# The last moment a clock counts before its deadline (datetimes are to the microsecond).
LAST_INSTANT = timedelta(microseconds=1)
moments = st.one_of(
    st.datetimes(datetime(2026, 1, 1), datetime(2026, 12, 31)),
    st.datetimes(datetime(2026, 3, 27), datetime(2026, 3, 31)),
    st.datetimes(datetime(2026, 10, 23), datetime(2026, 10, 27)),
).map(lambda moment: moment.replace(tzinfo=UTC))


def inside(hours: PlayingHours, moment: datetime) -> bool:
    """Whether the wall clock at ``moment`` shows a time inside the hours (the oracle: it
    reads the wall clock, not the windows)."""
    wall = moment.astimezone(ZoneInfo(hours.zone))
    minute = wall.hour * 60 + wall.minute
    start, end = clocks.minute_of(hours.start), clocks.minute_of(hours.end)
    return start <= minute < end if start < end else minute >= start or minute < end


@settings(max_examples=300, deadline=None)
@given(hours(), moments, st.integers(1, 40 * 86400))
def test_the_deadline_never_falls_outside_the_seats_hours(hours, since, seconds):
    deadline = clocks.advance(hours, since, seconds)
    # The last instant before the deadline is the seat's time: the wall clock shows it
    # inside the hours. An instant, not a second: a turn begun at 00:00:00.000001 in hours
    # of a minute runs out a microsecond into the next day's minute.
    assert inside(hours, deadline - LAST_INSTANT)
    assert clocks.played(hours, since, deadline) == timedelta(seconds=seconds)
    assert deadline - since >= timedelta(seconds=seconds)


@settings(max_examples=200, deadline=None)
@given(hours(), moments, st.integers(60, 3 * 86400))
def test_no_second_outside_the_hours_is_counted(hours, since, span):
    """Sampled minute by minute, time counts exactly while the wall clock is inside the
    hours (away from the hour a change repeats, where only its first showing counts)."""
    until = since + timedelta(seconds=span)
    step = timedelta(minutes=7)
    moment = since
    while moment + step <= until:
        middle = moment + step / 2
        counted = clocks.played(hours, middle - timedelta(seconds=1), middle)
        repeated = middle.astimezone(ZoneInfo(hours.zone)).fold == 1
        # Some of the second counts when either end of it is inside: a second that
        # straddles the hours' opening or closing counts its part inside (the hours last a
        # minute at least, so no second holds them whole).
        touched = inside(hours, middle - timedelta(seconds=1)) or inside(
            hours, middle - timedelta(microseconds=1)
        )
        if not repeated:
            assert (counted > timedelta(0)) == touched
        moment += step


@settings(max_examples=150, deadline=None)
@given(hours(), st.dates(datetime(2026, 1, 1).date(), datetime(2026, 12, 30).date()))
# A window inside the hour the clock skips: it opens and closes at the moment of the jump,
# and the change is at the opening itself (a run of the suite found it).
@example(PlayingHours("02:00", "02:01", "America/New_York"), datetime(2026, 3, 8).date())
def test_a_days_playing_time_is_what_was_chosen(hours, day):
    """From one day's opening to the next the seat plays its chosen window; only on the
    night of a daylight-saving change, when the window spans it (or the change is at its
    opening), an hour less or more."""
    zone = ZoneInfo(hours.zone)
    opening = clocks._first_showing(zone, day, clocks.minute_of(hours.start))
    following = clocks._first_showing(zone, day + timedelta(days=1), clocks.minute_of(hours.start))
    time = clocks.played(hours, opening, following)
    chosen = timedelta(minutes=hours.minutes)
    changes = {
        (moment.utcoffset(), moment.dst())
        for moment in (
            (opening + timedelta(minutes=m)).astimezone(zone)
            # From a minute before the opening: a change at the opening itself counts.
            for m in [-1, *range(0, int((following - opening).total_seconds() // 60) + 1, 15)]
        )
    }
    if len(changes) == 1:
        assert time == chosen
    else:
        assert abs(time - chosen) <= timedelta(hours=1)


@settings(max_examples=200, deadline=None)
@given(hours(), moments, st.integers(0, 10 * 86400), st.lists(st.integers(1, 86400), max_size=6))
def test_settling_the_clock_at_any_moments_never_moves_the_deadline(hours, since, bank, waits):
    control = TimeControl("bank", bank=bank, cap=bank)
    clock = Clock(control, (bank,), (0,), 0, since, since, hours=(hours,))
    deadline = clock.deadline()
    moment = since
    for wait in waits:
        moment += timedelta(seconds=wait)
        clock = clocks.settled(clock, moment)
        assert clock.deadline() == deadline


@given(moments, st.integers(0, 30 * 86400))
def test_without_hours_the_deadline_is_plain_elapsed_time_as_before(since, seconds):
    assert clocks.advance(None, since, seconds) == since + timedelta(seconds=seconds)
    assert clocks.played(None, since, since + timedelta(seconds=seconds)) == timedelta(
        seconds=seconds
    )


def test_a_window_across_midnight_runs_in_the_evening_and_the_morning():
    night = PlayingHours("22:00", "06:00", "Europe/Warsaw")
    # From Monday 21:00, ten hours of the seat's time: 22:00-06:00 (8), then 22:00-24:00.
    deadline = clocks.advance(night, warsaw(2026, 5, 4, 21, 0), 10 * 3600)
    assert deadline == warsaw(2026, 5, 6, 0, 0)


def test_the_spring_night_is_an_hour_shorter_and_the_autumn_night_an_hour_longer():
    night = PlayingHours("22:00", "06:00", "Europe/Warsaw")
    spring = clocks.played(night, warsaw(2026, 3, 28, 22, 0), warsaw(2026, 3, 29, 6, 0))
    autumn = clocks.played(night, warsaw(2026, 10, 24, 22, 0), warsaw(2026, 10, 25, 6, 0))
    assert spring == timedelta(hours=7)
    assert autumn == timedelta(hours=9)


def test_a_window_that_starts_in_the_skipped_hour_opens_when_the_clock_jumps():
    hours = PlayingHours("02:30", "08:00", "Europe/Warsaw")
    (opening, closing) = next(clocks.windows(hours, warsaw(2026, 3, 29, 0, 0)))
    assert opening == SPRING  # 02:00 CET becomes 03:00 CEST at 01:00 UTC
    assert closing == warsaw(2026, 3, 29, 8, 0)


def test_a_time_shown_twice_counts_its_first_showing():
    hours = PlayingHours("01:00", "02:30", "Europe/Warsaw")
    (opening, closing) = next(clocks.windows(hours, warsaw(2026, 10, 25, 0, 0)))
    assert closing == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST
    assert closing - opening == timedelta(hours=1, minutes=30)
    assert AUTUMN - closing == timedelta(minutes=30)


def test_days_per_move_are_days_of_playing_hours():
    day = PlayingHours("08:00", "22:00", "Europe/Warsaw")
    control = TimeControl.from_dict({"kind": "per_move", "days": 2})
    clock = clocks.started(control, 2, (day, None))
    monday_noon = warsaw(2026, 5, 4, 12, 0)
    clock = clocks.turn_passed(clock, 0, monday_noon, mover=None, voided=False)
    assert clock.banks[0] == 2 * 14 * 3600
    assert clock.deadline() == warsaw(2026, 5, 6, 12, 0)
    clock = clocks.turn_passed(clock, 1, monday_noon, mover=0, voided=False)
    assert clock.banks[1] == 2 * 86400


def test_the_clock_outside_the_hours_is_resting_until_they_begin():
    day = PlayingHours("08:00", "22:00", "Europe/Warsaw")
    clock = clocks.started(TimeControl.from_dict({"kind": "per_move", "days": 1}), 1, (day,))
    clock = clocks.turn_passed(clock, 0, warsaw(2026, 5, 4, 21, 0), mover=None, voided=False)
    night = warsaw(2026, 5, 4, 23, 30)
    assert clock.resting_until(0, night) == warsaw(2026, 5, 5, 8, 0)
    assert clock.resting_until(0, warsaw(2026, 5, 5, 9, 0)) is None
    assert clock.seconds_left(0, night) == 13 * 3600
    assert clock.deadline() == warsaw(2026, 5, 5, 21, 0)


def test_hours_changed_during_the_turn_count_from_the_next_turn():
    day = PlayingHours("08:00", "22:00", "Europe/Warsaw")
    tokyo = PlayingHours("08:00", "22:00", "Asia/Tokyo")
    control = TimeControl.from_dict({"kind": "per_move", "days": 1})
    clock = clocks.started(control, 2, (day, day))
    clock = clocks.turn_passed(clock, 0, warsaw(2026, 5, 4, 12, 0), mover=None, voided=False)
    deadline = clock.deadline()
    clock = clocks.hours_changed(clock, 0, tokyo, warsaw(2026, 5, 4, 13, 0))
    assert clock.deadline() == deadline and clock.hours_of(0) == day
    clock = clocks.hours_changed(clock, 1, tokyo, warsaw(2026, 5, 4, 13, 0))
    assert clock.hours_of(1) == tokyo
    clock = clocks.turn_passed(clock, 1, warsaw(2026, 5, 4, 14, 0), mover=0, voided=False)
    assert clock.hours_of(0) == tokyo and not clock.pending


def test_hours_must_name_real_minutes():
    assert clocks.minute_of("08:00") == 480
    for wrong in ("8:00", "24:00", "08:60", "0800", "", "ab:cd"):
        try:
            clocks.minute_of(wrong)
        except ValueError:
            continue
        raise AssertionError(wrong)


# Found once by a full run: a turn begun a microsecond into hours of one minute.
@example(
    [PlayingHours("00:00", "00:01", "UTC")] * 2,
    datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
    [(0, PlayingHours("00:00", "00:01", "UTC"), 60, False)],
)
@settings(max_examples=150, deadline=None)
@given(
    st.lists(hours(), min_size=2, max_size=2),
    moments,
    st.lists(
        st.tuples(st.integers(0, 1), hours(), st.integers(60, 2 * 86400), st.booleans()),
        max_size=8,
    ),
)
def test_after_moves_and_changes_of_time_zone_the_deadline_stays_inside_the_hours(
    start_hours, since, acts
):
    """Players move and change their time zones (and so their hours) in any order: the
    deadline of the seat to move always falls inside the hours it has, and a change made
    during a seat's own turn never moves that turn's deadline."""
    control = TimeControl.from_dict({"kind": "per_move", "days": 1})
    clock = clocks.started(control, 2, tuple(start_hours))
    clock = clocks.turn_passed(clock, 0, since, mover=None, voided=False)
    moment = since
    for seat, new, wait, moves in acts:
        moment += timedelta(seconds=wait)
        if moves:
            clock = clocks.turn_passed(
                clock, 1 - clock.turn, moment, mover=clock.turn, voided=False
            )
        deadline = clock.deadline()
        clock = clocks.hours_changed(clock, seat, new, moment)
        if seat == clock.turn:
            assert clock.deadline() == deadline
        assert inside(clock.hours_of(clock.turn), clock.deadline() - LAST_INSTANT)
