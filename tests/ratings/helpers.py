"""Finished games made quickly: a two-player game ends when one player resigns."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.repository import game_table
from games.selectors.moves import legal_moves_of
from games.services.common import append, locked_game
from games.services.deadlines import game_timeout
from games.services.moves import game_resign, move_submit
from games.services.ratings import ratings_game_reopened
from games.services.tables import game_reproject
from games.table_events import Aborted, MovesVoided, SeatReplaced
from tests.games.helpers import every_player_moved, started


def finished(game: str, winner, *losers, rated: bool = True, **options) -> Game:
    """A game of ``game`` that ``winner`` wins: once every player has moved, every other
    player resigns, in order (so the first to resign is placed last)."""
    table = every_player_moved(started(game, winner, *losers, rated=rated, **options))
    for loser in losers:
        game_resign(game=table, user=loser)
    table.refresh_from_db()
    assert table.status == Game.Status.FINISHED
    return table


def timed_out(game: str, winner, loser) -> Game:
    """A two-player game that ``loser`` forfeits by running out of time, once both have
    moved."""
    table = started(
        game,
        winner,
        loser,
        time_control={"kind": "per_move", "days": 1},
        timeout_policy=Game.TimeoutPolicy.FORFEIT,
    )
    every_player_moved(table)
    while table.to_move is not None and table.seats.get(position=table.to_move).user != loser:
        move_submit(game=table, user=winner, move=_first_legal(table))
        table.refresh_from_db()
    game_timeout(game_id=table.pk, now=timezone.now() + timedelta(days=2))
    table.refresh_from_db()
    assert table.status == Game.Status.FINISHED
    return table


def _first_legal(game: Game) -> str:
    return legal_moves_of(game_table(game))[0]["move"]


@transaction.atomic
def seat_taken_by_bot(game: Game, seat: int) -> None:
    """What a computer player's seat looks like in the stream: its actor is ``bot:…``."""
    game = locked_game(game)
    table = game_table(game)
    replaced = SeatReplaced(seat, table.players[seat], "bot:greedy")
    append(game, table, [replaced], actor="system")
    game.save(update_fields=["last_seq"])


@transaction.atomic
def reverted_after_finish(game: Game, back_to: int) -> None:
    """A moderator takes a finished game back (the lead's revert of a finished game): its
    moves after ``back_to`` are voided and the read model and ratings follow."""
    game = locked_game(game)
    append(game, game_table(game), [MovesVoided(back_to, "revert")], actor="moderator:1")
    game.save(update_fields=["last_seq"])
    game_reproject(game=game)
    game.refresh_from_db()
    ratings_game_reopened(game)


@transaction.atomic
def aborted_after_finish(game: Game) -> None:
    """A moderator aborts a finished game (the lead's abort of a finished game)."""
    game = locked_game(game)
    append(game, game_table(game), [Aborted()], actor="moderator:1", reason="cheating")
    game.save(update_fields=["last_seq"])
    game_reproject(game=game)
