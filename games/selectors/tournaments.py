"""Reads: what a seat or a visitor may see and do, lists of games, the move list, exports.
Games and their folded tables are loaded by ``games.repository``. Nothing here writes."""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache, partial
from types import ModuleType
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext, ngettext

from events.models import Event
from events.store import StoredEvent, load
from games import table as tbl
from games import table_storage as storage
from games.bots.accuracy import CLEARLY_WORSE, DUBIOUS, game_accuracy, stretch_of
from games.clock import TimeLeft
from games.errors import NotFound
from games.models import (
    GAME_STREAM,
    Analysis,
    BotLevel,
    Game,
    InboundMessage,
    Outbox,
    Plan,
    PlayerSettings,
    ProcessBeat,
    Rating,
    Seat,
    Tournament,
    TournamentSnapshot,
)
from games.repository import (
    empty_table,
    game_table,
    game_with_seats,
    no_such_game,
    row_table,
    stored_events,
)
from games.seat_actions import SeatActions, seat_actions
from games.tournaments import core as tournaments
from games.tournaments import storage as tournament_storage
from games.tournaments.standings import tie_break_names


def hours_of_player(user) -> dict:
    """The playing hours a player takes a seat with unless they choose others, as the
    forms' initial ``hours_start`` and ``hours_end``."""
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings()
    return {"hours_start": prefs.hours_start, "hours_end": prefs.hours_end}


def seat_of(game: Game, user) -> Seat | None:
    """The user's seat at the game (from the seats already read, when they were)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def actions_of(game: Game, table: tbl.Table, seat: Seat | None) -> SeatActions:
    """What the player in ``seat`` may do now (``seat_actions``): the one answer the
    game page and the API's "you" block both give."""
    playing = (
        seat is not None
        and seat.status == Seat.Status.JOINED
        and game.status == Game.Status.ACTIVE
        and seat.position is not None
    )
    return seat_actions(
        table,
        seat.position if playing else None,
        self_undo=game.self_undo,
    )


def bot_seat_to_move(game: Game) -> Seat | None:
    """The bot seat to move in a game in play (from the seats already read, if they were)."""
    if game.status != Game.Status.ACTIVE or game.to_move is None:
        return None
    return next(
        (s for s in game.seats.all() if s.position == game.to_move and s.bot and not s.user_id),
        None,
    )


def can_view(game: Game, user) -> bool:
    """A public game is seen by anyone, signed in or not, whatever its state: waiting for
    players, in play (spectators watch it as a seat that is not theirs sees it: the engine's
    public view, no chat), over. A private game is seen, from its creation on, by its players
    and the players invited to it alone, and by the moderators (other staff are players like
    any other)."""
    if not game.private:
        return True
    if seat_of(game, user) is not None or is_moderator(user):
        return True
    return invited_seat(game, user) is not None


def invited_seat(game: Game, user) -> Seat | None:
    """The seat still kept for ``user``'s address at the game (from the seats already
    read, when they were)."""
    email = (getattr(user, "email", "") or "").lower() if user.is_authenticated else ""
    if not email:
        return None
    return next(
        (
            seat
            for seat in game.seats.all()
            if seat.status == Seat.Status.INVITED and seat.invited_email.lower() == email
        ),
        None,
    )


def can_read_chat(game: Game, user) -> bool:
    """A game's chat is for its players (seated, resigned included) and the moderators:
    not other staff, not visitors, even of a finished public game (``docs/service.md``,
    "Who reads the chat")."""
    if not getattr(user, "is_authenticated", False):
        return False
    seat = seat_of(game, user)
    if seat is not None and seat.status in (Seat.Status.JOINED, Seat.Status.RESIGNED):
        return True
    return is_moderator(user)


MODERATORS_GROUP = "moderators"


def is_moderator(user) -> bool:
    """Staff in the ``moderators`` group (being staff or superuser alone is not enough)."""
    return bool(
        getattr(user, "is_active", False)
        and user.is_staff
        and user.groups.filter(name=MODERATORS_GROUP).exists()
    )


def game_for_viewer(game_id, user) -> Game:
    """The game if ``user`` may see it; ``NotFound`` otherwise (``not_visible``)."""
    game = game_with_seats(game_id)
    if can_view(game, user):
        return game
    raise not_visible(game)


def not_visible(game: Game) -> NotFound:
    """The refusal of a private game to someone who may not see it: word for word the
    answer about a game that does not exist, so that nobody learns that it does."""
    return no_such_game(game.pk)


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
    """Public games waiting for players with a seat open to anyone (a private game's seats
    are for the players invited to it: ``invitations_for``)."""
    games = Game.objects.filter(
        status=Game.Status.OPEN, private=False, seats__status=Seat.Status.OPEN
    )
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games.distinct().order_by("-created_at")


