"""Reads: a game's table at any point, lists of games, what a seat or a visitor may see.
Nothing here writes."""

import threading
from collections import OrderedDict
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet

from events import store
from events.store import StoredEvent
from games import table as tbl
from games.errors import Forbidden, NotFound
from games.models import Game, InboundMessage, Outbox, ProcessBeat, Seat
from games.registry import game_type


def game_get(game_id) -> Game:
    """The game with that id; ``NotFound`` otherwise."""
    try:
        return Game.objects.get(pk=int(game_id))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"no game {game_id}") from None


def records(game: Game, upto: int | None = None) -> list[tbl.Record]:
    return [as_record(event) for event in store.load(game.stream, upto=upto)]


def as_record(event: StoredEvent) -> tbl.Record:
    return tbl.Record(event.seq, event.type, event.version, event.data, event.actor)


# Tables folded up to some event, per process: a stream only ever grows, so a cached table
# needs just the events appended since. This keeps a move's cost flat however long the
# game has run. Keyed by the game's secret too, so a reused id never meets a stale table.
_TABLES: OrderedDict[tuple[int, str], tbl.Table] = OrderedDict()
_TABLES_LOCK = threading.Lock()
TABLES_KEPT = 512


def game_table(game: Game, upto: int | None = None) -> tbl.Table:
    """The table after event ``upto`` (default: the latest), folded from the stream."""
    if upto is not None:
        return tbl.fold(game_type(game.game_type).engine, records(game, upto))
    key = (game.pk, game.rng_secret)
    with _TABLES_LOCK:
        cached = _TABLES.get(key)
    if cached is None:
        table = tbl.fold(game_type(game.game_type).engine, records(game))
    else:
        table = cached.fork()
        for event in store.load(game.stream, after=cached.last_seq):
            tbl.apply(table, as_record(event))
    if connection.in_atomic_block:
        # The caller may append to this table and then roll back: remember it only once
        # everything it holds is committed.
        transaction.on_commit(lambda: _remember(key, table))
    else:
        _remember(key, table)
    return table


def _remember(key: tuple[int, str], table: tbl.Table) -> None:
    kept = table.fork()
    with _TABLES_LOCK:
        cached = _TABLES.get(key)
        if cached is None or cached.last_seq < kept.last_seq:
            _TABLES[key] = kept
        _TABLES.move_to_end(key)
        while len(_TABLES) > TABLES_KEPT:
            _TABLES.popitem(last=False)


def seat_of(game: Game, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).first()


def can_view(game: Game, user) -> bool:
    """Players see their games; anyone sees a finished game unless it is private; staff
    see everything."""
    if getattr(user, "is_staff", False) or seat_of(game, user) is not None:
        return True
    return game.status in (Game.Status.FINISHED, Game.Status.ABORTED) and not game.private


def can_read_chat(game: Game, user, *, moderator: bool) -> bool:
    """A game's chat is for its players (seated, resigned included) and the moderators
    (``moderator``: ``services.is_moderator(user)``, which the caller knows): not other
    staff, not visitors, even of a finished public game (``docs/service.md``, "Who reads
    the chat")."""
    if not getattr(user, "is_authenticated", False):
        return False
    seat = seat_of(game, user)
    return moderator or (
        seat is not None and seat.status in (Seat.Status.JOINED, Seat.Status.RESIGNED)
    )


def game_for_viewer(game_id, user) -> Game:
    """The game if ``user`` may see it: ``NotFound`` or ``Forbidden`` otherwise."""
    game = game_get(game_id)
    if not can_view(game, user):
        if game.status == Game.Status.OPEN:
            return game
        raise Forbidden(
            "this game is visible to its players only while it is in play", code="not_visible"
        )
    return game


def _waiting(user) -> Q:
    return Q(
        status=Game.Status.ACTIVE,
        seats__user=user,
        seats__status=Seat.Status.JOINED,
        seats__position=F("to_move"),
    )


def games_for_user(user, which: str | None = None) -> QuerySet[Game]:
    """The user's games: ``waiting`` (their turn), ``active``, ``finished`` or all."""
    games = Game.objects.filter(seats__user=user)
    match which:
        case "waiting":
            games = Game.objects.filter(_waiting(user))
        case "active":
            games = games.filter(status__in=[Game.Status.ACTIVE, Game.Status.OPEN])
        case "finished":
            games = games.filter(
                status__in=[Game.Status.FINISHED, Game.Status.ABORTED, Game.Status.CANCELLED]
            )
    return games.distinct().order_by("-last_move_at", "-created_at")


