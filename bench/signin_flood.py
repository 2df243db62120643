"""The sign-in flood of issue 18, re-run: from one client address, 80 sign-in requests at
once (20 for one address, 60 for others) against gunicorn with PostgreSQL, the rate limits
counting in Redis and a mail server that takes SECONDS_PER_EMAIL to accept each message,
while /healthz is timed. Prints the answers (200 "check your email" or 429), the sign-in
emails queued and, after a worker's sweep, delivered to the server (per address), and the
time /healthz took during the flood (before the fix: 80 emails, 20 to one address, and
every page stalled 24 s behind a slow server).

    .venv/bin/python bench/signin_flood.py [--redis redis://127.0.0.1:6379/9]
"""

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from api_moves import (  # noqa: E402  (a sibling script, not a package)
    LOCALHOST,
    ensure_database,
    free_port,
    server_environment,
    start_gunicorn,
)

DEFAULT_DATABASE = f"postgres://postgres@{LOCALHOST}:5432/azulsite_bench_flood"
REQUESTS, TO_ONE_ADDRESS = 80, 20
SECONDS_PER_EMAIL = 4


class SlowSink:
    """An SMTP server that takes its time over each message and counts them per address."""

    def __init__(self) -> None:
        self.received: Counter[str] = Counter()

    async def handle_DATA(self, server, session, envelope):
        import asyncio

        await asyncio.sleep(SECONDS_PER_EMAIL)
        self.received.update(address.lower() for address in envelope.rcpt_tos)
        return "250 OK"


def session(port: int) -> tuple[str, str]:
    """A CSRF cookie and token, as a browser gets them from the form."""
    connection = http.client.HTTPConnection(LOCALHOST, port, timeout=60)
    connection.request("GET", "/signin/")
    response = connection.getresponse()
    page = response.read().decode()
    cookie = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return cookie, token


def ask(port: int, cookie: str, token: str, email: str) -> int:
    connection = http.client.HTTPConnection(LOCALHOST, port, timeout=60)
    body = urlencode({"csrfmiddlewaretoken": token, "email": email})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={cookie}",
        "Referer": f"http://{LOCALHOST}:{port}/signin/",
    }
    connection.request("POST", "/signin/", body, headers)
    return connection.getresponse().status


def time_health(port: int, stop: threading.Event, times: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        connection = http.client.HTTPConnection(LOCALHOST, port, timeout=60)
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        times.append(time.perf_counter() - started)
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--redis", default=f"redis://{LOCALHOST}:6379/9")
    arguments = parser.parse_args()
    from aiosmtpd.controller import Controller

    sink = SlowSink()
    smtp = Controller(sink, hostname=LOCALHOST, port=free_port())
    smtp.start()
    ensure_database(arguments.database)
    with tempfile.TemporaryDirectory() as var_dir:
        env = {
            **server_environment(arguments.database, var_dir),
            "CACHE_URL": arguments.redis,
            "EMAIL_URL": f"smtp://{LOCALHOST}:{smtp.port}",
            "EMAIL_TIMEOUT": "60",
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--no-input"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [
                *manage,
                "shell",
                "-c",
                "from games.models import Outbox; Outbox.objects.filter(kind='sign_in').delete()",
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        # Counts left in Redis by an earlier run would skew this one (the site's keys only).
        counts = redis.Redis.from_url(arguments.redis)
        for key in counts.scan_iter("azulsite:*"):
            counts.delete(key)
        port = free_port()
        server = start_gunicorn(env, port, workers=3, threads=4)
        try:
            # Every gunicorn worker loads its views on its first requests: not the flood's cost.
            with ThreadPoolExecutor(max_workers=12) as pool:
                list(pool.map(lambda _: session(port), range(24)))
            cookie, token = session(port)
            emails = ["victim@example.com"] * TO_ONE_ADDRESS + [
                f"person{n}@example.com" for n in range(REQUESTS - TO_ONE_ADDRESS)
            ]
            stop, health = threading.Event(), []
            prober = threading.Thread(target=time_health, args=(port, stop, health))
            prober.start()
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=16) as pool:
                statuses = list(pool.map(lambda email: ask(port, cookie, token, email), emails))
            flood = time.perf_counter() - started
            time.sleep(0.5)
            stop.set()
            prober.join()
        finally:
            server.terminate()
            server.wait()
        queued = subprocess.run(
            [
                *manage,
                "shell",
                "--no-imports",
                "-c",
                "from games.models import Outbox; "
                "print(Outbox.objects.filter(kind='sign_in').count())",
            ],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        subprocess.run([*manage, "sweep"], cwd=ROOT, env=env, check=True, capture_output=True)
    smtp.stop()
    answers = Counter(statuses)
    print(f"{REQUESTS} sign-in requests from one address in {flood:.2f} s")
    print(f"  answers: {answers[200]} x 200 (check your email), {answers[429]} x 429", end="")
    others = {status: count for status, count in answers.items() if status not in (200, 429)}
    print(f", other: {others}" if others else "")
    print(f"  sign-in emails queued: {queued}; delivered by the worker's sweep: ")
    for address, count in sorted(sink.received.items()):
        print(f"    {address}: {count}")
    print(f"  delivered in all: {sum(sink.received.values())}")
    health.sort()
    print(
        f"  /healthz during the flood: {len(health)} probes, median "
        f"{statistics.median(health) * 1000:.0f} ms, 90th percentile "
        f"{health[int(len(health) * 0.9)] * 1000:.0f} ms, max {health[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
