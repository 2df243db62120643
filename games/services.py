"""The only writers (``../shared/DESIGN.md``). Every service is one transaction: lock the
game row, fold its stream, decide, append, update the read model and write the outbox rows
for the emails. Doors (API, pages, email, tasks, admin) validate input and call one of these.

The service is game-agnostic: it reaches a game only through the decider contract.
"""

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from events import store
from events.store import ConcurrencyConflict, NewEvent, StoredEvent
from games import table as tbl
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.mail import clocks, outbox
from games.models import ChatMessage, Game, Outbox, PlayerSettings, Report, Seat, SeatClock
from games.registry import GAME_TYPES, game_type
from games.rules.common import IllegalMove, InvalidNotation
from games.selectors import can_view, game_table, legal_moves_of, seat_of

User = get_user_model()

TIME_CONTROL_DAYS = (1, 2, 3, 5, 7, 14)
INVITATION_SALT = "azulsite.invitation"


@dataclass(frozen=True)
class MoveResult:
    """What a move appended, and where the game stands after it."""

    game: Game
    events: list[StoredEvent]
    replayed: bool = False


def actor_of(user) -> str:
    return f"user:{user.pk}"


# --- creating and joining games ---------------------------------------------------------


def validate_time_control(time_control: dict | None) -> dict:
    """``{"kind": "none"}``, ``{"kind": "per_move", "days": 1|2|3|5|7|14}`` or
    ``{"kind": "bank", "bank_hours": 72, "increment_hours": 12, "cap_hours": 120}``."""
    control = dict(time_control or {"kind": "none"})
    kind = control.get("kind", "none")
    accepted = (
        'accepted: {"kind": "none"}, {"kind": "per_move", "days": 1, 2, 3, 5, 7 or 14}, or '
        '{"kind": "bank", "bank_hours": H, "increment_hours": H, "cap_hours": H}'
    )
    if kind == "none":
        return {"kind": "none"}
    if kind == "per_move":
        if control.get("days") not in TIME_CONTROL_DAYS:
            raise BadRequest(
                f"days per move must be one of {TIME_CONTROL_DAYS}; {accepted}",
                code="invalid_time_control",
            )
        return {"kind": "per_move", "days": control["days"]}
    if kind == "bank":
        try:
            bank, increment, cap = (
                int(control[name]) for name in ("bank_hours", "increment_hours", "cap_hours")
            )
        except (KeyError, TypeError, ValueError):
            raise BadRequest(
                f"a bank needs whole hours; {accepted}", code="invalid_time_control"
            ) from None
        if not (1 <= bank <= cap <= 24 * 60 and 0 <= increment <= cap):
            raise BadRequest(
                "a bank needs 1 <= bank_hours <= cap_hours <= 1440 and "
                "0 <= increment_hours <= cap_hours",
                code="invalid_time_control",
            )
        return {"kind": "bank", "bank_hours": bank, "increment_hours": increment, "cap_hours": cap}
    raise BadRequest(f"unknown time control {kind!r}; {accepted}", code="invalid_time_control")


REMINDER_HOURS = ("first_hours", "every_hours", "warning_hours")


def validate_reminders(reminders: dict | None) -> dict:
    """A game's reminder policy, kept in its time control: ``{"reminders": {"first_hours":
    24, "every_hours": 24, "warning_hours": 12}}``; a value left out is the site's default
    (``MAIL_REMINDER_*`` settings), nothing given is ``{}``."""
    if not reminders:
        return {}
    unknown = sorted(set(reminders) - set(REMINDER_HOURS))
    if unknown:
        raise BadRequest(
            f"unknown reminder setting(s) {unknown}; accepted: {', '.join(REMINDER_HOURS)}",
            code="invalid_reminders",
        )
    if not all(isinstance(value, int) and 1 <= value <= 24 * 14 for value in reminders.values()):
        raise BadRequest("reminder times are whole hours from 1 to 336", code="invalid_reminders")
    return {"reminders": dict(reminders)}


def validate_options(engine, options: dict | None) -> dict:
    """The engine's options with defaults filled in; unknown names or values refused."""
    options = dict(options or {})
    result = {}
    for name, allowed in engine.OPTIONS.items():
        value = options.pop(name, allowed[0])
        if value not in allowed:
            raise BadRequest(
                f"option {name} must be one of {list(allowed)}, not {value!r}",
                code="invalid_options",
            )
        result[name] = value
    if options:
        known = ", ".join(engine.OPTIONS) or "none"
        raise BadRequest(
            f"unknown option(s) {sorted(options)}; this game takes: {known}", code="invalid_options"
        )
    return result


