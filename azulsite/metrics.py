"""What an operator's monitoring scrapes (issue 57): ``/metrics`` in Prometheus's text
format, written by ``prometheus_client``. Off until ``METRICS_TOKEN`` is set; then only a
request carrying ``Authorization: Bearer <token>`` is answered (``docs/operations.md``).

Two kinds of figures:

- **Counted where they happen**, in whichever process: requests and their latency by
  route (the web processes, ``RequestMetrics``), moves (any process that appends one),
  each sweep job's runs, failures and duration (the worker that runs the sweep), the
  computer players' thinking time (the worker), the open streams (the stream process).
  The site's processes are many (gunicorn's workers, Celery's, uvicorn), so with
  ``METRICS_TOKEN`` set each writes its figures to files in ``PROMETHEUS_MULTIPROC_DIR``
  (``var/metrics`` by default; one directory shared by every process of a machine, a
  shared volume in ``compose.yaml``) and the scrape adds them up: prometheus_client's
  multiprocess mode.
- **Read at the scrape** from the database and the broker, the one truth every process
  shares: deliveries due, the oldest due, in doubt and given up by channel, the queues'
  lengths, when the sweep and the worker's heartbeat last ran. A counter kept by the
  process that sends could not say what is due, nor survive the restart of that process.
"""

import hmac
import os
import socket
import time
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily


def _process() -> str:
    """A process's name in the shared directory: its host and its id (the containers of
    ``compose.yaml`` each number their processes from 1). No ``_``: the file names
    prometheus_client reads are split on it."""
    return f"{socket.gethostname()}-{os.getpid()}".replace("_", "-")


SHARED = bool(settings.METRICS_TOKEN)
if SHARED:
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(settings.VAR_DIR / "metrics"))
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
    # Chosen before the first figure is made, as prometheus_client's own switch would.
    values.ValueClass = values.MultiProcessValue(_process)

# This process's own figures, when they are not shared through files (make run, tests).
PROCESS = CollectorRegistry()

