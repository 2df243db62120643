"""Opening, joining, leaving and cancelling tables; starting a game; the read model
rebuilt from the events."""

import random
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

from games import news, notify
from games import table as tbl
from games.clock import PlayingHours
from games.errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests
from games.models import (
    BotLevel,
    Game,
    NoticeKind,
    Outbox,
    Seat,
    SeatClock,
    TableSnapshot,
    Tournament,
)
from games.notify.channels.email.addresses import account_identity
from games.prepared import save_fields
from games.refusals import plain_params, rules_error_text
from games.registry import GAME_TYPES, game_type
from games.repository import empty_table, records, table_snapshot_write
from games.rules.common import IllegalMove, chosen_options
from games.selectors.access import invited_seat, not_visible, seat_of
from games.selectors.names import bot_actor
from games.services.common import act, actor_of, locked_game
from games.services.hours import hours_for_seat, validate_playing_hours
from games.services.reactions import PROJECTIONS, Change, react

TIME_CONTROL_DAYS = (1, 2, 3, 5, 7, 14)
INVITATION_SALT = "azulsite.invitation"
# Invitation emails one account may send in any 24 hours: plenty for friends, a brake on
# spam sent in our name.
INVITATIONS_PER_DAY = 30
INVITATION_WINDOW = timedelta(days=1)


# --- creating and joining games ---------------------------------------------------------


def validate_time_control(time_control: dict | None) -> dict:
    """``{"kind": "none"}``, ``{"kind": "per_move", "days": 1|2|3|5|7|14}`` or
    ``{"kind": "bank", "bank_hours": 72, "increment_hours": 12, "cap_hours": 120}``."""
    control = dict(time_control or {"kind": "none"})
    kind = control.get("kind", "none")
    # Translators: %(forms)s lists the JSON forms a client may send (never translated).
    accepted = _("accepted: %(forms)s") % {
        "forms": '{"kind": "none"}, {"kind": "per_move", "days": 1, 2, 3, 5, 7 or 14}, '
        '{"kind": "bank", "bank_hours": H, "increment_hours": H, "cap_hours": H}'
    }
    if kind == "none":
        return {"kind": "none"}
    if kind == "per_move":
        if control.get("days") not in TIME_CONTROL_DAYS:
            raise BadRequest(
                _("days per move must be one of %(days)s; %(accepted)s")
                % {"days": ", ".join(map(str, TIME_CONTROL_DAYS)), "accepted": accepted},
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
                _("a bank needs whole hours; %(accepted)s") % {"accepted": accepted},
                code="invalid_time_control",
            ) from None
        if not (1 <= bank <= cap <= 24 * 60 and 0 <= increment <= cap):
            raise BadRequest(
                _(
                    "a bank needs 1 <= bank_hours <= cap_hours <= 1440 and "
                    "0 <= increment_hours <= cap_hours"
                ),
                code="invalid_time_control",
            )
        return {"kind": "bank", "bank_hours": bank, "increment_hours": increment, "cap_hours": cap}
    raise BadRequest(
        _("unknown time control %(kind)s; %(accepted)s")
        % {"kind": repr(kind), "accepted": accepted},
        code="invalid_time_control",
    )


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
            ngettext(
                "unknown reminder setting %(unknown)s; accepted: %(accepted)s",
                "unknown reminder settings %(unknown)s; accepted: %(accepted)s",
                len(unknown),
            )
            % {"unknown": ", ".join(map(str, unknown)), "accepted": ", ".join(REMINDER_HOURS)},
            code="invalid_reminders",
        )
    if not all(isinstance(value, int) and 1 <= value <= 24 * 14 for value in reminders.values()):
        raise BadRequest(
            _("reminder times are whole hours from 1 to 336"), code="invalid_reminders"
        )
    return {"reminders": dict(reminders)}


def validate_options(engine, players: int, options: dict | None) -> dict:
    """The game's options with defaults filled in, checked as the engine's ``start`` checks
    them (``chosen_options``): unknown names or values refused, saying what is accepted."""
    try:
        return chosen_options(engine.NAME, players, engine.PLAYERS, options or {}, engine.OPTIONS)
    except IllegalMove as error:
        raise BadRequest(
            rules_error_text(error),
            code="invalid_options",
            engine_code=error.code,
            engine_params=plain_params(error.params),
        ) from None


