"""The seam after every append: one frozen ``Change`` says what a write did to a game, and
the ordered ``REACTIONS`` run over it in the append's transaction. Nothing else follows a
write: no signals, no call hidden in a writer. Adding a reaction is one function taking a
``Change`` and one line in ``REACTIONS`` (``docs/architecture.md``).

The order matters where one reaction reads what another wrote: the read model first
(status, seat to move, clocks), then the projections that read it (ratings, the analysis
request), then what is said or done about the new position (notices withdrawn, computer
players, conditional moves, notices)."""

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from functools import partial

from django.db import transaction

from azulsite.celery import send_quickly
from games import news, notify
from games import table as tbl
from games.models import Game, Seat
from games.prepared import save_fields
from games.selectors.names import BOT_ACTOR_PREFIX
from games.selectors.seats import bot_seat_to_move
from games.services import clocks
from games.services.analysis import analysis_request
from games.services.plan_following import plans_followed
from games.services.ratings import ratings_game_finished
from games.services.tournaments.results import tournament_game_ended
from games.table_events import HoursChanged, Moved, Resigned, SeatReplaced, TakebackRequested

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """What one write did to ``game`` (locked, its seats read): the table ``before`` and
    ``after`` it, the events ``appended`` (as the table reads them), the moves ``voided``
    (the steps after that seq, by an undo, a takeback or a revert), ``by`` whom (the id of
    the person whose act it was, who is looking at its result; ``None`` for the system, a
    computer player or the sweep), when (``now``) and why (``reason``: ``TIME_RAN_OUT`` for
    what a time-out policy did); ``computers_played_on``: the write is a computer player's
    in a task that goes on while computers are to move."""

    game: Game
    before: tbl.Table
    after: tbl.Table
    appended: tuple[tbl.Record, ...]
    by: int | None
    now: datetime
    voided: int | None = None
    computers_played_on: bool = False
    reason: str = ""

    @property
    def started(self) -> bool:
        return self.after.started and not self.before.started

    @property
    def ended(self) -> bool:
        return self.after.over and not self.before.over

    @property
    def turn_passed(self) -> bool:
        """A seat is to move, and not the one that was before the write."""
        to_move = self.after.to_move()
        return to_move is not None and to_move != self.before.to_move()

    def events(self, kind: type) -> list:
        """The appended events of class ``kind``."""
        return [record.event for record in self.appended if isinstance(record.event, kind)]


# --- projections: what the game's rows say -------------------------------------------------

# The columns of the game row that the table projects (and the start sets).
PROJECTED = [
    "status",
    "started_at",
    "finished_at",
    "last_seq",
    "to_move",
    "deadline",
    "paused_at",
    "last_move_at",
    "scores",
    "winners",
]


def read_model(change: Change) -> None:
    """The game row and the seats' clocks from the table after the change."""
    game, after = change.game, change.after
    if _last_step(after) != _last_step(change.before):
        game.last_move_at = change.now
    # From nothing (a start, or the rows rebuilt from the events), every clock is written.
    before = change.before if change.before.last_seq else None
    project(game, after, before=before, now=change.now)


def project(game: Game, table: tbl.Table, *, before: tbl.Table | None, now: datetime) -> None:
    """The read model from ``table``: the game row (its end too) and the seats' clocks
    (those whose clock changed since ``before``)."""
    game.last_seq = table.last_seq
    game.to_move = table.to_move()
    game.scores = list(table.scores())
    game.winners = list(table.winners())
    if table.over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        game.finished_at = now
    clocks.project(game, table.clock, before=before.clock if before else None, now=now)
    save_fields(game, PROJECTED)


def seat_rows(change: Change) -> None:
    """The seats' rows from what the change did to them: a seat that resigned (or forfeited,
    or whose resignation a revert took back), a seat given to another player or to a
    computer player, a seat's new playing hours."""
    events = (SeatReplaced, HoursChanged)
    resigned = change.after.resigned ^ change.before.resigned
    if not resigned and not any(change.events(kind) for kind in events):
        return
    seats = {seat.position: seat for seat in change.game.seats.all()}
    for position in resigned:
        seat = seats[position]
        seat.status = (
            Seat.Status.RESIGNED if position in change.after.resigned else Seat.Status.JOINED
        )
        seat.save(update_fields=["status"])
    for replaced in change.events(SeatReplaced):
        seat = seats[replaced.seat]
        if replaced.by.startswith(BOT_ACTOR_PREFIX):
            seat.user, seat.bot = None, replaced.by.removeprefix(BOT_ACTOR_PREFIX)
        else:
            seat.user_id = int(replaced.by.partition(":")[2])
            seat.playing_hours = asdict(replaced.hours) if replaced.hours else None
        seat.save(update_fields=["user", "bot", "playing_hours"])
    for changed in change.events(HoursChanged):
        seat = seats[changed.seat]
        seat.playing_hours = asdict(changed.hours)
        seat.save(update_fields=["playing_hours"])


def _last_step(table: tbl.Table) -> tuple[int, int] | None:
    return (table.steps[-1].seq, table.steps[-1].last) if table.steps else None


def ratings(change: Change) -> None:
    """A game that ended goes into its ladder (an aborted one leaves it)."""
    if change.ended:
        ratings_game_finished(change.game, table=change.after)


def analysis_asked(change: Change) -> None:
    """A finished game's post-game analysis is asked for."""
    if change.ended and change.game.status == Game.Status.FINISHED:
        analysis_request(game=change.game, now=change.now)


