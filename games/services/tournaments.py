"""Tournaments (issue 31): creating, joining, withdrawing, starting; each round's games
created from the pairing; a tournament game's end recorded (the reaction
``reactions.tournament_moved_on``), which starts the next round when it was the round's
last. The decisions are the pure decider's (``games.tournaments.core``); here they are
kept as events in the stream ``tournament:<id>`` and projected on the ``Tournament`` row,
in the same transaction, with the row locked (one writer per tournament at a time)."""

from dataclasses import asdict, replace
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from events import store
from games import notify
from games.errors import BadRequest, Conflict, Forbidden, ServiceError
from games.models import (
    Game,
    Rating,
    ResultSeat,
    Seat,
    Tournament,
    TournamentGame,
    TournamentSnapshot,
)
from games.selectors.access import is_moderator
from games.selectors.seats import departures
from games.selectors.tournaments import (
    TOURNAMENT_NAMESPACE,
    may_enter,
    tournament_get,
    tournament_state,
)
from games.services.common import actor_of, locked_game
from games.services.deadlines import seat_forfeits
from games.services.moves import seat_resign
from games.services.ratings import DISPLAY_BASE
from games.services.tables import (
    INVITATIONS_PER_DAY,
    game_begin,
    game_create_seated,
    game_engine,
    invitations_allowed,
    validate_options,
    validate_time_control,
)
from games.tournaments import core
from games.tournaments import storage as snapshots

# Ruling: a player absent from a tournament game forfeits it when their time runs out, as
# on Board Game Arena, so one absentee does not hold up a round with default moves.
TIMEOUT_POLICY = Game.TimeoutPolicy.FORFEIT
# Ruling: a game a moderator aborted counts as a shared place for all its players.
ABORTED_PLACE = 1
# Ruling: a tournament game aborted because a player resigned or ran out of time before
# every player had moved (unrated, issue 29) still counts in the tournament: who left
# takes the last place, as a forfeit would give them, the others share the first.

# What an organiser over their invitations (to games and tournaments together) is told.
INVITATIONS_THROTTLED = ngettext_lazy(
    "you have sent %(count)s invitations in the last 24 hours, and %(most)s is the most: "
    "invite more in about %(hours)s hour, or make the tournament public, open to anyone, "
    "without invitations",
    "you have sent %(count)s invitations in the last 24 hours, and %(most)s is the most: "
    "invite more in about %(hours)s hours, or make the tournament public, open to anyone, "
    "without invitations",
    "hours",
)

# What a refused tournament command tells the person: the kind of error and the sentence
# (its %(…)s filled from the refusal's facts).
REFUSALS = {
    "invalid_format": (BadRequest, gettext_lazy("format must be one of %(accepted)s")),
    "invalid_per_game": (BadRequest, gettext_lazy("players per game must be %(accepted)s")),
    "knockout_for_two": (
        BadRequest,
        gettext_lazy("a knockout is played two players per game: choose 2 players per game"),
    ),
    "invalid_player_limits": (
        BadRequest,
        gettext_lazy(
            "the fewest and most players must be 2 to %(most)s, the fewest no more than the most"
        ),
    ),
    "too_few_for_a_table": (
        BadRequest,
        gettext_lazy("the fewest players must fill at least one table of %(per_game)s"),
    ),
    "invalid_rounds": (
        BadRequest,
        gettext_lazy("a Swiss tournament needs 1 to %(most)s rounds (fewer than the players)"),
    ),
    "rounds_for_swiss_only": (
        BadRequest,
        gettext_lazy(
            "only a Swiss tournament takes a number of rounds: a round robin or a knockout "
            "plays as many as its players need"
        ),
    ),
    "invalid_points": (
        BadRequest,
        gettext_lazy(
            "points by place need %(places)s whole numbers from the first place down, none "
            "below zero"
        ),
    ),
    "invitations_need_invitation_only": (
        BadRequest,
        gettext_lazy("only an invitation-only tournament (not listed) takes invited addresses"),
    ),
    "invalid_round_days": (
        BadRequest,
        gettext_lazy("days per round must be 0 (no deadline) to %(most)s"),
    ),
    "name_missing": (BadRequest, gettext_lazy("a tournament needs a name")),
    "registration_closed": (Conflict, gettext_lazy("registration for this tournament is closed")),
    "already_registered": (Conflict, gettext_lazy("you are already registered")),
    "full": (Conflict, gettext_lazy("this tournament is full: its limit is %(most)s")),
    "rating_too_low": (
        Forbidden,
        gettext_lazy("this tournament needs a rating of %(needed)s; yours is %(rating)s"),
    ),
    "too_few_games": (
        Forbidden,
        gettext_lazy("finished games this tournament needs: %(needed)s; yours: %(games)s"),
    ),
    "not_registered": (Conflict, gettext_lazy("that player is not in this tournament")),
    "finished": (Conflict, gettext_lazy("this tournament is over")),
    "not_running": (Conflict, gettext_lazy("this tournament is not running")),
    "already_paused": (Conflict, gettext_lazy("this tournament is already paused")),
    "not_paused": (Conflict, gettext_lazy("this tournament is not paused")),
    "deadline_not_passed": (
        Conflict,
        gettext_lazy("round %(round)s has no deadline passed with games unfinished"),
    ),
    "too_few_players": (
        Conflict,
        gettext_lazy("players registered: %(players)s; the tournament needs %(needed)s to start"),
    ),
}


