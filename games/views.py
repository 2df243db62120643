"""Server-rendered pages: thin doors over the services and selectors. Each view reads its
input, calls one service or selector, and renders; a refusal (``ServiceError``) becomes a
clear message on the page it came from, never a 500."""

import json
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import selectors, services
from games import table as tbl
from games.boards import board_of, clickable_moves
from games.errors import ServiceError
from games.forms import (
    EmailForm,
    GameCreateForm,
    MoveForm,
    TakebackAnswerForm,
    TakebackRequestForm,
    option_field,
)
from games.models import Game, Seat
from games.registry import GAME_TYPES, game_type

POLL_MILLISECONDS = 4000


def home(request: HttpRequest) -> HttpResponse:
    """The front page; signed-in players go to their lobby."""
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html")


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


# --- signing in -----------------------------------------------------------------------------


def _next_url(request: HttpRequest, fallback: str = "/lobby/") -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return fallback


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for a sign-in link by email. The link is sent at once (not through the outbox:
    the person is waiting for it)."""
    form = EmailForm(request.POST or None)
    next_url = _next_url(request)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"].lower()
        token = services.sign_in_token(email=email)
        link = request.build_absolute_uri(reverse("sign-in-link", args=[token]))
        link += "?" + urlencode({"next": next_url})
        send_mail(
            "Your sign-in link for azulsite",
            render_to_string("signin_email.txt", {"link": link}),
            None,
            [email],
        )
        return render(request, "signin_sent.html", {"email": email})
    return render(request, "signin.html", {"form": form, "next": next_url})


@require_http_methods(["GET", "POST"])
def sign_in_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a "Sign in" button (mail scanners open links); POST signs in."""
    next_url = _next_url(request)
    if request.method == "GET":
        return render(request, "signin_link.html", {"next": next_url})
    try:
        user = services.account_sign_in(token=token)
    except ServiceError as error:
        return render(request, "signin_failed.html", {"message": error.message}, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(next_url)


# --- the lobby and new games ----------------------------------------------------------------


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """Your games (waiting for you first), then the open games to join."""
    user = request.user
    waiting = list(selectors.waiting_for(user))
    waiting_ids = {game.pk for game in waiting}
    active = [g for g in selectors.games_for_user(user, "active") if g.pk not in waiting_ids]
    context = {
        "waiting": _rows(waiting),
        "active": _rows(active),
        "finished": _rows(selectors.games_for_user(user, "finished")[:30]),
        "open": _rows(selectors.open_games(user)[:30]),
        "invitations": _rows(selectors.invitations_for(user)),
    }
    return render(request, "lobby.html", context)


def _rows(games) -> list[dict]:
    rows = []
    for game in games:
        players = selectors.players_of(game)
        rows.append(
            {
                "game": game,
                "title": game_type(game.game_type).title,
                "players": players,
                "to_move": next((p["player"] for p in players if p["seat"] == game.to_move), None),
            }
        )
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """The create-game form; the service decides what is allowed."""
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                creator=request.user,
                game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                options=form.game_options(),
                time_control=form.time_control_value(),
                self_undo=form.cleaned_data["self_undo"],
                private=form.cleaned_data["private"],
                rated=form.cleaned_data["rated"],
                invite=form.invited(),
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game", game_id=game.pk)
    option_fields = {
        slug: [form[option_field(slug, option)] for option in kind.engine.OPTIONS]
        for slug, kind in GAME_TYPES.items()
    }
    status = 400 if request.method == "POST" else 200
    return render(
        request, "game_new.html", {"form": form, "option_fields": option_fields}, status=status
    )


@require_http_methods(["GET", "POST"])
@refusal_page
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an invitation email: GET shows the game and an "Accept" button, POST
    takes the seat."""
    seat = services.invitation_seat(token)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{settings.LOGIN_URL}?{urlencode({'next': request.path})}")
        services.game_join(game=seat.game, user=request.user, token=token)
        return redirect("game", game_id=seat.game.pk)
    context = {
        "seat": seat,
        "game": seat.game,
        "title": game_type(seat.game.game_type).title,
        "players": selectors.players_of(seat.game),
        "usable": seat.status == Seat.Status.INVITED and seat.game.status == Game.Status.OPEN,
    }
    return render(request, "invitation.html", context)


# --- the game page ---------------------------------------------------------------------------


@require_GET
@refusal_page
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every board, the table, whose turn, the clock, the moves, the chat — and, on your
    turn, the legal moves to choose from."""
    game = selectors.game_for_viewer(game_id, request.user)
    if request.user.is_authenticated:
        services.seat_seen(game=game, user=request.user)
    return _game_page(request, game)


def _game_page(
    request: HttpRequest, game: Game, *, error: str = "", typed: str = "", status: int = 200
) -> HttpResponse:
    seat = selectors.seat_of(game, request.user)
    players = selectors.players_of(game)
    context = {
        "game": game,
        "title": game_type(game.game_type).title,
        "players": players,
        "seat": seat,
        "error": error,
        "typed": typed,
        "chat": game.chat.filter(hidden_at__isnull=True).select_related("author"),
        "can_chat": seat is not None and seat.status in (Seat.Status.JOINED, Seat.Status.RESIGNED),
        "poll_ms": POLL_MILLISECONDS,
    }
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED) and not game.last_seq:
        context["can_join"] = (
            request.user.is_authenticated and seat is None and game.status == Game.Status.OPEN
        )
        return render(request, "game_open.html", context, status=status)
    table = selectors.game_table(game)
    playing = (
        seat is not None
        and seat.status == Seat.Status.JOINED
        and game.status == Game.Status.ACTIVE
        and seat.position is not None
    )
    my_turn = playing and table.to_move() == seat.position
    context.update(_table_context(game, table, picks_for=seat.position if my_turn else None))
    history = _numbered(selectors.move_history(game), players)
    context.update(
        {
            "history": history,
            "playing": playing,
            "my_turn": my_turn,
            "can_grant_day": playing and not my_turn and game.deadline is not None,
            "can_undo": playing
            and game.self_undo
            and tbl.undoable_step(table, seat.position) is not None,
            "takeback": table.takeback,
            "takeback_points": _takeback_points(history, table) if playing else [],
            "answer_takeback": playing
            and table.takeback is not None
            and table.takeback.seat != seat.position
            and seat.position not in table.takeback.accepted,
        }
    )
    if my_turn:
        context["moves"] = clickable_moves(
            game.game_type, selectors.legal_moves_of(table), context["view"]
        )
    return render(request, "game.html", context, status=status)