# --- what follows in the game: notices withdrawn, computer players ------------------------


def turn_notices_withdrawn(change: Change) -> None:
    """No "your turn" is left waiting for moves that were taken back, and no turn notice
    (your turn, reminder, deadline warning) for a turn that has passed or a game that
    ended: the notices of the seat now to move are written after this (``game_notices``)."""
    if change.voided is not None:
        notify.moves_taken_back(game=change.game, after_seq=change.voided, now=change.now)
    if change.turn_passed or change.ended:
        to_move = change.after.to_move()
        seat = next((s for s in joined_seats(change.game) if s.position == to_move), None)
        notify.turn_passed(game=change.game, to_move=seat, now=change.now)


def computer_player_queued(change: Change) -> None:
    """A computer player to move is asked to play once the change is committed: when the
    turn passed to it, when its own move leaves it to move again (a bonus tile, a
    second placement), and when a takeback or a revert leaves it to move again (its move
    was taken back), so consecutive moves never wait for the minute sweep. Not when the
    write is a computer's in a task that goes on playing (``bots.bot_move``)."""
    if change.computers_played_on:
        return
    moved = change.turn_passed or change.events(Moved) or change.voided is not None
    if moved and bot_seat_to_move(change.game) is not None:
        transaction.on_commit(partial(_bot_move_queued, change.game.pk))


def _bot_move_queued(game_id: int) -> None:
    """Ask a worker to play the bot's move (never inside a web request); the minute sweep
    plays it if the broker cannot be reached."""
    if not send_quickly("games.tasks.bot_move", [game_id]):
        log.warning("game %s: broker unreachable; the sweep will play the bot's move", game_id)


# --- notices --------------------------------------------------------------------------------


def joined_seats(game: Game) -> list[Seat]:
    """The seated players in seat order (from the seats ``locked_game`` read)."""
    seated = [s for s in game.seats.all() if s.position is not None and s.user_id is not None]
    return sorted(seated, key=lambda seat: seat.position)


def game_notices(change: Change) -> None:
    """The game started or is over (finished, or aborted by a resignation before every
    player had moved): told to the players but the one whose act it was (they are looking
    at it). A new seat is to move: told to its player after a grace period,
    unless they are on the game's page by then (the email channel checks)."""
    game, seats = change.game, joined_seats(change.game)
    if change.started:
        notify.game_started(game, change.after.steps[0].last, seats, by=change.by)
    if change.ended:
        if game.status == Game.Status.FINISHED or change.after.aborted_by is not None:
            notify.game_over(game, game.last_seq, seats, by=change.by)
        return
    if change.turn_passed:
        seat = next((s for s in seats if s.position == game.to_move), None)
        if seat is not None:
            notify.your_turn(game, game.last_seq, seat, now=change.now)


def timeout_notices(change: Change) -> None:
    """A seat whose time ran out, once the time-out policy is done with its turn: its player
    is told what was done (the moves played for them, or the forfeit)."""
    if change.reason != tbl.TIME_RAN_OUT:
        return
    seats = {seat.position: seat for seat in change.game.seats.all()}
    for forfeit in change.events(Resigned):
        notify.timed_out(change.game, seats[forfeit.seat], moves=[])
    after, since = change.after, change.before.last_seq
    played = [step for step in after.steps if step.seq > since and step.auto == "timeout"]
    if not played or after.to_move() == played[-1].seat:
        return
    seat, turn = played[-1].seat, []
    for step in reversed(after.steps[: after.steps.index(played[-1]) + 1]):
        if step.seat != seat or step.auto != "timeout":
            break
        turn.insert(0, step.move)
    notify.timed_out(change.game, seats[seat], moves=turn)


def news_told(change: Change) -> None:
    """Open pages of the game hear of the change once it is committed (issue 42); the
    lobby too when the game began or ended."""
    news.game_changed(change.game.pk)
    if change.started or change.ended:
        news.lobby_changed()


def tournament_moved_on(change: Change) -> None:
    """A tournament game that ended goes into its tournament, which pairs its next round
    when it was the round's last (issue 31; the round's games are created after the
    commit)."""
    if change.ended:
        tournament_game_ended(change.game, change.after, now=change.now)


def takeback_notices(change: Change) -> None:
    """A takeback request is told to every other player still in the game."""
    for asked in change.events(TakebackRequested):
        others = [
            seat
            for seat in joined_seats(change.game)
            if seat.position != asked.seat and seat.position not in change.after.resigned
        ]
        notify.takeback_asked(change.game, asked.request, asked.to_seq, others, asker=asked.seat)


Reaction = Callable[[Change], None]

# What the game's rows say of it: also what rebuilding them from the events runs
# (``tables.game_reproject``), which tells nobody anything.
PROJECTIONS: tuple[Reaction, ...] = (read_model, seat_rows, ratings, analysis_asked)

# The reactions, in order, after every append (``react``).
REACTIONS: tuple[Reaction, ...] = (
    *PROJECTIONS,
    turn_notices_withdrawn,
    computer_player_queued,
    plans_followed,
    game_notices,
    timeout_notices,
    takeback_notices,
    news_told,
    tournament_moved_on,
)


def react(change: Change, reactions: tuple[Reaction, ...] = REACTIONS) -> None:
    """Run the ``reactions`` (every one by default) over ``change``, in order, in the
    append's transaction."""
    for reaction in reactions:
        reaction(change)
