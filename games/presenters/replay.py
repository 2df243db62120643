"""The replay viewer's presenter: any moment of a game one may see, with the move list,
the way to step through it and, once the game is over, the analysis of the move shown."""

import json

from games import repository
from games.boards import board_of, title_of
from games.models import Game
from games.presenters.game_page import analysis, last_move, seat_names, table_context
from games.presenters.move_list import move_log
from games.selectors.names import players_of


def replay_context(game: Game, *, at: str | None) -> dict:
    """The game at the end of the move ``at`` names (a seq; the latest move if it names
    none, the nearest move before it if it falls between moves)."""
    table = repository.row_table(game)
    players = players_of(game)
    names = seat_names(players, len(table.players))
    history = move_log(game, table, players, names, None)
    moments = [entry["end"] for entry in history if entry["kind"] != "note" and not entry["voided"]]
    try:
        wanted = int(at) if at is not None else moments[-1]
    except ValueError:
        wanted = moments[-1]
    shown = max([m for m in moments if m <= wanted] or moments[:1])
    index = moments.index(shown)
    table = repository.game_table(game, upto=shown)
    view = table.engine.view(table.state)
    context = {
        "game": game,
        "title": title_of(game.game_type),
        "history": history,
        "at": shown,
        "index": index,
        "moments": moments,
        "moments_json": json.dumps(moments),
        "first": moments[0],
        "previous": moments[max(index - 1, 0)],
        "next": moments[min(index + 1, len(moments) - 1)],
        "last": moments[-1],
        "last_move": last_move(board_of(game.game_type), table, view),
    }
    if game.status == Game.Status.FINISHED:
        full = repository.row_table(game)
        context["analysis"] = analysis(game, full, names, history)
        context["judged"] = next(
            (e for e in history if e["kind"] == "move" and e["end"] == shown and e.get("mark")),
            None,
        )
    context.update(table_context(game, table, view=view, names=names, picks_for=None))
    return context
