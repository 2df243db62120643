"""Server-rendered pages: thin doors over the services, the selectors and the pages'
presenters (``games/presenters/``). Each view reads its input, calls one service or
selector or presenter, and renders; a refusal (``ServiceError``) becomes a clear message on
the page it came from, never a 500."""

from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.boards import title_of
from games.durations import time_left_text
from games.errors import ServiceError
from games.forms import (
    GameCreateForm,
    HoursFields,
    MoveForm,
    PlanBoardForm,
    PlanDeleteForm,
    PlanForm,
    TakebackAnswerForm,
    TakebackRequestForm,
)
from games.models import Game, Seat
from games.plan_lines import read_lines
from games.presenters.endings import row_ending
from games.presenters.game_page import (
    analysis_progress_text,
    game_context,
    hours_form,
    live_update,
    open_game_context,
    plan_board_context,
    preselected,
    settings_words,
)
from games.presenters.replay import replay_context
from games.presenters.text_table import text_table_context
from games.replica import lag_tolerant
from games.selectors import seats
from games.selectors.access import game_for_viewer
from games.selectors.analysis import analysis_progress as progress_of
from games.selectors.analysis import current_analysis
from games.selectors.lists import (
    games_for_user,
    games_to_watch_first,
    invitations_for,
    open_games,
    waiting_for,
)
from games.selectors.names import display_name, players_of, players_of_games
from games.selectors.seats import departures, hours_of_player, resigning_aborts
from games.services import chat
from games.services.analysis import analysis_request
from games.services.invitations import invitation_decline
from games.services.moves import (
    deadline_grant,
    game_resign,
    move_submit,
    move_undo,
    takeback_answer,
    takeback_request,
)
from games.services.plans import plan_delete, plan_dropped_seen, plan_replace, refusal_text
from games.services.rematch import game_rematch
from games.services.tables import (
    game_cancel,
    game_create,
    game_join,
    game_leave,
    invitation_seat,
    seat_seen,
)


def home(request: HttpRequest) -> HttpResponse:
    """The front page, with the public games in play that anyone may watch; signed-in
    players go to their lobby."""
    if request.user.is_authenticated:
        return redirect("lobby")
    watch = _rows(games_to_watch_first())
    return render(request, "home.html", {"watch": watch})


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers and ``make run``: answers once the database does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def refusal_page(view):
    """A service's refusal as a page with its message and status, never a 500."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            return render(request, "refused.html", {"message": error.message}, status=error.status)

    return wrapper


# --- the lobby and new games ----------------------------------------------------------------


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Your games (waiting for you first), the open games to join, then the public games
    in play that you may watch."""
    user = request.user
    waiting = list(waiting_for(user))
    waiting_ids = {game.pk for game in waiting}
    active = [g for g in games_for_user(user, "active") if g.pk not in waiting_ids]
    context = {
        "waiting": _rows(waiting),
        "active": _rows(active),
        "finished": _rows(games_for_user(user, "finished")[:30]),
        "open": _rows(open_games(user)[:30]),
        "watch": _rows(games_to_watch_first(user)),
        "invitations": _rows(invitations_for(user)),
        "poll_ms": LOBBY_POLL_MILLISECONDS,
    }
    return render(request, "lobby.html", context)