def _table_context(game: Game, table: tbl.Table, *, picks_for: int | None) -> dict:
    """The boards as pictures and the facts of the position."""
    board = board_of(game.game_type)
    view = table.engine.view(table.state)
    players = selectors.players_of(game)
    scores = table.scores()
    to_move = table.to_move()
    winners = table.winners()
    boards = [
        {
            "seat": number,
            "name": next((p["player"] for p in players if p["seat"] == number), None)
            or f"seat {number + 1}",
            "score": scores[number] if number < len(scores) else 0,
            "to_move": number == to_move,
            "winner": number in winners,
            "resigned": number in table.resigned,
            "svg": board.player_svg(view, number, picks=number == picks_for),
        }
        for number in range(len(table.players))
    ]
    notes = board.notes(view)
    return {
        "view": view,
        "boards": boards,
        "table_svg": board.table_svg(view, picks=picks_for is not None),
        "facts": board.facts(view),
        "to_move_name": boards[to_move]["name"] if to_move is not None else None,
        "over": table.over,
        "notes_template": notes[0] if notes else None,
        "notes": notes[1] if notes else None,
        "last_seq": table.last_seq,
    }


def _numbered(history: list[dict], players: list[dict]) -> list[dict]:
    """The move list with each counting move numbered and every move's player named."""
    names = {p["seat"]: p["player"] for p in players}
    number = 0
    for entry in history:
        if entry["kind"] == "move":
            entry["player"] = names.get(entry["seat"]) or f"seat {entry['seat'] + 1}"
            if not entry["voided"]:
                number += 1
                entry["number"] = number
    return history


def _takeback_points(history: list[dict], table: tbl.Table) -> list[dict]:
    """The moves one may ask to take back to (the latest ten), newest first."""
    boundaries = set(table.boundaries())
    points = [
        {"to_seq": entry["seq"] - 1, "label": f"before {entry['text']}"}
        for entry in history
        if entry["kind"] == "move" and not entry["voided"] and entry["seq"] - 1 in boundaries
    ]
    return points[::-1][:10]