# The lobby lists at most this many games in play to watch.
GAMES_TO_WATCH = 20


# The store's newest events read to find the games moved last: on a busy site, a few
# hundred games.
NEWEST_EVENTS = 1000


def games_to_watch(user=None) -> QuerySet[Game]:
    """Public games in play that ``user`` does not play in, the latest move first: what a
    spectator may watch (``can_view``)."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, private=False)
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games.order_by(F("last_move_at").desc(nulls_last=True), "-started_at", "-pk")


def games_to_watch_first(user=None, count: int = GAMES_TO_WATCH) -> list[Game]:
    """The first ``count`` of ``games_to_watch``, for the lobby and home.

    The game row keeps no index on its last move (``Game.Meta``), so sorting every game in
    play reads all of them (``docs/scale.md``). The games moved last are the streams of the
    store's newest events (its primary key read backwards): they are sorted instead, and
    the answer is the same whenever the last game kept moved no earlier than the oldest of
    those events, as every game left out moved before it (events are numbered in the order
    they are written; a tie to the microsecond, as the timeouts of one sweep have, may put
    one game for another). When it is not (a quiet site), every game in play is sorted."""
    games = games_to_watch(user)
    newest = list(
        Event.objects.order_by("-pk").values_list("stream", "recorded_at")[:NEWEST_EVENTS]
    )
    ids = {
        int(number)
        for stream, _ in newest
        if stream.startswith(GAME_STREAM) and (number := stream.removeprefix(GAME_STREAM)).isdigit()
    }
    first = list(games.filter(pk__in=ids)[:count])
    oldest = newest[-1][1] if newest else None
    if len(first) == count and first[-1].last_move_at and first[-1].last_move_at >= oldest:
        return first
    return list(games[:count])


@dataclass(frozen=True)
class Departure:
    """A seat that left a game: it resigned, or forfeited when its time ran out."""

    seat: int
    timed_out: bool


def departures(games) -> dict[int, list[Departure]]:
    """Who left each of ``games`` (by game id), in order: the seats of their
    ``table.Resigned`` events, a forfeit on timeout told apart by its reason
    (``table.TIME_RAN_OUT``). One query for all of them."""
    by_stream = {game.stream: game.pk for game in games}
    found: dict[int, list[Departure]] = {pk: [] for pk in by_stream.values()}
    rows = (
        Event.objects.filter(stream__in=by_stream, type=f"{tbl.TABLE}.{tbl.Resigned.__name__}")
        .order_by("stream", "seq")
        .values_list("stream", "data", "reason")
    )
    for stream, data, reason in rows:
        found[by_stream[stream]].append(Departure(data["seat"], reason == tbl.TIME_RAN_OUT))
    return found


def resigning_aborts(game: Game) -> bool:
    """Whether a resignation now would abort the game: a player has not yet made a move of
    their own (``table.Table.yet_to_move``, issue 29)."""
    return bool(game_table(game).yet_to_move())


def legal_moves_of(table: tbl.Table) -> list[dict]:
    """Every legal move for the seat to move: its notation and structured form."""
    if table.to_move() is None:
        return []
    engine = table.engine
    return [
        {"move": move, "command": encoded}
        for move, encoded in map(partial(_said, engine), engine.legal_commands(table.state))
    ]


def legal_moves_etag(game: Game, table: tbl.Table, listed_for: int | None) -> str:
    """The ``ETag`` of a ``legal-moves/`` answer: the game's table at its last event, and
    the seat whose moves it lists (``None``: an empty list), so it changes whenever the
    answer may. The game's secret is in the digest, never readable from it, so a game
    of the same id in a database restored from an older backup never matches; the
    rules' code version too, since the notation may change with it."""
    said = f"{game.rng_secret}:{table.last_seq}:{listed_for}:{storage.code_version(table.engine)}"
    return '"' + hashlib.sha256(said.encode()).hexdigest()[:24] + '"'


