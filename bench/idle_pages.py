"""What open game pages that wait for nothing cost the server (issue 43): ``--pages`` people
(200 by default) each have the page of a game between two people open, and check
``/games/<id>/live`` as the page does then (every ``POLL_MILLISECONDS``, nothing new).
Measured for ``--seconds``: the checks answered per second, their mean and p95 latency,
and the CPU the web server's processes used (a share of one core, and per check), on
either configuration of ``bench/waits.py`` (``make run``'s runserver on SQLite, the
Procfile's gunicorn on PostgreSQL).

    nice -n 10 .venv/bin/python bench/idle_pages.py --config postgres-redis
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

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

    from games import services

    users = get_user_model().objects
    pairs = []
    for index in range(pages):
        first, second = (
            users.create(username=f"idle{index}{side}@bench.example") for side in ("a", "b")
        )
        game = services.game_create(creator=first, game="azul", players=2)
        services.game_join(game=game, user=second)
        game.refresh_from_db()
        pairs.append((first, game))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", choices=CONFIGS, default="postgres-redis")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(arguments.config, Path(folder))
        prepared(arguments.config)
        from games.presenters.game_page import POLL_MILLISECONDS

        pairs = idle_games(arguments.pages)
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
