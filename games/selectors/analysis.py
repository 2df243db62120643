"""Post-game analysis (issue 15): the positions an analysis judges, its progress
and report, each seat's accuracy."""

from dataclasses import dataclass
from typing import Any

from games import table as tbl
from games import table_storage as storage
from games.bots.accuracy import CLEARLY_WORSE, DUBIOUS, game_accuracy, stretch_of
from games.models import Analysis, Game


@dataclass(frozen=True)
class Position:
    """A position an analysis judges: the move played there (``seq`` of its ``table.Moved``,
    ``number`` in the move list), the seat that chose it, the rules state before it and
    the command played."""

    seq: int
    number: int
    seat: int
    state: Any
    played: Any


def analysis_positions(table: tbl.Table) -> list[Position]:
    """Every move of the game that counts where its seat chose among more than one legal
    move: not the moves nobody chose (forced, or played for a resigned, timed-out or
    moderated seat)."""
    engine, steps = table.engine, storage.expand(table).steps
    positions = []
    for number, (before, step) in enumerate(zip(steps, steps[1:], strict=False), 1):
        if step.seat is None or step.auto or len(engine.legal_commands(before.state)) < 2:
            continue
        positions.append(
            Position(step.seq, number, step.seat, before.state, engine.parse(step.move))
        )
    return positions


def current_analysis(game: Game) -> Analysis | None:
    """The analysis of the game as it ended (none for a game in play, or one a moderator
    has reopened since its analysis was asked for)."""
    if game.status != Game.Status.FINISHED:
        return None
    return Analysis.objects.filter(game=game, end_seq=game.last_seq).first()


def analysis_report(game: Game, names: list[str]) -> dict | None:
    """What the pages and the API show of the game's analysis: its status and progress,
    the moves judged so far by seq, and, once done, each seat's accuracy."""
    analysis = current_analysis(game)
    if analysis is None:
        return None
    moves = {move.seq: move for move in analysis.moves.all()}
    done = analysis.status == Analysis.Status.DONE
    return {
        **analysis_progress(analysis),
        "simulations": analysis.simulations,
        "moves": moves,
        "accuracy": accuracy(moves.values(), names, game.game_type) if done else [],
    }


def analysis_progress(analysis: Analysis) -> dict:
    """An analysis's status, the positions judged (``done``) of ``total``, the one being
    judged (``current``) and the share done in percent."""
    return {
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "current": min(analysis.done + 1, analysis.total),
        "percent": round(100 * analysis.done / analysis.total) if analysis.total else 0,
    }


def accuracy(moves, names: list[str], game_type: str) -> list[dict]:
    """Each seat's accuracy in percent (``games.bots.accuracy``, ``docs/bots.md``): from
    the winning chances each of its judged moves gave away, as lichess computes it, with
    the counts of ``?`` and ``??`` marks. ``percent`` is ``None`` for a seat that never had
    a choice."""
    by_seat = {seat: [] for seat in range(len(names))}
    for move in sorted(moves, key=lambda move: move.seq):
        by_seat.setdefault(move.seat, []).append(move)
    rows = []
    for seat, judged in sorted(by_seat.items()):
        values = [(move.best_value, move.played_value) for move in judged]
        percent = game_accuracy(values, stretch_of(game_type))
        marks = [move.judgement for move in judged]
        rows.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat + 1),
                "moves": len(judged),
                "percent": None if percent is None else round(percent),
                "dubious": marks.count(DUBIOUS),
                "clearly_worse": marks.count(CLEARLY_WORSE),
            }
        )
    return rows
