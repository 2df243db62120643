"""Rate limits at the doors, counted in the cache: Redis in production, so every web process
shares one count; the process's memory in the embedded site.

The pages use **django-ratelimit** rather than django-axes. Axes does one thing, locking
out a login after failed attempts, recorded in tables of its own; we need one cache-backed
counter on several doors — asking for sign-in links, password sign-in, following a sign-in
link, emailed replies — keyed by client address, account or sender, and counting every
try (a limit on failures alone still lets a flood of sign-in emails through). That is
django-ratelimit (``get_usage``), and nothing more. The REST API uses DRF's throttles
(``settings.REST_FRAMEWORK``), counted in fixed windows (``FixedWindow``) under hashed keys;
invitations are counted by the service that sends them (``games.services.tables``), from
the outbox.

Every limit answers 429 with ``Retry-After``, except the sign-in email's: those answer the
same "check your email" page whether or not an email went out, so they reveal nothing
about any address.

When the cache cannot count (Redis unreachable), each limit decides (``fail_closed``): the
sign-in doors that send emails or check passwords refuse every try with "try again in a
minute" (503), since a flood there would be unlimited; following a sign-in link (its code
cannot be guessed), emailed replies (their reply address, sender and game are checked
anyway) and the API's reads go on uncounted.
"""

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage
from rest_framework import throttling

from games.models import ApiToken
from games.notify.channels.email.addresses import account_identity

# Rates: "count/period", the period in s, m, h or d with an optional multiple ("15m").
SIGN_IN_FORM_PER_IP = "20/15m"
SIGN_IN_EMAILS_PER_ADDRESS = "3/15m"
SIGN_IN_EMAILS_PER_IP = "10/h"
SIGN_IN_CODES_PER_IP = "20/15m"
PASSWORD_TRIES_PER_ACCOUNT = "5/15m"
PASSWORD_TRIES_PER_IP = "20/15m"
# Two replies a minute for an hour: more than a player types, even in a game played fast by
# email; a forged flood stops here (and the mail door caps refusals per game on top).
REPLIES_PER_SENDER = "120/h"


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``NUM_PROXIES`` proxies the address
    that many hops from the right of ``X-Forwarded-For`` (the hops a client cannot forge),
    as DRF's throttles read it."""
    forwarded = request.headers.get("X-Forwarded-For")
    if settings.NUM_PROXIES and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(settings.NUM_PROXIES, len(hops))]
    return request.META.get("REMOTE_ADDR") or "unknown"


# How long a door that fails closed asks people to wait while the cache cannot count.
UNCOUNTED_WAIT = 60

logger = logging.getLogger(__name__)


class Uncounted(Exception):
    """The cache could not count a try at a limit that fails closed."""


@dataclass(frozen=True)
class Limit:
    """A rate for one group of requests, counted per ``key(request)``; ``fail_closed``:
    refuse the try (``Uncounted``) when the cache cannot count it, rather than let it
    through."""

    group: str
    rate: str
    key: Callable[[HttpRequest], str]
    fail_closed: bool = False

    def hit(self, request: HttpRequest | None) -> int:
        """Count one try; the seconds to wait if that went over the rate, else 0. Raises
        ``Uncounted`` when the cache could not count it and the limit fails closed."""
        usage = get_usage(
            request,
            group=self.group,
            key=lambda group, request: self.key(request),
            rate=self.rate,
            increment=True,
        )
        if usage is None:
            return 0
        if usage["limit"] == 0:
            # django-ratelimit's answer when the cache failed (RATELIMIT_FAIL_OPEN off);
            # every rate here allows at least one try.
            logger.warning("rate limit %s not counted: the cache is unreachable", self.group)
            if self.fail_closed:
                raise Uncounted(self.group)
            return 0
        if not usage["should_limit"]:
            return 0
        return max(1, usage["time_left"])


def by_ip(request: HttpRequest) -> str:
    return client_ip(request)


def by_account(name: str) -> Callable[[HttpRequest], str]:
    """The account a posted field names, spelled as the sign-in looks it up
    (``account_identity``): every spelling of one account counts against one limit."""
    return lambda request: account_identity(request.POST.get(name, ""))


