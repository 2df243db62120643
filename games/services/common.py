"""The write path every service shares: lock the game row, append to its stream, fold
the table, play the moves nobody chooses, project the read model and queue the emails.
For services only: every function here runs inside the caller's transaction."""

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from events import store
from events.store import ConcurrencyConflict, NewEvent, StoredEvent
from games import table as tbl
from games.errors import Conflict, Forbidden, NotFound
from games.mail import outbox
from games.models import Game, Outbox, Seat
from games.selectors import seat_of
from games.services import clocks
from games.services.ratings import ratings_game_finished


def actor_of(user) -> str:
    return f"user:{user.pk}"


def locked_game(game: Game) -> Game:
    """The game row, locked until the transaction ends (one writer per game at a time)."""
    try:
        return Game.objects.select_for_update().get(pk=game.pk)
    except Game.DoesNotExist:
        raise NotFound(f"no game {game.pk}") from None


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
    events = engine.decide(table.state, command, game_rng(game))
    moved = tbl.Moved(seat, engine.format(command), engine.encode_command(command), auto)
    before = game.to_move
    written = append_events(
        game,
        [table_event(moved), *map(rules_event(engine), events)],
        actor=actor,
        reason=reason,
        idempotency_key=idempotency_key,
        table=table,
    )
    written += play_unchosen(game, table)
    after_move(game, table, before)
    return written


def play_unchosen(game: Game, table: tbl.Table) -> list[StoredEvent]:
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
        events = engine.decide(table.state, command, game_rng(game))
        moved = tbl.Moved(seat, engine.format(command), engine.encode_command(command), auto)
        written += append_events(
            game,
            [table_event(moved), *map(rules_event(engine), events)],
            actor="system",
            table=table,
        )
    return written


# --- helpers ------------------------------------------------------------------------------


def playing_seat(game: Game, user) -> Seat:
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"this game is {game.get_status_display()}", code="not_active")
    seat = seat_of(game, user)
    if seat is None or seat.status != Seat.Status.JOINED:
        raise Forbidden("you are not playing in this game", code="not_a_player")
    if not user.is_active:
        raise Forbidden("your account is suspended", code="suspended")
    return seat


def game_rng(game: Game) -> random.Random:
    """The draws of a game come from its secret and the point reached, never from a
    client; the outcome of every draw is recorded in the events."""
    return random.Random(f"{game.rng_secret}:{game.last_seq}")


def table_event(event: Any) -> NewEvent:
    kind, data = tbl.encode_table(event)
    return NewEvent(kind, data)


def rules_event(engine):
    def convert(event: Any) -> NewEvent:
        data = engine.encode(event)
        return NewEvent(data.pop("type"), data, data.pop("version"))

    return convert


def append_events(
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


def void_moves(
    game: Game, table: tbl.Table, back_to: int, *, cause: str, actor: str, reason: str = ""
) -> None:
    """Void every step after ``back_to`` and cancel the emails they queued."""
    append_events(
        game,
        [table_event(tbl.MovesVoided(back_to, cause))],
        actor=actor,
        reason=reason,
        table=table,
    )
    Outbox.objects.filter(
        game=game, seq__gt=back_to, sent_at__isnull=True, kind=Outbox.Kind.YOUR_TURN
    ).update(cancelled_at=timezone.now())


def after_move(game: Game, table: tbl.Table, before: int | None) -> None:
    """Update the read model and queue the emails a move causes."""
    was_active = game.status == Game.Status.ACTIVE
    game.last_move_at = timezone.now()
    project(game, table, now=game.last_move_at)
    seats = joined_seats(game)
    if was_active and game.status == Game.Status.FINISHED:
        for seat in seats:
            queue_email(game, game.last_seq, seat.user.email, Outbox.Kind.GAME_OVER)
        return
    if game.to_move is not None and game.to_move != before:
        seat = next((s for s in seats if s.position == game.to_move), None)
        if seat is not None:
            grace = timedelta(seconds=settings.YOUR_TURN_GRACE_SECONDS)
            queue_email(
                game,
                game.last_seq,
                seat.user.email,
                Outbox.Kind.YOUR_TURN,
                due_at=timezone.now() + grace,
                seat=seat.position,
            )


def project(game: Game, table: tbl.Table, *, now=None) -> None:
    """The read model from the table, in the transaction of the append."""
    now = now or timezone.now()
    previous = game.to_move
    game.to_move = table.to_move()
    game.scores = list(table.scores())
    game.winners = list(table.winners())
    if table.over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.ABORTED if table.aborted else Game.Status.FINISHED
        game.finished_at = now
        ratings_game_finished(game, table=table)
    clocks.turn_changed(game, previous=previous, now=now, moved=clocks.ends_with_move(table))
    game.save()


def joined_seats(game: Game) -> list[Seat]:
    return list(
        game.seats.select_related("user").filter(position__isnull=False, user__isnull=False)
    )


def queue_email(game: Game, seq: int, recipient: str, kind: str, *, due_at=None, **payload) -> None:
    """Queue an email once per (game, seq, recipient, kind), sent after commit."""
    outbox.queue(game, seq, recipient, kind, due_at=due_at, **payload)
