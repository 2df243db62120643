"""Post-game analysis (issue 15): the hard bot judges every move where its seat had a
choice; the judgements repeat themselves for a seed, are stored as a projection by a job
queued on commit, resumed by the sweep when its task is lost, and never done twice."""

import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import repository, tasks
from games import table as tbl
from games import table_storage as storage
from games.bots.accuracy import game_accuracy, judgement, stretch_of, win_drop
from games.errors import Conflict
from games.models import AnalysedMove, Analysis
from games.registry import GAME_TYPES
from games.selectors.analysis import analysis_positions, analysis_report
from games.services.analysis import analysis_judge, analysis_request
from games.services.sweep import sweep
from tests.games.helpers import play, started

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def golden_table(name: str) -> tbl.Table:
    """The table at the end of a golden game record."""
    header, *rows = [json.loads(line) for line in (FIXTURES / f"{name}.jsonl").open()]
    kind = GAME_TYPES[header["game"]]
    empty = tbl.empty(kind.engine, kind.namespace)
    return tbl.fold(empty, storage.read(empty, rows))


def judged(table: tbl.Table, simulations: int) -> list[tuple]:
    return [
        (m.seq, m.number, m.seat, m.played, m.best, m.played_value, m.best_value, m.judgement)
        for m in (
            analysis_judge(table.engine, position, game_id=4, simulations=simulations)
            for position in analysis_positions(table)
        )
    ]


def test_the_analysis_of_a_golden_game_is_stable_for_a_seed():
    table = golden_table("azul-2p")
    first = judged(table, simulations=12)
    assert first == judged(table, simulations=12)
    assert len(first) == 46, "the moves where a seat had a choice"
    marks = [row[-1] for row in first]
    assert (marks.count("?"), marks.count("??")) == (4, 5)
    assert first[9] == (32, 10, 1, "F5 blue 4", "F3 blue 2", 0.38842, 0.507186, "?")
    assert first[22][:5] + first[22][-1:] == (67, 23, 1, "F5 white 4", "F2 white 3", "??")
    for *_, played, best, played_value, best_value, mark in first:
        assert 0 <= played_value <= 1 and 0 <= best_value <= 1
        assert mark == judgement(win_drop(best_value, played_value, stretch_of("azul")))
        assert (played == best) <= (mark == "")


def test_moves_nobody_chose_are_not_judged():
    table = golden_table("azul-2p")
    positions = analysis_positions(table)
    engine = table.engine
    for position in positions:
        assert len(engine.legal_commands(position.state)) > 1
        assert engine.to_move(position.state) == position.seat
    steps = {step.seq: step for step in table.steps}
    assert all(steps[p.seq].auto == "" for p in positions)
    assert [p.number for p in positions] == sorted({p.number for p in positions})


@pytest.mark.django_db
def test_a_finished_game_is_analysed_by_a_job_queued_on_commit(finished, queued):
    game = finished
    assert queued == [("games.tasks.analysis_run", [game.pk])]
    analysis = Analysis.objects.get(game=game)
    assert (analysis.status, analysis.end_seq, analysis.simulations) == ("queued", game.last_seq, 8)

    judged_now = tasks.analysis_run(game.pk)

    analysis.refresh_from_db()
    table = repository.game_table(game)
    positions = analysis_positions(table)
    assert judged_now == len(positions) == analysis.total == analysis.done > 0
    assert analysis.status == "done" and analysis.finished_at is not None
    stored = list(analysis.moves.all())
    assert [m.seq for m in stored] == [p.seq for p in positions]
    expected = analysis_judge(table.engine, positions[0], game_id=game.pk, simulations=8)
    assert (stored[0].best, stored[0].judgement) == (expected.best, expected.judgement)
    report = analysis_report(game, ["Alice", "Bob"])
    assert report["status"] == "done" and report["percent"] == 100
    assert sum(row["moves"] for row in report["accuracy"]) == len(positions)
    for row in report["accuracy"]:
        judged = [(m.best_value, m.played_value) for m in stored if m.seat == row["seat"]]
        assert row["percent"] == round(game_accuracy(judged, stretch_of("azul")))
        marks = [m.judgement for m in stored if m.seat == row["seat"]]
        assert (row["dubious"], row["clearly_worse"]) == (marks.count("?"), marks.count("??"))
    assert tasks.analysis_run(game.pk) == 0, "a finished analysis is not run again"


