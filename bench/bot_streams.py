"""What connected bots cost the stream process, and how late the move clock fires (issue 55).

``--bots`` bots (500) each hold their event stream (``/api/bot/stream/event``) open on the
Procfile's ``stream`` process (uvicorn, the site's ASGI application), read by this bench's
asyncio loop, a plain socket each. Printed: the process's memory before and with them,
its CPU over ``--idle`` seconds while they wait (keep-alive lines only), the database
connections it holds, then for ``--clocks`` timed games (``--seconds`` per move, nobody
moving) how late after its deadline each timeout was played by the clock the stream
process runs (p50, max), while the bots stay connected.

    ulimit -n 4000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_bots \\
    REDIS_URL=redis://127.0.0.1:6379/5 nice -n 10 .venv/bin/python bench/bot_streams.py

Its database is emptied at the start, and the Redis database flushed.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.idle_pages import cpu_seconds, rss_megabytes  # noqa: E402
from bench.waits import configure, free_port, load, percentile, prepared, start_stream, stop  # noqa: E402

OPENING_AT_ONCE = 100


async def held(port: int, key: str, opened: asyncio.Queue) -> None:
    """One bot's event stream: open, then read until the bench ends."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/bot/stream/event HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Token {key}\r\n\r\n".encode()
    )
    status = await reader.readline()
    await opened.put("" if b" 200 " in status else status.decode().strip())
    while await reader.readline():
        pass


def database_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def bots_made(count: int) -> list[tuple[object, str]]:
    """``count`` bots, each with a token, made as their owners make them (an owner makes
    ``MOST_BOTS`` at most)."""
    from django.contrib.auth import get_user_model

    from games.services.bot_accounts import MOST_BOTS, bot_create, bot_token_create

    made = []
    for number in range(count):
        if number % MOST_BOTS == 0:
            address = f"owner{number}@example.org"
            owner = get_user_model().objects.create_user(username=address, email=address)
        bot = bot_create(owner=owner, name=f"Bench {number}", games=["azul"])
        _token, key = bot_token_create(owner=owner, bot_id=bot.user_id, name="bench")
        made.append((bot.user, key))
    return made


def clocked_games(bots: list, count: int, seconds: int) -> list:
    from games.services.challenges import challenge_accept, challenge_create

    games = []
    for number in range(count):
        one, other = bots[2 * number][0], bots[2 * number + 1][0]
        challenge = challenge_create(
            challenger=one, opponent_id=other.pk, game="azul", seconds_per_move=seconds
        )
        games.append(challenge_accept(user=other, challenge_id=challenge.pk))
    return games


def lateness(games: list, seconds: int) -> list[float]:
    from games.models import Game

    late = []
    for game in Game.objects.filter(pk__in=[game.pk for game in games]):
        due = (game.last_move_at or game.started_at) + timedelta(seconds=seconds)
        if game.finished_at is not None:
            late.append((game.finished_at - due).total_seconds())
    return late


async def bench(arguments, port: int, server) -> None:
    from asgiref.sync import sync_to_async

    made = await sync_to_async(bots_made)(arguments.bots)
    before = rss_megabytes(server.pid)
    connections_before = await sync_to_async(database_connections)()
    opened: asyncio.Queue = asyncio.Queue()
    started = time.monotonic()
    tasks = []
    for start in range(0, len(made), OPENING_AT_ONCE):
        tasks += [
            asyncio.create_task(held(port, key, opened))
            for _user, key in made[start : start + OPENING_AT_ONCE]
        ]
        for _task in range(len(made[start : start + OPENING_AT_ONCE])):
            refused = await opened.get()
            if refused:
                print("refused:", refused)
    print(f"{len(made)} bot event streams open in {time.monotonic() - started:.1f} s")
    await asyncio.sleep(2)
    cpu = cpu_seconds(server.pid)
    await asyncio.sleep(arguments.idle)
    idle_cpu = cpu_seconds(server.pid) - cpu
    held_rss = rss_megabytes(server.pid)
    connections = await sync_to_async(database_connections)()
    print(
        f"stream process: {before:.0f} MB before, {held_rss:.0f} MB with {len(made)} bots "
        f"({(held_rss - before) * 1024 / len(made):.0f} kB a bot); CPU {idle_cpu:.2f} s over "
        f"{arguments.idle} s idle ({100 * idle_cpu / arguments.idle:.1f}% of a core); "
        f"database connections {connections_before} before, {connections} with them; {load()}"
    )
    games = await sync_to_async(clocked_games)(made, arguments.clocks, arguments.seconds)
    await asyncio.sleep(arguments.seconds + 4)
    late = await sync_to_async(lateness)(games, arguments.seconds)
    if late:
        p50, p95 = statistics.median(late) * 1000, percentile(late, 0.95) * 1000
        print(
            f"move clock: {len(late)} of {len(games)} timeouts played, late after the deadline "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {max(late) * 1000:.0f} ms; {load()}"
        )
    else:
        print(f"move clock: none of {len(games)} timeouts played")
    for task in tasks:
        task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bots", type=int, default=500)
    parser.add_argument("--idle", type=int, default=30)
    parser.add_argument("--clocks", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_bots"
        )
        configure("procfile", Path(folder))
        prepared("procfile")
        port = free_port()
        server = start_stream(port)
        try:
            asyncio.run(bench(arguments, port, server))
        finally:
            stop([server])


if __name__ == "__main__":
    main()