def _rows(games) -> list[dict]:
    games = list(games)
    over = [g for g in games if g.status in (Game.Status.FINISHED, Game.Status.ABORTED)]
    left = departures(over)
    seated = players_of_games(games)
    now = timezone.now()
    rows = []
    for game in games:
        players = seated[game.pk]
        names = {p["seat"]: p["player"] for p in players if p["seat"] is not None}
        time_left = seats.time_left(game, now)
        rows.append(
            {
                "game": game,
                "title": title_of(game.game_type),
                "players": players,
                "to_move": names.get(game.to_move),
                "time_left": time_left_text(time_left) if time_left else "",
                "ending": row_ending(game, names, left.get(game.pk, [])),
            }
        )
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """The create-game form; the service decides what is allowed."""
    form = GameCreateForm(request.POST or None, initial=hours_of_player(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            game = game_create(
                creator=request.user,
                game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                options=form.game_options(),
                time_control=form.time_control_value(),
                self_undo=form.cleaned_data["self_undo"],
                private=form.cleaned_data["private"],
                rated=form.cleaned_data["rated"],
                invite=form.invited(),
                bots=form.bot_levels(),
                timeout_policy=form.timeout_policy_value(),
                timeout_bot=form.timeout_bot_level(),
                playing_hours=form.cleaned_data["playing_hours"],
                hours=form.hours_value() if form.cleaned_data["playing_hours"] else None,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            if form.unrated_despite_asking():
                messages.info(
                    request,
                    gettext("This game is not rated: games with computer players are not rated."),
                )
            return redirect("game", game_id=game.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "game_new.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
@refusal_page
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an invitation email: GET shows the game, its settings and players with
    "Accept" and "Decline"; a POST answers (accepting takes the seat)."""
    seat = invitation_seat(token)
    if request.method == "POST":
        if request.POST.get("answer") == "decline":
            invitation_decline(token=token)
            messages.success(request, gettext("You declined the invitation: the seat is free."))
            return redirect(request.path)
        if not request.user.is_authenticated:
            return redirect(f"{settings.LOGIN_URL}?{urlencode({'next': request.path})}")
        game_join(
            game=seat.game, user=request.user, token=token, hours=_hours_typed(request, seat.game)
        )
        return redirect("game", game_id=seat.game.pk)
    players = players_of(seat.game)
    context = {
        "seat": seat,
        "game": seat.game,
        "title": title_of(seat.game.game_type),
        "players": players,
        "settings": settings_words(seat.game, players),
        "creator": display_name(seat.game.created_by),
        "usable": seat.status == Seat.Status.INVITED and seat.game.status == Game.Status.OPEN,
        "hours_form": hours_form(seat.game, request.user),
    }
    return render(request, "invitation.html", context)


# --- the game page ---------------------------------------------------------------------------


@require_GET
@refusal_page
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every board, the table, whose turn, every clock, the moves, the chat — and, on your
    turn, the legal moves to choose from. ``?move=<notation>`` (the emails' links) only
    preselects that move: confirming it is a POST."""
    game = game_for_viewer(game_id, request.user)
    if request.user.is_authenticated:
        seat_seen(game=game, user=request.user)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED) and not game.last_seq:
        context = open_game_context(game, request.user)
        return render(request, "game_open.html", context)
    # The text table is remembered for the session once chosen; its "Back to the boards"
    # (``?boards``) forgets it.
    if "boards" in request.GET:
        request.session.pop(TEXT_TABLE_CHOSEN, None)
    elif request.session.get(TEXT_TABLE_CHOSEN):
        wanted = request.GET.get("move", "").strip()
        text = reverse("game-text", args=[game.pk])
        return redirect(f"{text}?{urlencode({'move': wanted})}" if wanted else text)
    context = game_context(game, request.user)
    wanted = request.GET.get("move", "").strip()
    if wanted and context["my_turn"]:
        context.update(preselected(context["table"], wanted, context["moves"]))
    mistyped = request.session.pop(_mistyped_key(game.pk), None)
    if mistyped and context["my_turn"]:
        context.update(typed=mistyped["typed"], typed_error=mistyped["error"])
    refused_plan = request.session.pop(_refused_plan_key(game.pk), None)
    if refused_plan and "plan" in context:
        context["plan"] = {**context["plan"], **refused_plan}
    return render(request, "game.html", context)


TEXT_TABLE_CHOSEN = "text-table"


@require_GET
def game_text(request: HttpRequest, game_id: int) -> HttpResponse:
    """The text table (issue 56): the position as headings, lists and tables for a screen
    reader, the legal moves in words, a box for moves in notation and for questions, and
    what happens said in a polite live region."""
    game = game_for_viewer(game_id, request.user)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED) and not game.last_seq:
        return redirect("game", game_id=game.pk)
    if request.user.is_authenticated:
        seat_seen(game=game, user=request.user)
    request.session[TEXT_TABLE_CHOSEN] = True
    context = game_context(game, request.user)
    context.update(text_table_context(game, context))
    mistyped = request.session.pop(_mistyped_key(game.pk), None)
    if mistyped and context["my_turn"]:
        context.update(typed=mistyped["typed"], typed_error=mistyped["error"])
    elif context["my_turn"]:
        # An email's link names a move: it waits in the box, to be sent with Enter.
        context["typed"] = request.GET.get("move", "").strip()[:200]
    return render(request, "game_text.html", context)


def _mistyped_key(game_id: int) -> str:
    return f"mistyped-move:{game_id}"


def _refused_plan_key(game_id: int) -> str:
    return f"refused-plan:{game_id}"


@require_GET
def game_live(request: HttpRequest, game_id: int) -> JsonResponse:
    """What the open game page needs to follow the game without reloading (the parts of
    the page that changed since ``seq`` and ``chat``, as HTML)."""
    try:
        game = game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    if request.user.is_authenticated:
        seat_seen(game=game, user=request.user)
    answer = live_update(request, game, seq=request.GET.get("seq"), chat=request.GET.get("chat"))
    return JsonResponse(answer)


# Refusals whose service message is written for API clients, said again for players.
PAGE_WORDS = {
    "stale": gettext_lazy(
        "The game moved on while you were choosing: here is the position now, choose again."
    ),
}


# The refusals of a typed move that are about its text: said next to the box that holds it.
MISTYPED = ("invalid_notation", "illegal_move")


# The lobby reads itself again this often while it is on the screen.
LOBBY_POLL_MILLISECONDS = 10000


def _game_action(view):
    """A POST on a game the user may see. Whatever happens the answer is a redirect to
    the game page (so reloading never repeats a POST), a refusal said there as a message.
    A GET (the browser coming back from signing in after a POST was sent to the sign-in
    page) is sent to the game page, where the move can be made again."""

    @login_required
    @require_http_methods(["GET", "POST"])
    @wraps(view)
    def wrapper(request, game_id: int):
        if request.method == "GET":
            return redirect("game", game_id=game_id)
        try:
            game = game_for_viewer(game_id, request.user)
        except ServiceError as error:
            return render(request, "refused.html", {"message": error.message}, status=error.status)
        try:
            view(request, game)
        except ServiceError as error:
            said = PAGE_WORDS.get(error.code) or capfirst(error.message) + "."
            messages.error(request, said)
        # A form of the text table brings the player back to it.
        back = "game-text" if request.POST.get("back") == "text" else "game"
        return redirect(back, game_id=game.pk)

    return wrapper


def _valid(form) -> dict:
    if not form.is_valid():
        problems = "; ".join(" ".join(errors) for errors in form.errors.values())
        raise ServiceError(
            gettext("the form was not filled in as expected (%(problems)s)")
            % {"problems": problems}
        )
    return form.cleaned_data


@_game_action
def move_post(request: HttpRequest, game: Game) -> None:
    """Play a move given in notation, with the seq the page was showing."""
    form = MoveForm(request.POST)
    _valid(form)
    if not form.notation():
        raise ServiceError(gettext("choose a move on the board or from the list, or type one"))
    try:
        move_submit(
            game=game,
            user=request.user,
            move=form.notation(),
            expected_seq=form.cleaned_data["expected_seq"],
        )
    except ServiceError as error:
        typed = form.cleaned_data.get("typed", "").strip()
        if not typed or error.code not in MISTYPED:
            raise
        # A mistyped move comes back in its box, with what is wrong said beside it.
        request.session[_mistyped_key(game.pk)] = {
            "typed": typed,
            "error": capfirst(error.message) + ".",
        }


@_game_action
def plan_post(request: HttpRequest, game: Game) -> None:
    """Keep the lines and the "if still there" move written on the page as the player's
    plan (conditional moves); a refused plan comes back in its boxes, with what is wrong
    said beside them."""
    data = _valid(PlanForm(request.POST))
    try:
        plan = plan_replace(
            game=game,
            user=request.user,
            lines=read_lines(data["lines"]),
            next_move=data["next_move"],
            expected_seq=data["expected_seq"],
        )
    except ServiceError as error:
        if error.code != "invalid_plan":
            raise
        request.session[_refused_plan_key(game.pk)] = {
            "text": data["lines"],
            "next_move": data["next_move"],
            "error": capfirst(error.message) + ".",
        }
        return
    if plan is None:
        messages.success(request, gettext("Your plan is deleted."))
    else:
        messages.success(request, gettext("Your plan is kept. Nobody else can see it."))


@login_required
@require_GET
@refusal_page
def plan_board(request: HttpRequest, game_id: int) -> HttpResponse:
    """Plan a line by clicking (conditional moves): the position after the line so far
    (``line``, moves separated by ``;``) with the boards to pick the next move on, for
    whoever is to move there; a move picked (``move``, or ``typed``) is added to the line.
    "Add this line" posts the plan with it to ``plan_post``, like the notation form. Only
    for a player while it is not their turn; otherwise back to the game page."""
    game = game_for_viewer(game_id, request.user)
    form = PlanBoardForm(request.GET)
    data = _valid(form)
    context = plan_board_context(game, request.user, form.moves(), data["seq"])
    if context is None:
        return redirect("game", game_id=game.pk)
    if context["refused"] is not None:
        refused = refusal_text(context["refused"], game.game_type)
        context["error"] = capfirst(refused) + "."
    elif context["moved_on"]:
        context["error"] = gettext(
            "The game moved on since: here is the position now, start the line again."
        )
    return render(request, "game_plan_board.html", context)


@_game_action
def plan_delete_post(request: HttpRequest, game: Game) -> None:
    """Delete the player's plan, or one line of it."""
    line = _valid(PlanDeleteForm(request.POST))["line"]
    plan_delete(game=game, user=request.user, line=line)


@_game_action
def plan_seen_post(request: HttpRequest, game: Game) -> None:
    """The player has read that their plan was dropped."""
    plan_dropped_seen(game=game, user=request.user)


@_game_action
def undo_post(request: HttpRequest, game: Game) -> None:
    """Take back your own last move, while the rules of undo allow."""
    move_undo(game=game, user=request.user)


@_game_action
def grant_day_post(request: HttpRequest, game: Game) -> None:
    """Give the player to move one more day (an opponent's courtesy)."""
    deadline_grant(game=game, user=request.user)


@_game_action
def takeback_request_post(request: HttpRequest, game: Game) -> None:
    to_seq = _valid(TakebackRequestForm(request.POST))["to_seq"]
    takeback_request(game=game, user=request.user, to_seq=to_seq)


@_game_action
def takeback_answer_post(request: HttpRequest, game: Game) -> None:
    data = _valid(TakebackAnswerForm(request.POST))
    takeback_answer(game=game, user=request.user, request=data["request"], accept=data["accept"])


@_game_action
def chat_post(request: HttpRequest, game: Game) -> None:
    """Write in the game's chat (the service checks who and how long)."""
    chat.chat_post(game=game, user=request.user, text=request.POST.get("text", ""))


def _hours_typed(request: HttpRequest, game: Game) -> dict | None:
    """In a game with playing hours, the hours typed beside the join or accept button."""
    if not (game.time_control or {}).get("playing_hours"):
        return None
    form = HoursFields(request.POST)
    _valid(form)
    return form.hours_value()


@_game_action
def join_post(request: HttpRequest, game: Game) -> None:
    """Take a seat (in a game with playing hours, with the hours typed)."""
    game_join(game=game, user=request.user, hours=_hours_typed(request, game))


@_game_action
def leave_post(request: HttpRequest, game: Game) -> None:
    game_leave(game=game, user=request.user)


@_game_action
def cancel_post(request: HttpRequest, game: Game) -> None:
    game_cancel(game=game, user=request.user)


@login_required
@require_POST
@refusal_page
def rematch_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Open the rematch (same players and options, seats rotated) and go to it."""
    game = game_for_viewer(game_id, request.user)
    new = game_rematch(game=game, user=request.user)
    if new.status == Game.Status.ACTIVE:
        # Every other seat went to a computer player: the game has already begun.
        messages.success(request, gettext("Rematch started against the computer."))
    else:
        messages.success(request, gettext("Rematch opened: the other players are invited."))
    return redirect("game", game_id=new.pk)


@login_required
@require_http_methods(["GET", "POST"])
@refusal_page
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks for confirmation; POST resigns."""
    game = game_for_viewer(game_id, request.user)
    if request.method == "POST":
        game_resign(game=game, user=request.user)
        return redirect("game", game_id=game.pk)
    context = {
        "game": game,
        "title": title_of(game.game_type),
        "aborts": resigning_aborts(game),
    }
    return render(request, "resign.html", context)


@require_GET
def game_seq(request: HttpRequest, game_id: int) -> JsonResponse:
    """The cheap "has anything changed" check of a page waiting for players: the game's
    last seq."""
    try:
        game = game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    if request.user.is_authenticated:
        seat_seen(game=game, user=request.user)
    return JsonResponse({"last_seq": game.last_seq, "status": game.status})


# --- the replay viewer ------------------------------------------------------------------------


@require_GET
@refusal_page
@lag_tolerant
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Any moment of a game one may see: ``?at=N`` is the seq shown (the end of a move)."""
    game = game_for_viewer(game_id, request.user)
    if not game.last_seq:
        raise ServiceError(
            gettext("this game has not started: nothing to replay yet"), code="not_started"
        )
    context = replay_context(game, at=request.GET.get("at"))
    return render(request, "replay.html", context)


@login_required
@require_POST
@refusal_page
def analysis_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the analysis of a finished game one may see; back to the page it came from."""
    game = game_for_viewer(game_id, request.user)
    analysis_request(game=game)
    if request.POST.get("back") == "replay":
        return redirect("game-replay", game_id=game.pk)
    return redirect("game", game_id=game.pk)


@require_GET
def analysis_progress(request: HttpRequest, game_id: int) -> JsonResponse:
    """The small poll of a page showing an analysis in progress: its status and progress."""
    try:
        game = game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    analysis = current_analysis(game)
    if analysis is None:
        return JsonResponse({"status": None})
    progress = progress_of(analysis)
    return JsonResponse({**progress, "text": analysis_progress_text(progress)})