def game_engine(game: str):
    """The engine of a game the site offers, or ``BadRequest`` naming those it offers."""
    if game not in GAME_TYPES:
        raise BadRequest(
            _("unknown game %(game)s; accepted: %(accepted)s")
            % {"game": repr(game), "accepted": ", ".join(GAME_TYPES)},
            code="invalid_game",
        )
    return game_type(game).engine


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
    rated: bool = True,
    bots: list[str] | tuple[str, ...] = (),
    timeout_bot: str = "",
    playing_hours: bool = False,
    hours: dict | None = None,
    places: list[int] | tuple[int, ...] | None = None,
) -> Game:
    """Open a table: the creator takes a seat, invited addresses get a seat each (and an
    invitation email with a signed link), each level in ``bots`` seats a computer player
    of that level (issue 15: "play against the computer"), the other seats stay open for
    anyone to join (a private game keeps none: its seats are for those invited); with no
    seat left open the game starts at once. ``reminders`` sets
    the game's reminder policy (``validate_reminders``); ``rated`` whether the result
    counts for the ratings (issue 16); ``timeout_bot`` the level of the computer player
    that plays a turn whose time ran out (timeout policy ``bot``); ``playing_hours`` whether
    each seat's clock runs only during its player's daily hours (issue 32), the creator's
    being ``hours`` or their settings' (``seat_hours``). ``places`` (a rematch's rotated
    seats) gives the places, 0 first, of the creator and then of each computer player in the
    order of ``bots``; otherwise the seats are drawn at the start."""
    engine = game_engine(game)
    if not isinstance(players, int) or players not in engine.PLAYERS:
        raise BadRequest(
            _("players must be %(fewest)s to %(most)s, not %(players)s")
            % {
                "fewest": min(engine.PLAYERS),
                "most": max(engine.PLAYERS),
                "players": repr(players),
            },
            code="invalid_players",
        )
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise BadRequest(
            _("timeout_policy must be one of %(accepted)s")
            % {"accepted": ", ".join(Game.TimeoutPolicy.values)},
            code="invalid_time_control",
        )
    timeout_bot = _timeout_bot(timeout_policy, timeout_bot)
    levels = _bot_levels(bots)
    emails = _invited_emails(invite, creator)
    if len(emails) + len(levels) > players - 1:
        free = players - 1
        raise BadRequest(
            ngettext(
                "%(invitations)s invited and %(bots)s computer players asked for %(seats)s free "
                "seat",
                "%(invitations)s invited and %(bots)s computer players asked for %(seats)s free "
                "seats",
                free,
            )
            % {"invitations": len(emails), "bots": len(levels), "seats": free},
            code="too_many_invitations",
        )
    if private and len(emails) + len(levels) < players - 1:
        raise BadRequest(
            _(
                "a private game has no seat open to anyone: invite a player or seat a computer "
                "player for each free seat, or make the game public"
            ),
            code="private_game_open_seat",
        )
    invitations_allowed(creator, len(emails))
    control = validate_time_control(time_control)
    if validate_playing_hours(playing_hours, control):
        control["playing_hours"] = True
    new = Game.objects.create(
        game_type=game,
        options=validate_options(engine, players, options),
        players=players,
        time_control={**control, **validate_reminders(reminders)},
        timeout_policy=timeout_policy,
        timeout_bot=timeout_bot,
        self_undo=bool(self_undo),
        private=bool(private),
        rated=bool(rated),
        created_by=creator,
    )
    place = iter(places or ())

    def seated(**who) -> None:
        Seat.objects.create(
            game=new,
            position=next(place, None),
            status=Seat.Status.JOINED,
            joined_at=new.created_at,
            **who,
        )

    seated(user=creator, playing_hours=hours_for_seat(new, creator, hours))
    for email in emails:
        seat = Seat.objects.create(game=new, invited_email=email, status=Seat.Status.INVITED)
        notify.invitation(new, email, token=invitation_token(seat))
    for level in levels:
        seated(bot=level)
    for _seat in range(players - 1 - len(emails) - len(levels)):
        Seat.objects.create(game=new, status=Seat.Status.OPEN)
    news.lobby_changed()
    if len(levels) == players - 1:
        _start(new, list(new.seats.all()), by=creator)
    return new