@transaction.atomic
def game_create(
    *,
    creator,
    game: str,
    players: int,
    options: dict | None = None,
    time_control: dict | None = None,
    timeout_policy: str = Game.TimeoutPolicy.DEFAULT_MOVE,
    self_undo: bool = True,
    private: bool = False,
    invite: list[str] | tuple[str, ...] = (),
    reminders: dict | None = None,
) -> Game:
    """Open a table: the creator takes a seat, invited addresses get a seat each (and an
    invitation email with a signed link), the other seats stay open for anyone to join.
    ``reminders`` sets the game's reminder policy (``validate_reminders``)."""
    if game not in GAME_TYPES:
        raise BadRequest(
            f"unknown game {game!r}; accepted: {', '.join(GAME_TYPES)}", code="invalid_game"
        )
    engine = game_type(game).engine
    if not isinstance(players, int) or players not in engine.PLAYERS:
        raise BadRequest(
            f"players must be {min(engine.PLAYERS)} to {max(engine.PLAYERS)}, not {players!r}",
            code="invalid_players",
        )
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise BadRequest(
            f"timeout_policy must be one of {Game.TimeoutPolicy.values}",
            code="invalid_time_control",
        )
    emails = _invited_emails(invite, creator)
    if len(emails) > players - 1:
        raise BadRequest(
            f"{len(emails)} invitations for {players - 1} free seats", code="too_many_invitations"
        )
    new = Game.objects.create(
        game_type=game,
        options=validate_options(engine, options),
        players=players,
        time_control={**validate_time_control(time_control), **validate_reminders(reminders)},
        timeout_policy=timeout_policy,
        self_undo=bool(self_undo),
        private=bool(private),
        created_by=creator,
    )
    Seat.objects.create(game=new, user=creator, status=Seat.Status.JOINED, joined_at=new.created_at)
    for email in emails:
        seat = Seat.objects.create(game=new, invited_email=email, status=Seat.Status.INVITED)
        _outbox(new, 0, email, Outbox.Kind.INVITATION, token=invitation_token(seat))
    for _ in range(players - 1 - len(emails)):
        Seat.objects.create(game=new, status=Seat.Status.OPEN)
    return new


def _invited_emails(invite, creator) -> list[str]:
    emails = []
    for raw in invite or ():
        email = str(raw).strip().lower()
        try:
            validate_email(email)
        except ValidationError:
            raise BadRequest(
                f"{raw!r} is not an email address", code="invalid_invitation"
            ) from None
        if email == creator.email.lower():
            raise BadRequest("you already have a seat at your own table", code="invalid_invitation")
        if email in emails:
            raise BadRequest(f"{email} is invited twice", code="invalid_invitation")
        emails.append(email)
    return emails


def invitation_token(seat: Seat) -> str:
    """A signed token naming an invited seat (the link in the invitation email)."""
    return signing.dumps({"seat": seat.pk}, salt=INVITATION_SALT)


def invitation_seat(token: str) -> Seat:
    """The invited seat a token names; ``NotFound`` for a forged or stale token."""
    try:
        seat_id = signing.loads(token, salt=INVITATION_SALT, max_age=timedelta(days=60))["seat"]
        return Seat.objects.select_related("game").get(pk=seat_id)
    except (signing.BadSignature, KeyError, TypeError, Seat.DoesNotExist):
        raise NotFound("this invitation link is not valid (or has expired)") from None


def _locked(game: Game) -> Game:
    """The game row, locked until the transaction ends (one writer per game at a time)."""
    try:
        return Game.objects.select_for_update().get(pk=game.pk)
    except Game.DoesNotExist:
        raise NotFound(f"no game {game.pk}") from None


