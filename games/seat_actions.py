"""What a seat may do now (``seat_actions``), worked out from the table (``games.table``):
the moves it may make, undo or ask to take back, and the answers it owes. Standard library
only."""

from dataclasses import dataclass

from games.table import Table, takeback_points, undoable_step


@dataclass(frozen=True)
class SeatActions:
    """What one seat may do now: the single answer the game page, the API and the emails
    all show (docs/service.md, "Rulings of the service": Undo, Takebacks)."""

    move: bool
    undo: bool
    takeback_points: tuple[int, ...]
    answer_takeback: bool
    grant_time: bool
    resign: bool


NO_ACTIONS = SeatActions(False, False, (), False, False, False)


def seat_actions(table: Table, seat: int | None, *, self_undo: bool) -> SeatActions:
    """What ``seat`` may do now: move on its turn; undo its own last move (when the game
    allows it); ask to go back to the end of an earlier move that no draw separates from
    now (newest first); answer the open takeback it has not answered; give the seat to move
    one more day (timed games, not on its own turn); resign while the game is on."""
    if seat is None or table.over or not table.started or seat in table.resigned:
        return NO_ACTIONS
    to_move = table.to_move()
    pending = table.takeback
    return SeatActions(
        move=to_move == seat,
        undo=self_undo and undoable_step(table, seat) is not None,
        takeback_points=() if pending is not None else takeback_points(table),
        answer_takeback=pending is not None
        and pending.seat != seat
        and seat not in pending.accepted,
        grant_time=table.clock.control.timed and to_move is not None and to_move != seat,
        resign=True,
    )