def game_create_seated(
    *,
    users: list,
    game: str,
    options: dict,
    time_control: dict,
    timeout_policy: str,
    rated: bool,
) -> Game:
    """A game whose players are given in seat order (a tournament's table): created as
    ``game_create`` creates one, every seat taken in that order; ``game_begin`` starts
    it."""
    new = game_create(
        creator=users[0],
        game=game,
        players=len(users),
        options=options,
        time_control=time_control,
        timeout_policy=timeout_policy,
        rated=rated,
    )
    seats = sorted(new.seats.all(), key=lambda seat: seat.pk)
    for position, (seat, user) in enumerate(zip(seats, users, strict=True)):
        seat.user, seat.status, seat.position = user, Seat.Status.JOINED, position
        seat.joined_at = new.created_at
    Seat.objects.bulk_update(seats, ["user", "status", "position", "joined_at"])
    return new


def game_begin(*, game: Game) -> None:
    """Start a game whose seats are all taken (``game_create_seated``): no one's own act,
    so every player is told it started."""
    _start(game, list(game.seats.all()), by=None)


def _bot_levels(bots) -> list[str]:
    """The levels of the computer players to seat, each checked."""
    if isinstance(bots, str) or not isinstance(bots, list | tuple):
        raise BadRequest(
            _("bots is a list of levels, each one of %(levels)s")
            % {"levels": ", ".join(BotLevel.values)},
            code="invalid_bot_level",
        )
    what = _("each computer player's level")
    return [validate_bot_level(level, what) for level in bots]


def _timeout_bot(policy: str, level: str) -> str:
    """The timeout policy ``bot`` needs a level (medium when none is given); the other
    policies take none."""
    if policy != Game.TimeoutPolicy.BOT:
        if level:
            raise BadRequest(
                _(
                    'timeout_bot goes with timeout_policy "bot": choose that policy, or leave '
                    "timeout_bot out"
                ),
                code="invalid_bot_level",
            )
        return ""
    return validate_bot_level(level or BotLevel.MEDIUM, "timeout_bot")


def validate_bot_level(level, what: str | None = None) -> str:
    """A computer player's level (``easy``, ``medium``, ``hard``), or ``BadRequest`` saying
    which are accepted."""
    if level not in BotLevel.values:
        raise BadRequest(
            # Translators: %(what)s is "a computer player's level", "each computer player's
            # level" or the API field "timeout_bot".
            _("%(what)s must be one of %(levels)s, not %(level)s")
            % {
                "what": what or _("a computer player's level"),
                "levels": ", ".join(BotLevel.values),
                "level": repr(level),
            },
            code="invalid_bot_level",
        )
    return level


# What an account over its invitations is told, by where it invited from: when more can go
# out, and what it can do meanwhile.
GAME_INVITATIONS_THROTTLED = ngettext_lazy(
    "you have sent %(count)s invitations in the last 24 hours, and %(most)s is the "
    "most: invite more in about %(hours)s hour, or open the game to anyone without "
    "invitations",
    "you have sent %(count)s invitations in the last 24 hours, and %(most)s is the "
    "most: invite more in about %(hours)s hours, or open the game to anyone without "
    "invitations",
    "hours",
)


