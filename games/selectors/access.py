"""Who may see a game and its chat, and which seat is whose: a game's visibility to
visitors, players, invited players and moderators."""

from games.errors import NotFound
from games.models import Game, Seat
from games.repository import game_with_seats, no_such_game


def seat_of(game: Game, user) -> Seat | None:
    """The user's seat at the game (from the seats already read, when they were)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


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