def waiting_for(user) -> QuerySet[Game]:
    """Active games whose seat to move is the user's, longest waiting first."""
    return Game.objects.filter(_waiting(user)).distinct().order_by("last_move_at")


def open_games(user=None) -> QuerySet[Game]:
    """Games waiting for players with a seat open to anyone."""
    games = Game.objects.filter(status=Game.Status.OPEN, seats__status=Seat.Status.OPEN)
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games.distinct().order_by("-created_at")


def legal_moves_of(table: tbl.Table) -> list[dict]:
    """Every legal move for the seat to move: its notation and structured form."""
    if table.to_move() is None:
        return []
    engine = table.engine
    return [
        {"move": engine.format(command), "command": engine.encode_command(command)}
        for command in engine.legal_commands(table.state)
    ]


def public_event(event: StoredEvent) -> dict:
    """An event as anyone allowed to see the game may read it. Events hold facts already
    visible at the table (tiles drawn onto factories are seen by all); the RNG secret lives
    only on the game row and never appears here."""
    return {
        "seq": event.seq,
        "type": event.type,
        "version": event.version,
        "data": event.data,
        "actor": event.actor,
        "reason": event.reason,
        "recorded_at": event.recorded_at.isoformat(),
    }


def players_of(game: Game) -> list[dict]:
    """Seats in play order with who sits there (names, never email addresses)."""
    seats = game.seats.select_related("user").order_by("position", "pk")
    return [
        {
            "seat": seat.position,
            "player": display_name(seat.user) if seat.user else None,
            "status": seat.status,
        }
        for seat in seats
    ]


def display_name(user) -> str:
    return user.first_name or user.email.split("@")[0]


EXPORT_FORMAT = "azulsite-game-record"


def export_record(game: Game) -> list[dict]:
    """The game record: a header (game, options, seats, status, result) and every event's
    public form, in order. ``manage.py verify_game`` replays it through the rules."""
    header = {
        "format": EXPORT_FORMAT,
        "format_version": 1,
        "id": game.pk,
        "game": game.game_type,
        "options": game.options,
        "players": game.players,
        "seats": players_of(game),
        "status": game.status,
        "scores": game.scores,
        "winners": game.winners,
    }
    return [header, *(public_event(event) for event in store.load(game.stream))]


def events_after(game: Game, after: int = 0) -> list[dict]:
    """The public form of the game's events after seq ``after``, in order."""
    return [public_event(event) for event in store.load(game.stream, after=after)]


def move_events(game: Game, batch: list[StoredEvent]) -> list[StoredEvent]:
    """Everything one move appended: its own ``batch`` and the moves nobody chose that the
    service played right after it (forced moves, a resigned seat's turns). An idempotent
    retry is answered with these, exactly as the first request was."""
    written = list(batch)
    for event in store.load(game.stream, after=batch[-1].seq):
        unchosen = (
            event.type == tbl.TABLE_PREFIX + tbl.Moved.__name__
            and event.actor == "system"
            and event.data.get("auto") in tbl.UNCHOSEN
        )
        if event.type.startswith(tbl.TABLE_PREFIX) and not unchosen:
            break
        written.append(event)
    return written