@lru_cache(maxsize=50_000)
def _said(engine: ModuleType, command: Any) -> tuple[str, Any]:
    """A command in notation and structured. Commands are values, and a game offers the
    same ones over and over (a poll of legal-moves lists them all): each is said once per
    process. The structured form is shared between answers, so it must never change."""
    return engine.format(command), engine.encode_command(command)


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
    """Seats in play order with who sits there (names, never email addresses); a seat
    kept for an invited player names them in ``invited`` (their name on the site, or the
    first part of the address until they have one)."""
    seats = list(game.seats.select_related("user").order_by("position", "pk"))
    emails = [seat.invited_email for seat in seats if seat.status == Seat.Status.INVITED]
    known = (
        {
            user.email.lower(): display_name(user)
            for user in get_user_model().objects.filter(email__in=emails)
        }
        if emails
        else {}
    )
    computers = computer_numbers([seat.bot if not seat.user else "" for seat in seats])
    forgotten = forgotten_numbers([seat.user for seat in seats])
    return [
        {
            "seat": seat.position,
            "player": (
                (
                    deleted_name(forgotten.get(index))
                    if is_forgotten(seat.user)
                    else display_name(seat.user)
                )
                if seat.user
                else bot_name(seat.bot, number=computers.get(index))
            ),
            "bot": seat.bot or None,
            "deleted": bool(seat.user and is_forgotten(seat.user)),
            "status": seat.status,
            "invited": (
                known.get(seat.invited_email.lower(), seat.invited_email.split("@")[0])
                if seat.status == Seat.Status.INVITED
                else None
            ),
        }
        for index, seat in enumerate(seats)
    ]


def seat_clocks(game: Game) -> dict[int, int]:
    """The time banked on each seated player's clock (seconds), by seat: what a seat has
    left while its clock is not running."""
    return dict(
        game.seats.filter(position__isnull=False, clock__isnull=False).values_list(
            "position", "clock__bank_seconds"
        )
    )


def time_left(game: Game, now: datetime) -> TimeLeft | None:
    """The time left to the seat to move of a game in play, from the table at the row's
    last event (``Clock.time_left``); ``None`` for a game not in play or without a clock."""
    if game.status != Game.Status.ACTIVE:
        return None
    return row_table(game).clock.time_left(now)


FORGOTTEN_PREFIX = "deleted-"


def forgotten_username(user_id: int) -> str:
    """The username an account keeps once its person is forgotten (issue 45): no ``@``,
    so no address can ever sign in as it."""
    return f"{FORGOTTEN_PREFIX}{user_id}"


def is_forgotten(user) -> bool:
    return user.username == forgotten_username(user.pk)


def display_name(user) -> str:
    if is_forgotten(user):
        return deleted_name()
    return user.first_name or user.email.split("@")[0]


def deleted_name(number: int | None = None) -> str:
    """A forgotten player's name: "Deleted player", or with its ``number`` at a table
    where several were forgotten (``forgotten_numbers``), "Deleted player 2"."""
    if number is None:
        return gettext("Deleted player")
    # Translators: one of several players of a game whose accounts were closed and data
    # erased, told apart by number.
    return gettext("Deleted player %(number)s") % {"number": number}


def forgotten_numbers(users: list) -> dict[int, int]:
    """The number each forgotten player of a game goes by, by index in ``users`` (the
    seats in play order, ``None`` for a computer or an empty seat): counted from 1 in seat
    order, and only where there are several, so that a game's players stay distinct."""
    forgotten = [index for index, user in enumerate(users) if user and is_forgotten(user)]
    if len(forgotten) < 2:
        return {}
    return {index: number for number, index in enumerate(forgotten, start=1)}


BOT_ACTOR_PREFIX = "bot:"


def bot_actor(level: str) -> str:
    """How the event store and ``table.Started.players`` name a computer player."""
    return f"{BOT_ACTOR_PREFIX}{level}"


def computer_numbers(levels: list[str]) -> dict[int, int]:
    """The number each computer player of a game goes by, by index in ``levels`` (the
    seats in play order, a computer's level or '' for a person). Ruling: computers are
    told apart by number, counted from 1 in seat order over every computer at the table
    whatever its level ("Computer 1 (medium)", "Computer 2 (hard)"), and only in a game
    with more than one; a lone computer keeps its plain name, "Computer (medium)"."""
    computers = [index for index, level in enumerate(levels) if level in BotLevel.values]
    if len(computers) < 2:
        return {}
    return {index: number for number, index in enumerate(computers, start=1)}


def bot_name(level: str, *, number: int | None = None) -> str | None:
    """A computer player's name for people, "Computer (hard)", or with its ``number`` at
    a table of several (``computer_numbers``), "Computer 2 (hard)"; ``None`` for no
    level."""
    if level not in BotLevel.values:
        return None
    if number is not None:
        # Translators: one of several computer players at a table, told apart by number;
        # %(level)s is easy, medium or hard.
        return gettext("Computer %(number)s (%(level)s)") % {
            "number": number,
            "level": BotLevel(level).label,
        }
    return gettext("Computer (%(level)s)") % {"level": BotLevel(level).label}


PLAN_ACTOR_PREFIX = "plan:"


def plan_actor(user) -> str:
    """How the event store names a move played from its player's plan (conditional moves,
    issue 32): ``plan:<user id>``."""
    return f"{PLAN_ACTOR_PREFIX}{user.pk}"


