"""People's and computers' names at a table: players in seat order, forgotten players
(issue 45), computer players, the actors the event store names, and the people a text
names (issue 52)."""

from django.contrib.auth import get_user_model
from django.db.models import CharField, Q, Value
from django.db.models.functions import Concat, Left, Length, Lower, StrIndex
from django.utils.translation import gettext

from games.models import BOT_USERNAME_PREFIX, BotLevel, Game, Seat


def players_of(game: Game) -> list[dict]:
    """Seats in play order with who sits there (names, never email addresses); a seat
    kept for an invited player names them in ``invited`` (their name on the site, or the
    first part of the address until they have one)."""
    return players_of_games([game])[game.pk]


def players_of_games(games) -> dict[int, list[dict]]:
    """``players_of`` each of ``games``, by game id: the lists of games read every row's
    seats in one statement (and the invited players' names in one more), not one a row."""
    by_game: dict[int, list[Seat]] = {game.pk: [] for game in games}
    seats = Seat.objects.filter(game_id__in=by_game).select_related("user")
    for seat in seats.order_by("game_id", "position", "pk"):
        by_game[seat.game_id].append(seat)
    emails = [
        seat.invited_email
        for seated in by_game.values()
        for seat in seated
        if seat.status == Seat.Status.INVITED
    ]
    known = (
        {
            user.email.lower(): display_name(user)
            for user in get_user_model().objects.filter(email__in=emails)
        }
        if emails
        else {}
    )
    return {pk: _seated(seated, known) for pk, seated in by_game.items()}


def _seated(seats: list[Seat], known: dict[str, str]) -> list[dict]:
    names = table_names([(seat.user, seat.bot) for seat in seats])
    return [
        {
            "seat": seat.position,
            "player": names[index],
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


def table_names(seats: list[tuple]) -> list[str | None]:
    """The names of one table's seats, given in play order as (user, computer level) each:
    a person's name, a forgotten player's and a computer's, numbered where a table has
    several (``forgotten_numbers``, ``computer_numbers``); ``None`` for an empty seat. Every
    page, email and answer that lists a game's players names them so."""
    computers = computer_numbers([level if not user else "" for user, level in seats])
    forgotten = forgotten_numbers([user for user, _level in seats])
    return [
        (deleted_name(forgotten.get(index)) if is_forgotten(user) else display_name(user))
        if user
        else bot_name(level, number=computers.get(index))
        for index, (user, level) in enumerate(seats)
    ]


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
    if is_bot_account(user):
        # Translators: a program's account (issue 55), marked wherever its name appears.
        return gettext("BOT %(name)s") % {"name": user.first_name}
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


def is_bot_account(user) -> bool:
    """Whether ``user`` is a program's account (``models.BotAccount``), told by its username
    alone (no address can have it): no query."""
    return user.username.startswith(BOT_USERNAME_PREFIX) and "@" not in user.username


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


def actor_name(actor: str) -> str:
    """A seat's actor for people: "Computer (easy)" for "bot:easy", else as stored."""
    if actor.startswith(BOT_ACTOR_PREFIX):
        return bot_name(actor.removeprefix(BOT_ACTOR_PREFIX)) or actor
    return actor


# Names shorter than this are not looked for in a reason: "Al" would name every account
# with "al" in its address.
SHORTEST_NAME = 3


def persons_named(text: str) -> list[int]:
    """The accounts ``text`` names, as a moderator writes about people: by address, by
    the name the site shows (``display_name``: the first name, else the address before
    its @), by first or last name, or by both (case ignored). One statement over the
    accounts, as moderation is rare; a name several accounts share names each of them."""
    said = Value(text.lower(), output_field=CharField())
    email = Lower("email")
    local = Left(email, StrIndex(email, Value("@")) - 1)
    full = Lower(Concat("first_name", Value(" "), "last_name"))
    spellings = {"email": email, "local": local, "first": Lower("first_name")}
    spellings |= {"last": Lower("last_name"), "full": full}
    named = Q()
    for alias in spellings:
        named |= Q(**{f"{alias}_length__gte": SHORTEST_NAME, f"{alias}_at__gt": 0})
    users = get_user_model().objects.alias(
        **{f"{alias}_length": Length(spelling) for alias, spelling in spellings.items()},
        **{f"{alias}_at": StrIndex(said, spelling) for alias, spelling in spellings.items()},
    )
    return sorted(users.filter(named).exclude(email="").values_list("pk", flat=True))