@transaction.atomic
def game_join(*, game: Game, user, token: str | None = None) -> Game:
    """Take a seat: the seat an invitation names (``token``), the seat invited under the
    user's address, or an open seat. The game starts when the last seat is taken."""
    game = _locked(game)
    if game.status != Game.Status.OPEN:
        raise Conflict("this game is no longer waiting for players", code="not_open")
    seats = list(game.seats.select_for_update())
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("you already have a seat in this game", code="already_seated")
    if token is not None:
        invited = invitation_seat(token)
        if invited.game_id != game.pk or invited.status != Seat.Status.INVITED:
            raise Conflict(
                "this invitation has already been used or withdrawn", code="invitation_used"
            )
        seat = next(s for s in seats if s.pk == invited.pk)
    else:
        seat = next(
            (
                s
                for s in seats
                if s.status == Seat.Status.INVITED and s.invited_email.lower() == user.email.lower()
            ),
            None,
        ) or next((s for s in seats if s.status == Seat.Status.OPEN), None)
    if seat is None:
        raise Conflict("every seat is taken or reserved for an invited player", code="no_seat")
    seat.user = user
    seat.status = Seat.Status.JOINED
    seat.joined_at = timezone.now()
    seat.save()
    if all(s.status == Seat.Status.JOINED for s in seats):
        _start(game, seats)
    return game


@transaction.atomic
def game_leave(*, game: Game, user) -> Game:
    """Give up a seat before the game starts (the creator cancels instead)."""
    game = _locked(game)
    if game.status != Game.Status.OPEN:
        raise Conflict("the game has started: resign instead", code="not_open")
    if game.created_by_id == user.pk:
        raise Conflict("you created this game: cancel it instead", code="creator_cannot_leave")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    seat.user, seat.status, seat.joined_at = None, Seat.Status.OPEN, None
    seat.save()
    return game


@transaction.atomic
def game_cancel(*, game: Game, user) -> Game:
    """The creator calls off a game that has not started."""
    game = _locked(game)
    if game.created_by_id != user.pk:
        raise Forbidden("only the player who created the game can cancel it", code="not_creator")
    if game.status != Game.Status.OPEN:
        raise Conflict("only a game waiting for players can be cancelled", code="not_open")
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    return game


def _start(game: Game, seats: list[Seat]) -> None:
    """Shuffle the seat order, record it with the engine's opening draw, and begin."""
    order = list(seats)
    random.SystemRandom().shuffle(order)
    for position, seat in enumerate(order):
        Seat.objects.filter(pk=seat.pk).update(position=position)
    engine = game_type(game.game_type).engine
    started = tbl.Started(
        game.game_type, game.options, tuple(actor_of(seat.user) for seat in order)
    )
    opening = engine.start(game.players, game.options, _rng(game))
    game.started_at = timezone.now()
    game.status = Game.Status.ACTIVE
    table = tbl.Table(engine=engine)
    _append(
        game,
        [_table_event(started), *map(_rules_event(engine), opening)],
        actor="system",
        table=table,
    )
    for seat in order:
        _outbox(game, game.last_seq, seat.user.email, Outbox.Kind.GAME_STARTED)
    _play_unchosen(game, table)
    _after_move(game, table, before=None)


# --- moves ----------------------------------------------------------------------------


