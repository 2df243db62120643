"""The part of ``view`` every engine shares, so the service, the pages, the API and the
bots read the same keys with the same words in every game (``docs/engines.md``)."""

from collections.abc import Sequence


def table_view(
    *,
    game: str,
    seat: int | None,
    round: int,
    rounds: int | None,
    phase: str,
    to_move: int | None,
    start_player: int,
    scores: Sequence[int],
    ended_by: str | None,
) -> dict:
    """The shared keys of a view: the game's slug, how many players, the round (from 1)
    and how many rounds the game has (``None``: it ends when its rules say), the phase of
    the round in the rulebook's word (``"over"`` once the game has ended), the seat to
    move and the seat that started the round (seats from 0), every seat's score, and why
    the game ended (``None`` while it goes on). ``seat`` is the seat the view is for
    (``None``: a spectator); a seat the game does not have is a ``ValueError``."""
    players = len(scores)
    if seat is not None and seat not in range(players):
        raise ValueError(f"seats are numbered 0 to {players - 1}, not {seat!r}")
    return {
        "game": game,
        "players": players,
        "round": round,
        "rounds": rounds,
        "phase": phase,
        "to_move": to_move,
        "start_player": start_player,
        "scores": list(scores),
        "over": ended_by is not None,
        "ended_by": ended_by,
    }
