"""The public state as JSON-safe data: everything a player at the table sees."""

from games.rules.azul.engine import NAME, scores, to_move
from games.rules.azul.model import State
from games.rules.common import table_view


def view(state: State, seat: int | None = None) -> dict:
    """What ``seat`` may see (``None``: a spectator), JSON-safe: the keys every game shares
    (``table_view``) and Azul's table. Azul hides nothing but the bag, so every seat sees
    the same: the bag only as a count, the lid (face up in the box) per colour."""
    return {
        **table_view(
            game=NAME,
            seat=seat,
            round=state.round,
            rounds=None,
            phase=state.phase.value,
            to_move=to_move(state),
            start_player=state.start_seat,
            scores=scores(state),
            ended_by=state.end_reason and state.end_reason.value,
        ),
        "wall_side": state.wall_side,
        "bag": sum(state.bag),
        "lid": list(state.lid),
        "factories": [list(factory) for factory in state.factories],
        "centre": list(state.centre),
        "marker_in_centre": state.marker_in_centre,
        "boards": [
            {
                "lines": [{"colour": line.colour, "count": line.count} for line in board.lines],
                "wall": [list(row) for row in board.wall],
                "floor": list(board.floor),
                "marker": board.marker,
            }
            for board in state.boards
        ],
    }