@transaction.atomic
def move_submit(
    *,
    game: Game,
    user,
    move: str,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Play ``move`` (notation) for the user's seat. A retry carrying the same
    ``idempotency_key`` returns the first result and changes nothing."""
    game = _locked(game)
    if idempotency_key:
        earlier = store.appended_with(game.stream, idempotency_key)
        if earlier:
            return MoveResult(game, earlier, replayed=True)
    seat = _playing_seat(game, user)
    if expected_seq is not None and expected_seq != game.last_seq:
        raise Conflict(
            f"the game has moved on: it is at event {game.last_seq}, not {expected_seq}",
            code="stale",
            current_seq=game.last_seq,
        )
    table = game_table(game)
    if table.to_move() != seat.position:
        raise Forbidden("it is not your turn", code="not_your_turn", to_move=table.to_move())
    engine = table.engine
    try:
        command = engine.parse(move)
        events = play(game, table, command, actor=actor_of(user), idempotency_key=idempotency_key)
    except InvalidNotation as error:
        raise BadRequest(
            str(error),
            code="invalid_notation",
            expected=error.expected,
            legal_moves=legal_moves_of(table),
        ) from None
    except IllegalMove as error:
        raise BadRequest(
            f"illegal move: {error.reason}",
            code="illegal_move",
            reason=error.reason,
            legal_moves=legal_moves_of(table),
        ) from None
    return MoveResult(game, events)


def play(
    game: Game,
    table: tbl.Table,
    command: Any,
    *,
    actor: str,
    auto: str = "",
    reason: str = "",
    idempotency_key: str | None = None,
) -> list[StoredEvent]:
    """Decide ``command`` for the seat to move and append it, then the moves nobody has a
    choice about (a resigned seat's turns, a single legal move). For services only: the
    caller holds the game's lock. Raises ``IllegalMove``."""
    engine = table.engine
    seat = table.to_move()
    events = engine.decide(table.state, command, _rng(game))
    moved = tbl.Moved(seat, engine.format(command), engine.encode_command(command), auto)
    before = game.to_move
    written = _append(
        game,
        [_table_event(moved), *map(_rules_event(engine), events)],
        actor=actor,
        reason=reason,
        idempotency_key=idempotency_key,
        table=table,
    )
    written += _play_unchosen(game, table)
    _after_move(game, table, before)
    return written


def _play_unchosen(game: Game, table: tbl.Table) -> list[StoredEvent]:
    """Moves that need nobody: a resigned seat's turns (its default command) and a seat's
    only legal move (e.g. passing with nothing left to play)."""
    written: list[StoredEvent] = []
    while not table.over:
        seat = table.to_move()
        engine = table.engine
        legal = engine.legal_commands(table.state)
        if seat in table.resigned:
            command, auto = engine.default_command(table.state), tbl.AUTO_FOR_RESIGNED
        elif len(legal) == 1:
            command, auto = legal[0], "forced"
        else:
            break
        events = engine.decide(table.state, command, _rng(game))
        moved = tbl.Moved(seat, engine.format(command), engine.encode_command(command), auto)
        written += _append(
            game,
            [_table_event(moved), *map(_rules_event(engine), events)],
            actor="system",
            table=table,
        )
    return written


@transaction.atomic
def move_undo(*, game: Game, user) -> Game:
    """Take back your own last move while nobody else has acted and no draw lies after it."""
    game = _locked(game)
    seat = _playing_seat(game, user)
    if not game.self_undo:
        raise Forbidden(
            "this game does not allow undo: ask for a takeback", code="undo_not_allowed"
        )
    table = game_table(game)
    step = tbl.undoable_step(table, seat.position)
    if step is None:
        raise Conflict(
            "nothing to undo: your last move is followed by another player's move or by a "
            "draw of new tiles (ask the others for a takeback instead)",
            code="nothing_to_undo",
        )
    before = game.to_move
    _void(game, table, step.seq - 1, cause="undo", actor=actor_of(user))
    _after_move(game, table, before)
    return game


@transaction.atomic
def takeback_request(*, game: Game, user, to_seq: int) -> int:
    """Ask every other player to take the game back to the state after event ``to_seq``;
    returns the request's number (its seq)."""
    game = _locked(game)
    seat = _playing_seat(game, user)
    table = game_table(game)
    boundaries = table.boundaries()
    valid = isinstance(to_seq, int) and 0 < to_seq < game.last_seq
    if not valid or not tbl.is_takeback_point(table, game_table(game, upto=to_seq)):
        raise BadRequest(
            f"event {to_seq} is not the end of a move; a takeback can return to one of "
            f"{boundaries[-10:]}",
            code="invalid_takeback",
            accepted=boundaries,
        )
    if tbl.crosses_barrier(table, to_seq):
        raise Conflict(
            "new tiles were drawn after that point: no takeback crosses a draw",
            code="takeback_crosses_draw",
        )
    if table.takeback is not None:
        raise Conflict(
            "a takeback request is already open",
            code="takeback_open",
            request=table.takeback.request,
        )
    request = game.last_seq + 1
    _append(
        game,
        [_table_event(tbl.TakebackRequested(request, seat.position, to_seq))],
        actor=actor_of(user),
        table=table,
    )
    _project(game, table)
    for other in _joined_seats(game):
        if other.position != seat.position and other.position not in table.resigned:
            _outbox(
                game,
                request,
                other.user.email,
                Outbox.Kind.TAKEBACK_REQUEST,
                request=request,
                to_seq=to_seq,
            )
    return request


@transaction.atomic
def takeback_answer(*, game: Game, user, request: int, accept: bool) -> Game:
    """Accept or decline an open takeback; when every other player has accepted, the moves
    after its point are voided."""
    game = _locked(game)
    seat = _playing_seat(game, user)
    table = game_table(game)
    pending = table.takeback
    if pending is None or pending.request != request:
        raise NotFound(
            "no such open takeback request (it may have lapsed when someone moved)",
            code="no_takeback",
        )
    if seat.position == pending.seat:
        raise Forbidden("you asked for this takeback: the others answer it", code="own_request")
    answered = tbl.TakebackAnswered(request, seat.position, bool(accept))
    _append(game, [_table_event(answered)], actor=actor_of(user), table=table)
    others = {s for s in table.active_seats() if s != pending.seat}
    if accept and others <= pending.accepted:
        before = game.to_move
        _void(game, table, pending.to_seq, cause="takeback", actor="system")
        _after_move(game, table, before)
    else:
        _project(game, table)
    return game


@transaction.atomic
def game_resign(*, game: Game, user) -> Game:
    """Leave a game in play. With two players the other wins; with more, the resigned
    seat's turns are played for it (``table.AUTO_FOR_RESIGNED``) and it cannot win."""
    game = _locked(game)
    seat = _playing_seat(game, user)
    seat_resign(game, seat, actor=actor_of(user))
    return game


GRANTED_TIME = timedelta(days=1)


@transaction.atomic
def deadline_grant(*, game: Game, user) -> Game:
    """An opponent gives the seat to move one more day (issue 7: "+1 day"). Recorded as a
    table event of the game, like every change to a clock."""
    game = _locked(game)
    seat = _playing_seat(game, user)
    if game.deadline is None and (game.time_control or {}).get("kind", "none") == "none":
        raise Conflict("this game has no time control", code="no_deadline")
    if seat.position == game.to_move:
        raise Forbidden("only an opponent can give the player to move more time", code="own_turn")
    table = game_table(game)
    granted = tbl.Moderated(
        "grant_time",
        {"seat": game.to_move, "by": seat.position, "seconds": int(GRANTED_TIME.total_seconds())},
    )
    _append(game, [_table_event(granted)], actor=actor_of(user), table=table)
    game.save(update_fields=["last_seq"])
    clocks.extend(game, seconds=int(GRANTED_TIME.total_seconds()), now=timezone.now())
    return game


def seat_resign(game: Game, seat: Seat, *, actor: str, reason: str = "") -> None:
    """The seat resigns (a player's choice, or a forfeit on timeout). For services only:
    the caller holds the game's lock."""
    table = game_table(game)
    before = game.to_move
    _append(
        game, [_table_event(tbl.Resigned(seat.position))], actor=actor, reason=reason, table=table
    )
    Seat.objects.filter(pk=seat.pk).update(status=Seat.Status.RESIGNED)
    _play_unchosen(game, table)
    _after_move(game, table, before)


# --- helpers ------------------------------------------------------------------------------


def _playing_seat(game: Game, user) -> Seat:
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"this game is {game.get_status_display()}", code="not_active")
    seat = seat_of(game, user)
    if seat is None or seat.status != Seat.Status.JOINED:
        raise Forbidden("you are not playing in this game", code="not_a_player")
    if not user.is_active:
        raise Forbidden("your account is suspended", code="suspended")
    return seat


def _rng(game: Game) -> random.Random:
    """The draws of a game come from its secret and the point reached, never from a
    client; the outcome of every draw is recorded in the events."""
    return random.Random(f"{game.rng_secret}:{game.last_seq}")


def _table_event(event: Any) -> NewEvent:
    kind, data = tbl.encode_table(event)
    return NewEvent(kind, data)


def _rules_event(engine):
    def convert(event: Any) -> NewEvent:
        data = engine.encode(event)
        return NewEvent(data.pop("type"), data, data.pop("version"))

    return convert


def _append(
    game: Game,
    events: list[NewEvent],
    *,
    actor: str,
    reason: str = "",
    idempotency_key: str | None = None,
    table: tbl.Table | None = None,
) -> list[StoredEvent]:
    """Append to the game's stream after ``game.last_seq`` and fold into ``table``."""
    try:
        written = store.append(
            game.stream,
            game.last_seq,
            events,
            actor=actor,
            reason=reason,
            idempotency_key=idempotency_key,
        )
    except ConcurrencyConflict as conflict:
        raise Conflict(str(conflict), code="stale", current_seq=conflict.current_seq) from None
    game.last_seq = written[-1].seq
    if table is not None:
        for event in written:
            tbl.apply(
                table, tbl.Record(event.seq, event.type, event.version, event.data, event.actor)
            )
    return written


def _void(
    game: Game, table: tbl.Table, back_to: int, *, cause: str, actor: str, reason: str = ""
) -> None:
    """Void every step after ``back_to`` and cancel the emails they queued."""
    _append(
        game,
        [_table_event(tbl.MovesVoided(back_to, cause))],
        actor=actor,
        reason=reason,
        table=table,
    )
    Outbox.objects.filter(
        game=game, seq__gt=back_to, sent_at__isnull=True, kind=Outbox.Kind.YOUR_TURN
    ).update(cancelled_at=timezone.now())


def _after_move(game: Game, table: tbl.Table, before: int | None) -> None:
    """Update the read model and queue the emails a move causes."""
    was_active = game.status == Game.Status.ACTIVE
    game.last_move_at = timezone.now()
    _project(game, table, now=game.last_move_at)
    seats = _joined_seats(game)
    if was_active and game.status == Game.Status.FINISHED:
        for seat in seats:
            _outbox(game, game.last_seq, seat.user.email, Outbox.Kind.GAME_OVER)
        return
    if game.to_move is not None and game.to_move != before:
        seat = next((s for s in seats if s.position == game.to_move), None)
        if seat is not None:
            grace = timedelta(seconds=settings.YOUR_TURN_GRACE_SECONDS)
            _outbox(
                game,
                game.last_seq,
                seat.user.email,
                Outbox.Kind.YOUR_TURN,
                due_at=timezone.now() + grace,
                seat=seat.position,
            )


def _project(game: Game, table: tbl.Table, *, now=None) -> None:
    """The read model from the table, in the transaction of the append."""
    now = now or timezone.now()
    previous = game.to_move
    game.to_move = table.to_move()
    game.scores = list(table.scores())
    game.winners = list(table.winners())
    if table.over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        game.finished_at = now
    clocks.turn_changed(game, previous=previous, now=now, moved=clocks.ends_with_move(table))
    game.save()


def _joined_seats(game: Game) -> list[Seat]:
    return list(
        game.seats.select_related("user").filter(position__isnull=False, user__isnull=False)
    )


def _outbox(game: Game, seq: int, recipient: str, kind: str, *, due_at=None, **payload) -> None:
    """Queue an email once per (game, seq, recipient, kind), sent after commit."""
    outbox.queue(game, seq, recipient, kind, due_at=due_at, **payload)


def seat_seen(*, game: Game, user) -> None:
    """Note that the player has the game's page open now: a "your turn" email is not sent
    to someone who was just looking (issue 7)."""
    seat = seat_of(game, user)
    if seat is not None:
        SeatClock.objects.update_or_create(seat=seat, defaults={"last_seen_at": timezone.now()})


@transaction.atomic
def game_reproject(*, game: Game) -> bool:
    """Rebuild the game's read model from its events; whether it had drifted."""
    game = _locked(game)
    table = game_table(game)
    before = (game.status, game.last_seq, game.to_move, game.scores, game.winners)
    game.last_seq = table.last_seq
    if table.started and game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        game.status = Game.Status.ACTIVE
    _project(game, table, now=game.last_move_at)
    return before != (game.status, game.last_seq, game.to_move, game.scores, game.winners)


# --- moderation ---------------------------------------------------------------------------
# Every act of a moderator is an event of the game, with the moderator as actor and the
# reason given: nobody changes a game silently (issue 8).

MODERATORS_GROUP = "moderators"


def is_moderator(user) -> bool:
    """Staff in the ``moderators`` group (being staff or superuser alone is not enough)."""
    return bool(
        getattr(user, "is_active", False)
        and user.is_staff
        and user.groups.filter(name=MODERATORS_GROUP).exists()
    )


def _check_moderator(moderator, reason: str) -> None:
    if not is_moderator(moderator):
        raise Forbidden("only moderators may do this", code="not_a_moderator")
    if not (reason or "").strip():
        raise BadRequest(
            "say why: every moderation act is recorded with its reason", code="reason_required"
        )


def _moderating(game: Game, moderator, reason: str) -> tuple[Game, tbl.Table, str]:
    _check_moderator(moderator, reason)
    game = _locked(game)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"this game is {game.get_status_display()}", code="not_active")
    return game, game_table(game), f"moderator:{moderator.pk}"


