"""Moderation: every act of a moderator is an event of the game, with the moderator as
actor and the reason given; nobody changes a game silently (issue 8)."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import table as tbl
from games.errors import BadRequest, Conflict, Forbidden
from games.models import ChatMessage, Game, PlayerSettings, Report
from games.selectors import game_table
from games.services.common import (
    actor_of,
    after_move,
    append_events,
    joined_seats,
    locked_game,
    play,
    project,
    table_event,
    void_moves,
)

# Every act of a moderator is an event of the game, with the moderator as actor and the
# reason given: nobody changes a game silently (issue 8).

MODERATORS_GROUP = "moderators"


def is_moderator(user) -> bool:
    """Staff in the ``moderators`` group (being staff or superuser alone is not enough)."""
    return bool(
        getattr(user, "is_active", False)
        and user.is_staff
        and user.groups.filter(name=MODERATORS_GROUP).exists()
    )


def _check_moderator(moderator, reason: str) -> None:
    if not is_moderator(moderator):
        raise Forbidden("only moderators may do this", code="not_a_moderator")
    if not (reason or "").strip():
        raise BadRequest(
            "say why: every moderation act is recorded with its reason", code="reason_required"
        )


def _moderating(game: Game, moderator, reason: str) -> tuple[Game, tbl.Table, str]:
    _check_moderator(moderator, reason)
    game = locked_game(game)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"this game is {game.get_status_display()}", code="not_active")
    return game, game_table(game), f"moderator:{moderator.pk}"


def _record_moderation(game, table, actor, reason, action: str, **details) -> None:
    append_events(
        game,
        [table_event(tbl.Moderated(action, details))],
        actor=actor,
        reason=reason.strip(),
        table=table,
    )


@transaction.atomic
def moderate_pause(*, game: Game, moderator, reason: str) -> Game:
    """Stop the game's clocks (the deadline waits while paused)."""
    game, table, actor = _moderating(game, moderator, reason)
    if game.paused_at is not None:
        raise Conflict("the clocks are already paused", code="already_paused")
    _record_moderation(game, table, actor, reason, "pause")
    game.paused_at = timezone.now()
    project(game, table)
    return game


@transaction.atomic
def moderate_resume(*, game: Game, moderator, reason: str) -> Game:
    """Restart the clocks; the deadline moves on by the time they were stopped."""
    game, table, actor = _moderating(game, moderator, reason)
    if game.paused_at is None:
        raise Conflict("the clocks are not paused", code="not_paused")
    now = timezone.now()
    paused = now - game.paused_at
    _record_moderation(
        game, table, actor, reason, "resume", paused_seconds=int(paused.total_seconds())
    )
    if game.deadline is not None:
        game.deadline += paused
    game.paused_at = None
    project(game, table, now=now)
    return game


@transaction.atomic
def moderate_extend_deadline(*, game: Game, moderator, reason: str, hours: int) -> Game:
    """Give the seat to move more time."""
    if not isinstance(hours, int) or not 1 <= hours <= 24 * 30:
        raise BadRequest("extend by 1 to 720 hours", code="invalid_hours")
    game, table, actor = _moderating(game, moderator, reason)
    if game.deadline is None:
        raise Conflict("this game has no deadline to extend", code="no_deadline")
    _record_moderation(game, table, actor, reason, "extend_deadline", hours=hours)
    game.deadline += timedelta(hours=hours)
    project(game, table)
    return game


@transaction.atomic
def moderate_default_move(*, game: Game, moderator, reason: str) -> Game:
    """The seat to move plays its default command (the engine's least wasteful move)."""
    game, table, actor = _moderating(game, moderator, reason)
    command = table.engine.default_command(table.state)
    play(game, table, command, actor=actor, auto="moderator", reason=reason.strip())
    return game


@transaction.atomic
def moderate_replace_seat(*, game: Game, moderator, reason: str, seat: int, user) -> Game:
    """Someone else takes over a seat (e.g. for a player who vanished)."""
    game, table, actor = _moderating(game, moderator, reason)
    seats = {s.position: s for s in joined_seats(game)}
    if seat not in seats:
        raise BadRequest(f"no seat {seat}; seats are {sorted(seats)}", code="invalid_seat")
    if any(s.user_id == user.pk for s in seats.values()):
        raise Conflict(f"{user.email} already has a seat in this game", code="already_seated")
    replaced = seats[seat]
    _record_moderation(
        game,
        table,
        actor,
        reason,
        "replace_seat",
        seat=seat,
        to=actor_of(user),
        **{"from": actor_of(replaced.user)},
    )
    replaced.user = user
    replaced.save(update_fields=["user"])
    project(game, table)
    return game


@transaction.atomic
def moderate_revert(*, game: Game, moderator, reason: str, to_seq: int) -> Game:
    """Take the game back to the position after event ``to_seq``. Moderators may cross
    draws; the next draw is then a fresh one."""
    game, table, actor = _moderating(game, moderator, reason)
    valid = isinstance(to_seq, int) and 0 < to_seq < game.last_seq
    if not valid or not tbl.is_takeback_point(table, game_table(game, upto=to_seq)):
        raise BadRequest(
            f"event {to_seq} is not the end of a move that still counts; choose one of "
            f"{table.boundaries()[-10:]}",
            code="invalid_revert",
            accepted=table.boundaries(),
        )
    before = game.to_move
    void_moves(game, table, to_seq, cause="revert", actor=actor, reason=reason.strip())
    after_move(game, table, before)
    return game


@transaction.atomic
def moderate_abort(*, game: Game, moderator, reason: str) -> Game:
    """End the game with no result."""
    game, table, actor = _moderating(game, moderator, reason)
    _record_moderation(game, table, actor, reason, "abort")
    project(game, table)
    return game


@transaction.atomic
def moderate_hide_message(*, message: ChatMessage, moderator, reason: str) -> ChatMessage:
    """Hide a chat message from everyone; the hiding is an event of its game."""
    _check_moderator(moderator, reason)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is not None:
        raise Conflict("this message is already hidden", code="already_hidden")
    game = locked_game(message.game)
    table = game_table(game)
    _record_moderation(
        game, table, f"moderator:{moderator.pk}", reason, "hide_message", message=message.pk
    )
    message.hidden_at = timezone.now()
    message.hidden_reason = reason.strip()
    message.save(update_fields=["hidden_at", "hidden_reason"])
    project(game, table)
    return message


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
        raise BadRequest("you cannot suspend yourself", code="invalid_user")
    player, _ = PlayerSettings.objects.select_for_update().get_or_create(user=user)
    player.suspended_at = timezone.now() if suspend else None
    player.suspended_reason = reason.strip() if suspend else ""
    player.save(update_fields=["suspended_at", "suspended_reason"])
    user.is_active = not suspend
    user.save(update_fields=["is_active"])


@transaction.atomic
def report_close(*, report: Report, moderator, status: str) -> Report:
    """Mark a report handled or dismissed."""
    if not is_moderator(moderator):
        raise Forbidden("only moderators may do this", code="not_a_moderator")
    if status not in (Report.Status.HANDLED, Report.Status.DISMISSED):
        raise BadRequest("a report is closed as handled or dismissed", code="invalid_status")
    report.status, report.handled_by, report.handled_at = status, moderator, timezone.now()
    report.save(update_fields=["status", "handled_by", "handled_at"])
    return report