def wait_for(request: HttpRequest | None, *limits: Limit) -> int:
    """Count one try against each limit (stopping at the first one over): seconds to wait."""
    for limit in limits:
        wait = limit.hit(request)
        if wait:
            return wait
    return 0


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """The 429 page: what happened and when to try again."""
    minutes = max(1, round(wait / 60))
    response = render(request, "too_many.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(wait)
    return response


def uncounted(request: HttpRequest) -> HttpResponse:
    """The 503 page of a door that fails closed while the cache cannot count."""
    response = render(request, "too_many.html", {"uncounted": True}, status=503)
    response["Retry-After"] = str(UNCOUNTED_WAIT)
    return response


def refusal(request: HttpRequest, *limits: Limit) -> HttpResponse | None:
    """Count one try against ``limits``: the 429 page over one, the 503 page where a limit
    that fails closed could not be counted, else ``None`` (go on)."""
    try:
        wait = wait_for(request, *limits)
    except Uncounted:
        return uncounted(request)
    return too_many(request, wait) if wait else None


def throttled(*limits: Limit, methods: tuple[str, ...] = ("POST",)):
    """A page view whose ``methods`` count against ``limits``; over one, a 429 page; a
    limit that fails closed and could not be counted, a 503 page."""

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            if request.method in methods and (refused := refusal(request, *limits)):
                return refused
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


SIGN_IN_FORM = Limit("sign-in-form", SIGN_IN_FORM_PER_IP, by_ip, fail_closed=True)
SIGN_IN_CODES = Limit("sign-in-code", SIGN_IN_CODES_PER_IP, by_ip)
PASSWORD_TRIES = (
    Limit("password-account", PASSWORD_TRIES_PER_ACCOUNT, by_account("username"), fail_closed=True),
    Limit("password-ip", PASSWORD_TRIES_PER_IP, by_ip, fail_closed=True),
)

# The closing page's password (issue 52): it would otherwise answer, without limit, whether
# a password is the account's. Its tries count in the sign-in's own groups, keyed alike
# (the account's address), so one account has one budget of password guesses however they
# come.
CLOSING_PASSWORD_TRIES = (
    Limit(
        "password-account",
        PASSWORD_TRIES_PER_ACCOUNT,
        lambda request: account_identity(request.user.username),
        fail_closed=True,
    ),
    PASSWORD_TRIES[1],
)


def sign_in_email_allowed(request: HttpRequest, email: str) -> bool:
    """Whether a sign-in email may go to ``email`` now: per address written to, then per
    client address (which so counts only emails that could go out). The page answers the
    same either way."""
    limits = (
        Limit(
            "sign-in-email-address",
            SIGN_IN_EMAILS_PER_ADDRESS,
            lambda request: account_identity(email),
            fail_closed=True,
        ),
        Limit("sign-in-email-ip", SIGN_IN_EMAILS_PER_IP, by_ip, fail_closed=True),
    )
    try:
        return not wait_for(request, *limits)
    except Uncounted:
        return False


def reply_flood(sender: str) -> bool:
    """Count an emailed reply from ``sender``: whether that address has sent more than
    ``REPLIES_PER_SENDER`` (then the reply is ignored, unanswered)."""
    address = account_identity(sender)
    return bool(Limit("mail-reply", REPLIES_PER_SENDER, lambda request: address).hit(None))


class FixedWindow:
    """For DRF's rate throttles: count a client's requests in fixed windows of the rate's
    period, one cache increment per request. DRF's own keeps a sliding window as the list
    of every request's time in the period, read and written back whole on every request
    (up to the rate's count of times: 1,200 for a signed-in client's minute). A client
    may so get up to twice the rate across the edge of two windows, which a brake on
    floods allows. ``fail_closed``: refuse while the cache cannot count."""

    fail_closed = False

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        # Hashed, as django-ratelimit's keys are: a key names a client address or an
        # account's email address, and no address is kept in the cache (docs/privacy.md).
        window = f"{self.key}:{int(now // self.duration)}"
        key = "throttle:" + hashlib.sha256(window.encode()).hexdigest()
        self.left = self.duration - now % self.duration
        try:
            count = self.cache.incr(key)
        except ValueError:
            # The window's first request (or one after the key expired).
            count = 1 if self.cache.add(key, 1, self.duration) else self.cache.incr(key)
        if count is None:
            # An unreachable cache answers None (and logs it): a throttle that fails closed
            # refuses, asking for a minute; the others let the request through.
            self.left = UNCOUNTED_WAIT
            return not self.fail_closed
        return count <= self.num_requests

    def wait(self) -> float:
        return self.left


class AnonRateThrottle(FixedWindow, throttling.AnonRateThrottle):
    """Anonymous requests per client address (rate ``anon``)."""


class UserRateThrottle(FixedWindow, throttling.UserRateThrottle):
    """A signed-in client's requests per account, anonymous ones per address (``user``)."""


class NamedTokenRateThrottle(FixedWindow, throttling.SimpleRateThrottle):
    """Requests per named API token (rate ``named-token``): a program's key (a bot's,
    issue 55) is braked on its own, before its account's whole rate; other requests are
    not counted here."""

    scope = "named-token"

    def get_cache_key(self, request, view) -> str | None:
        token = getattr(request, "auth", None)
        if not isinstance(token, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