def _record_moderation(game, table, actor, reason, action: str, **details) -> None:
    _append(
        game,
        [_table_event(tbl.Moderated(action, details))],
        actor=actor,
        reason=reason.strip(),
        table=table,
    )


@transaction.atomic
def moderate_pause(*, game: Game, moderator, reason: str) -> Game:
    """Stop the game's clocks (the deadline waits while paused)."""
    game, table, actor = _moderating(game, moderator, reason)
    if game.paused_at is not None:
        raise Conflict("the clocks are already paused", code="already_paused")
    _record_moderation(game, table, actor, reason, "pause")
    game.paused_at = timezone.now()
    _project(game, table)
    return game


@transaction.atomic
def moderate_resume(*, game: Game, moderator, reason: str) -> Game:
    """Restart the clocks; the deadline moves on by the time they were stopped."""
    game, table, actor = _moderating(game, moderator, reason)
    if game.paused_at is None:
        raise Conflict("the clocks are not paused", code="not_paused")
    now = timezone.now()
    paused = now - game.paused_at
    _record_moderation(
        game, table, actor, reason, "resume", paused_seconds=int(paused.total_seconds())
    )
    if game.deadline is not None:
        game.deadline += paused
    game.paused_at = None
    _project(game, table, now=now)
    return game


@transaction.atomic
def moderate_extend_deadline(*, game: Game, moderator, reason: str, hours: int) -> Game:
    """Give the seat to move more time."""
    if not isinstance(hours, int) or not 1 <= hours <= 24 * 30:
        raise BadRequest("extend by 1 to 720 hours", code="invalid_hours")
    game, table, actor = _moderating(game, moderator, reason)
    if game.deadline is None:
        raise Conflict("this game has no deadline to extend", code="no_deadline")
    _record_moderation(game, table, actor, reason, "extend_deadline", hours=hours)
    game.deadline += timedelta(hours=hours)
    _project(game, table)
    return game


