"""A tournament game's end recorded in its tournament (places from the game's events, who
ran out of time), which pairs the next round when it was the round's last. For the game's
reaction ``tournament_moved_on``, in the transaction that ended the game."""

from events import store
from games import table as tbl
from games.models import Game, TournamentGame
from games.repository import tournament_state
from games.selectors.seats import departures
from games.services.ratings import placings
from games.services.tournaments.stream import locked_tournament, tournament_act
from games.tournaments import core, decider

# Ruling: a game a moderator aborted counts as a shared place for all its players.
ABORTED_PLACE = 1
# Ruling: a tournament game aborted because a player resigned or ran out of time before
# every player had moved (unrated, issue 29) still counts in the tournament: who left
# takes the last place, as a forfeit would give them, the others share the first.


def tournament_game_ended(game: Game, after: tbl.Table, *, now) -> None:
    """``game`` ended as ``after`` says: its result goes into its tournament, if it is a
    running tournament's game whose result is not in yet."""
    link = TournamentGame.objects.filter(game=game).first()
    if link is None:
        return
    tournament = locked_tournament(link.tournament_id)
    state = tournament_state(tournament)
    if state.status != core.RUNNING:
        # Cancelled: its games in play end as games, and count no more.
        return
    table = next((t for t in state.tables if t.game == game.pk), None)
    if table is None or table.result is not None:
        return
    places, scores, timed_out = _result(game, after, table.players)
    command = decider.RecordResult(game.pk, places, scores, timed_out)
    tournament_act(tournament, command, actor="system", now=now, state=state)


def _result(game: Game, after: tbl.Table, players: tuple[int, ...]) -> tuple[tuple, ...]:
    """Each player's place and score (``players`` are user ids), and who ran out of time:
    a finished game's placings (as its ladder reads them), an aborted game's as ruled
    above. The entrants sit in the order they were paired (``rounds.round_begin``), and a
    seat's result is its entrant's whoever plays it now: a moderator may have given the
    seat to another person or a computer player, whom the tournament does not know."""
    seat_of = {player: seat for seat, player in enumerate(players)}
    if not after.aborted:
        placed = {p.seat: p for p in placings(after, store.load(game.stream))}
        at = [placed[seat_of[player]] for player in players]
        return (
            tuple(p.place for p in at),
            tuple(p.score for p in at),
            tuple(player for player, p in zip(players, at, strict=True) if p.timed_out),
        )
    left = {d.seat: d.timed_out for d in departures([game])[game.pk]}
    last = len(players)
    scores = after.scores()
    return (
        tuple(last if seat_of[player] in left else ABORTED_PLACE for player in players),
        tuple(scores[seat_of[player]] if scores else 0 for player in players),
        tuple(player for player in players if left.get(seat_of[player])),
    )
