"""What open game pages that wait for nothing cost the server (issues 42 and 43):
``--pages`` people (200 by default) each have the page of a game between two people open.

- ``--way stream`` (the page's way since issue 42): each page holds its event stream
  (``/stream/games/<id>``): on the Procfile's configuration, from the stream process
  (uvicorn, ASGI) subscribed to Redis; on ``make run``'s, from runserver's threads
  watching the game's row. Measured for ``--seconds``: the CPU and memory of the process
  holding the streams while nothing happens, then how soon news of a move reaches its
  page while all the others stay open (``--moves`` moves, p50 / p95 / max).
- ``--way poll`` (the page's fallback when no stream is held): each page checks
  ``/games/<id>/live`` every ``POLL_MILLISECONDS``, finding nothing new: checks answered a
  second, their latency, the web processes' CPU.

    nice -n 10 .venv/bin/python bench/idle_pages.py --config postgres-redis
"""

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.waits import (  # noqa: E402 - after the path it needs
    CONFIGS,
    browser_for,
    configure,
    free_port,
    load,
    percentile,
    prepared,
    start_stream,
    start_web,
    stop,
)


def cpu_seconds(root: int) -> float:
    """User and system CPU seconds of process ``root`` and its children (gunicorn's
    workers), from ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry.name), int(fields[1])
        if root in (pid, parent):
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def idle_games(pages: int) -> list:
    """``pages`` games of two people under way: (the first, the game). Whoever is to move,
    the first's page checks every ``POLL_MILLISECONDS`` (the move awaited is a person's,
    or their own) and finds nothing new."""
    from django.contrib.auth import get_user_model

    from games.services.tables import game_create, game_join

    users = get_user_model().objects
    pairs = []
    for index in range(pages):
        first, second = (
            users.create(username=f"idle{index}{side}@bench.example") for side in ("a", "b")
        )
        game = game_create(creator=first, game="azul", players=2)
        game_join(game=game, user=second)
        game.refresh_from_db()
        pairs.append((first, game))
    return pairs


def rss_megabytes(root: int) -> float:
    """Resident memory of process ``root`` and its children, in MB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            parent = int(status.split("PPid:")[1].split()[0])
        except (OSError, IndexError):
            continue
        if root in (int(entry.name), parent):
            total += int(status.split("VmRSS:")[1].split()[0])
    return total / 1024


def streamed(arguments, pairs) -> None:
    """Every page holds its stream; the holder's idle cost, then news latency."""
    from games.models import Game
    from games.repository import game_table
    from games.selectors.moves import legal_moves_of
    from games.services.moves import move_submit

    port = free_port()
    web = start_web(arguments.config, port)
    processes = [web]
    try:
        url = f"http://127.0.0.1:{port}"
        holder = web
        if arguments.config != "make-run":
            stream_port = free_port()
            holder = start_stream(stream_port)
            processes.append(holder)
            url = f"http://127.0.0.1:{stream_port}"
        heard: dict[int, list[float]] = {game.pk: [] for _person, game in pairs}
        opened = threading.Barrier(len(pairs) + 1)

        def page(browser, game) -> None:
            # The servers stop at the end, cutting the streams.
            with contextlib.suppress(requests.RequestException):
                listen(browser, game)

        def listen(browser, game) -> None:
            with browser.get(f"{url}/stream/games/{game.pk}", stream=True, timeout=600) as answer:
                assert answer.status_code == 200, answer.status_code
                lines = answer.iter_lines(chunk_size=1, decode_unicode=True)
                for line in lines:
                    if line.startswith("data:"):
                        break  # the hello
                opened.wait()
                for line in lines:
                    if line == "event: news":
                        heard[game.pk].append(time.monotonic())

        browsers = [(browser_for(person, url), game) for person, game in pairs]
        threads = [threading.Thread(target=page, args=pair, daemon=True) for pair in browsers]
        for thread in threads:
            thread.start()
        opened.wait()
        memory = rss_megabytes(holder.pid)
        cpu, began = cpu_seconds(holder.pid), time.monotonic()
        time.sleep(arguments.seconds)
        elapsed = time.monotonic() - began
        cpu = cpu_seconds(holder.pid) - cpu
        print(
            f"{arguments.config}: {arguments.pages} open pages holding their streams, idle for "
            f"{elapsed:.0f} s: the stream holder used {cpu / elapsed:.2%} of a core, "
            f"{memory:.0f} MB resident ({load()})",
            flush=True,
        )
        waits = []
        for _person, game in pairs[: arguments.moves]:
            game = Game.objects.get(pk=game.pk)
            seat = game.seats.get(position=game.to_move)
            move = legal_moves_of(game_table(game))[0]["move"]
            before = len(heard[game.pk])
            moved_at = time.monotonic()
            move_submit(game=game, user=seat.user, move=move)
            while len(heard[game.pk]) == before and time.monotonic() - moved_at < 10:
                time.sleep(0.005)
            waits.append(heard[game.pk][-1] - moved_at if len(heard[game.pk]) > before else 10)
        print(
            f"  news of a move, from its commit to its page's stream, with the others open: "
            f"p50 {statistics.median(waits) * 1000:.0f} ms, p95 "
            f"{percentile(waits, 0.95) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms "
            f"({len(waits)} moves)",
            flush=True,
        )
    finally:
        stop(processes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", choices=CONFIGS, default="postgres-redis")
    parser.add_argument("--way", choices=("stream", "poll"), default="stream")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--moves", type=int, default=40)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(arguments.config, Path(folder))
        prepared(arguments.config)
        from games.presenters.game_page import POLL_MILLISECONDS

        pairs = idle_games(arguments.pages)
        if arguments.way == "stream":
            streamed(arguments, pairs)
            return
        port = free_port()
        web = start_web(arguments.config, port)
        try:
            url = f"http://127.0.0.1:{port}"
            latencies, stop_at = [], [0.0]

            def page(browser, game, offset: float) -> None:
                seq = str(game.last_seq)
                time.sleep(offset)
                while time.monotonic() < stop_at[0]:
                    began = time.monotonic()
                    browser.get(f"{url}/games/{game.pk}/live", params={"seq": seq, "chat": "0"})
                    latencies.append(time.monotonic() - began)
                    time.sleep(POLL_MILLISECONDS / 1000)

            every = POLL_MILLISECONDS / 1000
            stop_at[0] = time.monotonic() + every + arguments.seconds
            # Signed in here: a thread of its own would open a database connection each.
            browsers = [(browser_for(person, url), game) for person, game in pairs]
            threads = [
                threading.Thread(target=page, args=(browser, game, every * i / len(pairs)))
                for i, (browser, game) in enumerate(browsers)
            ]
            for thread in threads:
                thread.start()
            # The first round of checks opens the connections: measured from the second.
            time.sleep(every)
            counted, cpu, began = len(latencies), cpu_seconds(web.pid), time.monotonic()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - began
            cpu = cpu_seconds(web.pid) - cpu
            answered = latencies[counted:]
            print(
                f"{arguments.config}: {arguments.pages} idle pages checking every "
                f"{every:g} s for {elapsed:.0f} s: {len(answered) / elapsed:.1f} checks/s, "
                f"latency mean {statistics.mean(answered) * 1000:.1f} ms p95 "
                f"{percentile(answered, 0.95) * 1000:.1f} ms; web CPU {cpu / elapsed:.1%} of "
                f"a core, {cpu / len(answered) * 1000:.2f} ms a check ({load()})",
                flush=True,
            )
        finally:
            stop([web])


if __name__ == "__main__":
    main()