def plan_answering(game: Game, seat: int) -> bool:
    """Whether the plan of ``seat`` owes the answer to the move just played (its task is
    queued: conditional moves, issue 32), so that its player's turn is not theirs to play
    by hand: the page says the plan is answering until the answer lands."""
    return game.planned and Plan.objects.filter(game=game, seat=seat, due_at__isnull=False).exists()


def plan_of(game: Game, user) -> Plan | None:
    """The user's plan for their seat at the game (conditional moves): theirs alone to
    read."""
    seat = seat_of(game, user)
    if seat is None or seat.position is None:
        return None
    return Plan.objects.filter(game=game, seat=seat.position, user=user).first()


def actor_name(actor: str) -> str:
    """A seat's actor for people: "Computer (easy)" for "bot:easy", else as stored."""
    if actor.startswith(BOT_ACTOR_PREFIX):
        return bot_name(actor.removeprefix(BOT_ACTOR_PREFIX)) or actor
    return actor


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
    # Up to the row's last event: the header and the events speak of one position.
    events = stored_events(game, upto=game.last_seq)
    return [header, *(public_event(event) for event in events)]


def events_after(game: Game, after: int = 0) -> list[dict]:
    """The public form of the game's events after seq ``after`` up to the game row's last
    one (what the row read says of the game holds for them too), in order."""
    return [public_event(event) for event in stored_events(game, after=after, upto=game.last_seq)]


def move_history(game: Game, *, upto: int | None = None) -> list[dict]:
    """The game's history up to event ``upto`` (the position the caller loaded: a move
    committed since is not in it; by default the latest) as the move list shows it: the
    start and every move (``end`` is the seq after its last event, for
    ``game_table(upto=end)``), moves later voided marked ``voided``, and notes, written for
    players, for undos, takebacks, resignations, clocks and moderators' acts (who, when,
    why: the event's actor and reason)."""
    table = empty_table(game)
    events = stored_events(game, upto=upto)
    decoded = [storage.decode(table, e.type, e.version, e.data) for e in events]
    replacing = {event.by for event in decoded if isinstance(event, tbl.SeatReplaced)}
    names = _actor_names({event.actor for event in events} | replacing)
    players = players_of(game)
    seat_names = {p["seat"]: p["player"] for p in players if p["seat"] is not None and p["player"]}
    # The actor "bot:<level>" names a level, not a seat: a computer seat's own acts go by
    # the seat's name, so that two computers of one level stay apart.
    computer_seats = {p["seat"] for p in players if p["bot"] and p["seat"] is not None}
    # A forgotten player's acts likewise go by their seat's numbered name.
    forgotten_seats = {p["seat"] for p in players if p["deleted"] and p["seat"] is not None}

    def seat_name(seat: int) -> str:
        return seat_names.get(seat) or gettext("Player %(number)s") % {"number": seat + 1}

    entries: list[dict] = []
    current: dict | None = None
    for stored, event in zip(events, decoded, strict=True):
        if not isinstance(event, tbl.TABLE_EVENTS):
            if current is not None:
                current["end"] = stored.seq
            continue
        actor = names.get(stored.actor, stored.actor)
        acting_seat = getattr(event, "seat", None)
        by_seat = stored.actor.startswith(BOT_ACTOR_PREFIX) and acting_seat in computer_seats
        by_seat |= acting_seat in forgotten_seats and not stored.actor.startswith("moderator:")
        if by_seat:
            actor = seat_names[acting_seat]
        base = {
            "seq": stored.seq,
            "end": stored.seq,
            "actor": actor,
            "bot": stored.actor.startswith(BOT_ACTOR_PREFIX),
            "planned": stored.actor.startswith(PLAN_ACTOR_PREFIX),
            "reason": stored.reason,
            "at": stored.recorded_at,
        }
        current = None
        match event:
            case tbl.Started():
                text = gettext("The game begins")
                current = {**base, "kind": "start", "text": text, "voided": False}
                entries.append(current)
            case tbl.Moved(seat=seat, move=move, auto=auto):
                current = {
                    **base,
                    "kind": "move",
                    "seat": seat,
                    "text": move,
                    "auto": auto,
                    "voided": False,
                }
                entries.append(current)
            case tbl.MovesVoided(back_to=back_to, cause=cause):
                voided = [
                    entry
                    for entry in entries
                    if entry["kind"] == "move" and not entry["voided"] and entry["seq"] > back_to
                ]
                for entry in voided:
                    entry["voided"] = True
                text = _voided_text(cause, actor, len(voided))
                entries.append({**base, "kind": "note", "text": text})
            case tbl.TakebackRequested(seat=seat, to_seq=to_seq):
                count = sum(
                    1
                    for entry in entries
                    if entry["kind"] == "move" and not entry["voided"] and entry["seq"] > to_seq
                )
                text = ngettext(
                    "%(name)s asks to take back the last move",
                    "%(name)s asks to take back the last %(count)s moves",
                    count,
                ) % {"name": seat_name(seat), "count": count}
                entries.append({**base, "kind": "note", "text": text})
            case _:
                text = _note(event, seat_name, names)
                entries.append({**base, "kind": "note", "text": text})
    return entries


