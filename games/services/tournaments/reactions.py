"""What follows every write to a tournament: one frozen ``TournamentChange`` says what the
write did, and the ordered ``REACTIONS`` run over it in the append's transaction, as a
game's do (``services.reactions``). The read model first (the row and its snapshot), then
what is said (invitations, a registration confirmed, a round's standings, the final
standing), then what is asked for once the change is committed (a paired round's games)."""

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction

from azulsite.celery import send_quickly
from games import notify
from games.models import Tournament, TournamentSnapshot
from games.tournaments import core
from games.tournaments import storage as snapshots

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TournamentChange:
    """What one write did to ``tournament`` (its row locked): the state ``before`` and
    ``after`` it, the events ``appended`` after the event ``seq`` (the row's last before),
    and when (``now``)."""

    tournament: Tournament
    before: core.Tournament
    after: core.Tournament
    appended: tuple[core.Event, ...]
    seq: int
    now: datetime

    def events(self, kind: type) -> list:
        """The appended events of class ``kind``."""
        return [event for event in self.appended if isinstance(event, kind)]


# --- the read model ---------------------------------------------------------------------------


def read_model(change: TournamentChange) -> None:
    """The row from the state after the change, and its snapshot when the change crossed a
    snapshot's seq."""
    tournament = change.tournament
    if snapshots.crossed(change.seq, tournament.last_seq):
        snapshot_write(tournament, change.after)
    project(tournament, change.after, now=change.now)


def project(tournament: Tournament, state: core.Tournament, *, now: datetime) -> None:
    """The row from the state (its timestamps when its status changes)."""
    status = {
        core.REGISTRATION: Tournament.Status.REGISTRATION,
        core.RUNNING: Tournament.Status.RUNNING,
        core.FINISHED: Tournament.Status.FINISHED,
        core.CANCELLED: Tournament.Status.CANCELLED,
    }[state.status]
    if status == Tournament.Status.RUNNING and tournament.started_at is None:
        tournament.started_at = now
    if status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        tournament.finished_at = tournament.finished_at or now
    tournament.status = status
    tournament.current_round = state.round
    tournament.players = len(state.active())
    tournament.save()


def snapshot_write(tournament: Tournament, state: core.Tournament) -> None:
    """Keep the folded tournament at its row's last event (``TournamentSnapshot``), for
    reads to fold on from: one statement, replacing one at the same event that other code
    folded."""
    snapshot = TournamentSnapshot(
        tournament=tournament,
        seq=tournament.last_seq,
        code=snapshots.code_version(),
        state=snapshots.dumps(state),
    )
    TournamentSnapshot.objects.bulk_create(
        [snapshot],
        update_conflicts=True,
        unique_fields=["tournament", "seq"],
        update_fields=["code", "state"],
    )


# --- what is said -----------------------------------------------------------------------------


def invitations_sent(change: TournamentChange) -> None:
    """An invitation-only tournament opened: each invited address is sent an invitation
    linking to its page."""
    for created in change.events(core.TournamentCreated):
        for address in created.settings.invited:
            notify.tournament_invitation(change.tournament, address)


def registration_told(change: TournamentChange) -> None:
    """A player registered: they are told their place is kept."""
    for registered in change.events(core.PlayerRegistered):
        user = get_user_model().objects.get(pk=registered.player)
        notify.tournament_joined(change.tournament, user)


def standings_told(change: TournamentChange) -> None:
    """A round that is over (another is paired): the players still in are told their
    standing, and those it knocked out of a knockout that they are out, with their final
    places; a tournament that finished: every player, their final standing."""
    tournament, state = change.tournament, change.after
    over = [e.round - 1 for e in change.events(core.RoundPaired) if e.round > 1]
    finished = bool(change.events(core.TournamentFinished))
    if not over and not finished:
        return
    users = {user.pk: user for user in entrants(state)}

    def lines(at: core.Tournament) -> list[tuple]:
        return [(users[line.player], line.rank, line.points) for line in at.standings()]

    exits = core.knocked_out(state)
    for number in over:
        # As the round left it: without the next round's byes.
        after = replace(state, byes=tuple(bye for bye in state.byes if bye.round <= number))
        playing = set(state.active()) - set(exits)
        still_in = [line for line in lines(after) if line[0].pk in playing]
        # Ranked among those still in, as the message counts them.
        ranked = [(user, rank, points) for rank, (user, _, points) in enumerate(still_in, 1)]
        notify.round_results(tournament, number, ranked)
        out = [
            (user, exits[user.pk], points)
            for user, _, points in lines(after)
            if user.pk in exits and exits[user.pk].round == number
        ]
        notify.knocked_out(tournament, number, out, players=len(state.seeds))
    if finished:
        notify.tournament_finished(tournament, lines(state))


def cancellation_told(change: TournamentChange) -> None:
    """A tournament called off: its players still in are told."""
    if change.events(core.TournamentCancelled):
        notify.tournament_cancelled(change.tournament, entrants_in(change.after))


def entrants(state: core.Tournament):
    """The accounts of everyone who registered."""
    return get_user_model().objects.filter(pk__in=[e.player for e in state.entrants])


def entrants_in(state: core.Tournament):
    """The accounts of those still in (registered, not withdrawn)."""
    return get_user_model().objects.filter(pk__in=state.active())


# --- what is asked for after the commit -------------------------------------------------------


def round_games_asked(change: TournamentChange) -> None:
    """A round was paired: its games are created by a worker once the change is committed
    (``rounds.round_begin``), so the move that completed the round before it never waits
    for a round's games; the minute sweep creates them if the broker cannot be reached."""
    state = change.after
    tables = state.round_tables() if state.status == core.RUNNING else ()
    if change.events(core.RoundPaired) and tables and tables[0].game is None:
        transaction.on_commit(partial(_round_begin_queued, change.tournament.pk))


def _round_begin_queued(tournament_id: int) -> None:
    if not send_quickly("games.tasks.tournament_round_begin", [tournament_id]):
        log.warning("tournament %s: broker unreachable; the sweep begins its round", tournament_id)


Reaction = Callable[[TournamentChange], None]

# The reactions, in order, after every append (``stream.tournament_act``).
REACTIONS: tuple[Reaction, ...] = (
    read_model,
    invitations_sent,
    registration_told,
    standings_told,
    cancellation_told,
    round_games_asked,
)
