"""Moves, undo, takebacks, resignation and a player's "+1 day": what a seated player
does to a game in play."""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from events import store
from events.store import StoredEvent
from games import table as tbl
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Outbox, Seat
from games.rules.common import IllegalMove, InvalidNotation
from games.selectors import game_table, legal_moves_of
from games.services import clocks
from games.services.common import (
    actor_of,
    after_move,
    append_events,
    joined_seats,
    locked_game,
    play,
    play_unchosen,
    playing_seat,
    project,
    queue_email,
    table_event,
    void_moves,
)


@dataclass(frozen=True)
class MoveResult:
    """What a move appended, and where the game stands after it."""

    game: Game
    events: list[StoredEvent]
    replayed: bool = False


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
    game = locked_game(game)
    if idempotency_key:
        earlier = store.appended_with(game.stream, idempotency_key)
        if earlier:
            return MoveResult(game, earlier, replayed=True)
    seat = playing_seat(game, user)
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


@transaction.atomic
def move_undo(*, game: Game, user) -> Game:
    """Take back your own last move while nobody else has acted and no draw lies after it."""
    game = locked_game(game)
    seat = playing_seat(game, user)
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
    void_moves(game, table, step.seq - 1, cause="undo", actor=actor_of(user))
    after_move(game, table, before)
    return game


@transaction.atomic
def takeback_request(*, game: Game, user, to_seq: int) -> int:
    """Ask every other player to take the game back to the state after event ``to_seq``;
    returns the request's number (its seq)."""
    game = locked_game(game)
    seat = playing_seat(game, user)
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
    append_events(
        game,
        [table_event(tbl.TakebackRequested(request, seat.position, to_seq))],
        actor=actor_of(user),
        table=table,
    )
    project(game, table)
    for other in joined_seats(game):
        if other.position != seat.position and other.position not in table.resigned:
            queue_email(
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
    game = locked_game(game)
    seat = playing_seat(game, user)
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
    append_events(game, [table_event(answered)], actor=actor_of(user), table=table)
    others = {s for s in table.active_seats() if s != pending.seat}
    if accept and others <= pending.accepted:
        before = game.to_move
        void_moves(game, table, pending.to_seq, cause="takeback", actor="system")
        after_move(game, table, before)
    else:
        project(game, table)
    return game


@transaction.atomic
def game_resign(*, game: Game, user) -> Game:
    """Leave a game in play. With two players the other wins; with more, the resigned
    seat's turns are played for it (``table.AUTO_FOR_RESIGNED``) and it cannot win."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    seat_resign(game, seat, actor=actor_of(user))
    return game


GRANTED_TIME = timedelta(days=1)


@transaction.atomic
def deadline_grant(*, game: Game, user) -> Game:
    """An opponent gives the seat to move one more day (issue 7: "+1 day"). Recorded as a
    table event of the game, like every change to a clock."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    if game.deadline is None and (game.time_control or {}).get("kind", "none") == "none":
        raise Conflict("this game has no time control", code="no_deadline")
    if seat.position == game.to_move:
        raise Forbidden("only an opponent can give the player to move more time", code="own_turn")
    table = game_table(game)
    granted = tbl.Moderated(
        "grant_time",
        {"seat": game.to_move, "by": seat.position, "seconds": int(GRANTED_TIME.total_seconds())},
    )
    append_events(game, [table_event(granted)], actor=actor_of(user), table=table)
    game.save(update_fields=["last_seq"])
    clocks.extend(game, seconds=int(GRANTED_TIME.total_seconds()), now=timezone.now())
    return game


def seat_resign(game: Game, seat: Seat, *, actor: str, reason: str = "") -> None:
    """The seat resigns (a player's choice, or a forfeit on timeout). For services only:
    the caller holds the game's lock."""
    table = game_table(game)
    before = game.to_move
    append_events(
        game, [table_event(tbl.Resigned(seat.position))], actor=actor, reason=reason, table=table
    )
    Seat.objects.filter(pk=seat.pk).update(status=Seat.Status.RESIGNED)
    play_unchosen(game, table)
    after_move(game, table, before)
