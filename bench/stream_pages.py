"""Ten thousand open pages on one stream process (issue 57): ``--pages`` event streams
(``/stream/games/<id>``) held by the Procfile's ``stream`` process (uvicorn, the site's
ASGI application) on PostgreSQL and Redis, spread over ``--games`` games between two
people (``--games 1``: every page watches one game, so one move's news goes to all of
them). Printed: the process's memory and CPU while the pages wait for nothing, the Redis
connections it holds (named ``azulsite-stream-<pid>``) and the server's client count
before and after, then for ``--moves`` moves the news's delay from the move's start
(``move_submit`` called) to its ``news`` frame on each page of the game (p50, p95, max
over every page told), and the process's CPU meanwhile. Target: one Redis client for
every page; news to all within 1 s at p95.

The pages are read by ``--clients`` processes of this bench, each an asyncio loop with a
plain socket per page (a page's share of reading is then what a browser pays, not a
thread's); their clocks are the machine's one monotonic clock.

    ulimit -n 20000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_streams \\
    REDIS_URL=redis://127.0.0.1:6379/4 nice -n 10 .venv/bin/python bench/stream_pages.py

Its database is emptied at the start (as ``bench/waits.py``'s), and the Redis database
flushed.
"""

import argparse
import asyncio
import multiprocessing
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.idle_pages import cpu_seconds, idle_games, rss_megabytes  # noqa: E402
from bench.waits import (  # noqa: E402 - after the path it needs
    configure,
    free_port,
    load,
    percentile,
    prepared,
    start_stream,
    stop,
)

# Pages opening their stream at once, per client process: uvicorn's listen backlog is 2048.
OPENING_AT_ONCE = 200


async def held(port: int, path: str, opened: asyncio.Queue, heard: list[float]) -> None:
    """One page's stream: the hello, then the time of every ``news``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    status = await reader.readline()
    if b" 200 " not in status:
        await opened.put(status.decode().strip())
        return
    while not (await reader.readline()).startswith(b"data:"):
        pass  # headers, then the hello's lines
    await opened.put("")
    while line := await reader.readline():
        if line.startswith(b"event: news"):
            heard.append(time.monotonic())


def client(port: int, paths: list[str], control) -> None:
    """A client process: opens ``paths``, says how many opened (and what refused), then on
    each ``report`` sends every page's news times."""

    async def main() -> None:
        heard = [[] for _path in paths]
        opened: asyncio.Queue = asyncio.Queue()
        tasks, refused = [], []
        for start in range(0, len(paths), OPENING_AT_ONCE):
            batch = range(start, min(start + OPENING_AT_ONCE, len(paths)))
            tasks += [asyncio.create_task(held(port, paths[n], opened, heard[n])) for n in batch]
            for _page in batch:
                if said := await opened.get():
                    refused.append(said)
        control.send((len(paths) - len(refused), refused[:3]))
        loop = asyncio.get_running_loop()
        while await loop.run_in_executor(None, control.recv) == "report":
            control.send(heard)
        for task in tasks:
            task.cancel()

    asyncio.run(main())


def redis_clients(process_id: int) -> tuple[int, int]:
    """The connections named for the stream process, and all the server's clients."""
    import redis
    from django.conf import settings

    server = redis.Redis.from_url(settings.NEWS_REDIS_URL)
    named = [c for c in server.client_list() if c["name"] == f"azulsite-stream-{process_id}"]
    return len(named), server.info("clients")["connected_clients"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=2)
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < arguments.pages + 1000:
        raise SystemExit(f"open files limited to {hard}: raise it (ulimit -n) for the pages")
    with tempfile.TemporaryDirectory() as folder:
        configure("postgres-redis", Path(folder))
        prepared("postgres-redis")
        from games.models import Game
        from games.repository import game_table
        from games.selectors.moves import legal_moves_of
        from games.services.moves import move_submit

        games = [game for _person, game in idle_games(arguments.games)]
        port = free_port()
        _named, clients_before = redis_clients(0)
        holder = start_stream(port)
        links = []
        try:
            pages = [f"/stream/games/{games[n % len(games)].pk}" for n in range(arguments.pages)]
            shares = [pages[n :: arguments.clients] for n in range(arguments.clients)]
            began = time.monotonic()
            for share in shares:
                mine, theirs = multiprocessing.Pipe()
                process = multiprocessing.get_context("spawn").Process(
                    target=client, args=(port, share, theirs), daemon=True
                )
                process.start()
                links.append(mine)
            opened = [link.recv() for link in links]
            took = time.monotonic() - began
            print(
                f"{sum(n for n, _refused in opened)} of {arguments.pages} pages opened their "
                f"stream in {took:.1f} s on one stream process, over {len(games)} game(s)"
                + "".join(f"; refused: {refused}" for _n, refused in opened if refused),
                flush=True,
            )
            named, clients_with = redis_clients(holder.pid)
            memory = rss_megabytes(holder.pid)
            cpu, began = cpu_seconds(holder.pid), time.monotonic()
            time.sleep(arguments.seconds)
            elapsed = time.monotonic() - began
            cpu = cpu_seconds(holder.pid) - cpu
            print(
                f"  idle for {elapsed:.0f} s: {cpu / elapsed:.2%} of a core, {memory:.0f} MB "
                f"resident ({memory * 1024 / arguments.pages:.0f} KB a page); Redis "
                f"connections of the stream process: {named}; the Redis server's clients "
                f"{clients_before} before it started, {clients_with} with every page open "
                f"({load()})",
                flush=True,
            )
            waits, unheard, cpu_moving, moving = [], 0, 0.0, 0.0
            for number in range(arguments.moves):
                game = Game.objects.get(pk=games[number % len(games)].pk)
                seat = game.seats.get(position=game.to_move)
                move = legal_moves_of(game_table(game))[0]["move"]
                told = [n for n, path in enumerate(pages) if path.endswith(f"/{game.pk}")]
                before = [link.send("report") or link.recv() for link in links]
                cpu, moved_at = cpu_seconds(holder.pid), time.monotonic()
                move_submit(game=game, user=seat.user, move=move)
                time.sleep(max(2.0, arguments.pages / 2000))
                cpu_moving += cpu_seconds(holder.pid) - cpu
                moving += time.monotonic() - moved_at
                after = [link.send("report") or link.recv() for link in links]
                for n in told:
                    share, index = n % arguments.clients, n // arguments.clients
                    new = after[share][index][len(before[share][index]) :]
                    if new:
                        waits.append(new[0] - moved_at)
                    else:
                        unheard += 1
            if waits:
                print(
                    f"  news of a move, from its start to each page of its game: p50 "
                    f"{statistics.median(waits) * 1000:.0f} ms, p95 "
                    f"{percentile(waits, 0.95) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms "
                    f"({len(waits)} pages told over {arguments.moves} moves, {unheard} not "
                    f"within the wait); the stream process used {cpu_moving / moving:.1%} of a "
                    f"core meanwhile ({load()})",
                    flush=True,
                )
            p95 = percentile(waits, 0.95) if waits else float("inf")
            met = named == 1 and not unheard and p95 <= 1.0
            print(f"  target (one Redis client, p95 within 1 s): {'met' if met else 'NOT met'}")
        finally:
            for link in links:
                link.send("stop")
            stop([holder])


if __name__ == "__main__":
    main()
