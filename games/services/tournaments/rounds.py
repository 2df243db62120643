"""A tournament's rounds: a paired round's games, created and started by a worker after
the commit that paired the round (the task ``tournament_round_begin``, the minute sweep's
``tournaments_rounds_begin`` as its fallback, as for a planned move); and a round's
deadline, after which its unfinished games end by the time-out policy."""

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from events.models import Event
from games.errors import Conflict
from games.models import Game, Seat, Tournament, TournamentGame
from games.repository import TOURNAMENT_NAMESPACE, tournament_state
from games.services import sweep_failures
from games.services.common import locked_game
from games.services.deadlines import seat_forfeits
from games.services.moves import seat_resign
from games.services.tables import game_begin, game_create_seated
from games.services.tournaments.reactions import entrants
from games.services.tournaments.stream import (
    locked_tournament,
    tournament_act,
    tournaments_swept,
)
from games.tournaments import core, decider

# Ruling: a player absent from a tournament game forfeits it when their time runs out, as
# on Board Game Arena, so one absentee does not hold up a round with default moves.
TIMEOUT_POLICY = Game.TimeoutPolicy.FORFEIT
# The minute sweep's jobs (``services.sweep.JOBS``).
ROUNDS_BEGUN = "tournament_rounds_begun"
ROUNDS_ENDED = "tournament_rounds_ended"

PAIRED = f"{TOURNAMENT_NAMESPACE}.{core.RoundPaired.__name__}"

# Why a seat of a round's new game is resigned at once: its player withdrew between the
# pairing and the games.
WITHDREW = "withdrew from the tournament"


@transaction.atomic
def round_begin(tournament_id: int, *, now: datetime | None = None) -> bool:
    """The paired round's games created and started at once (seat order as paired), and
    the ``RoundStarted`` that says so, with the round's deadline from now; whether a round
    was waiting for its games. A player who withdrew since the pairing resigns their new
    game at once, as withdrawing resigns the games in play."""
    tournament = locked_tournament(tournament_id)
    state = tournament_state(tournament)
    tables = state.round_tables() if state.status == core.RUNNING else ()
    if not tables or tables[0].game is not None:
        return False
    now = now or timezone.now()
    settings = state.settings
    # Counted from the pairing (the round's start), however long the games took to come.
    paired_at = (
        Event.objects.filter(stream=tournament.stream, type=PAIRED)
        .order_by("-seq")
        .values_list("recorded_at", flat=True)
        .first()
    )
    users = {user.pk: user for user in entrants(state)}
    games = []
    for table in tables:
        game = game_create_seated(
            users=[users[player] for player in table.players],
            game=settings.game,
            options=settings.options,
            time_control=settings.time_control,
            timeout_policy=TIMEOUT_POLICY,
            rated=settings.rated,
        )
        # Linked before it starts: its "game started" notice names the tournament's round.
        TournamentGame.objects.create(tournament=tournament, game=game, round=table.round)
        game_begin(game=game)
        games.append(game)
    days = settings.round_days
    deadline = (paired_at + timedelta(days=days)).isoformat() if days else ""
    command = decider.StartRound(state.round, tuple(game.pk for game in games), deadline)
    tournament_act(tournament, command, actor="system", now=now, state=state)
    gone = {entrant.player for entrant in state.entrants if entrant.withdrawn}
    for table, game in zip(tables, games, strict=True):
        if gone.isdisjoint(table.players):
            continue
        game = locked_game(game.pk)
        for seat in game.seats.all():
            if seat.user_id in gone and seat.status != Seat.Status.RESIGNED:
                seat_resign(game, seat, actor="system", reason=WITHDREW)
    return True


def tournaments_rounds_begin(*, now: datetime) -> int:
    """The minute sweep's part: running tournaments whose round is paired but has no games
    yet (the task asked for them was lost) begin it. How many rounds began."""
    played = TournamentGame.objects.filter(
        tournament=OuterRef("pk"), round=OuterRef("current_round")
    )
    waiting = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING, current_round__gt=0)
        .exclude(Exists(played))
        .exclude(pk__in=sweep_failures.resting(ROUNDS_BEGUN, now))
        .values_list("pk", flat=True)
    )
    begin = partial(round_begin, now=now)
    return tournaments_swept(waiting[:100], begin, job=ROUNDS_BEGUN, now=now)


def tournaments_deadlines_apply(*, now: datetime) -> int:
    """The minute sweep's part: running tournaments whose round deadline has passed end
    the round's unfinished games by the time-out policy (the player to move forfeits, in
    a game of three or four until one is left), and the next round starts. How many
    rounds were ended."""
    running = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING, settings__round_days__gt=0)
        .exclude(pk__in=sweep_failures.resting(ROUNDS_ENDED, now))
        .values_list("pk", "current_round", "settings__round_days")
    )
    due = []
    for pk, number, days in running:
        # The round's games began together; its earliest start bounds its deadline.
        began = (
            TournamentGame.objects.filter(
                tournament_id=pk, round=number, game__status=Game.Status.ACTIVE
            )
            .order_by("game__created_at")
            .values_list("game__created_at", flat=True)
            .first()
        )
        if began is not None and began + timedelta(days=days) <= now:
            due.append(pk)
    passed = partial(_deadline_passed, now=now)
    return tournaments_swept(due[:100], passed, job=ROUNDS_ENDED, now=now)


@transaction.atomic
def _deadline_passed(pk: int, now: datetime) -> bool:
    # The games first, then the tournament: the order every writer takes them in.
    tournament = Tournament.objects.get(pk=pk)
    games = [
        locked_game(game_id)
        for game_id in TournamentGame.objects.filter(
            tournament=tournament,
            round=tournament.current_round,
            game__status=Game.Status.ACTIVE,
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
    ]
    tournament = locked_tournament(pk)
    command = decider.PassDeadline(tournament.current_round, now.isoformat())
    try:
        tournament_act(tournament, command, actor="system", now=now)
    except Conflict:
        return False
    for game in games:
        while game.status == Game.Status.ACTIVE:
            seat = game.seats.select_related("user").get(position=game.to_move)
            seat_forfeits(game, seat, now=now)
            game.refresh_from_db()
    return True