def _game_action(view):
    """A POST on a game the user may see: a refusal re-renders the game page with its
    message (the page keeps its state); success goes back to the page."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(request, game_id: int):
        try:
            game = selectors.game_for_viewer(game_id, request.user)
        except ServiceError as error:
            return render(request, "refused.html", {"message": error.message}, status=error.status)
        try:
            view(request, game)
        except ServiceError as error:
            game.refresh_from_db()
            typed = request.POST.get("typed") or request.POST.get("move") or ""
            return _game_page(request, game, error=error.message, typed=typed, status=error.status)
        return redirect("game", game_id=game.pk)

    return wrapper


def _valid(form) -> dict:
    if not form.is_valid():
        problems = "; ".join(
            f"{field}: {' '.join(errors)}" for field, errors in form.errors.items()
        )
        raise ServiceError(f"the form was not filled in as expected ({problems})")
    return form.cleaned_data


@_game_action
def move_post(request: HttpRequest, game: Game) -> None:
    """Play a move given in notation, with the seq the page was showing."""
    form = MoveForm(request.POST)
    _valid(form)
    if not form.notation():
        raise ServiceError("choose a move from the list, or type one")
    services.move_submit(
        game=game,
        user=request.user,
        move=form.notation(),
        expected_seq=form.cleaned_data["expected_seq"],
    )


@_game_action
def undo_post(request: HttpRequest, game: Game) -> None:
    """Take back your own last move, while the rules of undo allow."""
    services.move_undo(game=game, user=request.user)


@_game_action
def grant_day_post(request: HttpRequest, game: Game) -> None:
    """Give the player to move one more day (an opponent's courtesy)."""
    services.deadline_grant(game=game, user=request.user)


@_game_action
def takeback_request_post(request: HttpRequest, game: Game) -> None:
    to_seq = _valid(TakebackRequestForm(request.POST))["to_seq"]
    services.takeback_request(game=game, user=request.user, to_seq=to_seq)


@_game_action
def takeback_answer_post(request: HttpRequest, game: Game) -> None:
    data = _valid(TakebackAnswerForm(request.POST))
    services.takeback_answer(
        game=game, user=request.user, request=data["request"], accept=data["accept"]
    )


@_game_action
def chat_post(request: HttpRequest, game: Game) -> None:
    """Write in the game's chat (the service checks who and how long)."""
    services.chat_post(game=game, user=request.user, text=request.POST.get("text", ""))


@_game_action
def join_post(request: HttpRequest, game: Game) -> None:
    services.game_join(game=game, user=request.user)


@_game_action
def leave_post(request: HttpRequest, game: Game) -> None:
    services.game_leave(game=game, user=request.user)


@_game_action
def cancel_post(request: HttpRequest, game: Game) -> None:
    services.game_cancel(game=game, user=request.user)


@login_required
@require_http_methods(["GET", "POST"])
@refusal_page
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks for confirmation; POST resigns."""
    game = selectors.game_for_viewer(game_id, request.user)
    if request.method == "POST":
        services.game_resign(game=game, user=request.user)
        return redirect("game", game_id=game.pk)
    return render(request, "resign.html", {"game": game, "title": game_type(game.game_type).title})


@require_GET
def game_seq(request: HttpRequest, game_id: int) -> JsonResponse:
    """The cheap "has anything changed" check the page polls: the game's last seq."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    if request.user.is_authenticated:
        services.seat_seen(game=game, user=request.user)
    return JsonResponse({"last_seq": game.last_seq, "status": game.status})


# --- the replay viewer ------------------------------------------------------------------------


@require_GET
@refusal_page
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Any moment of a game one may see: ``?at=N`` is the seq shown (the end of a move)."""
    game = selectors.game_for_viewer(game_id, request.user)
    if not game.last_seq:
        raise ServiceError("this game has not started: nothing to replay yet", code="not_started")
    history = _numbered(selectors.move_history(game), selectors.players_of(game))
    moments = [entry["end"] for entry in history if entry["kind"] != "note" and not entry["voided"]]
    try:
        wanted = int(request.GET.get("at", moments[-1]))
    except ValueError:
        wanted = moments[-1]
    at = max([m for m in moments if m <= wanted] or moments[:1])
    index = moments.index(at)
    table = selectors.game_table(game, upto=at)
    context = {
        "game": game,
        "title": game_type(game.game_type).title,
        "history": history,
        "at": at,
        "index": index,
        "moments": moments,
        "moments_json": json.dumps(moments),
        "first": moments[0],
        "previous": moments[max(index - 1, 0)],
        "next": moments[min(index + 1, len(moments) - 1)],
        "last": moments[-1],
    }
    context.update(_table_context(game, table, picks_for=None))
    return render(request, "replay.html", context)
