"""The reader's language and time zone: chosen on the account page, else (for pages) the
browser's ``Accept-Language``, else English. Emails have no browser: they use the account's
choice, else the language the player last signed in with, else English.

``speaking_to(user)`` renders anything (an email, a refusal) for one reader; the middleware
does the same for every request."""

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from django.conf import settings
from django.utils import timezone, translation

API_PREFIX = "/api/"


def supported(language: str | None) -> str:
    """``language`` if the site speaks it (``pt-br`` counts as ``pt``), else ''."""
    if not language:
        return ""
    try:
        return translation.get_supported_language_variant(language)
    except LookupError:
        return ""


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA zone the server knows, "UTC" first: the choices of the account page."""
    names = sorted(zoneinfo.available_timezones() - {"UTC", "localtime", "Factory"})
    return ("UTC", *(n for n in names if "/" in n and not n.startswith(("Etc/", "SystemV/"))))


def zone(name: str | None) -> zoneinfo.ZoneInfo:
    """The zone called ``name``; UTC for an empty or unknown name."""
    if name and name in time_zone_names():
        return zoneinfo.ZoneInfo(name)
    return zoneinfo.ZoneInfo("UTC")


def preferences_of(user):
    """The player's settings row, or None (a visitor, or a player who never saved any)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.player_settings
    except user._meta.model.player_settings.RelatedObjectDoesNotExist:
        return None


def language_of(user) -> str:
    """The language emails to ``user`` are written in."""
    prefs = preferences_of(user)
    if prefs is None:
        return settings.LANGUAGE_CODE
    return supported(prefs.language) or supported(prefs.last_language) or settings.LANGUAGE_CODE


def zone_of(user) -> zoneinfo.ZoneInfo:
    prefs = preferences_of(user)
    return zone(prefs.time_zone if prefs else "")


@contextmanager
def speaking_to(user, language: str | None = None) -> Iterator[None]:
    """Render for ``user``: their language (or ``language``, for an address with no account
    yet) and their time zone."""
    with translation.override(supported(language) or language_of(user)):
        previous = timezone.get_current_timezone()
        timezone.activate(zone_of(user))
        try:
            yield
        finally:
            timezone.activate(previous)


class PlayerLanguageMiddleware:
    """After ``LocaleMiddleware`` (which reads the language cookie, then Accept-Language)
    and authentication: a signed-in player's chosen language and time zone win on pages.
    The API is left to ``LocaleMiddleware``: its clients say what they want in every
    request's ``Accept-Language``, and a move costs no extra query."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API_PREFIX):
            return self.get_response(request)
        prefs = preferences_of(getattr(request, "user", None))
        chosen = supported(prefs.language) if prefs else ""
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        timezone.activate(zone(prefs.time_zone if prefs else ""))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
