"""A game's past: the move list with its notes for players, the events after a
seq, and the game record (``manage.py verify_game``)."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext, ngettext

from games import table as tbl
from games import table_storage as storage
from games.models import Game
from games.repository import empty_table, stored_events
from games.selectors.moves import public_event
from games.selectors.names import (
    BOT_ACTOR_PREFIX,
    PLAN_ACTOR_PREFIX,
    bot_name,
    display_name,
    players_of,
)
from games.table_events import (
    Aborted,
    DeadlineExtended,
    MessageHidden,
    Moved,
    MovesVoided,
    Paused,
    Resigned,
    Resumed,
    SeatReplaced,
    Started,
    TakebackAnswered,
    TakebackRequested,
    TimeGranted,
    VacationEnded,
    VacationStarted,
)

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
    replacing = {event.by for event in decoded if isinstance(event, SeatReplaced)}
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
            case Started():
                text = gettext("The game begins")
                current = {**base, "kind": "start", "text": text, "voided": False}
                entries.append(current)
            case Moved(seat=seat, move=move, auto=auto):
                current = {
                    **base,
                    "kind": "move",
                    "seat": seat,
                    "text": move,
                    "auto": auto,
                    "voided": False,
                }
                entries.append(current)
            case MovesVoided(back_to=back_to, cause=cause):
                voided = [
                    entry
                    for entry in entries
                    if entry["kind"] == "move" and not entry["voided"] and entry["seq"] > back_to
                ]
                for entry in voided:
                    entry["voided"] = True
                text = _voided_text(cause, actor, len(voided))
                entries.append({**base, "kind": "note", "text": text})
            case TakebackRequested(seat=seat, to_seq=to_seq):
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
        case TakebackAnswered(seat=seat, accepted=True):
            return gettext("%(name)s accepts the takeback") % {"name": seat_name(seat)}
        case TakebackAnswered(seat=seat):
            return gettext("%(name)s declines the takeback") % {"name": seat_name(seat)}
        case Resigned(seat=seat):
            return gettext("%(name)s resigns") % {"name": seat_name(seat)}
        case Paused():
            return gettext("The clocks are paused")
        case Resumed():
            return gettext("The clocks run again")
        case DeadlineExtended(seconds=seconds):
            hours = seconds // 3600
            return ngettext(
                "The deadline is extended by %(hours)s hour",
                "The deadline is extended by %(hours)s hours",
                hours,
            ) % {"hours": hours}
        case TimeGranted(seat=seat, by=by):
            return gettext("%(by)s gives %(to)s one more day") % {
                "by": seat_name(by),
                "to": seat_name(seat),
            }
        case VacationStarted(seat=seat):
            return gettext("%(name)s is on vacation") % {"name": seat_name(seat)}
        case VacationEnded(seat=seat):
            return gettext("%(name)s is back from vacation") % {"name": seat_name(seat)}
        case SeatReplaced(seat=seat, by=by):
            return gettext("%(to)s takes over the seat of player %(number)s") % {
                "to": names.get(by, gettext("another player")),
                "number": seat + 1,
            }
        case Aborted(seat=None):
            return gettext("The game is called off by a moderator")
        case Aborted():
            return gettext("The game is aborted and unrated: not every player had made a move")
        case MessageHidden():
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