def refusal(error: core.TournamentRefused) -> ServiceError:
    """The service error for a refusal of the decider, said in the reader's language."""
    kind, text = REFUSALS[error.code]
    params = {
        name: ", ".join(map(str, value)) if isinstance(value, tuple) else value
        for name, value in error.params.items()
    }
    return kind(str(text) % params, code=error.code)


# --- the stream -----------------------------------------------------------------------------


def _encoded(event: core.Event) -> store.NewEvent:
    data = core.CODEC.encode(event)
    name, version = data.pop("type"), data.pop("version")
    return store.NewEvent(f"{TOURNAMENT_NAMESPACE}.{name}", data, version)


def _decide(
    tournament: Tournament,
    state: core.Tournament,
    command: core.Command,
    *,
    actor: str,
    now: datetime,
) -> tuple[core.Tournament, list[core.Event]]:
    """Decide ``command``, append its events, play what they start (a paired round's
    games) and project the row; the state after and every event appended."""
    try:
        events = core.decide(state, command)
    except core.TournamentRefused as error:
        raise refusal(error) from None
    appended, before = [], tournament.last_seq
    while events:
        written = [_encoded(event) for event in events]
        # Recorded at ``now``: the row's times are the events' (``tournament_reproject``).
        store.append(tournament.stream, tournament.last_seq, written, actor=actor, recorded_at=now)
        tournament.last_seq += len(events)
        for event in events:
            state = core.evolve(state, event)
        appended += events
        events = _round_games(tournament, state, now=now)
    if snapshots.crossed(before, tournament.last_seq):
        snapshot_write(tournament, state)
    project(tournament, state, now=now)
    _standings_told(tournament, state, appended)
    return state, appended


def _standings_told(tournament: Tournament, state: core.Tournament, appended: list) -> None:
    """A round that is over (another is paired): the players still in are told their
    standing, and those it knocked out of a knockout that they are out, with their final
    places; a tournament that finished: every player, their final standing."""
    over = [e.round - 1 for e in appended if isinstance(e, core.RoundPaired) and e.round > 1]
    finished = any(isinstance(event, core.TournamentFinished) for event in appended)
    if not over and not finished:
        return
    users = {user.pk: user for user in _users(state)}

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


def _round_games(tournament: Tournament, state: core.Tournament, *, now: datetime) -> list:
    """A paired round's games, created and started at once (seat order as paired), and
    the ``RoundStarted`` that says so; nothing when no round waits for its games."""
    tables = state.round_tables() if state.status == core.RUNNING else ()
    if not tables or tables[0].game is not None:
        return []
    settings = state.settings
    users = {user.pk: user for user in _users(state)}
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
        games.append(game.pk)
    days = settings.round_days
    deadline = (now + timedelta(days=days)).isoformat() if days else ""
    return core.decide(state, core.StartRound(state.round, tuple(games), deadline))


def _users(state: core.Tournament):
    return get_user_model().objects.filter(pk__in=[e.player for e in state.entrants])


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


def locked_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked until the transaction ends."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    # Not found: the reader's answer (``NotFound`` naming the number).
    return Tournament.objects.select_for_update().filter(pk=pk).first() or tournament_get(pk)


