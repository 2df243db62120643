"""The write path every service shares: lock the game row, let the table decide, append its
events to the stream, fold them, play the moves nobody chooses, then hand the change to
the reactions (``reactions.py``: read model, ratings, notices…). For services only: every
function here runs inside the caller's transaction, with the game row locked."""

import hashlib
import logging
import random
import time
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from azulsite import metrics
from azulsite.celery import send_quickly
from events import store
from events.store import ConcurrencyConflict, NewEvent, StoredEvent
from games import bots
from games import table as tbl
from games import table_storage as storage
from games.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from games.models import Game, Seat
from games.prepared import Prepared, writes_together
from games.repository import game_table, seated, table_remember, table_snapshot_write
from games.selectors.access import seat_of
from games.selectors.names import bot_actor
from games.services import sweep_failures
from games.services.reactions import Change, react
from games.sweeping import out_of_time
from games.table_events import MovesVoided

log = logging.getLogger(__name__)

# Ruling (issue 15): a resigned seat in a game of three or four is played by the easy
# computer player. Easy thinks for milliseconds (one ply), so it plays inside the move's
# transaction like the default command did: the others never wait for a worker, and a
# retried move is still answered with the moves played after it.
RESIGNED_SEAT_LEVEL = bots.EASY

# What a refused table command tells the player: the kind of error and the sentence (said
# in the reader's language when it is raised).
REFUSALS: dict[str, tuple[type[ServiceError], Promise]] = {
    "already_started": (Conflict, gettext_lazy("this game has already started")),
    "not_in_play": (Conflict, gettext_lazy("this game is not in play")),
    "not_your_turn": (Forbidden, gettext_lazy("it is not your turn")),
    "nothing_to_undo": (
        Conflict,
        gettext_lazy(
            "nothing to undo: your last move is followed by another player's move or by a "
            "draw of new tiles (ask the others for a takeback instead)"
        ),
    ),
    "invalid_takeback": (
        BadRequest,
        gettext_lazy(
            "that point is not the end of a move that can still be taken back: choose one "
            "from the move list"
        ),
    ),
    "takeback_crosses_draw": (
        Conflict,
        gettext_lazy("new tiles were drawn after that point: no takeback crosses a draw"),
    ),
    "takeback_open": (Conflict, gettext_lazy("a takeback request is already open")),
    "no_takeback": (
        NotFound,
        gettext_lazy("no such open takeback request (it may have lapsed when someone moved)"),
    ),
    "own_request": (Forbidden, gettext_lazy("you asked for this takeback: the others answer it")),
    "already_resigned": (Conflict, gettext_lazy("you have already resigned")),
    "invalid_revert": (
        BadRequest,
        gettext_lazy(
            "that point is not the end of a move that still counts: choose one from the move list"
        ),
    ),
    "invalid_seat": (BadRequest, gettext_lazy("there is no such seat in this game")),
    "already_seated": (Conflict, gettext_lazy("that player already has a seat in this game")),
    "already_paused": (Conflict, gettext_lazy("the clocks are already paused")),
    "not_paused": (Conflict, gettext_lazy("the clocks are not paused")),
    "no_deadline": (Conflict, gettext_lazy("this game has no time control")),
    "own_turn": (
        Forbidden,
        gettext_lazy("only an opponent can give the player to move more time"),
    ),
}


USER_ACTOR_PREFIX = "user:"


def actor_of(user) -> str:
    return f"{USER_ACTOR_PREFIX}{user.pk}"


def locked_game(game: Game | int) -> Game:
    """The game row (of that id), locked until the transaction ends (one writer per game
    at a time), read with its seats, their players and clocks in the same statement;
    ``game.seats.all()`` then answers from them."""
    game_id = game.pk if isinstance(game, Game) else game
    seats = _LOCKED_SEATS(game_id)
    if not seats:
        raise NotFound(_("there is no game %(number)s") % {"number": game_id})
    return seated(seats)


_LOCKED_SEATS = Prepared(
    lambda game_id: (
        Seat.objects.select_related("game", "user", "clock")
        .select_for_update(of=("game",))
        .filter(game_id=game_id)
        .order_by("position", "pk")
    )
)


