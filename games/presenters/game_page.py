"""The game page's presenter: everything the page and its live parts show, for the person
looking — the boards as pictures, the facts of the position, the move list in words, the
clocks, the takeback choices, the end screen and the analysis. It reads (selectors, the
boards); it never writes."""

import random
from dataclasses import replace

from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from games import repository
from games import table as tbl
from games import table_storage as storage
from games.boards import board_of, clickable_moves, for_the_page, title_of
from games.clock import Clock, PlayingHours
from games.durations import duration_left_text, per_move_text, time_control_text, time_left_text
from games.forms import OPTION_LABELS, OPTION_VALUES, RATING_WORDS, HoursFields
from games.models import Game, GameResult, Seat
from games.notify.wording import plan_dropped_reason, plan_dropped_title
from games.plan_lines import CHECKING_SEED, LineRefused, played, whose, written
from games.presenters.endings import departed
from games.presenters.move_list import move_log, moves_after, takeback_choices
from games.rules.common import RulesError
from games.selectors.access import can_read_chat, seat_of
from games.selectors.analysis import analysis_report
from games.selectors.moves import legal_moves_of
from games.selectors.names import display_name, players_of
from games.selectors.seats import (
    Departure,
    actions_of,
    departures,
    hours_of_player,
    plan_answering,
    plan_of,
    seat_clocks,
)

POLL_MILLISECONDS = 3000
# While the move awaited is seconds away (a computer player's, or the player's own plan
# answering), the page checks this often instead: the turn shows a quarter of a second
# after it comes back, not three (issue 43). A check that finds nothing new is one read
# of the game row, so a page polling fast costs the server little, and only for seconds.
SOON_POLL_MILLISECONDS = 250
LIVE_PARTS = ("status", "panel", "boards", "moves", "end", "plan")


class _CompactJSON(DjangoJSONEncoder):
    # No space after "," and ":": a mover's page lists every legal move for its script,
    # a hundred and more in Miyabi, and a game page keeps within 80 KB of HTML (issue 13).
    item_separator = ","
    key_separator = ":"


def picking_script(moves: list[dict]) -> SafeString:
    """The page's ``clickable_moves`` for its script (``for_the_page``), as the JSON
    element ``legal-moves``."""
    return json_script(for_the_page(moves), "legal-moves", encoder=_CompactJSON)


def open_game_context(game: Game, user) -> dict:
    """The page of a game waiting for players (or called off before it started)."""
    seat = seat_of(game, user)
    players = players_of(game)
    return {
        "game": game,
        "title": title_of(game.game_type),
        "players": players,
        "seat": seat,
        "settings": settings_words(game, players),
        "can_join": user.is_authenticated and seat is None and game.status == Game.Status.OPEN,
        "hours_form": hours_form(game, user),
        "poll_ms": POLL_MILLISECONDS,
    }


def _computer_to_move(game: Game, players: list[dict]) -> bool:
    """Whether the move awaited is a computer player's (its task plays it within seconds)."""
    return game.status == Game.Status.ACTIVE and any(
        player["seat"] == game.to_move and player["bot"] for player in players
    )


def hours_form(game: Game, user) -> HoursFields | None:
    """In a game with playing hours, the hours a player joining would take the seat with
    (their own, to change for this game)."""
    if not (game.time_control or {}).get("playing_hours") or not user.is_authenticated:
        return None
    return HoursFields(initial=hours_of_player(user))


def preselected(table: tbl.Table, wanted: str, moves: list[dict]) -> dict:
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