def _voided_text(cause: str, actor: str, count: int) -> str:
    """An undo, an agreed takeback or a moderator's revert, said plainly."""
    if cause == "undo":
        return gettext("%(name)s took back their move") % {"name": actor}
    if cause == "takeback":
        return ngettext(
            "Takeback agreed: the last move is taken back",
            "Takeback agreed: the last %(count)s moves are taken back",
            count,
        ) % {"count": count}
    return ngettext(
        "A moderator took back the last move",
        "A moderator took back the last %(count)s moves",
        count,
    ) % {"count": count}


def _note(event, seat_name, names: dict[str, str]) -> str:
    """A table event as a sentence for the players."""
    match event:
        case tbl.TakebackAnswered(seat=seat, accepted=True):
            return gettext("%(name)s accepts the takeback") % {"name": seat_name(seat)}
        case tbl.TakebackAnswered(seat=seat):
            return gettext("%(name)s declines the takeback") % {"name": seat_name(seat)}
        case tbl.Resigned(seat=seat):
            return gettext("%(name)s resigns") % {"name": seat_name(seat)}
        case tbl.Paused():
            return gettext("The clocks are paused")
        case tbl.Resumed():
            return gettext("The clocks run again")
        case tbl.DeadlineExtended(seconds=seconds):
            hours = seconds // 3600
            return ngettext(
                "The deadline is extended by %(hours)s hour",
                "The deadline is extended by %(hours)s hours",
                hours,
            ) % {"hours": hours}
        case tbl.TimeGranted(seat=seat, by=by):
            return gettext("%(by)s gives %(to)s one more day") % {
                "by": seat_name(by),
                "to": seat_name(seat),
            }
        case tbl.VacationStarted(seat=seat):
            return gettext("%(name)s is on vacation") % {"name": seat_name(seat)}
        case tbl.VacationEnded(seat=seat):
            return gettext("%(name)s is back from vacation") % {"name": seat_name(seat)}
        case tbl.SeatReplaced(seat=seat, by=by):
            return gettext("%(to)s takes over the seat of player %(number)s") % {
                "to": names.get(by, gettext("another player")),
                "number": seat + 1,
            }
        case tbl.Aborted(seat=None):
            return gettext("The game is called off by a moderator")
        case tbl.Aborted():
            return gettext("The game is aborted and unrated: not every player had made a move")
        case tbl.MessageHidden():
            return gettext("A chat message is hidden by a moderator")
    return gettext("A moderator acted on the game")


def _actor_names(actors: set[str]) -> dict[str, str]:
    """Display names of who acted: players (``user:<id>``, and ``plan:<id>`` for a move
    played from their plan), moderators (``moderator:<id>``), computer players
    (``bot:<level>``) and the site itself."""
    ids = {}
    bots = {}
    for actor in actors:
        kind, _, number = actor.partition(":")
        if kind in ("user", "moderator", "plan") and number.isdigit():
            ids[actor] = int(number)
        elif actor.startswith(BOT_ACTOR_PREFIX) and bot_name(number):
            bots[actor] = bot_name(number)
    users = {user.pk: user for user in get_user_model().objects.filter(pk__in=ids.values())}
    names = {"system": gettext("the site"), **bots}
    for actor, number in ids.items():
        if number in users:
            name = display_name(users[number])
            names[actor] = (
                gettext("%(name)s (moderator)") % {"name": name}
                if actor.startswith("moderator:")
                else name
            )
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