def act(
    game: Game,
    command: Any,
    *,
    actor: str,
    reason: str = "",
    idempotency_key: str | None = None,
    table: tbl.Table | None = None,
    at: datetime | None = None,
    by: int | None = None,
    looking: bool = True,
    plays_on: bool = False,
) -> tuple[tbl.Table, list[StoredEvent]]:
    """Decide a table command, append what it causes, then the moves nobody has a choice
    about (a resigned seat's turns, a single legal move), and run the reactions over the
    change (``reactions.REACTIONS``: the read model, ratings, notices…). Returns the table
    after it all and what was appended. ``at``: when it happened, for the sweep's acts (a
    deadline or a vacation that ran out); ``by``: the id of the person whose act it is,
    where ``actor`` does not name them (a start caused by the last player to join);
    ``looking``: whether that person sees the result where they acted (a page, the API:
    they are not told of it), not so for an emailed reply; ``plays_on``: the computer
    player's task that acts goes on playing the computers to move (``bots.bot_move``).
    Raises the service error of a refusal; an engine's ``IllegalMove`` passes through."""
    before = table or game_table(game)
    try:
        events, state = tbl.decide_and_evolve(before, command, game_rng(game))
    except tbl.Refused as refused:
        kind, message = REFUSALS[refused.code]
        raise kind(str(message), code=refused.code, **refused.params) from None
    if not events:
        return before, []
    # One instant for the act: its events' time and the one its reactions stamp on the rows
    # (the last move, the end), so that a rebuild from the events finds the same.
    at = at or timezone.now()
    if by is None and actor.startswith(USER_ACTOR_PREFIX):
        by = int(actor.removeprefix(USER_ACTOR_PREFIX))
    if not looking:
        by = None
    table, records, written = append(
        game,
        before,
        events,
        actor=actor,
        reason=reason,
        idempotency_key=idempotency_key,
        at=at,
        state=state,
    )
    if isinstance(command, tbl.Play):
        metrics.move_played(game.game_type)
    voided = next((e.back_to for e in events if isinstance(e, MovesVoided)), None)
    while (unchosen := tbl.unchosen_move(table)) is not None:
        actor = "system"
        if unchosen.auto == tbl.AUTO_FOR_RESIGNED:
            unchosen, actor = _for_resigned(game, table, unchosen), bot_actor(RESIGNED_SEAT_LEVEL)
        events, state = tbl.decide_and_evolve(table, unchosen, game_rng(game))
        table, more_records, more = append(game, table, events, actor=actor, at=at, state=state)
        records += more_records
        written += more
    change = Change(
        game,
        before,
        table,
        tuple(records),
        by,
        at,
        voided=voided,
        computers_played_on=plays_on,
        reason=reason,
    )
    with writes_together():
        react(change)
    every = settings.TABLE_SNAPSHOT_EVERY
    if table.last_seq // every > before.last_seq // every:
        table_snapshot_write(game, table)
    table_remember(game, table)
    return table, written


class KeyUsed(Exception):
    """The append's idempotency key was used before: it wrote nothing (the store checks
    the key in the INSERT itself and gives back what the first append wrote)."""


def _for_resigned(game: Game, table: tbl.Table, play: tbl.Play) -> tbl.Play:
    """A resigned seat's turn as the computer player plays it (``RESIGNED_SEAT_LEVEL``)."""
    command = bots.choose(
        table.engine,
        table.state,
        play.seat,
        RESIGNED_SEAT_LEVEL,
        seed=bot_seed(game, table.last_seq),
    )
    return tbl.Play(play.seat, command, play.auto)


def bot_seed(game: Game, seq: int) -> int:
    """A bot's own seed for the position after ``seq``: from the game's id and the point
    reached, never from its secret (the bot's randomness tells nothing of the draws)."""
    digest = hashlib.sha256(f"bot:{game.pk}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def append(
    game: Game,
    table: tbl.Table,
    events: list,
    *,
    actor: str,
    reason: str = "",
    idempotency_key: str | None = None,
    at: datetime | None = None,
    state: Any = None,
) -> tuple[tbl.Table, list[tbl.Record], list[StoredEvent]]:
    """Append ``events`` after ``game.last_seq`` and fold them into ``table`` (``state``:
    the rules state after the last, when ``decide_and_evolve`` gave it); the table after
    them, the events as it read them, and as stored."""
    new = []
    for event in events:
        kind, version, data = storage.encode(table, event)
        new.append(NewEvent(kind, data, version))
    try:
        written = store.append(
            game.stream,
            game.last_seq,
            new,
            actor=actor,
            reason=reason,
            idempotency_key=idempotency_key,
            recorded_at=at,
        )
    except ConcurrencyConflict as conflict:
        raise Conflict(
            _("someone else acted in this game at the same moment: reload and try again"),
            code="stale",
            current_seq=conflict.current_seq,
        ) from None
    if written[0].seq != game.last_seq + 1:
        raise KeyUsed
    game.last_seq = written[-1].seq
    last = len(events) - 1
    records = []
    for index, (event, stored) in enumerate(zip(events, written, strict=True)):
        record = tbl.Record(stored.seq, event, stored.actor, stored.recorded_at)
        table = tbl.evolve(table, record, state=state if index == last else None)
        records.append(record)
    return table, records, written


