"""Entering a tournament: opening one for registration, registering, withdrawing (or being
removed by the organiser), and the entry window closing (the tournament starts, or is
cancelled when too few registered). Each a command through ``stream.tournament_act``."""

from dataclasses import asdict
from datetime import datetime
from functools import partial

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from games.errors import BadRequest, Conflict, Forbidden
from games.models import Game, Rating, ResultSeat, Seat, Tournament, TournamentGame
from games.repository import tournament_state
from games.selectors.names import is_bot_account
from games.selectors.tournaments import may_enter
from games.services import sweep_failures
from games.services.common import actor_of, locked_game
from games.services.moves import seat_resign
from games.services.ratings import DISPLAY_BASE
from games.services.tables import (
    INVITATIONS_PER_DAY,
    game_engine,
    invitations_allowed,
    validate_options,
    validate_time_control,
)
from games.services.tournaments.organiser import organising
from games.services.tournaments.refusals import refusal
from games.services.tournaments.stream import (
    locked_tournament,
    tournament_act,
    tournaments_swept,
)
from games.tournaments import core, decider

# The minute sweep's job of entry windows that closed (``services.sweep.JOBS``).
STARTED_JOB = "tournaments_started"
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
    bots: bool = False,
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
        bots=bool(bots),
    )
    now = timezone.now()
    command = decider.CreateTournament(name, organiser.pk, settings)
    # Decided before its row exists, for the row's columns: the write decides it again.
    try:
        created = decider.decide(core.Tournament(), command)
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
    tournament_act(tournament, command, actor=actor_of(organiser), now=now, state=core.Tournament())
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
    if is_bot_account(user) and not tournament.settings.get("bots"):
        # Issue 55: a tournament is for people unless its organiser let bots in.
        raise Forbidden(
            _("this tournament is for people: bots may not enter"), code="bot_not_allowed"
        )
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
    command = decider.Register(user.pk, rating.display if rating else DISPLAY_BASE, finished)
    tournament_act(tournament, command, actor=actor_of(user), now=now)
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
        organising(tournament, user)
        reason = core.REMOVED
    command = decider.Withdraw(player.pk, reason)
    tournament_act(tournament, command, actor=actor_of(user), now=timezone.now())
    for game in games:
        seat = next(s for s in game.seats.all() if s.user_id == player.pk)
        if game.status == Game.Status.ACTIVE and seat.status != Seat.Status.RESIGNED:
            seat_resign(game, seat, actor=actor_of(user), reason="withdrew from the tournament")
    tournament.refresh_from_db()
    return tournament


def tournaments_start_due(*, now: datetime) -> int:
    """The minute sweep's part: tournaments whose entry window has closed start, or are
    cancelled when too few registered. How many were started or cancelled."""
    due = (
        Tournament.objects.filter(status=Tournament.Status.REGISTRATION, entry_closes__lte=now)
        .exclude(pk__in=sweep_failures.resting(STARTED_JOB, now))
        .values_list("pk", flat=True)
    )
    start = partial(_start_due, now=now)
    return tournaments_swept(due[:100], start, job=STARTED_JOB, now=now)


@transaction.atomic
def _start_due(pk: int, now: datetime) -> bool:
    tournament = locked_tournament(pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        return False
    state = tournament_state(tournament)
    try:
        tournament_act(tournament, decider.Start(), actor="system", now=now, state=state)
    except Conflict as refused:
        if refused.code != "too_few_players":
            raise
        cancel = decider.Cancel(core.TOO_FEW_PLAYERS)
        tournament_act(tournament, cancel, actor="system", now=now, state=state)
    return True
