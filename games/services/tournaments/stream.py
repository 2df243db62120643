"""A tournament's write path, the same as a game's (``services.common.act``): the row
locked (one writer per tournament at a time), the pure decider's decision
(``games.tournaments.core``) appended to the stream ``tournament:<id>``, folded, and the
change handed to the tournament's reactions (``reactions.REACTIONS``), in the caller's
transaction."""

from collections.abc import Callable, Iterable
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from events import store
from events.shredding import address_key, person_key, seal_for
from games.models import Tournament, TournamentSnapshot
from games.repository import TOURNAMENT_NAMESPACE, tournament_state
from games.selectors.names import persons_named
from games.selectors.tournaments import tournament_get
from games.services import sweep_failures
from games.services.tournaments.reactions import (
    REACTIONS,
    TournamentChange,
    project,
    snapshot_write,
)
from games.services.tournaments.refusals import refusal
from games.tournaments import core, decider
from games.tournaments import storage as snapshots


def tournaments_swept(
    pks: Iterable[int], sweep_one: Callable[[int], bool], *, job: str, now: datetime
) -> int:
    """The minute sweep's pass of ``job`` over tournaments ``pks``: ``sweep_one(pk)`` for
    each (a transaction of its own), how many it did something to. A tournament whose part
    fails is logged, rolled back alone and set to rest before ``job`` tries it again
    (``sweep_failures``, as for games): the others still get theirs."""
    failed = sweep_failures.failing(job, "tournament")
    return sum(
        sweep_failures.apart(pk, sweep_one, job=job, kind="tournament", now=now, failed=failed)
        for pk in pks
    )


def locked_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked until the transaction ends."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    # Not found: the reader's answer (``NotFound`` naming the number).
    return Tournament.objects.select_for_update().filter(pk=pk).first() or tournament_get(pk)


def tournament_act(
    tournament: Tournament,
    command: decider.Command,
    *,
    actor: str,
    now: datetime,
    state: core.Tournament | None = None,
) -> TournamentChange:
    """Decide ``command`` on the tournament (its ``state`` as the caller read it, else
    folded from its stream), append the events it causes at ``now``, and run the
    reactions over the change. Raises the service error of a refusal."""
    before = state if state is not None else tournament_state(tournament)
    try:
        events = decider.decide(before, command)
    except core.TournamentRefused as error:
        raise refusal(error) from None
    after = before
    for event in events:
        after = core.evolve(after, event)
    seq = tournament.last_seq
    # Recorded at ``now``: the row's times are the events' (``tournament_reproject``).
    store.append(
        tournament.stream, seq, [_encoded(e) for e in events], actor=actor, recorded_at=now
    )
    tournament.last_seq += len(events)
    change = TournamentChange(tournament, before, after, tuple(events), seq, now)
    for reaction in REACTIONS:
        reaction(change)
    return change


def _encoded(event: core.Event) -> store.NewEvent:
    data = core.CODEC.encode(event)
    name, version = data.pop("type"), data.pop("version")
    if isinstance(event, core.TournamentCreated):
        data = _sealed(data)
    return store.NewEvent(f"{TOURNAMENT_NAMESPACE}.{name}", data, version)


def _sealed(data: dict) -> dict:
    """What people typed into a tournament's creation, as its event keeps it (issue 52;
    ``repository.tournament_event`` unseals it): the name (free text) sealed under the
    organiser's key and the key of anyone it names; each invited address under its
    person's key — the account of that address, or, for an address with no account,
    the address's own key — so that each is shredded when its person is forgotten."""
    name = data["name"]
    name_keys = [person_key(data["organiser"]), *map(person_key, persons_named(name))]
    accounts = dict(
        get_user_model()
        .objects.filter(username__in=data["settings"]["invited"])
        .values_list("username", "pk")
    )
    invited = [
        seal_for(
            [person_key(accounts[address]) if address in accounts else address_key(address)],
            address,
        )
        for address in data["settings"]["invited"]
    ]
    return {
        **data,
        "name": seal_for(name_keys, name),
        "settings": {**data["settings"], "invited": invited},
    }


@transaction.atomic
def tournament_reproject(*, tournament: Tournament) -> bool:
    """The row rebuilt from the tournament's events (``manage.py rebuild_projections``):
    status, round, players, last seq, and when it started and ended (the times of those
    events), and its snapshot written anew from them; whether the row had drifted."""
    tournament = locked_tournament(tournament)
    TournamentSnapshot.objects.filter(tournament=tournament).delete()
    events = store.load(tournament.stream)
    columns = ("status", "current_round", "players", "last_seq", "started_at", "finished_at")
    before = [getattr(tournament, column) for column in columns]
    when = {event.type: event.recorded_at for event in events}
    tournament.started_at = when.get(f"{TOURNAMENT_NAMESPACE}.TournamentStarted")
    tournament.finished_at = when.get(f"{TOURNAMENT_NAMESPACE}.TournamentFinished") or when.get(
        f"{TOURNAMENT_NAMESPACE}.TournamentCancelled"
    )
    tournament.last_seq = events[-1].seq if events else 0
    state = tournament_state(tournament)
    if tournament.last_seq >= snapshots.SNAPSHOT_EVERY:
        snapshot_write(tournament, state)
    project(tournament, state, now=timezone.now())
    return [getattr(tournament, column) for column in columns] != before
