"""Durations, the time left and time controls in words (``games.durations``), in English and
in a language with more plural forms: the one wording every page, email and notice uses."""

from datetime import UTC, datetime

import pytest
from django.utils import timezone, translation

from games.clock import DAY, HOUR, PlayingHours, TimeLeft
from games.durations import (
    days_text,
    duration_left_text,
    duration_text,
    per_move_text,
    time_control_text,
    time_left_text,
)

PER_MOVE = {"kind": "per_move", "days": 3}
BANK = {"kind": "bank", "bank_hours": 72, "increment_hours": 12, "cap_hours": 120}
ONE_HOUR_BANK = {"kind": "bank", "bank_hours": 1, "increment_hours": 1, "cap_hours": 1}
DEADLINE = datetime(2026, 11, 21, 15, 0, tzinfo=UTC)
HOURS = PlayingHours(start="09:00", end="22:00", zone="Europe/Madrid")


@pytest.mark.parametrize(
    ("seconds", "english", "polish"),
    [
        (0, "less than a minute", "mniej niż minuta"),
        (59, "less than a minute", "mniej niż minuta"),
        (60, "1 minute", "1 minuta"),
        (2 * 60, "2 minutes", "2 minuty"),
        (5 * 60, "5 minutes", "5 minut"),
        (HOUR, "1 hour", "1 godzina"),
        (2 * HOUR + 10 * 60, "2 hours, 10 minutes", "2 godziny i 10 minut"),
        (DAY, "1 day", "1 dzień"),
        (2 * DAY + 3 * HOUR + 5 * 60, "2 days, 3 hours", "2 dni i 3 godziny"),
        (5 * DAY, "5 days", "5 dni"),
    ],
)
def test_a_duration_is_said_to_the_minute_in_its_two_largest_units(seconds, english, polish):
    with translation.override("en"):
        assert duration_text(seconds) == english
    with translation.override("pl"):
        assert duration_text(seconds) == polish


def test_a_negative_duration_is_less_than_a_minute():
    with translation.override("en"):
        assert duration_text(-30) == "less than a minute"


@pytest.mark.parametrize(
    ("days", "english", "spanish", "polish"),
    [
        (1, "1 day", "1 día", "1 dzień"),
        (2, "2 days", "2 días", "2 dni"),
        (5, "5 days", "5 días", "5 dni"),
    ],
)
def test_days_take_each_language_plural_form(days, english, spanish, polish):
    for language, expected in (("en", english), ("es", spanish), ("pl", polish)):
        with translation.override(language):
            assert days_text(days) == expected


def test_a_time_left_names_its_duration():
    with translation.override("en"):
        assert duration_left_text(2 * DAY + 3 * HOUR) == "2 days, 3 hours left"
    with translation.override("es"):
        assert duration_left_text(HOUR) == "tiempo restante: 1 hora"


def test_the_time_left_says_whether_the_clock_runs():
    running = TimeLeft(seat=0, seconds=HOUR, deadline=DEADLINE, resting_until=None, hours=None)
    stopped = TimeLeft(seat=0, seconds=HOUR, deadline=None, resting_until=None, hours=None)
    with translation.override("en"):
        assert time_left_text(running) == "1 hour left"
        assert time_left_text(stopped) == "1 hour left — the clock is stopped"


def test_the_time_left_in_playing_hours_says_when_the_clock_runs():
    running = TimeLeft(seat=0, seconds=HOUR, deadline=DEADLINE, resting_until=None, hours=HOURS)
    resting = TimeLeft(seat=0, seconds=HOUR, deadline=DEADLINE, resting_until=DEADLINE, hours=HOURS)
    stopped = TimeLeft(seat=0, seconds=HOUR, deadline=None, resting_until=None, hours=HOURS)
    with translation.override("en"), timezone.override("Europe/Warsaw"):
        assert time_left_text(running) == (
            "1 hour of playing time left — the clock runs 09:00–22:00 (Europe/Madrid)"
        )
        assert time_left_text(resting) == (
            "1 hour of playing time left — resting until 16:00 your time"
        )
        assert time_left_text(stopped) == "1 hour of playing time left — the clock is stopped"


@pytest.mark.parametrize(
    ("control", "english", "spanish"),
    [
        (None, "no time limit", "sin límite de tiempo"),
        ({"kind": "none"}, "no time limit", "sin límite de tiempo"),
        ({"kind": "per_move", "days": 1}, "1 day per move", "1 día por jugada"),
        (PER_MOVE, "3 days per move", "3 días por jugada"),
        (
            BANK,
            "72 hours each, 12 more after every move, up to 120",
            "72 horas para cada jugador, 12 más tras cada jugada, hasta 120",
        ),
        (
            ONE_HOUR_BANK,
            "1 hour each, 1 more after every move, up to 1",
            "1 hora para cada jugador, 1 más tras cada jugada, hasta 1",
        ),
    ],
)
def test_a_time_control_of_each_kind_is_said(control, english, spanish):
    with translation.override("en"):
        assert time_control_text(control) == english
    with translation.override("es"):
        assert time_control_text(control) == spanish


@pytest.mark.parametrize(
    ("control", "english", "spanish"),
    [
        (
            BANK,
            "a bank of 72 hours, 12 hours more per move, at most 120 hours",
            "una reserva de 72 horas, 12 horas más por jugada, como máximo 120 horas",
        ),
        (
            ONE_HOUR_BANK,
            "a bank of 1 hour, 1 hour more per move, at most 1 hour",
            "una reserva de 1 hora, 1 hora más por jugada, como máximo 1 hora",
        ),
        (PER_MOVE, "3 days per move", "3 días por jugada"),
        (None, "no time limit", "sin límite de tiempo"),
    ],
)
def test_a_bank_in_parts_names_each_part_as_the_invitations_do(control, english, spanish):
    with translation.override("en"):
        assert time_control_text(control, bank_in_parts=True) == english
    with translation.override("es"):
        assert time_control_text(control, bank_in_parts=True) == spanish


def test_days_per_move_take_each_language_plural_form():
    with translation.override("pl"):
        assert [per_move_text(days) for days in (1, 3, 5)] == [
            "1 dzień na ruch",
            "3 dni na ruch",
            "5 dni na ruch",
        ]
