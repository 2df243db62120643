"""Setting up tables for service tests: who sits where after the shuffle, and playing on."""

import random

from games import repository
from games.models import Game
from games.selectors.moves import legal_moves_of
from games.services.moves import move_submit
from games.services.tables import game_create, game_join


def started(game: str, *users, **options) -> Game:
    """A game of ``game`` between ``users`` (the first creates it), started; a private
    one with the others invited (a private game has no seat open to anyone)."""
    if options.get("private"):
        options.setdefault("invite", [user.email for user in users[1:]])
    table = game_create(creator=users[0], game=game, players=len(users), **options)
    for user in users[1:]:
        game_join(game=table, user=user)
    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE
    return table


def seated(game: Game) -> dict:
    """Seat number -> user."""
    return {seat.position: seat.user for seat in game.seats.select_related("user")}


def to_move(game: Game):
    game.refresh_from_db()
    return seated(game)[game.to_move]


def legal(game: Game) -> list[str]:
    return [move["move"] for move in legal_moves_of(repository.game_table(game))]


def play(game: Game, move: str | None = None, chooser: random.Random | None = None):
    """The seat to move plays ``move`` (default: a legal one); returns the result."""
    user = to_move(game)
    if move is None:
        moves = legal(game)
        move = chooser.choice(moves) if chooser else moves[0]
    return move_submit(game=game, user=user, move=move)


def every_player_moved(game: Game) -> Game:
    """Play on until every player has made a move of their own: from then on a
    resignation is one (before, it aborts the game: issue 29)."""
    while repository.game_table(game).yet_to_move():
        play(game)
    game.refresh_from_db()
    return game


def play_to_end(game: Game, seed: int = 0) -> None:
    chooser = random.Random(seed)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        play(game, chooser=chooser)
        game.refresh_from_db()


def last_step_is_barrier(game: Game) -> bool:
    """Whether the last move drew new tiles (the opening draw does not count)."""
    step = repository.game_table(game).steps[-1]
    return step.seat is not None and step.barrier


def open_with_playing_hours(creator, **options) -> Game:
    """A game of Azul for two with one day per move and playing hours, opened by
    ``creator`` (issue 32)."""
    options = {"time_control": {"kind": "per_move", "days": 1}, **options}
    return game_create(creator=creator, game="azul", players=2, playing_hours=True, **options)