@transaction.atomic
def moderate_default_move(*, game: Game, moderator, reason: str) -> Game:
    """The seat to move plays its default command (the engine's least wasteful move)."""
    game, table, actor = _moderating(game, moderator, reason)
    command = table.engine.default_command(table.state)
    play(game, table, command, actor=actor, auto="moderator", reason=reason.strip())
    return game


@transaction.atomic
def moderate_replace_seat(*, game: Game, moderator, reason: str, seat: int, user) -> Game:
    """Someone else takes over a seat (e.g. for a player who vanished)."""
    game, table, actor = _moderating(game, moderator, reason)
    seats = {s.position: s for s in _joined_seats(game)}
    if seat not in seats:
        raise BadRequest(f"no seat {seat}; seats are {sorted(seats)}", code="invalid_seat")
    if any(s.user_id == user.pk for s in seats.values()):
        raise Conflict(f"{user.email} already has a seat in this game", code="already_seated")
    replaced = seats[seat]
    _record_moderation(
        game,
        table,
        actor,
        reason,
        "replace_seat",
        seat=seat,
        to=actor_of(user),
        **{"from": actor_of(replaced.user)},
    )
    replaced.user = user
    replaced.save(update_fields=["user"])
    _project(game, table)
    return game


@transaction.atomic
def moderate_revert(*, game: Game, moderator, reason: str, to_seq: int) -> Game:
    """Take the game back to the position after event ``to_seq``. Moderators may cross
    draws; the next draw is then a fresh one."""
    game, table, actor = _moderating(game, moderator, reason)
    valid = isinstance(to_seq, int) and 0 < to_seq < game.last_seq
    if not valid or not tbl.is_takeback_point(table, game_table(game, upto=to_seq)):
        raise BadRequest(
            f"event {to_seq} is not the end of a move that still counts; choose one of "
            f"{table.boundaries()[-10:]}",
            code="invalid_revert",
            accepted=table.boundaries(),
        )
    before = game.to_move
    _void(game, table, to_seq, cause="revert", actor=actor, reason=reason.strip())
    _after_move(game, table, before)
    return game


