"""Conditional moves (issue 32), after every write: the reaction that follows each seat's
plan as the game goes on (``plans_followed``, one line of ``reactions.REACTIONS``). The
plans live apart from the game's stream (``Plan``), so the game's history stays public and
a plan stays its player's: a move played from one is an ordinary move in the stream.

A move the lines expected trims them; a move none expected drops the lines and tells
their player. When the plan's seat is to move and the plan has a move for it (the lines'
answer, else its "if still there" move), the service ``plan_play`` is asked to play it
through the normal write path once this write has committed (the task ``plan_move``, as
the computer players' moves are asked for), never inside this write: the answer is a
write of its own, with its own lock, decision, append and reactions."""

import logging
from functools import partial

from django.db import transaction

from azulsite.celery import send_quickly
from games import notify
from games.models import Game, Plan, Seat
from games.plan_lines import answer, follow
from games.table_events import Moved, Resigned, SeatReplaced

log = logging.getLogger(__name__)


def plans_followed(change) -> None:
    """Every plan of the game after the change (``reactions.Change``): trimmed by the moves
    played, dropped when a move left every line, when moves were taken back (an undo, a
    takeback, a moderator's revert: the position it was written for no longer counts),
    when a draw came before the turn of its "if still there" move, and when its seat is
    no longer its player's to play; its answer asked for when its seat is to move."""
    game = change.game
    if not game.planned or not _concerns_plans(change):
        return
    kept = [plan for plan in Plan.objects.filter(game=game) if _followed(change, plan)]
    if not kept:
        game.planned = False
        Game.objects.filter(pk=game.pk).update(planned=False)


def _concerns_plans(change) -> bool:
    return bool(
        change.events(Moved)
        or change.voided is not None
        or change.events(Resigned)
        or change.events(SeatReplaced)
        or change.ended
    )


def _followed(change, plan: Plan) -> bool:
    """Follow one plan through the change; whether it is kept."""
    after = change.after
    seat = next((s for s in change.game.seats.all() if s.position == plan.seat), None)
    still_theirs = (
        seat is not None
        and seat.user_id == plan.user_id
        and seat.status == Seat.Status.JOINED
        and plan.seat not in after.resigned
    )
    if after.over or not still_theirs:
        plan.delete()
        return False
    lines, next_move = plan.lines, plan.next_move
    dropped: dict | None = None
    if change.voided is not None:
        lines, next_move = [], ""
        dropped = {"reason": "taken_back"}
    for record in change.appended if change.voided is None else ():
        if not isinstance(record.event, Moved):
            continue
        moved = record.event
        if lines and not any(line[0] == moved.move for line in lines):
            dropped = {"reason": "deviated", "move": moved.move, "player": moved.seat}
        lines = follow(lines, moved.move)
        step = after.step_at(record.seq)
        if moved.seat == plan.seat:
            # The turn the "if still there" move was for has come.
            next_move = ""
        elif next_move and step is not None and step.barrier:
            dropped = dropped or {"reason": "new_tiles", "move": next_move}
            next_move = ""
    if dropped is not None and plan.user_id != change.by:
        plan_dropped_told(change.game, after.last_seq, seat, **dropped)
    if not lines and not next_move:
        plan.delete()
        return False
    plan.lines, plan.next_move, plan.at_seq = lines, next_move, after.last_seq
    owed = after.to_move() == plan.seat and (answer(lines) or next_move)
    plan.due_at = change.now if owed else None
    plan.save(update_fields=["lines", "next_move", "at_seq", "due_at"])
    if owed:
        transaction.on_commit(partial(_plan_move_queued, change.game.pk))
    return True


def plan_dropped_told(game: Game, key: int, seat: Seat, *, reason: str, **facts) -> None:
    """Tell the player that their plan was dropped, and why (``notify.plan_dropped``: by
    email, by push), and keep the facts on their seat: the game page says them until the
    player has seen them (``plans.plan_dropped_seen``)."""
    Seat.objects.filter(pk=seat.pk).update(plan_dropped={"reason": reason, **facts})
    notify.plan_dropped(game, key, seat, reason=reason, **facts)


def _plan_move_queued(game_id: int) -> None:
    """Ask a worker to play the plan's move; the minute sweep plays it if the broker cannot
    be reached (``plans_sweep``)."""
    if not send_quickly("games.tasks.plan_move", [game_id]):
        log.warning("game %s: broker unreachable; the sweep will play the planned move", game_id)