def operator_status(now) -> dict:
    """What an operator checks first: the outbox backlog and the emails in doubt, when the
    sweep and the worker last ran, games waiting on a bot, the read models found to differ
    from their events (``services.drift``), and the errors of the last day."""
    pending = Outbox.objects.filter(sent_at__isnull=True, cancelled_at__isnull=True)
    day_ago = now - timedelta(days=1)
    oldest_due = pending.filter(due_at__lte=now).order_by("due_at").values_list("due_at", flat=True)
    beats = {beat.name: beat for beat in ProcessBeat.objects.all()}
    return {
        "backlog": pending.filter(due_at__lte=now).count(),
        "scheduled": pending.filter(due_at__gt=now).count(),
        "oldest_due": oldest_due.first(),
        "in_doubt": emails_in_doubt().count(),
        "withdrawn": Outbox.objects.filter(cancelled_at__gte=day_ago)
        .exclude(withdrawn_because="")
        .count(),
        "sweep": beats.get("sweep"),
        "heartbeat": beats.get("heartbeat"),
        "late": {
            name: name not in beats or beats[name].at < now - PROCESS_LATE
            for name in ("sweep", "heartbeat")
        },
        "waiting_on_bots": games_waiting_on_bots().count(),
        "drift": beats.get("drift"),
        "jobs_failing": _jobs_failing(beats.get("sweep jobs")),
        "errors": {
            "failing": pending.exclude(last_error="").count(),
            "given_up": Outbox.objects.filter(cancelled_at__gte=day_ago, withdrawn_because="")
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


def _jobs_failing(beat: ProcessBeat | None) -> list[dict]:
    """The minute sweep's jobs that failed (``services.sweep``), the one failing longest
    first: how many times since when, the last time and error, and when it ran again."""
    failures = beat.detail.get("failures", {}) if beat else {}
    rows = [
        {
            "job": name,
            "count": failure["count"],
            "since": datetime.fromisoformat(failure["since"]),
            "last": datetime.fromisoformat(failure["last"]),
            "error": failure["error"],
            "recovered": failure["recovered"] and datetime.fromisoformat(failure["recovered"]),
        }
        for name, failure in failures.items()
    ]
    return sorted(rows, key=lambda row: (row["recovered"] is not None, row["since"]))


def emails_in_doubt() -> QuerySet[Outbox]:
    """Emails a worker claimed and never marked sent (they may have gone out)."""
    return Outbox.objects.filter(last_error__startswith="in doubt")


def games_waiting_on_bots() -> QuerySet[Game]:
    """Games in play whose seat to move is a computer player's."""
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__position=F("to_move"),
        seats__user__isnull=True,
        seats__bot__in=BotLevel.values,
    )


# --- post-game analysis (issue 15) ----------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A position an analysis judges: the move played there (``seq`` of its ``table.Moved``,
    ``number`` in the move list), the seat that chose it, the rules state before it and
    the command played."""

    seq: int
    number: int
    seat: int
    state: Any
    played: Any


def analysis_positions(table: tbl.Table) -> list[Position]:
    """Every move of the game that counts where its seat chose among more than one legal
    move: not the moves nobody chose (forced, or played for a resigned, timed-out or
    moderated seat)."""
    engine, steps = table.engine, storage.expand(table).steps
    positions = []
    for number, (before, step) in enumerate(zip(steps, steps[1:], strict=False), 1):
        if step.seat is None or step.auto or len(engine.legal_commands(before.state)) < 2:
            continue
        positions.append(
            Position(step.seq, number, step.seat, before.state, engine.parse(step.move))
        )
    return positions


def current_analysis(game: Game) -> Analysis | None:
    """The analysis of the game as it ended (none for a game in play, or one a moderator
    has reopened since its analysis was asked for)."""
    if game.status != Game.Status.FINISHED:
        return None
    return Analysis.objects.filter(game=game, end_seq=game.last_seq).first()


def analysis_report(game: Game, names: list[str]) -> dict | None:
    """What the pages and the API show of the game's analysis: its status and progress,
    the moves judged so far by seq, and, once done, each seat's accuracy."""
    analysis = current_analysis(game)
    if analysis is None:
        return None
    moves = {move.seq: move for move in analysis.moves.all()}
    done = analysis.status == Analysis.Status.DONE
    return {
        **analysis_progress(analysis),
        "simulations": analysis.simulations,
        "moves": moves,
        "accuracy": accuracy(moves.values(), names, game.game_type) if done else [],
    }


def analysis_progress(analysis: Analysis) -> dict:
    """An analysis's status, the positions judged (``done``) of ``total``, the one being
    judged (``current``) and the share done in percent."""
    return {
        "status": analysis.status,
        "done": analysis.done,
        "total": analysis.total,
        "current": min(analysis.done + 1, analysis.total),
        "percent": round(100 * analysis.done / analysis.total) if analysis.total else 0,
    }


def accuracy(moves, names: list[str], game_type: str) -> list[dict]:
    """Each seat's accuracy in percent (``games.bots.accuracy``, ``docs/bots.md``): from
    the winning chances each of its judged moves gave away, as lichess computes it, with
    the counts of ``?`` and ``??`` marks. ``percent`` is ``None`` for a seat that never had
    a choice."""
    by_seat = {seat: [] for seat in range(len(names))}
    for move in sorted(moves, key=lambda move: move.seq):
        by_seat.setdefault(move.seat, []).append(move)
    rows = []
    for seat, judged in sorted(by_seat.items()):
        values = [(move.best_value, move.played_value) for move in judged]
        percent = game_accuracy(values, stretch_of(game_type))
        marks = [move.judgement for move in judged]
        rows.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat + 1),
                "moves": len(judged),
                "percent": None if percent is None else round(percent),
                "dubious": marks.count(DUBIOUS),
                "clearly_worse": marks.count(CLEARLY_WORSE),
            }
        )
    return rows