def game_context(game: Game, user) -> dict:
    """Everything the game page and its live parts show, for the person looking."""
    seat = seat_of(game, user)
    players = players_of(game)
    table = repository.row_table(game)
    names = seat_names(players, len(table.players))
    actions = actions_of(game, table, seat)
    playing = actions.resign
    position = seat.position if playing else None
    # Ruling: a turn the player's plan answers is the plan's to play. The page says so
    # and offers no move until the answer lands (a moment later, from the worker), so
    # that the player never plays a second move by hand over it.
    answering = actions.move and plan_answering(game, position)
    if answering:
        actions = replace(actions, move=False)
    viewer = seat.position if seat is not None else None
    board = board_of(game.game_type)
    view = table.engine.view(table.state)
    log = move_log(game, table, players, names, viewer)
    reads_chat = can_read_chat(game, user)
    chat = _chat(game) if reads_chat else []
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
        "plan_answering": answering,
        "actions": actions,
        "history": log,
        "last_move": last_move(board, table, view),
        "settings": settings_words(game, players),
        "clocks": _clocks(game, table.clock, names, viewer),
        "chat": chat,
        "chat_last": chat[-1].pk if chat else 0,
        "reads_chat": reads_chat,
        # Someone who does not play the game in play: they watch it (issue 29).
        "watching": seat is None and game.status == Game.Status.ACTIVE,
        "can_chat": seat is not None and seat.status in (Seat.Status.JOINED, Seat.Status.RESIGNED),
        "poll_ms": POLL_MILLISECONDS,
        "soon_poll_ms": SOON_POLL_MILLISECONDS,
        "soon": answering or _computer_to_move(game, players),
        "takeback": table.takeback,
        "takeback_choices": takeback_choices(table, actions.takeback_points, log, position),
    }
    if table.takeback is not None:
        context["takeback_asker"] = names[table.takeback.seat]
        context["takeback_moves"] = moves_after(table.takeback.to_seq, log)
    context.update(
        table_context(
            game,
            table,
            view=view,
            names=names,
            picks_for=position if actions.move else None,
            viewer=position,
        )
    )
    context["moves"] = (
        clickable_moves(game.game_type, legal_moves_of(table), view) if actions.move else []
    )
    context["picking"] = picking_script(context["moves"])
    if playing and seat.plan_dropped:
        context["plan_dropped"] = {
            "title": plan_dropped_title(f"{context['title']} #{game.pk}", seat.plan_dropped),
            "reason": plan_dropped_reason(game, seat.plan_dropped),
        }
    if playing and not actions.move and not answering and not table.over:
        context["plan"] = plan_shown(game, table, user, position)
    if table.over:
        context["end"] = _end_screen(board, table, names, departures([game])[game.pk])
        context["analysis"] = analysis(game, table, names, log)
    return context


def plan_shown(game: Game, table: tbl.Table, user, seat: int) -> dict:
    """The player's own plan (conditional moves, issue 32) as the "Plan your answers" card
    shows it to them, and them alone: each line's moves marked as expected from the
    others or answered by the player, the text to edit, the "if still there" move."""
    plan = plan_of(game, user)
    example = _line_example(table)
    if plan is None:
        return {"lines": [], "text": "", "next_move": "", "example": example}
    shown = []
    for number, line in enumerate(plan.lines):
        try:
            steps = whose(table.engine, table.state, seat, line)
        except LineRefused:
            # A plan is trimmed by every move, so its lines start here; one that no longer
            # plays (a rules change since) is still shown as written.
            steps = [(move, False) for move in line]
        shown.append({"index": number, "steps": [{"move": m, "mine": mine} for m, mine in steps]})
    return {
        "lines": shown,
        "text": written(plan.lines),
        "next_move": plan.next_move,
        "example": example,
    }


