"""Moves, undo, takebacks, resignation and a player's "+1 day": what a seated player
does to a game in play. Each asks the table (``games.table.decide``) through ``act``."""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from events import store
from events.store import StoredEvent
from games import table as tbl
from games.errors import BadRequest, Conflict, Forbidden, ServiceError
from games.models import Game, Seat
from games.refusals import illegal_move_text, invalid_notation_text, plain_params, rules_error_text
from games.registry import game_type
from games.repository import game_table
from games.rules.common import IllegalMove, InvalidNotation
from games.selectors.moves import legal_moves_of
from games.selectors.names import bot_actor
from games.services.common import (
    KeyUsed,
    act,
    actor_of,
    locked_game,
    playing_seat,
    position_seen,
)


@dataclass(frozen=True)
class MoveResult:
    """What a move appended (with the moves nobody chose that followed it), and where the
    game stands after it; ``replayed``: a retry answered as the first time."""

    game: Game
    events: list[StoredEvent]
    replayed: bool = False


@transaction.atomic
def move_submit(
    *,
    game: Game | int,
    user,
    move: str,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
    looking: bool = True,
) -> MoveResult:
    """Play ``move`` (notation) for the user's seat in ``game`` (or the game of that id).
    A retry carrying the same ``idempotency_key`` (keys belong to one player) returns the
    first result and changes nothing; a key used for another move, or for a move since
    taken back, is refused. ``looking``: whether the player sees the result where they
    moved (a page, the API); one who moved by an emailed reply is told like the others."""
    game = locked_game(game)
    key = f"{actor_of(user)}:{idempotency_key}" if idempotency_key else None
    locked_at = game.last_seq
    try:
        written = _move(game, user, move, expected_seq, key, looking)
    except (ServiceError, KeyUsed):
        # The key is checked once, by the append itself; a retry is mostly refused before
        # it gets there (the game has moved on since its first answer), so look it up
        # then, unless this call appended something (which the transaction now undoes).
        if not key or game.last_seq != locked_at:
            raise
        namespace = game_type(game.game_type).namespace
        if earlier := store.appended_with(game.stream, key, legacy_namespace=namespace):
            return _answered_before(game, user, move, earlier)
        raise
    return MoveResult(game, written)


def _move(
    game: Game, user, move: str, expected_seq: int | None, key: str | None, looking: bool
) -> list[StoredEvent]:
    """The move itself, in the locked game: the seat's checks, the table's decision and
    the append; what was written."""
    seat = playing_seat(game, user)
    position_seen(game, expected_seq)
    table = game_table(game)
    if table.to_move() != seat.position:
        raise Forbidden(_("it is not your turn"), code="not_your_turn", to_move=table.to_move())
    try:
        command = table.engine.parse(move)
        _after, written = act(
            game,
            tbl.Play(seat.position, command),
            actor=actor_of(user),
            idempotency_key=key,
            table=table,
            looking=looking,
        )
    except InvalidNotation as error:
        raise BadRequest(
            invalid_notation_text(error, game.game_type),
            code="invalid_notation",
            expected=rules_error_text(error, game.game_type),
            engine_code=error.code,
            engine_params=plain_params(error.params),
            legal_moves=legal_moves_of(table),
        ) from None
    except IllegalMove as error:
        raise BadRequest(
            illegal_move_text(error, game.game_type),
            code="illegal_move",
            reason=rules_error_text(error, game.game_type),
            engine_code=error.code,
            engine_params=plain_params(error.params),
            legal_moves=legal_moves_of(table),
        ) from None
    return written


def _answered_before(game: Game, user, move: str, earlier: list[StoredEvent]) -> MoveResult:
    """The answer to a retried Idempotency-Key: the same move, if it still counts, with the
    moves nobody chose that the service played right after it."""
    table = game_table(game)
    try:
        notation = table.engine.format(table.engine.parse(move))
    except InvalidNotation:
        notation = move
    first = earlier[0]
    if first.actor != actor_of(user) or first.data.get("move") != notation:
        raise Conflict(
            # Translators: %(move)s is a move in the notation (never translated).
            _(
                "this Idempotency-Key was used for another move (%(move)s): send a new move "
                "with a fresh key"
            )
            % {"move": first.data.get("move")},
            code="idempotency_key_reused",
        )
    if table.step_at(first.seq) is None:
        raise Conflict(
            _("this move was played and has since been taken back: look at the game again"),
            code="move_taken_back",
        )
    end = earlier[-1].seq
    for step in table.steps:
        if step.seq > earlier[-1].seq:
            if step.auto not in tbl.UNCHOSEN or step.seq != end + 1:
                break
            end = step.last
    followed = store.load(game.stream, after=earlier[-1].seq, upto=end) if end > first.seq else []
    return MoveResult(game, [*earlier, *followed], replayed=True)


@transaction.atomic
def move_undo(*, game: Game, user) -> Game:
    """Take back your own last move while nobody else has acted and no draw lies after it."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    if not game.self_undo:
        raise Forbidden(
            _("this game does not allow undo: ask for a takeback"), code="undo_not_allowed"
        )
    act(game, tbl.Undo(seat.position), actor=actor_of(user))
    return game


@transaction.atomic
def takeback_request(*, game: Game, user, to_seq: int) -> int:
    """Ask every other player to take the game back to the position after event
    ``to_seq`` (the end of an earlier move); computer players accept at once. Returns the
    request's number."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    if not isinstance(to_seq, int):
        raise BadRequest(_("say which move to go back to"), code="invalid_takeback")
    table, _written = act(game, tbl.RequestTakeback(seat.position, to_seq), actor=actor_of(user))
    request = table.takeback.request
    for computer in game.seats.all():
        if table.takeback is None:
            break
        if computer.bot and not computer.user_id and computer.position not in table.resigned:
            # Ruling (issue 15): a computer player accepts every takeback at once (games
            # with one are never rated, and whoever plays it may want to try again).
            answer = tbl.AnswerTakeback(computer.position, request, True)
            table, _answered = act(game, answer, actor=bot_actor(computer.bot), table=table)
    return request


@transaction.atomic
def takeback_answer(*, game: Game, user, request: int, accept: bool) -> Game:
    """Accept or decline an open takeback; when every other player has accepted, the moves
    after its point are voided."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    act(game, tbl.AnswerTakeback(seat.position, request, bool(accept)), actor=actor_of(user))
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
    """An opponent gives the seat to move one more day (issue 7: "+1 day"), recorded as an
    event of the game like every change to a clock."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    seconds = int(GRANTED_TIME.total_seconds())
    act(game, tbl.GrantTime(seat.position, seconds), actor=actor_of(user))
    return game


def seat_resign(game: Game, seat: Seat, *, actor: str, reason: str = "", at=None) -> None:
    """The seat resigns (a player's choice, or a forfeit on timeout at ``at``). For
    services only: the caller holds the game's lock."""
    act(game, tbl.Resign(seat.position), actor=actor, reason=reason, at=at)
