"""Post-game analysis (issue 15): the hard computer player judges every move of a finished
game where its seat had a choice, and the judgements are stored as a projection
(``Analysis``, ``AnalysedMove``), never as events.

The write path asks for it when a game finishes (``analysis_request`` from the reaction
``reactions.analysis_asked``, in the transaction that finished it), and so may anyone who can see a
finished game (the end screen's and the replay's button, the API). Asking is idempotent:
an analysis of the game as it ended, queued, running or done, is left alone. The Celery task
``analysis_run`` is queued on commit; it claims the analysis with a conditional ``UPDATE``
(so a second task does nothing twice), judges the positions one by one outside any lock,
and stores each judgement with the progress in its own short transaction, under its claim.
A run lets go after ``SLICE_SECONDS`` and queues a task for the rest, so a long analysis
shares the workers with the turn emails and the computer players' moves. The minute sweep
(``analyses_sweep``) queues again an analysis whose task was lost or went silent; the new
run takes it over and resumes after the last stored move (judgements repeat themselves:
the search runs a fixed number of simulations from a seed of the game's id and the
move)."""

import hashlib
import logging
import time
import uuid
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from azulsite.celery import send_quickly
from games import bots
from games.errors import Conflict
from games.models import AnalysedMove, Analysis, Game
from games.repository import game_table
from games.selectors.analysis import Position, analysis_positions

log = logging.getLogger(__name__)

# An analysis queued or running without news for this long lost its task: the sweep queues
# it again, and the new run takes it over (a position takes a few seconds at most).
STALLED_AFTER = timedelta(minutes=2)
# Analyses the sweep queues again per pass.
SWEEP_BATCH = 10
# A run judges positions for about this long, then queues the rest as a new task: a long
# analysis never keeps a worker from the turn emails and computer players' moves for long.
SLICE_SECONDS = 20