def plan_board_context(game: Game, user, line: list[str], seq: int | None) -> dict | None:
    """The analysis board of "Plan your answers": the position after the start of a line
    (``line``, moves in notation from the position now), its boards drawn as the game page
    draws them with the picks of whoever is to move there, and the line so far, theirs and
    the player's told apart. ``None`` when the user may not plan now (not playing, their
    turn, the game over). A line the game moved past (``seq`` is not the position now)
    starts again (``moved_on``); a move that cannot be played ends the line before it
    (``refused``, for the page to say why)."""
    seat = seat_of(game, user)
    table = repository.row_table(game)
    actions = actions_of(game, table, seat)
    if not actions.resign or actions.move or table.over:
        return None
    moved_on = seq is not None and seq != table.last_seq
    refused = None
    try:
        so_far = played(table.engine, table.state, seat.position, [] if moved_on else line)
    except LineRefused as error:
        refused = error
        so_far = played(table.engine, table.state, seat.position, line[: max(error.step - 1, 0)])
    steps = tuple(
        tbl.Step(seq=table.last_seq, seat=mover, move=move, auto="", events=events)
        for (move, _mine), events, mover in zip(
            so_far.steps, so_far.events, so_far.seats, strict=True
        )
    )
    if steps:
        steps = (*steps[:-1], replace(steps[-1], state=so_far.shown))
    after = replace(table, steps=table.steps + steps)
    view = table.engine.view(so_far.shown)
    to_move = None if so_far.ended else after.to_move()
    moves = legal_moves_of(after) if to_move is not None else []
    names = seat_names(players_of(game), len(table.players))
    moved = [move for move, _mine in so_far.steps]
    context = {
        "game": game,
        "title": title_of(game.game_type),
        "line": [{"move": move, "mine": mine} for move, mine in so_far.steps],
        "line_text": "; ".join(moved),
        "back_text": "; ".join(moved[:-1]),
        "ended": so_far.ended,
        "moved_on": moved_on,
        "refused": refused,
        "last_move": last_move(board_of(game.game_type), after, view) if steps else None,
        "mine_to_move": to_move == seat.position,
        "to_move": to_move,
        **table_context(
            game, after, view=view, names=names, picks_for=to_move, viewer=seat.position
        ),
    }
    context["moves"] = clickable_moves(game.game_type, moves, view)
    context["picking"] = picking_script(context["moves"])
    if so_far.steps and so_far.steps[-1][1]:
        plan = plan_of(game, user)
        context["plan_text"] = written([*(plan.lines if plan else []), moved])
        context["plan_next_move"] = plan.next_move if plan else ""
    return context


def _line_example(table: tbl.Table) -> str:
    """A line as the box wants it, from the position: a move the others may play next
    and a move that could follow it."""
    engine, state = table.engine, table.state
    first = engine.legal_commands(state)[0]
    _events, after = engine.decide_and_evolve(state, first, random.Random(CHECKING_SEED))
    following = engine.legal_commands(after)
    return written([[engine.format(first), *(engine.format(c) for c in following[:1])]])


def seat_names(players: list[dict], seats: int) -> list[str]:
    """Each seat's player by name (numbered from 1 while nobody sits there)."""
    by_seat = {p["seat"]: p["player"] for p in players}
    return [
        by_seat.get(number) or gettext("Player %(number)s") % {"number": number + 1}
        for number in range(seats)
    ]


def table_context(
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


def last_move(board, table: tbl.Table, view: dict) -> dict | None:
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


def _end_screen(board, table: tbl.Table, names: list[str], left: list[Departure]) -> dict:
    """The final score line by line (from the engine's events), the totals and winners,
    who resigned or ran out of time, and whether that aborted the game (issue 29)."""
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
        "departed": [departed(names[d.seat], d) for d in left if d.seat != table.aborted_by],
        "aborted_by": next(
            (departed(names[d.seat], d) for d in left if d.seat == table.aborted_by), None
        ),
    }


def analysis(game: Game, table: tbl.Table, names: list[str], log: list[dict]) -> dict | None:
    """The game's analysis as the pages show it (``None`` before anyone asked for it),
    with the moves of ``log`` marked ``?`` or ``??`` and the computer's suggestion for each
    said in words."""
    report = analysis_report(game, names)
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
    report["progress_text"] = analysis_progress_text(report)
    return report


MARK_WORDS = {
    "?": gettext_lazy("dubious"),
    "??": gettext_lazy("clearly worse"),
}


def analysis_progress_text(report: dict) -> str:
    if report["status"] == "queued":
        return gettext("The analysis is waiting for the computer.")
    if report["status"] == "running":
        return gettext("Analysing move %(current)s of %(total)s") % {
            "current": report["current"],
            "total": report["total"],
        }
    return gettext("Analysis done.")


def _chat(game: Game) -> list:
    """The chat's messages not hidden, each with ``author_name``: its author as every
    list of players names them (``selectors.display_name``)."""
    messages = list(game.chat.filter(hidden_at__isnull=True).select_related("author"))
    for message in messages:
        message.author_name = display_name(message.author)
    return messages


