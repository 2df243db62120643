"""An operator's monitoring scrapes ``/metrics`` (issue 57): off until ``METRICS_TOKEN`` is
set, then only with the token; the figures move as the site works: a failing sweep job
counted, requests by route, moves, emails due by channel."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from games.services import sweep as minute_sweep
from tests.games.helpers import legal, started, to_move

TOKEN = "a-long-random-metrics-token"


def scraped(client) -> dict[tuple, float]:
    """Every sample of a scrape: (name, sorted labels) -> value."""
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.status_code
    assert answer["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.content.decode())
        for sample in family.samples
    }


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


@pytest.mark.django_db
def test_metrics_are_off_until_a_token_is_set_and_then_need_it(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", headers={"Authorization": "Bearer guessed"})
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"] == "Bearer"


@pytest.mark.django_db
def test_a_failing_sweep_job_is_counted_and_the_others_still_run(client, metrics_on):
    def failing(*, now):
        raise RuntimeError("the mail server's certificate expired")

    def working(*, now):
        return 3

    before = scraped(client)
    jobs = (("metrics_test_failing", failing), ("metrics_test_working", working))
    assert minute_sweep.sweep(jobs=jobs)["jobs_failed"] == 1
    after = scraped(client)

    def grew(name: str, job: str) -> float:
        key = (name, (("job", job),))
        return after[key] - before.get(key, 0.0)

    assert grew("azulsite_sweep_job_failures_total", "metrics_test_failing") == 1
    assert grew("azulsite_sweep_job_runs_total", "metrics_test_failing") == 1
    assert grew("azulsite_sweep_job_failures_total", "metrics_test_working") == 0
    assert grew("azulsite_sweep_job_runs_total", "metrics_test_working") == 1
    assert grew("azulsite_sweep_job_seconds_count", "metrics_test_working") == 1


@pytest.mark.django_db
def test_requests_moves_and_emails_due_are_scraped(
    client, metrics_on, alice, bob, django_capture_on_commit_callbacks
):
    before = scraped(client)
    client.get("/healthz")
    game = started("azul", alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        from games.services.moves import move_submit

        move_submit(game=game, user=to_move(game), move=legal(game)[0])
    after = scraped(client)
    healthz = (
        "azulsite_requests_total",
        (("method", "GET"), ("route", "healthz"), ("status", "200")),
    )
    assert after[healthz] - before.get(healthz, 0) == 1
    moves = ("azulsite_moves_total", (("game", "azul"),))
    assert after[moves] - before.get(moves, 0) == 1
    # The emails of the game's start and its first move, due and not yet sent.
    assert after[("azulsite_deliveries_due", (("channel", "email"),))] >= 1
    assert after[("azulsite_deliveries_in_doubt", (("channel", "email"),))] == 0
    assert ("azulsite_queue_length", (("queue", "celery"),)) in after