def analysis_seed(game_id: int, seq: int) -> int:
    """The search's seed for the move at ``seq``: from the game's id and the move, never
    from the game's secret."""
    digest = hashlib.sha256(f"analysis:{game_id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def analysis_judge(engine, position: Position, *, game_id: int, simulations: int) -> AnalysedMove:
    """Hard's judgement of the move played at ``position`` (unsaved): the same for the same
    game, move and ``simulations``."""
    found = bots.appraise(
        engine,
        position.state,
        position.played,
        analysis_seed(game_id, position.seq),
        simulations=simulations,
    )
    return AnalysedMove(
        seq=position.seq,
        number=position.number,
        seat=position.seat,
        played=engine.format(position.played),
        best=engine.format(found.best),
        played_value=round(found.played_value, 6),
        best_value=round(found.best_value, 6),
        judgement=found.judgement,
    )


def analysis_request(*, game: Game, now: datetime | None = None) -> Analysis:
    """Ask for the analysis of a finished game; an analysis of the game as it ended (queued,
    running or done) is returned unchanged. One of an earlier ending (a moderator reopened
    the game since) starts again. The task is queued when the transaction commits. Raises
    ``Conflict`` for a game that is not finished."""
    if game.status != Game.Status.FINISHED:
        raise Conflict(gettext("only a finished game can be analysed"), code="not_finished")
    now = now or timezone.now()
    # Inside a game's write (the reaction at its end) no savepoint of its own: whatever
    # fails here fails that write anyway.
    with transaction.atomic(savepoint=False):
        analysis, created = Analysis.objects.select_for_update().get_or_create(
            game=game,
            defaults={
                "end_seq": game.last_seq,
                "simulations": settings.ANALYSIS_SIMULATIONS,
                "requested_at": now,
            },
        )
        if not created and analysis.end_seq == game.last_seq:
            return analysis
        if not created:
            analysis.moves.all().delete()
            analysis.end_seq = game.last_seq
            analysis.simulations = settings.ANALYSIS_SIMULATIONS
            analysis.status = Analysis.Status.QUEUED
            analysis.done = analysis.total = 0
            analysis.claim = ""
            analysis.requested_at = now
            analysis.beat_at = analysis.finished_at = None
            analysis.save()
        transaction.on_commit(partial(_queued, game.pk))
    return analysis


def _queued(game_id: int) -> None:
    if not send_quickly("games.tasks.analysis_run", [game_id]):
        log.warning("game %s: broker unreachable; the sweep will queue the analysis", game_id)


def analysis_run(*, game_id: int, now: datetime | None = None) -> int:
    """Run the game's analysis if no other run holds it: claim it, judge the positions not
    judged yet, storing each judgement and the progress as it goes, then mark it done.
    After ``SLICE_SECONDS`` it lets go and queues a task for the rest. Stops when another
    run takes it over or the game changed. Returns the positions judged by this run."""
    began = time.monotonic()
    claim = uuid.uuid4().hex
    stalled = (now or timezone.now()) - STALLED_AFTER
    claimed = (
        Analysis.objects.filter(game_id=game_id)
        .filter(
            Q(status=Analysis.Status.QUEUED)
            | Q(status=Analysis.Status.RUNNING, beat_at__lt=stalled)
        )
        .update(status=Analysis.Status.RUNNING, claim=claim, beat_at=now or timezone.now())
    )
    if not claimed:
        return 0
    analysis = Analysis.objects.select_related("game").get(game_id=game_id)
    game = analysis.game
    if game.status != Game.Status.FINISHED or game.last_seq != analysis.end_seq:
        # Reopened since it was asked for: the next ending asks again.
        return 0
    table = game_table(game)
    positions = analysis_positions(table)
    judged = set(analysis.moves.values_list("seq", flat=True))
    if not _progress(game_id, claim, total=len(positions), done=len(judged)):
        return 0
    count = 0
    for position in positions:
        if position.seq in judged:
            continue
        if count and time.monotonic() - began > SLICE_SECONDS:
            Analysis.objects.filter(game_id=game_id, claim=claim).update(
                status=Analysis.Status.QUEUED, claim="", beat_at=timezone.now()
            )
            _queued(game_id)
            return count
        move = analysis_judge(
            table.engine, position, game_id=game_id, simulations=analysis.simulations
        )
        move.analysis_id = game_id
        with transaction.atomic():
            if not _progress(game_id, claim, done=len(judged) + 1):
                log.info("game %s: another run took the analysis over", game_id)
                return count
            move.save()
        judged.add(position.seq)
        count += 1
    Analysis.objects.filter(game_id=game_id, claim=claim).update(
        status=Analysis.Status.DONE, claim="", finished_at=timezone.now()
    )
    return count


def _progress(game_id: int, claim: str, **columns) -> bool:
    """Record progress under ``claim``; whether the run still holds the analysis."""
    updated = Analysis.objects.filter(game_id=game_id, claim=claim).update(
        beat_at=timezone.now(), **columns
    )
    return bool(updated)


def analyses_sweep(*, now: datetime) -> int:
    """The minute sweep's part: queue again the analyses whose task was lost (queued, or
    running without progress, for ``STALLED_AFTER``), at most ``SWEEP_BATCH`` a pass. The
    time of news is moved on, so an analysis is queued again at most once a period."""
    stalled = now - STALLED_AFTER
    lost = Analysis.objects.filter(
        Q(status=Analysis.Status.QUEUED, requested_at__lt=stalled, beat_at__isnull=True)
        | Q(status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING], beat_at__lt=stalled)
    ).order_by("requested_at")
    pks = list(lost.values_list("game_id", flat=True)[:SWEEP_BATCH])
    for pk in pks:
        Analysis.objects.filter(game_id=pk, status=Analysis.Status.QUEUED).update(beat_at=now)
        _queued(pk)
    return len(pks)


def analyses_rebuild() -> int:
    """Analyse every finished game again from its events: drop every analysis and ask for
    one per finished game (run by the workers). Returns the analyses asked for."""
    Analysis.objects.all().delete()
    asked = 0
    for game in Game.objects.filter(status=Game.Status.FINISHED).iterator():
        analysis_request(game=game)
        asked += 1
    return asked