def invitations_allowed(sender, wanted: int, *, refusal=GAME_INVITATIONS_THROTTLED) -> None:
    """At most ``INVITATIONS_PER_DAY`` invitation emails per account in any 24 hours, to
    games and to tournaments together (each carries the sender's words and goes to
    addresses that may have no account), counted from the outbox (so the web and the API
    share one count); ``TooManyRequests`` beyond, saying when more can go out
    (``refusal``, of the door's kind)."""
    if not wanted:
        return
    now = timezone.now()
    sent = Outbox.objects.filter(
        Q(kind=NoticeKind.INVITATION, game__created_by=sender)
        | Q(
            kind=NoticeKind.TOURNAMENT_INVITATION,
            key__in=Tournament.objects.filter(organiser=sender).values("pk"),
        ),
        created_at__gt=now - INVITATION_WINDOW,
    )
    count = sent.count()
    if count + wanted <= INVITATIONS_PER_DAY:
        return
    oldest = sent.order_by("created_at").values_list("created_at", flat=True).first() or now
    wait = (oldest + INVITATION_WINDOW - now).total_seconds()
    hours = max(1, round(wait / 3600))
    raise TooManyRequests(
        refusal % {"count": count, "most": INVITATIONS_PER_DAY, "hours": hours},
        code="invitations_throttled",
        retry_after=int(wait),
    )


def _invited_emails(invite, creator) -> list[str]:
    emails = []
    for raw in invite or ():
        email = account_identity(raw)
        try:
            validate_email(email)
        except ValidationError:
            raise BadRequest(
                _("%(address)s is not an email address") % {"address": repr(raw)},
                code="invalid_invitation",
            ) from None
        if email == creator.email.lower():
            raise BadRequest(
                _("you already have a seat at your own table"), code="invalid_invitation"
            )
        if email in emails:
            raise BadRequest(
                _("%(email)s is invited twice") % {"email": email}, code="invalid_invitation"
            )
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
        raise NotFound(_("this invitation link is not valid (or has expired)")) from None


@transaction.atomic
def game_join(*, game: Game, user, token: str | None = None, hours: dict | None = None) -> Game:
    """Take a seat: the seat an invitation names (``token``), the seat invited under the
    user's address, or an open seat — but not at a private game, whose seats are for the
    players invited to it (to anyone else it is invisible: the answer is the same as to
    reading it). In a game with playing hours the seat has ``hours`` or the player's own
    (``seat_hours``). The game starts when the last seat is taken."""
    game = locked_game(game)
    try:
        invited, unreadable = invitation_seat(token) if token is not None else None, None
    except NotFound as refused:
        invited, unreadable = None, refused
    named = invited is not None and invited.game_id == game.pk
    if game.private and not (named or invited_seat(game, user) or seat_of(game, user)):
        # Unjoinable as it is invisible: the same answer as to reading it, whatever token
        # came with the request (saying it is not valid would tell that the game exists).
        raise not_visible(game)
    if unreadable is not None:
        raise unreadable
    if game.status != Game.Status.OPEN:
        raise Conflict(_("this game is no longer waiting for players"), code="not_open")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict(_("you already have a seat in this game"), code="already_seated")
    if invited is not None:
        if invited.game_id != game.pk or invited.status != Seat.Status.INVITED:
            raise Conflict(
                _("this invitation has already been used or withdrawn"), code="invitation_used"
            )
        seat = next(s for s in seats if s.pk == invited.pk)
    else:
        seat = invited_seat(game, user) or (
            None if game.private else next((s for s in seats if s.status == Seat.Status.OPEN), None)
        )
    if seat is None:
        raise Conflict(_("every seat is taken or reserved for an invited player"), code="no_seat")
    seat.playing_hours = hours_for_seat(game, user, hours)
    seat.user = user
    seat.status = Seat.Status.JOINED
    seat.joined_at = timezone.now()
    seat.save()
    news.lobby_changed()
    if all(s.status == Seat.Status.JOINED for s in seats):
        _start(game, seats, by=user)
    return game


@transaction.atomic
def game_leave(*, game: Game, user) -> Game:
    """Give up a seat before the game starts (the creator cancels instead)."""
    game = locked_game(game)
    if game.status != Game.Status.OPEN:
        raise Conflict(_("the game has started: resign instead"), code="not_open")
    if game.created_by_id == user.pk:
        raise Conflict(_("you created this game: cancel it instead"), code="creator_cannot_leave")
    seat = seat_of(game, user)
    if seat is None:
        raise Forbidden(_("you have no seat in this game"), code="not_a_player")
    seat.user, seat.status, seat.joined_at = None, Seat.Status.OPEN, None
    seat.playing_hours = None
    seat.save()
    news.lobby_changed()
    return game


