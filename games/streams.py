"""Server-sent events: an open game page, or the lobby, is told of news the moment it is
committed (issue 42; ``games.news``), and then reads what changed as it always did. The
stream only says "look now"; a page whose stream breaks polls as before.

The serving model (docs/service.md, "The page follows the game"):

- **Production**: the Procfile's ``stream`` process, uvicorn serving the site's ASGI
  application, holds the streams: one coroutine per open page, costing memory but no
  thread and no CPU while nothing happens. The process holds one Redis connection and one
  subscription for all its pages (``_Hub``), and passes each message on in memory to the
  pages of its channel, as lila and Zulip do: a connection per page would meet Redis's
  10,000 clients long before the machine is busy. When Redis is away the stream answers
  503 with ``Retry-After`` before it starts, and the page polls. The proxy in front sends
  ``/stream/`` there (``deploy/``). The WSGI site itself (gunicorn's
  synchronous workers) never holds a stream: a page that reaches it answers 204, which
  tells the browser not to retry, and the page polls.
- **make run**: ``runserver`` gives each request a thread, so it holds the streams itself
  (``NEWS_STREAM_IN_THREADS``): listening to Redis where there is one, else watching the
  news files (``news.stamps``).

A stream lasts ``HOLD_SECONDS`` at most, then ends; the browser opens it again (and a
changed session or a game become private is then checked again)."""

import asyncio
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial

import redis
import redis.asyncio as aioredis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from azulsite import metrics
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
# After the subscription is lost or cannot be made, streams answer 503 this long without
# trying again (the pages poll meanwhile); one warning in the log, no traceback a page.
AWAY_SECONDS = 5
# How long a stream's start waits for Redis: a connection, a subscription confirmed.
REDIS_SECONDS = 2

log = logging.getLogger(__name__)


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
        if not async_to_sync(_hub_ready)():
            # Before the answer starts: the browser's EventSource gives up and the page
            # polls (a 200 that then failed had every page try again each second).
            return HttpResponse(
                "News is not being passed on at the moment; the page checks by itself.",
                status=503,
                content_type="text/plain",
                headers={"Retry-After": str(AWAY_SECONDS)},
            )
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


class _Page:
    """An open page's place in the hub: told when news of one of its channels comes, or
    when the subscription is lost (``lost``: the stream then ends). It waits on a future
    of its own, no task: a wake-up costs the least there is, times the pages told."""

    __slots__ = ("news", "lost", "waiter")

    def __init__(self) -> None:
        self.news = False
        self.lost = False
        self.waiter: asyncio.Future | None = None

    def tell(self) -> None:
        self.news = True
        _wake(self.waiter)

    async def wait(self, seconds: float) -> bool:
        """Whether news came, waiting ``seconds`` at most for it."""
        if not self.news:
            loop = asyncio.get_running_loop()
            self.waiter = loop.create_future()
            timer = loop.call_later(seconds, _wake, self.waiter)
            try:
                await self.waiter
            finally:
                timer.cancel()
                self.waiter = None
        news, self.news = self.news, False
        return news