def move_history(game: Game) -> list[dict]:
    """The game's history as the move list shows it: the start and every move (``end`` is
    the seq after its last event, for ``game_table(upto=end)``), moves later voided marked
    ``voided``, and notes for undos, takebacks, resignations and moderators' acts (who,
    when, why: the event's actor and reason)."""
    events = store.load(game.stream)
    names = _actor_names({event.actor for event in events})
    entries: list[dict] = []
    current: dict | None = None
    for event in events:
        if not event.type.startswith(tbl.TABLE_PREFIX):
            if current is not None:
                current["end"] = event.seq
            continue
        kind = event.type[len(tbl.TABLE_PREFIX) :]
        data = event.data
        base = {
            "seq": event.seq,
            "end": event.seq,
            "actor": names.get(event.actor, event.actor),
            "reason": event.reason,
            "at": event.recorded_at,
        }
        current = None
        match kind:
            case "Started":
                current = {**base, "kind": "start", "text": "the game begins", "voided": False}
                entries.append(current)
            case "Moved":
                current = {
                    **base,
                    "kind": "move",
                    "seat": data["seat"],
                    "text": data["move"],
                    "auto": data.get("auto", ""),
                    "voided": False,
                }
                entries.append(current)
            case "MovesVoided":
                for entry in entries:
                    if entry["kind"] == "move" and entry["seq"] > data["back_to"]:
                        entry["voided"] = True
                text = f"{data['cause']}: the moves after event {data['back_to']} are taken back"
                entries.append({**base, "kind": "note", "text": text})
            case "TakebackRequested":
                text = f"seat {data['seat'] + 1} asks to take back to event {data['to_seq']}"
                entries.append({**base, "kind": "note", "text": text})
            case "TakebackAnswered":
                answer = "accepts" if data["accepted"] else "declines"
                text = f"seat {data['seat'] + 1} {answer} the takeback"
                entries.append({**base, "kind": "note", "text": text})
            case "Resigned":
                entries.append({**base, "kind": "note", "text": f"seat {data['seat'] + 1} resigns"})
            case _:
                details = ", ".join(f"{k}: {v}" for k, v in data.get("details", {}).items())
                text = f"{data.get('action', kind)}" + (f" ({details})" if details else "")
                entries.append({**base, "kind": "note", "text": text})
    return entries


def _actor_names(actors: set[str]) -> dict[str, str]:
    """Display names of who acted: players (``user:<id>``), moderators (``moderator:<id>``)
    and the site itself."""
    ids = {}
    for actor in actors:
        kind, _, number = actor.partition(":")
        if kind in ("user", "moderator") and number.isdigit():
            ids[actor] = int(number)
    users = {user.pk: user for user in get_user_model().objects.filter(pk__in=ids.values())}
    names = {"system": "the site"}
    for actor, number in ids.items():
        if number in users:
            name = display_name(users[number])
            names[actor] = f"{name} (moderator)" if actor.startswith("moderator:") else name
    return names


def invitations_for(user) -> QuerySet[Game]:
    """Games waiting for players with a seat invited under the user's address."""
    return (
        Game.objects.filter(
            status=Game.Status.OPEN,
            seats__status=Seat.Status.INVITED,
            seats__invited_email__iexact=user.email,
        )
        .distinct()
        .order_by("-created_at")
    )


# Past this, the page marks the worker or the sweep as late: both run every minute.
PROCESS_LATE = timedelta(minutes=5)
BOT_ACTOR_PREFIX = "bot:"


def operator_status(now) -> dict:
    """What an operator checks first: the outbox backlog and the emails in doubt, when the
    sweep and the worker last ran, games waiting on a bot, and the errors of the last day."""
    pending = Outbox.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    day_ago = now - timedelta(days=1)
    oldest_due = pending.filter(due_at__lte=now).order_by("due_at").values_list("due_at", flat=True)
    beats = {beat.name: beat for beat in ProcessBeat.objects.all()}
    return {
        "backlog": pending.filter(due_at__lte=now).count(),
        "scheduled": pending.filter(due_at__gt=now).count(),
        "oldest_due": oldest_due.first(),
        "in_doubt": emails_in_doubt().count(),
        "sweep": beats.get("sweep"),
        "heartbeat": beats.get("heartbeat"),
        "late": {
            name: name not in beats or beats[name].at < now - PROCESS_LATE
            for name in ("sweep", "heartbeat")
        },
        "waiting_on_bots": games_waiting_on_bots().count(),
        "errors": {
            "failing": pending.exclude(last_error="").count(),
            "given_up": Outbox.objects.filter(cancelled_at__gte=day_ago)
            .exclude(last_error="")
            .count(),
            "replies_refused": InboundMessage.objects.filter(
                received_at__gte=day_ago, outcome__startswith="refused"
            ).count(),
            "replies_ignored": InboundMessage.objects.filter(
                received_at__gte=day_ago, outcome__startswith="ignored"
            ).count(),
        },
    }


def emails_in_doubt() -> QuerySet[Outbox]:
    """Emails a worker claimed and never marked sent (they may have gone out)."""
    return Outbox.objects.filter(last_error__startswith="in doubt")


def games_waiting_on_bots() -> QuerySet[Game]:
    """Games in play whose seat to move is played by a bot (an account named ``bot:…``)."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__position=F("to_move"),
        seats__user__username__startswith=BOT_ACTOR_PREFIX,
    )
