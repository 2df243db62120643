"""Server-rendered pages: thin doors over the services and selectors. Each view reads its
input, calls one service or selector, and renders; a refusal (``ServiceError``) becomes a
clear message on the page it came from, never a 500."""

import json
from functools import wraps
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import repository, selectors, services
from games import table as tbl
from games import table_storage as storage
from games.boards import board_of, clickable_moves, for_the_page, title_of
from games.errors import ServiceError
from games.forms import (
    OPTION_LABELS,
    OPTION_VALUES,
    GameCreateForm,
    MoveForm,
    TakebackAnswerForm,
    TakebackRequestForm,
    option_field,
)
from games.models import Game, Seat
from games.registry import GAME_TYPES
from games.rules.common import RulesError

POLL_MILLISECONDS = 3000


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
                "title": title_of(game.game_type),
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
                bots=form.bot_levels(),
                timeout_policy=form.timeout_policy_value(),
                timeout_bot=form.timeout_bot_level(),
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
    """The link of an invitation email: GET shows the game, its settings and players with
    "Accept" and "Decline"; a POST answers (accepting takes the seat)."""
    seat = services.invitation_seat(token)
    if request.method == "POST":
        if request.POST.get("answer") == "decline":
            services.invitation_decline(token=token)
            messages.success(request, gettext("You declined the invitation: the seat is free."))
            return redirect(request.path)
        if not request.user.is_authenticated:
            return redirect(f"{settings.LOGIN_URL}?{urlencode({'next': request.path})}")
        services.game_join(game=seat.game, user=request.user, token=token)
        return redirect("game", game_id=seat.game.pk)
    context = {
        "seat": seat,
        "game": seat.game,
        "title": title_of(seat.game.game_type),
        "players": selectors.players_of(seat.game),
        "settings": _settings_words(seat.game),
        "creator": selectors.display_name(seat.game.created_by),
        "usable": seat.status == Seat.Status.INVITED and seat.game.status == Game.Status.OPEN,
    }
    return render(request, "invitation.html", context)


# --- the game page ---------------------------------------------------------------------------