@transaction.atomic
def moderate_abort(*, game: Game, moderator, reason: str) -> Game:
    """End the game with no result."""
    game, table, actor = _moderating(game, moderator, reason)
    _record_moderation(game, table, actor, reason, "abort")
    _project(game, table)
    return game


@transaction.atomic
def moderate_hide_message(*, message: ChatMessage, moderator, reason: str) -> ChatMessage:
    """Hide a chat message from everyone; the hiding is an event of its game."""
    _check_moderator(moderator, reason)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is not None:
        raise Conflict("this message is already hidden", code="already_hidden")
    game = _locked(message.game)
    table = game_table(game)
    _record_moderation(
        game, table, f"moderator:{moderator.pk}", reason, "hide_message", message=message.pk
    )
    message.hidden_at = timezone.now()
    message.hidden_reason = reason.strip()
    message.save(update_fields=["hidden_at", "hidden_reason"])
    _project(game, table)
    return message


@transaction.atomic
def user_suspend(*, user, moderator, reason: str) -> None:
    """The user can no longer sign in or move; their clocks keep running."""
    _moderate_user(user, moderator, reason, suspend=True)


@transaction.atomic
def user_reinstate(*, user, moderator, reason: str) -> None:
    """Lift a suspension."""
    _moderate_user(user, moderator, reason, suspend=False)