def _clocks(game: Game, clock: Clock, names: list[str], viewer: int | None) -> list[dict]:
    """Every player's clock, whose is whose: the time left of the seat to move as every
    page and email says it (``time_left_text``: running, resting outside its playing
    hours or stopped), each other seat's bank or its time per move and, in a game with
    playing hours, their hours."""
    control = game.time_control or {}
    kind = control.get("kind", "none")
    if kind == "none" or game.status != Game.Status.ACTIVE:
        return []
    banks = seat_clocks(game)
    to_move = clock.time_left(timezone.now())
    clocks = []
    for number, name in enumerate(names):
        moving = to_move is not None and number == to_move.seat
        if moving:
            left = time_left_text(to_move)
        elif kind == "bank":
            left = duration_left_text(banks.get(number, 0))
        else:
            left = per_move_text(control["days"])
        running = moving and not to_move.stopped and to_move.resting_until is None
        clocks.append(
            {
                "name": name,
                "left": left,
                "running": running,
                "rests": moving and to_move.resting_until is not None,
                # A running clock's sentence names its hours already.
                "hours": "" if running else _hours_words(clock.hours_of(number)),
                "mine": number == viewer,
            }
        )
    return clocks


def _hours_words(hours: PlayingHours | None) -> str:
    """A seat's playing hours on its player's clock: "plays 08:00–22:00 (Europe/Warsaw)"."""
    if hours is None:
        return ""
    # Translators: a player's daily playing hours and their time zone.
    return gettext("plays %(start)s–%(end)s (%(zone)s)") % {
        "start": hours.start,
        "end": hours.end,
        "zone": hours.zone,
    }


def settings_words(game: Game, players: list[dict] | None = None) -> list[str]:
    """The game's options and time control as a player reads them; with its ``players``
    (``selectors.players_of``), whether it counts for the ratings, and why not."""
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
    words.append(time_control_text(control))
    if control.get("playing_hours"):
        words.append(gettext("playing hours: each clock runs only in its player's hours"))
    if not game.self_undo:
        words.append(gettext("no undo"))
    if game.private:
        words.append(gettext("private"))
    if players is not None:
        ruling = GameResult.Excluded.ruling(
            rated=game.rated, computer_players=sum(bool(player["bot"]) for player in players)
        )
        words.append(str(RATING_WORDS[ruling]))
    return words


def live_update(request, game: Game, *, seq: str | None, chat: str | None) -> dict:
    """What the open game page needs to follow the game without reloading: nothing when
    nothing changed since ``seq`` and ``chat`` (the page's last event and chat message),
    else the parts of the page that changed, as HTML."""
    # Someone who may not read the chat (a spectator) is not told when someone wrote in it.
    chat_last = (
        game.chat.filter(hidden_at__isnull=True)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        or 0
        if can_read_chat(game, request.user)
        else 0
    )
    seq_changed = seq != str(game.last_seq)
    chat_changed = chat != str(chat_last)
    answer = {"seq": game.last_seq, "chat": chat_last, "status": game.status, "parts": {}}
    if not (seq_changed or chat_changed):
        return answer
    if not game.last_seq:
        answer["reload"] = True
        return answer
    context = game_context(game, request.user)
    # The position the parts show: a move committed since the row was read is in them.
    answer["seq"] = context["table"].last_seq
    answer["my_turn"] = context["my_turn"]
    answer["soon"] = context["soon"]
    answer["title"] = _page_title(context)
    if seq_changed:
        for part in LIVE_PARTS:
            answer["parts"][part] = render_to_string(f"game/_{part}.html", context, request)
    if chat_changed:
        answer["parts"]["chat"] = render_to_string("game/_chat.html", context, request)
        # The chat as rendered: a message written since the first look comes with it.
        answer["chat"] = context["chat_last"]
    return answer


def _page_title(context: dict) -> str:
    title = f"{context['title']} #{context['game'].pk} · azulsite"
    if context["my_turn"]:
        # Translators: the browser tab's title on your turn; %(title)s is "Azul #12 · azulsite".
        return gettext("Your turn · %(title)s") % {"title": title}
    return title