@transaction.atomic
def game_cancel(*, game: Game, user) -> Game:
    """The creator calls off a game that has not started."""
    game = locked_game(game)
    if game.created_by_id != user.pk:
        raise Forbidden(_("only the player who created the game can cancel it"), code="not_creator")
    if game.status != Game.Status.OPEN:
        raise Conflict(_("only a game waiting for players can be cancelled"), code="not_open")
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    news.lobby_changed()
    # Its own page too: whoever waits on it learns it will not start.
    news.game_changed(game.pk)
    return game


seating: random.Random = random.SystemRandom()
"""Where the seats' order is drawn from: the system's randomness, which nobody can predict
(the simulated community, tests/community/, puts a seeded one in its place so that a
seed replays the same seats)."""


def _start(game: Game, seats: list[Seat], *, by) -> None:
    """Shuffle the seat order (unless every seat was given its place, as in a rematch),
    record it with the engine's opening draw, and begin; ``by``: the player whose act
    started it (who sees it start; ``None`` when nobody's act did)."""
    order = list(seats)
    if all(seat.position is not None for seat in order):
        order.sort(key=lambda seat: seat.position)
    else:
        seating.shuffle(order)
        # Some seats may hold places already (a rematch whose invitation was declined):
        # freed first, so that no place is held twice while the drawn ones are written.
        Seat.objects.filter(pk__in=[seat.pk for seat in order]).update(position=None)
    for position, seat in enumerate(order):
        seat.position = position
    Seat.objects.bulk_update(order, ["position"])
    game.started_at = timezone.now()
    game.status = Game.Status.ACTIVE
    players = tuple(actor_of(seat.user) if seat.user else bot_actor(seat.bot) for seat in order)
    hours = ()
    if (game.time_control or {}).get("playing_hours"):
        hours = tuple(
            PlayingHours(**seat.playing_hours) if seat.user and seat.playing_hours else None
            for seat in order
        )
    begin = tbl.Begin(game.game_type, game.options, players, hours)
    act(game, begin, actor="system", by=by.pk if by is not None else None)


# A player looking at the game's page is noted at most this often (a page polls every few
# seconds: reading must not write a row each time).
SEEN_EVERY = timedelta(minutes=1)


def seat_seen(*, game: Game, user) -> None:
    """Note that the player has the game's page open now: a "your turn" email is not sent
    to someone who was just looking (issue 7)."""
    now = timezone.now()
    SeatClock.objects.filter(seat__game=game, seat__user=user).filter(
        Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - SEEN_EVERY)
    ).update(last_seen_at=now)


@transaction.atomic
def game_reproject(
    *, game: Game, snapshots: bool = True, folded: Callable[[tbl.Table], None] | None = None
) -> bool:
    """Rebuild the game's read model and (unless not ``snapshots``) its table snapshots from
    its events, folded from the first, the table after each event handed to ``folded``
    when given (the drift check compares its snapshots in the same fold); whether the game
    row had drifted."""
    game = locked_game(game)
    if snapshots:
        TableSnapshot.objects.filter(game=game).delete()
    every = settings.TABLE_SNAPSHOT_EVERY if snapshots else 0
    table = empty_table(game)
    # When each event was written, and when the game ended: the times its moves stamped
    # on the row (its last move, its end), which a rebuild keeps.
    written, ended = {}, None
    for record in records(game):
        table = tbl.evolve(table, record)
        written[record.seq] = record.at
        if table.over and ended is None:
            ended = record.at
        if every and record.seq % every == 0:
            table_snapshot_write(game, table)
        if folded is not None:
            folded(table)
    before = (game.status, game.last_seq, game.to_move, game.scores, game.winners)
    if table.started and game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        game.status = Game.Status.ACTIVE
    last_move = written[table.steps[-1].last] if table.steps else game.last_move_at
    change = Change(game, empty_table(game), table, (), None, ended or last_move or timezone.now())
    react(change, PROJECTIONS)
    if last_move is not None and game.last_move_at != last_move:
        game.last_move_at = last_move
        save_fields(game, ["last_move_at"])
    return before != (game.status, game.last_seq, game.to_move, game.scores, game.winners)