def _moderate_user(user, moderator, reason: str, *, suspend: bool) -> None:
    _check_moderator(moderator, reason)
    if user.pk == moderator.pk:
        raise BadRequest("you cannot suspend yourself", code="invalid_user")
    player, _ = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    player.suspended_at = timezone.now() if suspend else None
    player.suspended_reason = reason.strip() if suspend else ""
    player.save(update_fields=["suspended_at", "suspended_reason"])
    user.is_active = not suspend
    user.save(update_fields=["is_active"])


@transaction.atomic
def report_create(*, game: Game, reporter, reason: str, message: ChatMessage | None = None):
    """A player reports a game or one of its chat messages to the moderators."""
    if not (reason or "").strip():
        raise BadRequest("say what is wrong", code="reason_required")
    if seat_of(game, reporter) is None and not can_view(game, reporter):
        raise Forbidden("you can only report games you can see", code="not_visible")
    if message is not None and message.game_id != game.pk:
        raise BadRequest("that message is not in this game", code="invalid_message")
    return Report.objects.create(
        game=game, message=message, reporter=reporter, reason=reason.strip()[:2000]
    )


@transaction.atomic
def report_close(*, report: Report, moderator, status: str) -> Report:
    """Mark a report handled or dismissed."""
    if not is_moderator(moderator):
        raise Forbidden("only moderators may do this", code="not_a_moderator")
    if status not in (Report.Status.HANDLED, Report.Status.DISMISSED):
        raise BadRequest("a report is closed as handled or dismissed", code="invalid_status")
    report.status, report.handled_by, report.handled_at = status, moderator, timezone.now()
    report.save(update_fields=["status", "handled_by", "handled_at"])
    return report


# --- the website: signing in by email, the game's chat -------------------------------------

SIGN_IN_SALT = "azulsite.sign-in"
SIGN_IN_MAX_AGE = timedelta(minutes=30)
CHAT_MAX_LENGTH = 1000


def sign_in_token(*, email: str) -> str:
    """A signed, time-limited token for the sign-in link sent to ``email``. It names the
    address and the account's last sign-in, so it stops working once used."""
    email = email.strip().lower()
    user = User.objects.filter(username=email).first()
    return signing.dumps({"email": email, "last": _last_login(user)}, salt=SIGN_IN_SALT)


def _last_login(user) -> str:
    return user.last_login.isoformat() if user is not None and user.last_login else ""


@transaction.atomic
def account_sign_in(*, token: str):
    """The account a sign-in link opens. Ruling (issue 6): an address with no account gets
    one here, when its owner follows the link, since the link proves the address is theirs;
    asking for a link creates nothing. Raises ``BadRequest`` for a forged, expired or used
    link."""
    try:
        data = signing.loads(token, salt=SIGN_IN_SALT, max_age=SIGN_IN_MAX_AGE)
        email, last = str(data["email"]), str(data["last"])
    except signing.SignatureExpired:
        raise BadRequest(
            "this sign-in link has expired (links last 30 minutes): ask for a new one",
            code="link_expired",
        ) from None
    except (signing.BadSignature, KeyError, TypeError):
        raise BadRequest(
            "this sign-in link is not valid: ask for a new one", code="link_invalid"
        ) from None
    user, _ = User.objects.select_for_update().get_or_create(
        username=email, defaults={"email": email}
    )
    if _last_login(user) != last:
        raise BadRequest(
            "this sign-in link has already been used: ask for a new one", code="link_used"
        )
    if not user.is_active:
        raise Forbidden("this account is disabled", code="account_disabled")
    return user


@transaction.atomic
def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """A player writes in the game's chat (players only; at most ``CHAT_MAX_LENGTH``
    characters)."""
    text = (text or "").strip()
    seat = seat_of(game, user)
    if seat is None or seat.status not in (Seat.Status.JOINED, Seat.Status.RESIGNED):
        raise Forbidden("only the game's players write in its chat", code="not_a_player")
    if not text:
        raise BadRequest("the message is empty", code="empty_message")
    if len(text) > CHAT_MAX_LENGTH:
        raise BadRequest(
            f"a message holds at most {CHAT_MAX_LENGTH} characters, this one has {len(text)}",
            code="message_too_long",
        )
    return ChatMessage.objects.create(game=game, author=user, text=text)
