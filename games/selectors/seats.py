"""A seat at the table now: what its player may do, their clock and time left, their
plan (conditional moves), their playing hours, and the seats that left a game."""

from dataclasses import dataclass
from datetime import datetime

from events.models import Event
from games import table as tbl
from games.clock import TimeLeft
from games.models import Game, Plan, PlayerSettings, Seat
from games.repository import game_table, row_table
from games.seat_actions import SeatActions, seat_actions
from games.selectors.access import seat_of
from games.table_events import Resigned


def hours_of_player(user) -> dict:
    """The playing hours a player takes a seat with unless they choose others, as the
    forms' initial ``hours_start`` and ``hours_end``."""
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings()
    return {"hours_start": prefs.hours_start, "hours_end": prefs.hours_end}


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
        Event.objects.filter(stream__in=by_stream, type=f"{tbl.TABLE}.{Resigned.__name__}")
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
