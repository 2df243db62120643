"""Server-sent events: an open game page, or the lobby, is told of news the moment it is
committed (issue 42; ``games.news``), and then reads what changed as it always did. The
stream only says "look now"; a page whose stream breaks polls as before.

The serving model (docs/service.md, "The page follows the game"):

- **Production**: the Procfile's ``stream`` process, uvicorn serving the site's ASGI
  application, holds the streams: one coroutine per open page, waiting on a Redis
  subscription, costing memory but no thread and no CPU while nothing happens. The proxy
  in front sends ``/stream/`` there (``deploy/``). The WSGI site itself (gunicorn's
  synchronous workers) never holds a stream: a page that reaches it answers 204, which
  tells the browser not to retry, and the page polls.
- **make run**: ``runserver`` gives each request a thread, so it holds the streams itself
  (``NEWS_STREAM_IN_THREADS``): listening to Redis where there is one, else watching the
  news files (``news.stamps``).

A stream lasts ``HOLD_SECONDS`` at most, then ends; the browser opens it again (and a
changed session or a game become private is then checked again)."""

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games import news
from games.errors import ServiceError
from games.models import Game, Seat
from games.selectors.access import game_for_viewer

HOLD_SECONDS = 300
# A comment this often keeps proxies and the browser from taking a quiet stream for dead.
PING_SECONDS = 15
# In runserver's threads, a page that went away is only noticed when something is written
# to it: a ping every second frees its thread soon.
THREAD_PING_SECONDS = 1
# How soon the browser opens a stream again that ended or broke.
RETRY_MILLISECONDS = 1000
PING = b": ping\n\n"


def _frame(event: str, data: dict | None = None) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data or {})}\n\n".encode()


@require_GET
def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/stream/games/<id>``: ``hello`` with what the game stands at (the page compares it
    with what it shows, in case a move came between its render and the stream; a finished
    game's chat still changes), then ``news`` whenever the game moved or its chat
    changed."""
    try:
        game = game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return HttpResponse(status=error.status)
    return _stream(request, [news.game_topic(game.pk)], partial(news.mark, game.pk))


@require_GET
def lobby_stream(request: HttpRequest) -> HttpResponse:
    """``/stream/lobby``: ``news`` when a game was opened, joined, left, started or
    called off, or one of the viewer's games moved on."""
    mine = (
        Seat.objects.filter(
            user=request.user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
        ).values_list("game_id", flat=True)
        if request.user.is_authenticated
        else []
    )
    return _stream(request, [news.LOBBY, *map(news.game_topic, mine)], dict)


def _stream(request, topics: list[str], hello: Callable[[], dict]) -> HttpResponse:
    """The stream of ``topics``, opening with the ``hello`` read once it listens: news
    published before that is then in the hello, news after it in an event, none lost."""
    if isinstance(request, ASGIRequest) and settings.NEWS_REDIS_URL:
        events = _subscribed(topics, hello)
        # The stream reads the database once, in a thread of a small pool: this request's
        # connection must not stay open for the minutes it lasts (one per open page would
        # exhaust PostgreSQL's).
        connections.close_all()
    elif not isinstance(request, ASGIRequest) and settings.NEWS_STREAM_IN_THREADS:
        events = _in_a_thread(topics, hello)
    else:
        # A synchronous worker held for minutes would be lost to every other request (and
        # an ASGI server without Redis has no news to wait on): the page polls.
        return HttpResponse(status=204)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    # nginx (and proxies that follow it) would otherwise hold the events back.
    response["X-Accel-Buffering"] = "no"
    return response


class _Pace:
    """A stream's clock: how long it still runs, and what to send after each wait: news,
    a ping when the line has been quiet for ``ping_seconds``, or nothing."""

    def __init__(self, ping_seconds: float) -> None:
        self.ends = time.monotonic() + HOLD_SECONDS
        self.pinged = time.monotonic()
        self.ping_seconds = ping_seconds

    def running(self) -> bool:
        return time.monotonic() < self.ends

    def after(self, changed: bool) -> bytes | None:
        if changed:
            return _frame("news")
        if time.monotonic() - self.pinged >= self.ping_seconds:
            self.pinged = time.monotonic()
            return PING
        return None


def _opening(hello: dict) -> bytes:
    return f"retry: {RETRY_MILLISECONDS}\n".encode() + _frame("hello", hello)


async def _subscribed(topics: list[str], hello: Callable[[], dict]) -> AsyncIterator[bytes]:
    """The stream server's stream: a Redis subscription to the topics."""
    client = aioredis.Redis.from_url(settings.NEWS_REDIS_URL)
    subscription = client.pubsub(ignore_subscribe_messages=True)
    try:
        await subscription.subscribe(*map(news.channel, topics))
        # A pool's threads, each keeping its connection: a few connections for every
        # stream of the process.
        yield _opening(await sync_to_async(hello, thread_sensitive=False)())
        pace = _Pace(PING_SECONDS)
        while pace.running():
            message = await subscription.get_message(timeout=PING_SECONDS)
            if frame := pace.after(message is not None):
                yield frame
    finally:
        await subscription.aclose()
        await client.aclose()


def _in_a_thread(topics: list[str], hello: Callable[[], dict]) -> Iterator[bytes]:
    """``make run``'s stream, in runserver's thread for the request."""
    pace = _Pace(THREAD_PING_SECONDS)
    if settings.NEWS_REDIS_URL:
        subscription = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
            ignore_subscribe_messages=True
        )
        try:
            subscription.subscribe(*map(news.channel, topics))
            yield _opened_in_a_thread(hello)
            while pace.running():
                message = subscription.get_message(timeout=THREAD_PING_SECONDS)
                if frame := pace.after(message is not None):
                    yield frame
        finally:
            subscription.close()
        return
    seen = news.stamps(topics)
    yield _opened_in_a_thread(hello)
    while pace.running():
        time.sleep(news.WATCH_SECONDS)
        now = news.stamps(topics)
        changed, seen = now != seen, now
        if frame := pace.after(changed):
            yield frame


def _opened_in_a_thread(hello: Callable[[], dict]) -> bytes:
    opening = _opening(hello())
    # What the stream needed of the database is read: runserver's thread gives its
    # connection back now rather than when the stream ends, minutes later.
    connections.close_all()
    return opening