def playing_seat(game: Game, user) -> Seat:
    if game.status != Game.Status.ACTIVE:
        # Translators: %(status)s is a game's status, e.g. "finished".
        raise Conflict(
            _("this game is %(status)s") % {"status": game.get_status_display()},
            code="not_active",
        )
    seat = seat_of(game, user)
    if seat is None or seat.status != Seat.Status.JOINED:
        raise Forbidden(_("you are not playing in this game"), code="not_a_player")
    if not user.is_active:
        raise Forbidden(_("your account is suspended"), code="suspended")
    return seat


# The task that takes the games a sweep job had no time for (``games_swept``'s
# ``hand_out``): ``games.tasks.SWEPT_BY_WORKERS`` names what it does to each, by job.
HANDED_OUT_TASK = "games.tasks.games_handed_out"


def games_swept(game_ids, sweep_one, *, now: datetime, job: str, hand_out: bool = True) -> int:
    """The minute sweep's pass of ``job`` over ``game_ids``: ``sweep_one(game_id=…,
    now=now)`` for each (a transaction of its own), the counts it returns added up. A game
    whose part fails is logged, rolled back alone and set to rest before ``job`` tries it
    again (``sweep_failures``): the other games still get theirs.

    With ``hand_out`` (``job`` is then a name in ``games.tasks.SWEPT_BY_WORKERS``), the
    games left once the sweep's time is used (``games.sweeping``) are handed to the workers,
    ``SWEEP_HAND_OUT`` a task (``HANDED_OUT_TASK``), and counted as done: the sweep's time
    no longer grows with what is due (issue 44). A game handed out twice (the next pass
    found it before a worker did) is done once: ``sweep_one`` locks the game and looks
    again. What the broker does not take is done here."""
    done = 0
    began = time.monotonic()
    ids = list(game_ids)
    failed = sweep_failures.failing(job, "game")
    for index, game_id in enumerate(ids):
        if hand_out and out_of_time(began):
            return done + _handed_out(ids[index:], sweep_one, now=now, job=job)
        do = partial(_one_game, sweep_one, now=now)
        done += sweep_failures.apart(game_id, do, job=job, kind="game", now=now, failed=failed)
    return done


def _one_game(sweep_one, game_id: int, *, now: datetime) -> int:
    return sweep_one(game_id=game_id, now=now)


def _handed_out(ids: list[int], sweep_one, *, now: datetime, job: str) -> int:
    size = settings.SWEEP_HAND_OUT
    done = 0
    for start in range(0, len(ids), size):
        part = ids[start : start + size]
        if send_quickly(HANDED_OUT_TASK, [job, part, now.isoformat()]):
            done += len(part)
        else:
            log.warning("broker unreachable: the sweep does the %s of %s games", job, len(part))
            done += games_swept(part, sweep_one, now=now, job=job, hand_out=False)
    return done


def position_seen(game: Game, expected_seq: int | None) -> None:
    """Refuse an act on a position that has changed since the player saw it at
    ``expected_seq`` (``None``: they did not say)."""
    if expected_seq is not None and expected_seq != game.last_seq:
        raise Conflict(
            _("the game has moved on since you looked: reload it and choose again"),
            code="stale",
            current_seq=game.last_seq,
        )


def game_rng(game: Game) -> random.Random:
    """The draws of a game come from its secret and the point reached, never from a
    client; the outcome of every draw is recorded in the events."""
    return random.Random(f"{game.rng_secret}:{game.last_seq}")