REQUESTS = Counter(
    "azulsite_requests",
    "Requests answered by the web processes, by route, method and status.",
    ["route", "method", "status"],
    registry=PROCESS,
)
REQUEST_SECONDS = Histogram(
    "azulsite_request_seconds",
    "Time to answer a request, by route and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=PROCESS,
)
MOVES = Counter(
    "azulsite_moves",
    "Moves played (committed), by game: people's, computers', planned and timed-out ones.",
    ["game"],
    registry=PROCESS,
)
SWEEP_JOB_RUNS = Counter(
    "azulsite_sweep_job_runs", "Runs of each job of the minute sweep.", ["job"], registry=PROCESS
)
SWEEP_JOB_FAILURES = Counter(
    "azulsite_sweep_job_failures",
    "Runs of each job of the minute sweep that raised (logged, shown on the status page).",
    ["job"],
    registry=PROCESS,
)
SWEEP_JOB_SECONDS = Histogram(
    "azulsite_sweep_job_seconds",
    "How long each job of the minute sweep ran.",
    ["job"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=PROCESS,
)
THINKING_SECONDS = Histogram(
    "azulsite_computer_thinking_seconds",
    "Time a computer player thought about a move, by level.",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
    registry=PROCESS,
)
OPEN_STREAMS = Gauge(
    "azulsite_open_streams",
    "Pages holding an event stream on the stream processes.",
    multiprocess_mode="livesum",
    registry=PROCESS,
)


def move_played(game_type: str) -> None:
    """A move was appended: counted once its transaction commits."""
    transaction.on_commit(MOVES.labels(game=game_type).inc)


@contextmanager
def sweep_job(name: str):
    """Counts a run of the sweep's job ``name``, how long it took and whether it raised."""
    # Named at its first run: a job that never failed shows 0, which an alert can compare.
    failures = SWEEP_JOB_FAILURES.labels(job=name)
    began = time.perf_counter()
    try:
        yield
    except Exception:
        failures.inc()
        raise
    finally:
        SWEEP_JOB_RUNS.labels(job=name).inc()
        SWEEP_JOB_SECONDS.labels(job=name).observe(time.perf_counter() - began)


class RequestMetrics:
    """Counts every request and times it, by its route's pattern (``games/<int:game_id>/``,
    not each game's address: a label per game would have no end)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        began = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = match.route if match else "unmatched"
        REQUEST_SECONDS.labels(route=route, method=request.method).observe(
            time.perf_counter() - began
        )
        REQUESTS.labels(route=route, method=request.method, status=response.status_code).inc()
        return response


class AtTheScrape:
    """The figures read from the database and the broker when scraped."""

    def collect(self):
        from games.selectors.metrics import deliveries_by_channel, last_runs

        now = timezone.now()
        due = GaugeMetricFamily(
            "azulsite_deliveries_due",
            "Deliveries due and not sent, by channel.",
            labels=["channel"],
        )
        oldest = GaugeMetricFamily(
            "azulsite_deliveries_oldest_due_seconds",
            "How long the oldest delivery due has waited, by channel (0: none due).",
            labels=["channel"],
        )
        doubt = GaugeMetricFamily(
            "azulsite_deliveries_in_doubt",
            "Deliveries handed over whose sending was never confirmed: an operator decides.",
            labels=["channel"],
        )
        given_up = GaugeMetricFamily(
            "azulsite_deliveries_given_up",
            "Deliveries given up after errors in the last day, by channel.",
            labels=["channel"],
        )
        for channel, figures in deliveries_by_channel(now, timedelta(days=1)).items():
            due.add_metric([channel], figures["due"])
            waited = (now - figures["oldest_due"]).total_seconds() if figures["oldest_due"] else 0
            oldest.add_metric([channel], waited)
            doubt.add_metric([channel], figures["in_doubt"])
            given_up.add_metric([channel], figures["given_up"])
        yield from (due, oldest, doubt, given_up)
        ran = GaugeMetricFamily(
            "azulsite_last_run_timestamp_seconds",
            "When the minute sweep and the worker's heartbeat last ran (Unix time).",
            labels=["process"],
        )
        for name, at in last_runs().items():
            ran.add_metric([name], at.timestamp())
        yield ran
        queued = GaugeMetricFamily(
            "azulsite_queue_length", "Tasks waiting in each Celery queue.", labels=["queue"]
        )
        for queue, length in _queue_lengths().items():
            queued.add_metric([queue], length)
        yield queued


# Celery's queues (Procfile: worker, analysis).
QUEUES = ("celery", "analysis")


def _queue_lengths() -> dict[str, int]:
    """The length of each queue on a Redis broker (the list Celery's Redis transport keeps
    per queue); none on another broker."""
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        return {}
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
    try:
        return {queue: client.llen(queue) for queue in QUEUES}
    except redis.RedisError:
        return {}
    finally:
        client.close()


def _dead_forgotten(path: str) -> None:
    """The open streams of a stream process of this host that ended (``kill -9`` too) no
    longer count: its files of gauges summed over live processes go. A counter's files
    stay: what an ended process counted was counted. (In ``compose.yaml`` a restarted
    container has its host name and process number again, and sets the gauge anew.)"""
    host = _process().rpartition("-")[0]
    for name in os.listdir(path):
        if not name.startswith("gauge_live"):
            continue
        process = name.rsplit("_", 1)[1].removesuffix(".db")
        where, _, pid = process.rpartition("-")
        if where == host and pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(process, path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _authorized(request: HttpRequest) -> bool:
    given = request.headers.get("Authorization", "")
    expected = f"Bearer {settings.METRICS_TOKEN}"
    return hmac.compare_digest(given.encode(), expected.encode())


def metrics(request: HttpRequest) -> HttpResponse:
    """``/metrics``: 404 while ``METRICS_TOKEN`` is unset, 401 without its bearer token."""
    if not settings.METRICS_TOKEN:
        return HttpResponse(status=404)
    if not _authorized(request):
        return HttpResponse(status=401, headers={"WWW-Authenticate": "Bearer"})
    if SHARED:
        _dead_forgotten(os.environ["PROMETHEUS_MULTIPROC_DIR"])
        counted = CollectorRegistry()
        multiprocess.MultiProcessCollector(counted)
    else:
        counted = PROCESS
    read = CollectorRegistry()
    read.register(AtTheScrape())
    body = generate_latest(counted) + generate_latest(read)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
