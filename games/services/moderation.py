"""Moderation: every act of a moderator is an event of the game, with the moderator as
actor and the reason given; nobody changes a game silently (issue 8)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from events.shredding import person_key, seal_for, unseal
from games import table as tbl
from games.clock import PlayingHours
from games.errors import BadRequest, Conflict, Forbidden
from games.models import ChatMessage, Game, PlayerSettings, Report
from games.repository import game_table
from games.selectors.access import is_moderator
from games.selectors.names import bot_actor, persons_named
from games.services.common import act, actor_of, locked_game
from games.services.hours import hours_for_seat
from games.services.reactions import joined_seats
from games.services.tables import validate_bot_level


def sealed(stream: str, reason: str) -> str:
    """A moderator's reason as the events of ``stream`` keep it: sealed (``events.
    shredding``) under the stream's key and the key of every person it names
    (``persons_named``), since it may name a player or quote their chat, and must become
    unreadable once that player is forgotten — a player of the stream (issue 45) or anyone
    it names, in a game they were not in (issue 52)."""
    reason = reason.strip()
    return seal_for([stream, *(person_key(pk) for pk in persons_named(reason))], reason)


def _check_moderator(moderator, reason: str) -> None:
    if not is_moderator(moderator):
        raise Forbidden(_("only moderators may do this"), code="not_a_moderator")
    if not (reason or "").strip():
        raise BadRequest(
            _("say why: every moderation act is recorded with its reason"), code="reason_required"
        )


def _moderating(game: Game, moderator, reason: str) -> tuple[Game, str]:
    _check_moderator(moderator, reason)
    game = locked_game(game)
    if game.status != Game.Status.ACTIVE:
        # Translators: %(status)s is a game's status, e.g. "finished".
        raise Conflict(
            _("this game is %(status)s") % {"status": game.get_status_display()},
            code="not_active",
        )
    return game, f"moderator:{moderator.pk}"


def _moderate(game: Game, moderator, reason: str, command) -> Game:
    game, actor = _moderating(game, moderator, reason)
    act(game, command, actor=actor, reason=sealed(game.stream, reason))
    return game


@transaction.atomic
def moderate_pause(*, game: Game, moderator, reason: str) -> Game:
    """Stop the game's clocks (the deadline waits while paused)."""
    return _moderate(game, moderator, reason, tbl.Pause())


@transaction.atomic
def moderate_resume(*, game: Game, moderator, reason: str) -> Game:
    """Restart the clocks; the deadline moves on by the time they were stopped."""
    return _moderate(game, moderator, reason, tbl.Resume())


@transaction.atomic
def moderate_extend_deadline(*, game: Game, moderator, reason: str, hours: int) -> Game:
    """Give the seat to move more time."""
    if not isinstance(hours, int) or not 1 <= hours <= 24 * 30:
        raise BadRequest(_("extend by 1 to 720 hours"), code="invalid_hours")
    return _moderate(game, moderator, reason, tbl.ExtendDeadline(hours * 3600))


@transaction.atomic
def moderate_default_move(*, game: Game, moderator, reason: str) -> Game:
    """The seat to move plays its default command (the engine's least wasteful move)."""
    game, actor = _moderating(game, moderator, reason)
    table = game_table(game)
    command = tbl.Play(table.to_move(), table.engine.default_command(table.state), "moderator")
    act(game, command, actor=actor, reason=sealed(game.stream, reason), table=table)
    return game


def _seat_to_replace(game: Game, seat: int):
    """The seated player's seat numbered ``seat`` (from 0), or ``BadRequest``."""
    seats = {s.position: s for s in joined_seats(game)}
    if seat not in seats:
        raise BadRequest(
            _("there is no player %(seat)s; the players are numbered 1 to %(last)s")
            % {"seat": seat + 1 if isinstance(seat, int) else repr(seat), "last": len(seats)},
            code="invalid_seat",
        )
    return seats[seat]


