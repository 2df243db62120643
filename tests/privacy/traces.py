"""Where the site keeps data about people, read whole, for the erasure tests (issue 45,
52) and the simulated community: every byte of a ``pg_dump``, with the compressed values
it holds opened (the downloads' ZIP archives, the tables' zlib snapshots), and every key
and value of the cache in Redis."""

import io
import re
import subprocess
import zipfile
import zlib

from django.core.cache import cache
from django.db import connection
from django_redis import get_redis_connection

# A bytea value as pg_dump writes it in COPY text: \\x and hex digits.
BYTEA = re.compile(rb"\\\\x((?:[0-9a-f]{2})+)")


def database_dump() -> bytes:
    """Every byte the database holds, as ``pg_dump`` writes it (data only), followed by
    the files of every ZIP archive found in a bytea value, opened."""
    db = connection.settings_dict
    dump = subprocess.run(
        [
            "pg_dump",
            "--data-only",
            "-h",
            db["HOST"] or "127.0.0.1",
            "-p",
            str(db["PORT"] or 5432),
            "-U",
            db["USER"] or "postgres",
            db["NAME"],
        ],
        check=True,
        capture_output=True,
    ).stdout
    return dump + b"".join(_opened(bytes.fromhex(found.decode())) for found in BYTEA.findall(dump))


def _opened(value: bytes) -> bytes:
    """A ZIP archive's files, a zlib stream (a table's snapshot) inflated, else the bytes."""
    if value.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(value)) as archive:
            return b"\n".join(archive.read(name) for name in archive.namelist())
    try:
        return zlib.decompress(value)
    except zlib.error:
        return value


def redis_dump() -> bytes:
    """Every key of the site's cache in Redis (where the rate limits count), and every
    string value: the keys under this test's prefix (``tests.conftest.own_rate_limits``),
    as another test's keys may still wait there to expire."""
    redis = get_redis_connection("default")
    said = []
    for key in redis.scan_iter(match=f"{cache.key_prefix}*", count=1000):
        said.append(key)
        if redis.type(key) == b"string":
            said.append(redis.get(key) or b"")
    return b"\n".join(said)


def found_in(where: bytes, texts) -> list[str]:
    """Which of ``texts`` ``where`` holds (case-insensitive)."""
    lowered = where.lower()
    return [text for text in texts if text.lower().encode() in lowered]


def pages_holding(texts, urls, readers) -> list[str]:
    """Of ``urls``, each read by every client of ``readers`` (signed in as someone, or a
    visitor), those whose answer holds one of ``texts``, with what it held; an answer of
    5xx is listed too (a page that breaks hides nothing; a refusal, such as the replay of
    a game that never started, is read like any answer)."""
    found = []
    for url in urls:
        for reader in readers:
            answer = reader.get(url)
            if answer.status_code >= 500:
                found.append(f"{url}: {answer.status_code}")
            elif held := found_in(answer.content, texts):
                found.append(f"{url}: {held}")
    return found


def urls_of_game(game_id: int) -> list[str]:
    """Where a game is read: its page, replay, export and events."""
    return [
        f"/games/{game_id}/",
        f"/games/{game_id}/replay/",
        f"/api/games/{game_id}/export/",
        f"/api/games/{game_id}/events/",
    ]


def urls_of_tournament(tournament_id: int) -> list[str]:
    """Where a tournament is read: its page and its API, and the lists."""
    return [
        f"/tournaments/{tournament_id}/",
        f"/api/tournaments/{tournament_id}/",
        "/tournaments/",
        "/api/tournaments/",
    ]