# --- tournaments (issue 31) ------------------------------------------------------------------

TOURNAMENT_NAMESPACE = "tournament"
TOURNAMENT_LISTS = {
    "open": [Tournament.Status.REGISTRATION],
    "running": [Tournament.Status.RUNNING],
    "finished": [Tournament.Status.FINISHED, Tournament.Status.CANCELLED],
}


def tournament_state(tournament: Tournament) -> tournaments.Tournament:
    """The tournament folded from its stream ``tournament:<id>``: from its latest snapshot
    that this code folded (``TournamentSnapshot``), and the events after it."""
    found = (
        TournamentSnapshot.objects.filter(
            tournament_id=tournament.pk, code=tournament_storage.code_version()
        )
        .order_by("-seq")
        .values_list("seq", "state")
        .first()
    )
    seq, state = (found[0], tournament_storage.loads(bytes(found[1]))) if found else (0, None)
    events = load(tournament.stream, after=seq)
    return tournaments.fold([tournament_event(event) for event in events], state)


def tournament_event(event: StoredEvent) -> tournaments.Event:
    """A stored tournament event as the decider's value."""
    name = event.type.removeprefix(f"{TOURNAMENT_NAMESPACE}.")
    return tournaments.CODEC.decode({**event.data, "type": name, "version": event.version})


def tournament_list(which: str, viewer=None) -> QuerySet[Tournament]:
    """Tournaments open for registration, running or finished (``TOURNAMENT_LISTS``),
    newest first: the public ones and, for a signed-in viewer, those they organise."""
    mine = Q(organiser=viewer) if viewer is not None and viewer.is_authenticated else Q()
    return (
        Tournament.objects.filter(status__in=TOURNAMENT_LISTS[which])
        .filter(Q(public=True) | mine)
        .select_related("organiser")
        .order_by("-created_at", "-pk")
    )


def tournaments_entered(viewer, listed: Iterable[Tournament]) -> set[int]:
    """Of the ``listed`` tournaments, the ids of those the viewer registered for and has not
    withdrawn from (their last registration or withdrawal in each stream)."""
    if not getattr(viewer, "is_authenticated", False):
        return set()
    by_stream = {tournament.stream: tournament.pk for tournament in listed}
    registered = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerRegistered.__name__}"
    withdrew = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerWithdrew.__name__}"
    entered: set[int] = set()
    for stream, kind in (
        Event.objects.filter(
            stream__in=by_stream, type__in=(registered, withdrew), data__player=viewer.pk
        )
        .order_by("stream", "seq")
        .values_list("stream", "type")
    ):
        if kind == registered:
            entered.add(by_stream[stream])
        else:
            entered.discard(by_stream[stream])
    return entered


def tournaments_registered(user) -> set[int]:
    """The ids of the tournaments ``user`` ever registered for, withdrawn since or not
    (entries live in the tournaments' streams only)."""
    registered = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerRegistered.__name__}"
    streams = Event.objects.filter(type=registered, data__player=user.pk).values_list(
        "stream", flat=True
    )
    return {int(stream.rpartition(":")[2]) for stream in streams}


def tournaments_of_person(user) -> QuerySet[Tournament]:
    """The tournaments ``user`` registered for or organises (people's data, issue 45)."""
    return Tournament.objects.filter(Q(pk__in=tournaments_registered(user)) | Q(organiser=user))


def tournament_list_opening(viewer) -> str:
    """The list a viewer's tournaments page opens on (``TOURNAMENT_LISTS``): the running
    tournaments if they play in one, otherwise those open for registration."""
    return "running" if tournaments_entered(viewer, tournament_list("running", viewer)) else "open"


def tournament_get(tournament_id: int) -> Tournament:
    """The tournament, or ``NotFound``. An invitation-only tournament is unlisted, not
    hidden: whoever has its address may read it."""
    found = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(gettext("there is no tournament %(number)s") % {"number": tournament_id})
    return found


def may_enter(tournament: Tournament, user) -> bool:
    """Whether ``user`` may register: anyone for a public tournament; for an
    invitation-only one, the organiser and the invited addresses."""
    invited = tournament.settings.get("invited") or ()
    return (
        tournament.public
        or user.pk == tournament.organiser_id
        or (user.email or "").lower() in invited
    )