@transaction.atomic
def moderate_replace_seat(*, game: Game, moderator, reason: str, seat: int, user) -> Game:
    """Someone else takes over a seat (e.g. for a player who vanished)."""
    game, actor = _moderating(game, moderator, reason)
    _seat_to_replace(game, seat)
    hours = hours_for_seat(game, user, None)
    replace = tbl.ReplaceSeat(seat, actor_of(user), PlayingHours(**hours) if hours else None)
    act(game, replace, actor=actor, reason=sealed(game.stream, reason))
    return game


@transaction.atomic
def moderate_replace_seat_bot(*, game: Game, moderator, reason: str, seat: int, level: str) -> Game:
    """A computer player of ``level`` takes over a seat (issue 15), e.g. for a player who
    vanished; it plays the seat's turns from then on."""
    game, actor = _moderating(game, moderator, reason)
    level = validate_bot_level(level)
    _seat_to_replace(game, seat)
    act(
        game,
        tbl.ReplaceSeat(seat, bot_actor(level)),
        actor=actor,
        reason=sealed(game.stream, reason),
    )
    return game


@transaction.atomic
def moderate_revert(*, game: Game, moderator, reason: str, to_seq: int) -> Game:
    """Take the game back to the position after event ``to_seq`` (the end of a move that
    still counts). Moderators may cross draws; the next draw is then a fresh one."""
    return _moderate(game, moderator, reason, tbl.Revert(to_seq))


@transaction.atomic
def moderate_abort(*, game: Game, moderator, reason: str) -> Game:
    """End the game with no result."""
    return _moderate(game, moderator, reason, tbl.Abort())


@transaction.atomic
def moderate_hide_message(*, message: ChatMessage, moderator, reason: str) -> ChatMessage:
    """Hide a chat message from everyone; the hiding is an event of its game."""
    _check_moderator(moderator, reason)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is not None:
        raise Conflict(_("this message is already hidden"), code="already_hidden")
    game = locked_game(message.game)
    reason = sealed(game.stream, reason)
    act(game, tbl.HideMessage(message.pk), actor=f"moderator:{moderator.pk}", reason=reason)
    message.hidden_at = timezone.now()
    # The row keeps the reason as the event does, sealed (``hidden_reason_of`` reads it).
    message.hidden_reason = reason
    message.save(update_fields=["hidden_at", "hidden_reason"])
    return message


def hidden_reason_of(message: ChatMessage) -> str:
    """Why a moderator hid ``message``, as they wrote it; "" once a person it was about
    is forgotten."""
    return unseal(message.game.stream, message.hidden_reason)


@transaction.atomic
def user_suspend(*, user, moderator, reason: str) -> None:
    """The user can no longer sign in or move; their clocks keep running."""
    _moderate_user(user, moderator, reason, suspend=True)


@transaction.atomic
def user_reinstate(*, user, moderator, reason: str) -> None:
    """Lift a suspension."""
    _moderate_user(user, moderator, reason, suspend=False)


def _moderate_user(user, moderator, reason: str, *, suspend: bool) -> None:
    _check_moderator(moderator, reason)
    if user.pk == moderator.pk:
        raise BadRequest(_("you cannot suspend yourself"), code="invalid_user")
    player, _created = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    player.suspended_at = timezone.now() if suspend else None
    player.suspended_reason = reason.strip() if suspend else ""
    player.save(update_fields=["suspended_at", "suspended_reason"])
    user.is_active = not suspend
    user.save(update_fields=["is_active"])


@transaction.atomic
def report_close(*, report: Report, moderator, status: str) -> Report:
    """Mark a report handled or dismissed."""
    if not is_moderator(moderator):
        raise Forbidden(_("only moderators may do this"), code="not_a_moderator")
    if status not in (Report.Status.HANDLED, Report.Status.DISMISSED):
        raise BadRequest(_("a report is closed as handled or dismissed"), code="invalid_status")
    report.status, report.handled_by, report.handled_at = status, moderator, timezone.now()
    report.save(update_fields=["status", "handled_by", "handled_at"])
    return report