@require_GET
@refusal_page
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every board, the table, whose turn, every clock, the moves, the chat — and, on your
    turn, the legal moves to choose from. ``?move=<notation>`` (the emails' links) only
    preselects that move: confirming it is a POST."""
    game = selectors.game_for_viewer(game_id, request.user)
    if request.user.is_authenticated:
        services.seat_seen(game=game, user=request.user)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED) and not game.last_seq:
        return _open_game_page(request, game)
    context = _game_context(request, game)
    wanted = request.GET.get("move", "").strip()
    if wanted and context["my_turn"]:
        context.update(_preselected(context["table"], wanted, context["moves"]))
    return render(request, "game.html", context)


def _open_game_page(request: HttpRequest, game: Game) -> HttpResponse:
    seat = selectors.seat_of(game, request.user)
    context = {
        "game": game,
        "title": title_of(game.game_type),
        "players": selectors.players_of(game),
        "seat": seat,
        "settings": _settings_words(game),
        "can_join": request.user.is_authenticated
        and seat is None
        and game.status == Game.Status.OPEN,
        "poll_ms": POLL_MILLISECONDS,
    }
    return render(request, "game_open.html", context)


def _preselected(table: tbl.Table, wanted: str, moves: list[dict]) -> dict:
    """The move a link names, in its canonical notation, if it is legal now; otherwise a
    sentence saying why it cannot be chosen."""
    try:
        notation = table.engine.format(table.engine.parse(wanted))
    except RulesError:
        notation = None
    if notation is not None and any(m["move"] == notation for m in moves):
        return {"preselect": notation}
    return {
        "preselect_error": gettext(
            "The move “%(move)s” from your link cannot be played now: choose another one."
        )
        % {"move": wanted}
    }


def _game_context(request: HttpRequest, game: Game) -> dict:
    """Everything the game page and its live parts show, for the person looking."""
    seat = selectors.seat_of(game, request.user)
    players = selectors.players_of(game)
    table = repository.game_table(game)
    names = _names(players, len(table.players))
    actions = selectors.actions_of(game, table, seat)
    playing = actions.resign
    position = seat.position if playing else None
    viewer = seat.position if seat is not None else None
    board = board_of(game.game_type)
    view = table.engine.view(table.state)
    log = _move_log(game, table, players, names, viewer)
    chat = _chat(game) if selectors.can_read_chat(game, request.user) else []
    context = {
        "game": game,
        "table": table,
        "title": title_of(game.game_type),
        "players": players,
        "names": names,
        "seat": seat,
        "position": position,
        "playing": playing,
        "my_turn": actions.move,
        "actions": actions,
        "history": log,
        "last_move": _last_move(board, table, view),
        "settings": _settings_words(game),
        "clocks": _clocks(game, names, viewer),
        "chat": chat,
        "chat_last": chat[-1].pk if chat else 0,
        "can_chat": seat is not None and seat.status in (Seat.Status.JOINED, Seat.Status.RESIGNED),
        "poll_ms": POLL_MILLISECONDS,
        "takeback": table.takeback,
        "takeback_choices": _takeback_choices(table, actions.takeback_points, log, position),
    }
    if table.takeback is not None:
        context["takeback_asker"] = names[table.takeback.seat]
        context["takeback_moves"] = _moves_after(table.takeback.to_seq, log)
    context.update(
        _table_context(
            game,
            table,
            view=view,
            names=names,
            picks_for=position if actions.move else None,
            viewer=position,
        )
    )
    context["moves"] = (
        clickable_moves(game.game_type, selectors.legal_moves_of(table), view)
        if actions.move
        else []
    )
    context["picking"] = for_the_page(context["moves"])
    if table.over:
        context["end"] = _end_screen(board, table, names)
        context["analysis"] = _analysis(game, table, names, log)
    return context


def _names(players: list[dict], seats: int) -> list[str]:
    """Each seat's player by name (numbered from 1 while nobody sits there)."""
    by_seat = {p["seat"]: p["player"] for p in players}
    return [
        by_seat.get(number) or gettext("Player %(number)s") % {"number": number + 1}
        for number in range(seats)
    ]


def _table_context(
    game: Game,
    table: tbl.Table,
    *,
    view: dict,
    names: list[str],
    picks_for: int | None,
    viewer: int | None = None,
) -> dict:
    """The boards as pictures and the facts of the position."""
    board = board_of(game.game_type)
    scores = table.scores()
    to_move = table.to_move()
    winners = table.winners()
    boards = [
        {
            "seat": number,
            "name": names[number],
            "mine": number == viewer,
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
        "facts": board.facts(view, names),
        "to_move_name": names[to_move] if to_move is not None else None,
        "over": table.over,
        "winner_names": [names[seat] for seat in winners],
        "notes_template": notes[0] if notes else None,
        "notes": notes[1] if notes else None,
        "last_seq": table.last_seq,
    }


def _move_log(
    game: Game, table: tbl.Table, players: list[dict], names: list[str], viewer: int | None
) -> list[dict]:
    """The move list: each counting move numbered, its player named and the move said in
    words from the events it caused, with its notation beside it; the latest marked."""
    board = board_of(game.game_type)
    counting = {step.seq: step for step in table.steps}
    history = selectors.move_history(game)
    number = 0
    for entry in history:
        if entry["kind"] != "move":
            continue
        seat = entry["seat"]
        entry["player"] = names[seat] if seat < len(names) else str(seat + 1)
        entry["mine"] = seat == viewer
        step = counting.get(entry["seq"])
        if entry["voided"] or step is None:
            entry["words"] = gettext("%(player)s (taken back)") % {"player": entry["player"]}
            continue
        number += 1
        entry["number"] = number
        entry["words"] = board.describe(step.events, entry["player"])
    moves = [e for e in history if e["kind"] == "move" and not e["voided"]]
    if moves:
        moves[-1]["latest"] = True
    for entry in history:
        if entry["kind"] == "move" and entry["auto"] == "timeout" and entry["bot"]:
            entry["auto_text"] = gettext("played for them by %(bot)s: time ran out") % {
                "bot": entry["actor"]
            }
        elif entry["kind"] == "move" and entry["auto"]:
            entry["auto_text"] = AUTO_WORDS.get(entry["auto"], "")
    return history


AUTO_WORDS = {
    "timeout": gettext_lazy("played for them: time ran out"),
    "resigned": gettext_lazy("played for them: they resigned"),
    "moderator": gettext_lazy("played by a moderator"),
    "forced": gettext_lazy("the only possible move"),
}


def _moves_after(point: int, log: list[dict], *, in_words: bool = True) -> list[str]:
    """The moves a takeback to ``point`` would take back, oldest first: in words with
    their notation, or in notation alone."""
    return [
        f"{entry['number']}. {entry['words']} ({entry['text']})"
        if in_words
        else f"{entry['number']}. {entry['text']}"
        for entry in log
        if entry["kind"] == "move" and not entry["voided"] and entry["seq"] > point
    ]


def _takeback_choices(
    table: tbl.Table, points: tuple[int, ...], log: list[dict], viewer: int | None
) -> list[dict]:
    """The points one may ask to go back to, as a player names them ("before your move
    14: Ann took 3 red tiles from the centre"), each with the moves it would take back. The
    first one before a move of the viewer's own is chosen to begin with."""
    moves = {e["seq"]: e for e in log if e["kind"] == "move" and not e["voided"]}
    choices = []
    for point in points:
        first = next((step for step in table.steps if step.seq > point), None)
        entry = moves.get(first.seq) if first else None
        if entry is None:
            continue
        if entry["seat"] == viewer:
            # Translators: %(words)s is the move in words, with the player's own name.
            label = gettext("before your move %(number)s: %(words)s") % {
                "number": entry["number"],
                "words": entry["words"],
            }
        else:
            label = gettext("before %(player)s’s move %(number)s: %(words)s") % {
                "player": entry["player"],
                "number": entry["number"],
                "words": entry["words"],
            }
        choices.append(
            {
                "to_seq": point,
                "label": label,
                # In notation: each choice's label says its own move in words, and the
                # page must not grow with the square of the round's moves in words.
                "moves": _moves_after(point, log, in_words=False),
                "mine": entry["seat"] == viewer,
            }
        )
    default = next((c for c in choices if c["mine"]), None)
    if default is not None:
        default["checked"] = True
    return choices


def _last_move(board, table: tbl.Table, view: dict) -> dict | None:
    """Where the latest move took from and put to: the picks that would choose it, for
    the page to outline on the board of the player who made it and on the table."""
    step = table.steps[-1] if len(table.steps) > 1 else None
    if step is None or step.seat is None:
        return None
    engine = table.engine
    try:
        command = engine.encode_command(engine.parse(step.move))
        picks, preview = board.steps(command, view)
    except (RulesError, KeyError, IndexError, TypeError, ValueError):
        # The position after the move may no longer hold what choosing it needed (an
        # emptied factory): the outline is a courtesy, the move list says what happened.
        return None
    spots = [pick for pick, _ in picks] + list(preview)
    return {"seat": step.seat, "spots": " ".join(dict.fromkeys(spots))}


def _end_screen(board, table: tbl.Table, names: list[str]) -> dict:
    """The final score line by line (from the engine's events), the totals and winners."""
    seats = len(table.players)
    rows = [
        {"label": label, "values": values}
        for label, values in board.breakdown(table.rules_events(), seats)
        if any(values)
    ]
    return {
        "rows": rows,
        "totals": list(table.scores()),
        "names": names,
        "winners": [names[seat] for seat in table.winners()],
        "aborted": table.aborted,
    }


def _analysis(game: Game, table: tbl.Table, names: list[str], log: list[dict]) -> dict | None:
    """The game's analysis as the pages show it (``None`` before anyone asked for it),
    with the moves of ``log`` marked ``?`` or ``??`` and the computer's suggestion for each
    said in words."""
    report = selectors.analysis_report(game, names)
    if report is None:
        return None
    board = board_of(game.game_type)
    engine, steps = table.engine, storage.expand(table).steps
    for entry in log:
        judged = report["moves"].get(entry["seq"]) if entry["kind"] == "move" else None
        if judged is None or entry["voided"] or not judged.judgement:
            continue
        before = engine.view(steps[judged.number - 1].state)
        picks, preview = board.steps(engine.encode_command(engine.parse(judged.best)), before)
        entry["mark"] = judged.judgement
        entry["mark_text"] = MARK_WORDS[judged.judgement]
        entry["suggestion"] = {
            "words": ", ".join(label for _, label in picks),
            "notation": judged.best,
            "seat": judged.seat,
            "spots": " ".join(dict.fromkeys([pick for pick, _ in picks] + list(preview))),
            "played_value": round(100 * judged.played_value),
            "best_value": round(100 * judged.best_value),
        }
    report["progress_text"] = _analysis_progress(report)
    return report


MARK_WORDS = {
    "?": gettext_lazy("dubious"),
    "??": gettext_lazy("clearly worse"),
}


def _analysis_progress(report: dict) -> str:
    if report["status"] == "queued":
        return gettext("The analysis is waiting for the computer.")
    if report["status"] == "running":
        return gettext("Analysing move %(current)s of %(total)s") % {
            "current": report["current"],
            "total": report["total"],
        }
    return gettext("Analysis done.")


def _chat(game: Game) -> list:
    return list(game.chat.filter(hidden_at__isnull=True).select_related("author"))


def _clocks(game: Game, names: list[str], viewer: int | None) -> list[dict]:
    """Every player's clock, whose is whose: the time left of the seat to move (running,
    or stopped during a pause), each other seat's bank or its time per move."""
    control = game.time_control or {}
    kind = control.get("kind", "none")
    if kind == "none" or game.status != Game.Status.ACTIVE:
        return []
    banks = selectors.seat_clocks(game)
    now = timezone.now()
    clocks = []
    for number, name in enumerate(names):
        running = number == game.to_move and game.deadline is not None
        if running:
            seconds = int((game.deadline - now).total_seconds())
            left = gettext("%(time)s left") % {"time": _duration(seconds)}
        elif kind == "bank" or number == game.to_move:
            left = gettext("%(time)s left") % {"time": _duration(banks.get(number, 0))}
        else:
            left = ngettext("%(days)s day per move", "%(days)s days per move", control["days"]) % {
                "days": control["days"]
            }
        clocks.append({"name": name, "left": left, "running": running, "mine": number == viewer})
    return clocks


def _duration(seconds: int) -> str:
    """A time in words, to the minute: "2 days, 3 hours", "4 hours, 10 minutes"."""
    seconds = max(0, seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    if len(parts) > 1:
        # Translators: a time in two units, "2 days, 3 hours" or "4 hours, 10 minutes".
        return gettext("%(larger)s, %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}
    return parts[0] if parts else gettext("less than a minute")


def _settings_words(game: Game) -> list[str]:
    """The game's options and time control as a player reads them."""
    words = [
        # Translators: a game's option and its value, "Wall side: grey".
        gettext("%(option)s: %(value)s")
        % {
            "option": OPTION_LABELS.get(option, option),
            "value": OPTION_VALUES.get(value, value),
        }
        for option, value in game.options.items()
    ]
    control = game.time_control or {}
    match control.get("kind", "none"):
        case "per_move":
            words.append(
                ngettext("%(days)s day per move", "%(days)s days per move", control["days"])
                % {"days": control["days"]}
            )
        case "bank":
            words.append(
                ngettext(
                    "%(bank)s hour each, %(increment)s more after every move, up to %(cap)s",
                    "%(bank)s hours each, %(increment)s more after every move, up to %(cap)s",
                    control["bank_hours"],
                )
                % {
                    "bank": control["bank_hours"],
                    "increment": control["increment_hours"],
                    "cap": control["cap_hours"],
                }
            )
        case _:
            words.append(gettext("no time limit"))
    if not game.self_undo:
        words.append(gettext("no undo"))
    if game.private:
        words.append(gettext("private"))
    return words


LIVE_PARTS = ("status", "panel", "boards", "moves", "end")


@require_GET
def game_live(request: HttpRequest, game_id: int) -> JsonResponse:
    """What the open game page needs to follow the game without reloading: nothing when
    nothing changed since ``seq`` and ``chat`` (the page's last event and chat message),
    else the parts of the page that changed, as HTML."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    if request.user.is_authenticated:
        services.seat_seen(game=game, user=request.user)
    chat_last = (
        game.chat.filter(hidden_at__isnull=True)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        or 0
    )
    seq_changed = request.GET.get("seq") != str(game.last_seq)
    chat_changed = request.GET.get("chat") != str(chat_last)
    answer = {"seq": game.last_seq, "chat": chat_last, "status": game.status, "parts": {}}
    if not (seq_changed or chat_changed):
        return JsonResponse(answer)
    if not game.last_seq:
        answer["reload"] = True
        return JsonResponse(answer)
    context = _game_context(request, game)
    answer["my_turn"] = context["my_turn"]
    answer["title"] = _page_title(context)
    if seq_changed:
        for part in LIVE_PARTS:
            answer["parts"][part] = render_to_string(f"game/_{part}.html", context, request)
    if chat_changed:
        answer["parts"]["chat"] = render_to_string("game/_chat.html", context, request)
    return JsonResponse(answer)


def _page_title(context: dict) -> str:
    title = f"{context['title']} #{context['game'].pk} · azulsite"
    if context["my_turn"]:
        # Translators: the browser tab's title on your turn; %(title)s is "Azul #12 · azulsite".
        return gettext("Your turn · %(title)s") % {"title": title}
    return title


# Refusals whose service message is written for API clients, said again for players.
PAGE_WORDS = {
    "stale": gettext_lazy(
        "The game moved on while you were choosing: here is the position now, choose again."
    ),
}


def _game_action(view):
    """A POST on a game the user may see. Whatever happens the answer is a redirect to
    the game page (so reloading never repeats a POST), a refusal said there as a message."""

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
            said = PAGE_WORDS.get(error.code) or capfirst(error.message) + "."
            messages.error(request, said)
        return redirect("game", game_id=game.pk)

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
@require_POST
@refusal_page
def rematch_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Open the rematch (same players and options, seats rotated) and go to it."""
    game = selectors.game_for_viewer(game_id, request.user)
    new = services.game_rematch(game=game, user=request.user)
    messages.success(request, gettext("Rematch opened: the other players are invited."))
    return redirect("game", game_id=new.pk)


@login_required
@require_http_methods(["GET", "POST"])
@refusal_page
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks for confirmation; POST resigns."""
    game = selectors.game_for_viewer(game_id, request.user)
    if request.method == "POST":
        services.game_resign(game=game, user=request.user)
        return redirect("game", game_id=game.pk)
    return render(request, "resign.html", {"game": game, "title": title_of(game.game_type)})


@require_GET
def game_seq(request: HttpRequest, game_id: int) -> JsonResponse:
    """The cheap "has anything changed" check of a page waiting for players: the game's
    last seq."""
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
        raise ServiceError(
            gettext("this game has not started: nothing to replay yet"), code="not_started"
        )
    table = repository.game_table(game)
    players = selectors.players_of(game)
    names = _names(players, len(table.players))
    history = _move_log(game, table, players, names, None)
    moments = [entry["end"] for entry in history if entry["kind"] != "note" and not entry["voided"]]
    try:
        wanted = int(request.GET.get("at", moments[-1]))
    except ValueError:
        wanted = moments[-1]
    at = max([m for m in moments if m <= wanted] or moments[:1])
    index = moments.index(at)
    table = repository.game_table(game, upto=at)
    view = table.engine.view(table.state)
    context = {
        "game": game,
        "title": title_of(game.game_type),
        "history": history,
        "at": at,
        "index": index,
        "moments": moments,
        "moments_json": json.dumps(moments),
        "first": moments[0],
        "previous": moments[max(index - 1, 0)],
        "next": moments[min(index + 1, len(moments) - 1)],
        "last": moments[-1],
        "last_move": _last_move(board_of(game.game_type), table, view),
    }
    if game.status == Game.Status.FINISHED:
        full = repository.game_table(game)
        context["analysis"] = _analysis(game, full, names, history)
        context["judged"] = next(
            (e for e in history if e["kind"] == "move" and e["end"] == at and e.get("mark")),
            None,
        )
    context.update(_table_context(game, table, view=view, names=names, picks_for=None))
    return render(request, "replay.html", context)


@login_required
@require_POST
@refusal_page
def analysis_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the analysis of a finished game one may see; back to the page it came from."""
    game = selectors.game_for_viewer(game_id, request.user)
    services.analysis_request(game=game)
    if request.POST.get("back") == "replay":
        return redirect("game-replay", game_id=game.pk)
    return redirect("game", game_id=game.pk)


@require_GET
def analysis_progress(request: HttpRequest, game_id: int) -> JsonResponse:
    """The small poll of a page showing an analysis in progress: its status and progress."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    analysis = selectors.current_analysis(game)
    if analysis is None:
        return JsonResponse({"status": None})
    progress = selectors.analysis_progress(analysis)
    return JsonResponse({**progress, "text": _analysis_progress(progress)})