# --- what people do ---------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    organiser,
    name: str,
    format: str,
    game: str,
    per_game: int,
    rounds: int = 0,
    points: list[int] | tuple[int, ...] = (),
    options: dict | None = None,
    time_control: dict | None = None,
    rated: bool = True,
    public: bool = True,
    entry_closes: datetime | str | None = None,
    min_players: int = 0,
    max_players: int = 64,
    min_rating: float | None = None,
    min_games: int = 0,
    round_days: int = 0,
    invited: list[str] | tuple[str, ...] = (),
    organiser_plays: bool = False,
) -> Tournament:
    """Open a tournament for registration (``core.Settings`` says what each setting
    means); the game's options and time control are checked as a game's are. Each
    ``invited`` address (invitation-only) is sent an invitation linking to its page. With
    ``organiser_plays`` the organiser is registered at once, as ``tournament_join`` would
    (a refusal undoes the whole creation)."""
    engine = game_engine(game)
    if per_game not in engine.PLAYERS:
        raise BadRequest(
            _("players per game must be %(accepted)s")
            % {"accepted": ", ".join(map(str, engine.PLAYERS))},
            code="invalid_per_game",
        )
    closes = _entry_closes(entry_closes)
    settings = core.Settings(
        format=format,
        per_game=per_game,
        game=game,
        rounds=rounds,
        points=tuple(points or ()),
        min_players=min_players,
        max_players=max_players,
        min_rating=min_rating,
        min_games=min_games,
        options=validate_options(engine, per_game, options),
        time_control=validate_time_control(time_control),
        rated=bool(rated),
        public=bool(public),
        entry_closes=closes.isoformat() if closes else "",
        round_days=round_days,
        invited=_addresses(invited),
    )
    now = timezone.now()
    try:
        created = core.decide(
            core.Tournament(), core.CreateTournament(name, organiser.pk, settings)
        )
    except core.TournamentRefused as error:
        raise refusal(error) from None
    checked = created[0].settings
    invitations_allowed(organiser, len(checked.invited), refusal=INVITATIONS_THROTTLED)
    tournament = Tournament.objects.create(
        name=created[0].name,
        organiser=organiser,
        format=checked.format,
        game_type=game,
        per_game=per_game,
        public=checked.public,
        settings=asdict(checked),
        entry_closes=closes,
        created_at=now,
    )
    store.append(
        tournament.stream, 0, [_encoded(created[0])], actor=actor_of(organiser), recorded_at=now
    )
    tournament.last_seq = 1
    project(tournament, core.fold(created), now=now)
    for address in checked.invited:
        notify.tournament_invitation(tournament, address)
    if organiser_plays:
        tournament_join(tournament=tournament, user=organiser)
    return tournament


def _addresses(invited) -> tuple[str, ...]:
    """The invited addresses, lower-cased, each once; a bad one named. No more than one
    day's invitations of an account (``tables.INVITATIONS_PER_DAY``)."""
    addresses = []
    for address in invited or ():
        address = str(address).strip().lower()
        try:
            validate_email(address)
        except ValidationError:
            raise BadRequest(
                _("%(address)s is not an email address") % {"address": address or '""'},
                code="invalid_invited",
            ) from None
        if address not in addresses:
            addresses.append(address)
    if len(addresses) > INVITATIONS_PER_DAY:
        raise BadRequest(
            _("at most %(most)s addresses can be invited") % {"most": INVITATIONS_PER_DAY},
            code="invalid_invited",
        )
    return tuple(addresses)


def _entry_closes(value: datetime | str | None) -> datetime | None:
    if value in (None, ""):
        return None
    moment = value if isinstance(value, datetime) else parse_datetime(str(value))
    if moment is None or timezone.is_naive(moment) or moment <= timezone.now():
        raise BadRequest(
            _("the entry window must close at a future time with its zone, e.g. %(example)s")
            % {"example": "2030-05-01T18:00:00Z"},
            code="invalid_entry_closes",
        )
    return moment


@transaction.atomic
def tournament_join(*, tournament: Tournament, user) -> Tournament:
    """Register for a tournament open for registration: seeded by the player's rating on
    the game's ladder (1500 without one); the entry requirements checked."""
    tournament = locked_tournament(tournament)
    now = timezone.now()
    if not may_enter(tournament, user):
        raise Forbidden(
            _("this tournament is by invitation only, and your address is not invited"),
            code="not_invited",
        )
    if tournament.entry_closes is not None and tournament.entry_closes <= now:
        raise Conflict(_("registration for this tournament is closed"), code="registration_closed")
    rating = Rating.objects.filter(user=user, game_type=tournament.game_type).first()
    finished = ResultSeat.objects.filter(user=user, game_type=tournament.game_type).count()
    command = core.Register(user.pk, rating.display if rating else DISPLAY_BASE, finished)
    _decide(tournament, tournament_state(tournament), command, actor=actor_of(user), now=now)
    notify.tournament_joined(tournament, user)
    return tournament