def ratings_now(tournament: Tournament, players: list[int], viewer=None) -> dict[int, int]:
    """Each player's rating on the tournament's game's ladder now (a player with no rated
    game has none); a hidden profile's is not told to visitors (issue 16)."""
    ratings = Rating.objects.filter(game_type=tournament.game_type, user_id__in=players)
    if not getattr(viewer, "is_authenticated", False):
        ratings = ratings.exclude(user__player_settings__profile_hidden=True)
    return dict(ratings.values_list("user_id", "display"))


def tournament_view(tournament: Tournament, viewer=None) -> dict:
    """Everything a tournament's page and API show: settings, players with their rating at
    registration (the seeding) and now, rounds with their tables (games, players, places),
    byes, live standings with tie-breaks (and, in a knockout, the round each player went
    out in), the viewer's own game in play or their exit, and what the viewer may do."""
    state = tournament_state(tournament)
    users = get_user_model().objects.in_bulk([e.player for e in state.entrants])
    entrants = [users.get(e.player) for e in state.entrants]
    forgotten = forgotten_numbers(entrants)
    names = {
        user.pk: deleted_name(forgotten.get(index)) if is_forgotten(user) else display_name(user)
        for index, user in enumerate(entrants)
        if user is not None
    }
    now = ratings_now(tournament, [e.player for e in state.entrants], viewer)
    exits = tournaments.knocked_out(state)
    settings = state.settings
    games = dict(
        Game.objects.filter(tournament_table__tournament=tournament).values_list("pk", "status")
    )
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rounds = []
    for number in range(1, state.round + 1):
        tables = [
            {
                "table": index,
                "game": table.game,
                "status": games.get(table.game, ""),
                "players": [{"id": p, "name": names.get(p, "")} for p in table.players],
                "places": list(table.result.places) if table.result else None,
                "scores": list(table.result.scores) if table.result else None,
                "mine": me in table.players,
            }
            for index, table in enumerate(state.round_tables(number), start=1)
        ]
        byes = [
            {"id": bye.player, "name": names.get(bye.player, ""), "walkover": bye.walkover}
            for bye in state.byes
            if bye.round == number
        ]
        rounds.append({"number": number, "tables": tables, "byes": byes})
    entrant = state.entrant(me) if me is not None else None
    registered = entrant is not None and not entrant.withdrawn
    organising = me is not None and (me == tournament.organiser_id or is_moderator(viewer))
    open_for_entry = state.status == tournaments.REGISTRATION
    return {
        "id": tournament.pk,
        "name": state.name,
        "status": tournament.status,
        "organiser": {"id": state.organiser, "name": display_name(tournament.organiser)},
        "settings": {
            "format": settings.format,
            "game": settings.game,
            "per_game": settings.per_game,
            "rounds": settings.rounds,
            "points": list(settings.points),
            "min_players": settings.min_players,
            "max_players": settings.max_players,
            "min_rating": settings.min_rating,
            "min_games": settings.min_games,
            "options": settings.options,
            "time_control": settings.time_control,
            "rated": settings.rated,
            "public": settings.public,
            "entry_closes": tournament.entry_closes,
            "round_days": settings.round_days,
        },
        "current_round": state.round,
        "round_deadline": datetime.fromisoformat(state.deadline) if state.deadline else None,
        "players": [
            {
                "id": e.player,
                "name": names.get(e.player, ""),
                "rating": e.rating,
                "rating_now": now.get(e.player),
                "withdrawn": e.withdrawn,
            }
            for e in state.entrants
        ],
        "tie_breaks": list(tie_break_names(settings.per_game)),
        "standings": [
            {
                "rank": line.rank,
                "player": {"id": line.player, "name": names.get(line.player, "")},
                "points": line.points,
                "tie_breaks": list(line.tie_breaks),
                "games": line.games,
                "byes": line.byes,
                "withdrawn": line.withdrawn,
                "out_in_round": exits[line.player].round if line.player in exits else None,
            }
            for line in state.standings()
        ],
        "my_exit": (
            {"round": exits[me].round, "places": exits[me].places, "players": len(state.seeds)}
            if me in exits
            else None
        ),
        "rounds": rounds,
        "my_game": next(
            (
                table["game"]
                for table in (rounds[-1]["tables"] if rounds else [])
                if table["mine"] and table["status"] == Game.Status.ACTIVE
            ),
            None,
        ),
        "can_join": me is not None
        and open_for_entry
        and not registered
        and may_enter(tournament, viewer),
        # A player knocked out has nothing left to withdraw from.
        "can_withdraw": registered
        and me not in exits
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
        "can_start": organising and open_for_entry,
        "can_remove": organising
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
        "paused": state.paused,
        "can_pause": organising and state.status == tournaments.RUNNING and not state.paused,
        "can_resume": organising and state.paused and state.status == tournaments.RUNNING,
        "can_cancel": organising
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
    }
