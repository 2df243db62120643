"""Celery tasks: thin doors that take ids, load, and call a service."""

import logging
from datetime import datetime

from celery import shared_task
from django.utils import timezone

from games.notify.channels.email import render
from games.services import analysis, bots, data_export, deadlines
from games.services import sweep as minute_sweep
from games.services.common import games_swept
from games.services.notices import delivery_send
from games.services.operations import process_beat
from games.services.plans import plan_play
from games.services.tournaments import rounds

log = logging.getLogger(__name__)


@shared_task
def heartbeat() -> str:
    """Beat's proof of life: a line in the worker's log every minute."""
    log.info("heartbeat: beat and worker are running")
    process_beat(name="heartbeat")
    return "ok"


@shared_task
def send_delivery(delivery_id: int) -> str:
    """Send one delivery, an email or a push (queued when the transaction that wrote it
    committed)."""
    return delivery_send(delivery_id=delivery_id)


@shared_task
def bot_move(game_id: int) -> int:
    """A computer player's move (queued when a change left a bot seat to move)."""
    return bots.bot_move(game_id=game_id)


@shared_task
def plan_move(game_id: int) -> int:
    """A move from a player's plan (queued when a change left its seat to move)."""
    return plan_play(game_id=game_id)


# What a worker does to each game the minute sweep handed out, by the sweep job's name
# (``services.common.games_swept``).
SWEPT_BY_WORKERS = {
    "timeouts": deadlines.game_timeout,
    "bot_moves": bots.bot_move,
    "planned_moves": plan_play,
}


@shared_task
def games_handed_out(job: str, game_ids: list[int], now: str) -> int:
    """Games of the sweep's ``job`` it had no time for (``services.common.games_swept``), at
    the time the worker takes them (never before the sweep's): a game that moved on
    meanwhile keeps its events in the order they happened."""
    at = max(datetime.fromisoformat(now), timezone.now())
    return games_swept(game_ids, SWEPT_BY_WORKERS[job], now=at, job=job, hand_out=False)


@shared_task
def tournament_round_begin(tournament_id: int) -> bool:
    """A paired round's games (queued when the change that paired it committed)."""
    return rounds.round_begin(tournament_id)


@shared_task
def analysis_run(game_id: int) -> int:
    """The post-game analysis of a finished game (queued when it was asked for)."""
    return analysis.analysis_run(game_id=game_id)


@shared_task
def data_export_build(export_id: int) -> str:
    """The archive of a player's data (queued when they asked for it)."""
    return data_export.data_export_build(export_id=export_id, email_text=render.sent_text)


@shared_task
def sweep() -> dict:
    """Every minute: timeouts, computers' and planned moves, tournaments' starts and
    rounds, warnings, reminders, vacations, digests (the deliveries are a task of their
    own, ``deliveries_sweep``)."""
    done = minute_sweep.sweep(jobs=minute_sweep.SWEEP_JOBS)
    process_beat(name="sweep", detail=done)
    return done


@shared_task
def deliveries_sweep() -> dict:
    """Every minute, apart from ``sweep`` so that nothing that hangs there can hold them:
    the emails and pushes due that no task sent, and the claims of workers that
    stopped."""
    done = minute_sweep.sweep(jobs=minute_sweep.DELIVERY_JOBS)
    process_beat(name="deliveries", detail=done)
    return done