@transaction.atomic
def tournament_withdraw(*, tournament: Tournament, user, player=None) -> Tournament:
    """Leave a tournament (``player`` left out or oneself), or remove ``player`` from it
    (the organiser or a moderator). Their games in play are resigned; later rounds leave
    them out."""
    player = player or user
    # The games first, then the tournament: the order every writer takes them in (a game
    # that ends locks its tournament), so two writers never wait for each other.
    games = [
        locked_game(game_id)
        for game_id in TournamentGame.objects.filter(
            tournament=tournament, game__status=Game.Status.ACTIVE, game__seats__user=player
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
    ]
    tournament = locked_tournament(tournament)
    reason = core.WITHDREW
    if player.pk != user.pk:
        _organising(tournament, user)
        reason = core.REMOVED
    state = tournament_state(tournament)
    command = core.Withdraw(player.pk, reason)
    _decide(tournament, state, command, actor=actor_of(user), now=timezone.now())
    for game in games:
        seat = next(s for s in game.seats.all() if s.user_id == player.pk)
        if game.status == Game.Status.ACTIVE and seat.status != Seat.Status.RESIGNED:
            seat_resign(game, seat, actor=actor_of(user), reason="withdrew from the tournament")
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def tournament_start(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator starts the tournament now: the first round is
    paired and its games begin."""
    return _organiser_decides(tournament, user, core.Start())


def _organiser_decides(tournament: Tournament, user, command: core.Command) -> Tournament:
    """A command only the organiser or a moderator may give, decided now."""
    tournament = locked_tournament(tournament)
    _organising(tournament, user)
    state = tournament_state(tournament)
    _decide(tournament, state, command, actor=actor_of(user), now=timezone.now())
    return tournament


@transaction.atomic
def tournament_pause(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator pauses a running tournament: no new round starts
    (games in play go on, and their results count) until it is resumed; a round deadline
    waits too."""
    return _organiser_decides(tournament, user, core.Pause())


@transaction.atomic
def tournament_resume(*, tournament: Tournament, user) -> Tournament:
    """Rounds start again: the next at once if the round in play is over."""
    return _organiser_decides(tournament, user, core.Resume())


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, user) -> Tournament:
    """The organiser or a moderator calls the tournament off, before or while it runs:
    no round starts any more; games in play go on as games (rated ones still count on
    the ladder) but no more in the tournament, which has no final standing."""
    return _organiser_decides(tournament, user, core.Cancel(core.BY_ORGANISER))


def _organising(tournament: Tournament, user) -> None:
    if user.pk != tournament.organiser_id and not is_moderator(user):
        raise Forbidden(
            _("only the tournament's organiser or a moderator can do this"),
            code="not_organiser",
        )


def tournaments_start_due(*, now: datetime) -> int:
    """The minute sweep's part: tournaments whose entry window has closed start, or are
    cancelled when too few registered. How many were started or cancelled."""
    due = Tournament.objects.filter(
        status=Tournament.Status.REGISTRATION, entry_closes__lte=now
    ).values_list("pk", flat=True)
    return sum(_start_due(pk, now) for pk in due[:100])


@transaction.atomic
def _start_due(pk: int, now: datetime) -> bool:
    tournament = locked_tournament(pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        return False
    state = tournament_state(tournament)
    try:
        _decide(tournament, state, core.Start(), actor="system", now=now)
    except Conflict as refused:
        if refused.code != "too_few_players":
            raise
        _decide(tournament, state, core.Cancel(core.TOO_FEW_PLAYERS), actor="system", now=now)
    return True


def tournaments_deadlines_apply(*, now: datetime) -> int:
    """The minute sweep's part: running tournaments whose round deadline has passed end
    the round's unfinished games by the time-out policy (the player to move forfeits, in
    a game of three or four until one is left), and the next round starts. How many
    rounds were ended."""
    running = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, settings__round_days__gt=0
    ).values_list("pk", "current_round", "settings__round_days")
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
    return sum(_deadline_passed(pk, now) for pk in due[:100])


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
    state = tournament_state(tournament)
    command = core.PassDeadline(state.round, now.isoformat())
    try:
        _decide(tournament, state, command, actor="system", now=now)
    except Conflict:
        return False
    for game in games:
        while game.status == Game.Status.ACTIVE:
            seat = game.seats.select_related("user").get(position=game.to_move)
            seat_forfeits(game, seat, now=now)
            game.refresh_from_db()
    return True


# --- the reaction -----------------------------------------------------------------------------


def tournament_game_ended(game: Game, *, now: datetime) -> None:
    """A tournament game ended: its result goes into the tournament (places from the
    game's result, who ran out of time), which pairs and starts the next round when it
    was the round's last. For the reaction, in the transaction that ended the game."""
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
    rows = {row.user_id: row for row in ResultSeat.objects.filter(result__game=game)}
    if rows:
        places = tuple(rows[player].place for player in table.players)
        scores = tuple(rows[player].score for player in table.players)
        timed_out = tuple(player for player in table.players if rows[player].timed_out)
    else:
        users = {seat.position: seat.user_id for seat in game.seats.all()}
        left = {users[d.seat]: d.timed_out for d in departures([game])[game.pk]}
        last = len(table.players)
        places = tuple(last if player in left else ABORTED_PLACE for player in table.players)
        scores = tuple(game.scores or (0,) * len(table.players))
        timed_out = tuple(player for player in table.players if left.get(player))
    command = core.RecordResult(game.pk, places, scores, timed_out)
    _decide(tournament, state, command, actor="system", now=now)