@pytest.mark.django_db
def test_asking_again_while_it_runs_or_once_done_does_nothing_twice(finished, queued):
    game = finished
    queued.clear()
    assert analysis_request(game=game).status == "queued"
    Analysis.objects.filter(game=game).update(status="running", beat_at=timezone.now())
    assert tasks.analysis_run(game.pk) == 0, "another run holds it"
    assert analysis_request(game=game).status == "running"
    assert queued == []
    assert not AnalysedMove.objects.exists()


@pytest.mark.django_db
def test_the_sweep_queues_a_lost_analysis_and_the_new_run_resumes_it(finished, queued):
    game = finished
    positions = analysis_positions(repository.game_table(game))
    first = analysis_judge(
        repository.game_table(game).engine, positions[0], game_id=game.pk, simulations=8
    )
    first.analysis_id = game.pk
    first.save()
    a_while_ago = timezone.now() - timedelta(minutes=3)
    Analysis.objects.filter(game=game).update(
        status="running", claim="lost", beat_at=a_while_ago, done=1, total=len(positions)
    )
    queued.clear()

    assert sweep(now=timezone.now() - timedelta(minutes=5))["analyses_queued"] == 0
    assert sweep(now=timezone.now())["analyses_queued"] == 1
    assert queued == [("games.tasks.analysis_run", [game.pk])]
    assert tasks.analysis_run(game.pk) == len(positions) - 1, "resumed after the stored move"

    analysis = Analysis.objects.get(game=game)
    assert (analysis.status, analysis.done, analysis.claim) == ("done", len(positions), "")


@pytest.mark.django_db
def test_a_run_that_lost_its_claim_stops(finished, monkeypatch):
    game = finished
    judge = analysis_judge

    def taken_over(*args, **kwargs):
        Analysis.objects.filter(game=game).update(claim="another run")
        return judge(*args, **kwargs)

    monkeypatch.setattr("games.services.analysis.analysis_judge", taken_over)
    assert tasks.analysis_run(game.pk) == 0
    assert not AnalysedMove.objects.exists()
    assert Analysis.objects.get(game=game).status == "running"


@pytest.mark.django_db
def test_only_a_finished_game_is_analysed(alice, bob):
    game = started("azul", alice, bob)
    play(game)
    with pytest.raises(Conflict) as refused:
        analysis_request(game=game)
    assert refused.value.code == "not_finished"
    assert not Analysis.objects.exists()


@pytest.mark.django_db
def test_rebuilding_the_projections_analyses_again(finished, queued):
    game = finished
    tasks.analysis_run(game.pk)
    queued.clear()
    out = io.StringIO()
    call_command("rebuild_projections", stdout=out)
    assert Analysis.objects.get(game=game).status == "done", "a current analysis is kept"
    call_command("rebuild_projections", "--analyses", stdout=out)
    assert "Asked for the analysis of 1 finished games." in out.getvalue()
    assert Analysis.objects.get(game=game).status == "queued"
    assert not AnalysedMove.objects.exists()


@pytest.mark.django_db
def test_a_long_analysis_is_run_in_slices(finished, queued, monkeypatch):
    game = finished
    monkeypatch.setattr("games.services.analysis.SLICE_SECONDS", 0)
    queued.clear()
    assert tasks.analysis_run(game.pk) == 1
    analysis = Analysis.objects.get(game=game)
    assert (analysis.status, analysis.done, analysis.claim) == ("queued", 1, "")
    assert queued == [("games.tasks.analysis_run", [game.pk])]
    assert tasks.analysis_run(game.pk) == 1
    assert Analysis.objects.get(game=game).done == 2


def test_analyses_go_to_a_queue_of_their_own_and_moves_to_the_default_one():
    """A worker of its own consumes the analyses (Procfile, compose.yaml, ``make run``), so
    an analysis running never delays a computer player's move or an email."""
    from django.conf import settings

    from azulsite.celery import app

    router = app.amqp.router
    assert router.route({}, "games.tasks.analysis_run")["queue"].name == "analysis"
    for name in ("games.tasks.bot_move", "games.tasks.send_delivery", "games.tasks.sweep"):
        assert router.route({}, name)["queue"].name == app.conf.task_default_queue
    procfile = Path(settings.BASE_DIR, "Procfile").read_text()
    processes = dict(line.split(": ", 1) for line in procfile.splitlines())
    assert "--queues=analysis" in processes["analysis"]
    assert "--queues=celery" in processes["worker"]
