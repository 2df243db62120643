"""News of the site, told the moment it is committed (issue 42): a game moved on or
chatted (topic ``game:<id>``), the lobby's open games changed (``lobby``). Open pages hold
a stream (``games.streams``) that passes the news on; what changed they then read as
before (the game page's ``live`` answer, the lobby's own page).

With Redis (``REDIS_URL``), news is a Redis PUBLISH after the commit, heard by every stream
server at once. Without (``make run``'s defaults: one machine) it is a file per topic under
``NEWS_DIR`` whose time is set anew (the filesystem broker's way), which the streams of
runserver's threads look at every ``WATCH_SECONDS``: a ``stat``, no database read. News is
a hint, never the truth: a lost one costs a page at most its polling fallback, so
publishing never fails a write."""

import logging
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.db import transaction

from games.models import ChatMessage, Game

log = logging.getLogger(__name__)

LOBBY = "lobby"
# How often a stream without Redis reads the rows it watches.
WATCH_SECONDS = 0.1


def game_topic(game_id: int) -> str:
    return f"game:{game_id}"


def game_changed(game_id: int) -> None:
    """The game's events or chat changed: told once the transaction commits."""
    transaction.on_commit(lambda: publish(game_topic(game_id)))


def lobby_changed() -> None:
    """A game was opened, joined, left, started or called off: told after the commit."""
    transaction.on_commit(lambda: publish(LOBBY))


def channel(topic: str) -> str:
    """The Redis channel of ``topic``. Channels are one namespace for a whole Redis server,
    whatever its database: the site's database number keeps two sites (or two test
    processes) that share a server apart."""
    database = urlsplit(settings.NEWS_REDIS_URL).path.strip("/") or "0"
    return f"azulsite:{database}:news:{topic}"


def publish(topic: str) -> None:
    """Tell the streams listening to ``topic``."""
    if not settings.NEWS_REDIS_URL:
        _stamp(topic)
        return
    try:
        _client(settings.NEWS_REDIS_URL).publish(channel(topic), "1")
    except redis.RedisError as error:
        log.warning("news of %s not published: %s", topic, error)


def _file(topic: str) -> Path:
    return Path(settings.NEWS_DIR) / topic.replace(":", "-")


def _stamp(topic: str) -> None:
    try:
        _file(topic).parent.mkdir(parents=True, exist_ok=True)
        _file(topic).touch()
    except OSError as error:
        log.warning("news of %s not written: %s", topic, error)


def stamps(topics: list[str]) -> tuple[int, ...]:
    """When each topic's news file was last written (0: never), in nanoseconds."""
    found = []
    for topic in topics:
        try:
            found.append(_file(topic).stat().st_mtime_ns)
        except OSError:
            found.append(0)
    return tuple(found)


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)


def mark(game_id: int) -> dict:
    """Where the game stands for its open pages: its last event, its chat's last message
    and its status (two reads by index)."""
    seq, status = Game.objects.filter(pk=game_id).values_list("last_seq", "status").first()
    chat = (
        ChatMessage.objects.filter(game_id=game_id)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return {"seq": seq, "chat": chat or 0, "status": status}