def _wake(waiter: asyncio.Future | None) -> None:
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class _Hub:
    """The stream process's one Redis connection and subscription, shared by its open
    pages: a reader passes each message to the pages of its channel, a writer keeps the
    subscribed channels those some page listens to. Commands go out from the writer alone,
    so a SUBSCRIBE and an UNSUBSCRIBE of one channel leave in the order they were decided;
    a page starts once Redis confirmed every subscription it needs, so news published
    after its ``hello`` is read reaches it."""

    def __init__(self) -> None:
        self.pages: dict[bytes, set[_Page]] = {}
        self.open: set[_Page] = set()
        self.sent: set[bytes] = set()
        # SUBSCRIBEs sent whose confirmation has not come back, and who waits for them.
        self.unconfirmed: dict[bytes, int] = {}
        self.waiting: dict[bytes, list[asyncio.Future]] = {}
        self.client: aioredis.Redis | None = None
        self.pubsub = None
        self.tasks: list[asyncio.Task] = []
        self.changed = asyncio.Event()
        self.connecting = asyncio.Lock()
        self.away_until = 0.0
        # A process started again under the same name (a container) begins at none.
        metrics.OPEN_STREAMS.set(0)

    async def ready(self) -> bool:
        """Whether the subscription is up (connecting if needed); ``False`` while Redis
        is away."""
        if self.pubsub is not None:
            return True
        if time.monotonic() < self.away_until:
            return False
        async with self.connecting:
            if self.pubsub is None and time.monotonic() >= self.away_until:
                await self._connect()
        return self.pubsub is not None

    async def _connect(self) -> None:
        client = aioredis.Redis.from_url(
            settings.NEWS_REDIS_URL,
            socket_connect_timeout=REDIS_SECONDS,
            retry=Retry(NoBackoff(), 0),
            client_name=f"azulsite-stream-{os.getpid()}",
        )
        pubsub = client.pubsub()
        try:
            await asyncio.wait_for(pubsub.connect(), REDIS_SECONDS)
        except (redis.RedisError, OSError, TimeoutError) as error:
            await client.aclose()
            self._away(f"cannot subscribe to news ({error})")
            return
        self.client, self.pubsub = client, pubsub
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]

    async def join(self, page: _Page, channels: list[bytes]) -> bool:
        """``page`` listens to ``channels`` once Redis confirmed them; ``False`` if the
        subscription was lost meanwhile."""
        if not await self.ready():
            return False
        waits = []
        self.open.add(page)
        metrics.OPEN_STREAMS.set(len(self.open))
        for name in channels:
            self.pages.setdefault(name, set()).add(page)
            if name not in self.sent or self.unconfirmed.get(name):
                waits.append(asyncio.get_running_loop().create_future())
                self.waiting.setdefault(name, []).append(waits[-1])
        self.changed.set()
        if waits:
            await asyncio.wait(waits, timeout=REDIS_SECONDS)
        return all(wait.done() and wait.result() for wait in waits) and not page.lost

    def leave(self, page: _Page) -> None:
        """``page`` closed: a channel no page listens to any more is unsubscribed."""
        self.open.discard(page)
        metrics.OPEN_STREAMS.set(len(self.open))
        for name in [name for name, pages in self.pages.items() if page in pages]:
            self.pages[name].discard(page)
            if not self.pages[name]:
                del self.pages[name]
        self.changed.set()

    async def _write(self) -> None:
        try:
            while True:
                await self.changed.wait()
                self.changed.clear()
                gone = self.sent - self.pages.keys()
                new = self.pages.keys() - self.sent
                self.sent = (self.sent - gone) | new
                for name in new:
                    self.unconfirmed[name] = self.unconfirmed.get(name, 0) + 1
                if gone:
                    await self.pubsub.unsubscribe(*gone)
                if new:
                    await self.pubsub.subscribe(*new)
        except (redis.RedisError, OSError) as error:
            self._away(f"news subscription lost ({error})")

    async def _read(self) -> None:
        try:
            while True:
                message = await self.pubsub.get_message(timeout=None)
                if message is None:
                    continue
                name = message["channel"]
                if message["type"] == "message":
                    for page in self.pages.get(name, ()):
                        page.tell()
                elif message["type"] == "subscribe":
                    left = self.unconfirmed.pop(name, 1) - 1
                    if left:
                        self.unconfirmed[name] = left
                    else:
                        for wait in self.waiting.pop(name, []):
                            if not wait.done():
                                wait.set_result(True)
        except (redis.RedisError, OSError) as error:
            self._away(f"news subscription lost ({error})")

    def _away(self, why: str) -> None:
        """Redis is away: every open page's stream ends (the browser opens it again and
        is told 503 until Redis is back), and for ``AWAY_SECONDS`` none is tried."""
        log.warning("%s: streams answer 503 for %s s, pages poll", why, AWAY_SECONDS)
        self.away_until = time.monotonic() + AWAY_SECONDS
        for pages in self.pages.values():
            for page in pages:
                page.lost = True
                page.tell()
        for waits in self.waiting.values():
            for wait in waits:
                if not wait.done():
                    wait.set_result(False)
        current = asyncio.current_task()
        for task in self.tasks:
            if task is not current:
                task.cancel()
        if self.client is not None:
            # Closed in the background: this may run inside the reader being torn down.
            asyncio.get_running_loop().create_task(self.client.aclose())
        self.pages, self.open, self.sent, self.unconfirmed, self.waiting = {}, set(), set(), {}, {}
        metrics.OPEN_STREAMS.set(0)
        self.client = self.pubsub = None
        self.tasks = []


_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}


def _hub() -> _Hub:
    """The hub of the running event loop (one in the stream process)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs.clear()  # a loop before this one (tests) has ended
        _hubs[loop] = _Hub()
    return _hubs[loop]


async def _hub_ready() -> bool:
    return await _hub().ready()


async def _subscribed(topics: list[str], hello: Callable[[], dict]) -> AsyncIterator[bytes]:
    """The stream server's stream: the topics' channels, heard through the hub."""
    hub, page = _hub(), _Page()
    try:
        if not await hub.join(page, [news.channel(topic).encode() for topic in topics]):
            return  # Redis went away as it started: opened again, the stream says 503
        # A pool's threads, each keeping its connection: a few connections for every
        # stream of the process.
        yield _opening(await sync_to_async(hello, thread_sensitive=False)())
        pace = _Pace(PING_SECONDS)
        while pace.running() and not page.lost:
            changed = await page.wait(PING_SECONDS)
            if page.lost:
                return
            if frame := pace.after(changed):
                yield frame
    finally:
        hub.leave(page)


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
