"""Conditional moves (issue 32): a seat's plan stored, replaced, deleted, and its moves
played. A plan is its player's alone (``Plan``, apart from the game's public stream); a
move played from it goes through ``act`` like any move, as actor ``plan:<user id>``.

While it is not their turn, a player keeps lines (the moves they expect from the others
and their answers, checked by playing them on the position: ``games.plan_lines``) and a
move for their next turn, played if it is still legal then ("if those tiles are still
there"). The reaction ``plan_following.plans_followed`` trims and drops plans after every
write and asks for ``plan_play`` when a plan's seat is to move."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import table as tbl
from games.errors import BadRequest, Conflict
from games.models import Game, Plan, Seat
from games.plan_lines import LineRefused, answer, check
from games.refusals import illegal_move_text, invalid_notation_text, plain_params
from games.repository import game_table
from games.rules.common import IllegalMove, InvalidNotation
from games.selectors.access import seat_of
from games.selectors.names import plan_actor
from games.services import sweep_failures
from games.services.common import act, games_swept, locked_game, playing_seat, position_seen
from games.services.plan_following import plan_dropped_told

# The sweep plays a planned move owed this long: its task was lost.
LOST_AFTER = timedelta(minutes=1)
# Games the sweep plays planned moves in per pass.
SWEEP_BATCH = 50
# The minute sweep's job of planned moves (``services.sweep.JOBS``).
SWEEP_JOB = "planned_moves"


@transaction.atomic
def plan_replace(
    *,
    game: Game | int,
    user,
    lines: list[list[str]],
    next_move: str = "",
    expected_seq: int | None = None,
) -> Plan | None:
    """Keep ``lines`` and ``next_move`` as the user's plan for their seat, in place of the
    one before (nothing at all deletes it: ``None``). Only while it is not their turn; every
    line is checked by playing it on the position (``plan_lines.check``), and a refusal says
    which line and move, and what would have been accepted there. ``expected_seq``: the
    ``last_seq`` the player planned on; a game that has moved on since is refused."""
    game = locked_game(game)
    seat = playing_seat(game, user)
    position_seen(game, expected_seq)
    table = game_table(game)
    if table.to_move() == seat.position:
        raise Conflict(
            _("it is your turn: play your move (plans are made while the others play)"),
            code="your_turn",
        )
    next_move = (next_move or "").strip()
    # A plan made again: what was said of the one dropped before has been read.
    Seat.objects.filter(pk=seat.pk).update(plan_dropped=None)
    if not lines and not next_move:
        Plan.objects.filter(game=game, seat=seat.position).delete()
        return None
    try:
        checked = check(table.engine, table.state, seat.position, lines)
    except LineRefused as refused:
        raise BadRequest(
            refusal_text(refused, game.game_type),
            code="invalid_plan",
            reason=refused.code,
            line=refused.line,
            step=refused.step,
            accepted=list(refused.accepted),
        ) from None
    if next_move:
        next_move = _readable(table, next_move, game.game_type)
    plan, _created = Plan.objects.update_or_create(
        game=game,
        seat=seat.position,
        defaults={
            "user": user,
            "lines": checked,
            "next_move": next_move,
            "at_seq": table.last_seq,
            "due_at": None,
            "updated_at": timezone.now(),
        },
    )
    if not game.planned:
        game.planned = True
        Game.objects.filter(pk=game.pk).update(planned=True)
    return plan


def _readable(table: tbl.Table, move: str, game_type: str) -> str:
    """The move for the next turn in the notation's own form; whether it is legal is known
    only when the turn comes."""
    try:
        return table.engine.format(table.engine.parse(move))
    except InvalidNotation as error:
        raise BadRequest(
            # Translators: %(problem)s says what cannot be read and what would be.
            _("the move for your next turn: %(problem)s")
            % {"problem": invalid_notation_text(error, game_type)},
            code="invalid_plan",
            reason="unreadable",
            engine_code=error.code,
            engine_params=plain_params(error.params),
        ) from None


@transaction.atomic
def plan_delete(*, game: Game | int, user, line: int | None = None) -> bool:
    """Delete the user's plan for their seat in ``game``, or only its line ``line`` (from
    0; the plan goes when nothing is left of it). Whether there was something to delete."""
    game = locked_game(game)
    seat = seat_of(game, user)
    if seat is None or seat.position is None:
        return False
    plan = Plan.objects.filter(game=game, seat=seat.position, user=user).first()
    if plan is None:
        return False
    if line is not None and 0 <= line < len(plan.lines):
        # The lines left were checked together with it: they still agree.
        plan.lines = [kept for index, kept in enumerate(plan.lines) if index != line]
        if plan.lines or plan.next_move:
            plan.save(update_fields=["lines"])
            return True
    elif line is not None:
        return False
    plan.delete()
    return True


def refusal_text(refused: LineRefused, game_type: str) -> str:
    """Why a line cannot be kept, naming the line and the move (both counted from 1), and
    what would have been accepted there."""
    values = {
        "line": refused.line,
        "step": refused.step,
        "text": refused.text,
        "other": refused.other,
        **refused.params,
    }
    match refused.code:
        case "too_many_lines":
            return (
                ngettext(
                    "a plan holds at most %(most)s line",
                    "a plan holds at most %(most)s lines",
                    refused.params["most"],
                )
                % values
            )
        case "too_long":
            return (
                ngettext(
                    "line %(line)s is too long: a line holds at most %(most)s move",
                    "line %(line)s is too long: a line holds at most %(most)s moves",
                    refused.params["most"],
                )
                % values
            )
        case "empty":
            return _("line %(line)s is empty: write its moves, separated by ;") % values
        case "after_draw":
            # Translators: a "draw" is the new tiles (or a new layout) drawn at random.
            return (
                _(
                    "line %(line)s, move %(step)s (%(text)s): the move before it ends the round "
                    "and new tiles are drawn, which nobody knows yet, so the line must end there"
                )
                % values
            )
        case "after_end":
            return _("line %(line)s, move %(step)s (%(text)s): the game is over before it") % (
                values
            )
        case "ends_with_theirs":
            return (
                _(
                    "line %(line)s ends with another player's move (%(text)s): end it with your "
                    "answer"
                )
                % values
            )
        case "two_answers":
            return (
                _(
                    "line %(line)s, move %(step)s (%(text)s): line %(other)s expects the same "
                    "moves and answers %(move)s: give one answer"
                )
                % values
            )
    said = (
        invalid_notation_text(refused.error, game_type)
        if refused.code == "unreadable"
        else illegal_move_text(refused.error, game_type)
    )
    # Translators: %(problem)s says what is wrong with the move; %(moves)s are moves in the
    # notation that the rules accept at that point.
    return _("line %(line)s, move %(step)s: %(problem)s (accepted there: %(moves)s)") % {
        **values,
        "problem": said,
        "moves": ", ".join(refused.accepted),
    }


@transaction.atomic
def plan_play(*, game_id: int, now: datetime | None = None) -> int:
    """Play the move the plan of the seat to move owes now, if any: the lines' answer, else
    the "if still there" move, if the rules still allow it (if not, it is dropped and its
    player told). Returns the moves played (0 or 1); the reactions of that move ask for
    the next one, if the plan has one."""
    game = locked_game(game_id)
    if game.status != Game.Status.ACTIVE or not game.planned or game.to_move is None:
        return 0
    plan = Plan.objects.filter(game=game, seat=game.to_move, due_at__isnull=False).first()
    seat = next((s for s in game.seats.all() if s.position == game.to_move), None)
    if plan is None or seat is None or seat.user_id != plan.user_id:
        return 0
    if seat.status != Seat.Status.JOINED or not seat.user.is_active:
        plan.delete()
        return 0
    table = game_table(game)
    move = answer(plan.lines)
    from_lines = move is not None
    if not from_lines:
        move, plan.next_move = plan.next_move, ""
    plan.due_at = None
    plan.save(update_fields=["next_move", "due_at"])
    try:
        command = table.engine.parse(move)
        act(
            game, tbl.Play(seat.position, command), actor=plan_actor(seat.user), table=table, at=now
        )
    except (InvalidNotation, IllegalMove):
        # An "if still there" move the rules no longer allow (a line's answer was checked on
        # this very position, so it lands here only if the rules changed since).
        if from_lines:
            plan.lines = []
        if plan.lines or plan.next_move:
            plan.save(update_fields=["lines"])
        else:
            plan.delete()
        # Keyed by the next event: the move that gave the turn may have dropped the lines,
        # told under its own seq.
        plan_dropped_told(game, game.last_seq + 1, seat, reason="not_legal", move=move)
        return 0
    return 1


def plans_sweep(*, now: datetime) -> int:
    """The minute sweep's part: play the planned moves owed for more than ``LOST_AFTER``
    (their task was lost), oldest first, at most ``SWEEP_BATCH`` games a pass."""
    due = (
        Plan.objects.filter(due_at__lte=now - LOST_AFTER)
        .exclude(game_id__in=sweep_failures.resting(SWEEP_JOB, now))
        .order_by("due_at")
        .values_list("game_id", flat=True)[:SWEEP_BATCH]
    )
    return games_swept(due, plan_play, now=now, job=SWEEP_JOB)


@transaction.atomic
def plan_dropped_seen(*, game: Game | int, user) -> None:
    """The player has read that their plan was dropped: the game page stops saying it."""
    game = locked_game(game)
    Seat.objects.filter(game=game, user=user).update(plan_dropped=None)
