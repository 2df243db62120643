"""What happened, in one line: the first line of an email's text part and its HTML
preheader, so that a mail list shows it before the email is opened (issue 28). Moves are
said in words as the game page's move list says them (each board's ``describe``), from the
public record only: the rules events a move caused, never the bag or the draws.

Each kind says what happened and what is asked, from the game as it stands when the email
leaves and the notice's payload; a row queued before a payload carried a fact (the seat
asking for a takeback) still reads, from the game's events."""

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import table as tbl
from games.boards import board_of
from games.boards.words import listing
from games.durations import duration_text
from games.models import Delivery, Game, NoticeKind
from games.notify.channels.email import texts
from games.notify.wording import plan_dropped_reason, plan_dropped_title
from games.repository import game_table, stored_events
from games.selectors.names import bot_name, players_of
from games.selectors.seats import departures, time_left

# A "your turn" names at most this many moves of the others; earlier ones are counted.
MOST_MOVES_SAID = 3

# Why nobody chose a move, said after it (the move list's words for the same).
AUTO_WORDS = {
    "timeout": gettext_lazy("played for them: time ran out"),
    tbl.AUTO_FOR_RESIGNED: gettext_lazy("played for them: they resigned"),
}


# A turn waiting for the reader: what a reminder and a deadline warning say without a
# deadline, and with the time left.
WAITING = {
    NoticeKind.REMINDER: (
        gettext_lazy("%(title)s is still waiting for your move."),
        gettext_lazy("%(title)s is still waiting for your move: %(left)s left."),
    ),
    NoticeKind.DEADLINE_WARNING: (
        gettext_lazy("Your time in %(title)s is running out."),
        gettext_lazy("Your time in %(title)s runs out in %(left)s: make your move."),
    ),
}


class Seats:
    """The players' names by seat, and the reader's seat (``None``: not playing)."""

    def __init__(self, game: Game, reader: int | None) -> None:
        self.names = {
            player["seat"]: player["player"]
            for player in players_of(game)
            if player["seat"] is not None and player["player"]
        }
        self.reader = reader

    def name(self, seat: int) -> str:
        return self.names.get(seat) or _("Player %(number)s") % {"number": seat + 1}


def headline(row: Delivery, reader: int | None, now: datetime) -> str:
    """The line for ``row`` about its game, to the player of seat ``reader``."""
    game = row.game
    seats = Seats(game, reader)
    payload = row.payload or {}
    title = texts.game_title(game)
    match row.kind:
        case NoticeKind.GAME_STARTED:
            return started(game, seats, title)
        case NoticeKind.TOURNAMENT_ROUND:
            # Translators: %(round)s is a round's number, %(name)s the tournament's name,
            # %(started)s says the game has started ("Azul #12 has started. Seat order…").
            return _("Round %(round)s of %(name)s: %(started)s") % {
                "round": payload.get("round", ""),
                "name": payload.get("name", ""),
                "started": started(game, seats, title),
            }
        case NoticeKind.YOUR_TURN:
            return your_turn(game, row.key, seats, title)
        case NoticeKind.REMINDER | NoticeKind.DEADLINE_WARNING:
            return turn_waiting(game, row.kind, title, now)
        case NoticeKind.TIMEOUT:
            return timed_out(game, row.key, payload, seats, title)
        case NoticeKind.GAME_OVER:
            return game_over(game, seats, title)
        case NoticeKind.TAKEBACK_REQUEST:
            return takeback_asked(game, row.key, payload, seats, title)
        case NoticeKind.MOVE_CONFIRMED:
            return move_confirmed(game, row.key, payload, seats, title)
        case NoticeKind.PLAN_DROPPED:
            # Translators: the first part is "Your plan for Azul #12 is dropped", the
            # second says why.
            return _("%(dropped)s: %(reason)s.") % {
                "dropped": plan_dropped_title(title, payload),
                "reason": plan_dropped_reason(game, payload),
            }
        case NoticeKind.REPLY_REFUSED:
            # Translators: %(reason)s says why, e.g. "no move found: write the move…".
            return _("Your reply to %(title)s was not played: %(reason)s") % {
                "title": title,
                "reason": texts.refusal_reason(payload),
            }
    # A kind this code does not know (a row of a newer release): not written, so the row
    # waits for a worker that knows it.
    raise ValueError(f"no headline for emails of the kind {row.kind!r}")


def turn_waiting(game: Game, kind: str, title: str, now: datetime) -> str:
    """A reminder or a deadline warning: the time left to move, if the game has a clock."""
    without, with_time = WAITING[kind]
    left = time_left(game, now)
    if left is None:
        return str(without) % {"title": title}
    return str(with_time) % {"title": title, "left": duration_text(left.seconds)}


def in_words(game: Game, step: tbl.Step, seats: Seats) -> str:
    """A move as the move list says it ("Bob took 3 blue tiles from factory 2 → line 4"),
    with why nobody chose it, if so."""
    said = _described(game, step, seats)
    why = AUTO_WORDS.get(step.auto)
    return f"{said} ({why})" if why else said


def _described(game: Game, step: tbl.Step, seats: Seats) -> str:
    """The board's sentence for a move, or its notation where the board has none for the
    events it caused."""
    name = seats.name(step.seat)
    return board_of(game.game_type).describe(list(step.events), name) or f"{name}: {step.move}"


def moves_in_words(game: Game, steps: list[tbl.Step], seats: Seats) -> str:
    """Moves in words, oldest first; beyond ``MOST_MOVES_SAID`` the earlier ones counted."""
    said = "; ".join(in_words(game, step, seats) for step in steps[-MOST_MOVES_SAID:])
    earlier = len(steps) - MOST_MOVES_SAID
    if earlier <= 0:
        return said
    # Translators: %(moves)s are the latest moves in words, separated by semicolons.
    return ngettext(
        "%(count)s move earlier, then: %(moves)s",
        "%(count)s moves earlier, then: %(moves)s",
        earlier,
    ) % {"count": earlier, "moves": said}


def _moves_upto(table: tbl.Table, seq: int) -> list[tbl.Step]:
    """The counting moves (not the start) of ``table`` made by event ``seq``."""
    return [step for step in table.steps if step.seat is not None and step.last <= seq]


def started(game: Game, seats: Seats, title: str) -> str:
    """Who plays, in seat order, and who moves first."""
    table = game_table(game)
    first = game_table(game, upto=table.steps[0].last).to_move() if table.started else None
    values = {
        "title": title,
        "players": ", ".join(seats.name(seat) for seat in range(len(table.players))),
        "first": seats.name(first) if first is not None else "",
    }
    if first is None:
        return _("%(title)s has started. Seat order: %(players)s.") % values
    if first == seats.reader:
        return _("%(title)s has started. Seat order: %(players)s; you move first.") % values
    # Translators: %(players)s are the players' names in seat order, %(first)s one of them.
    return _("%(title)s has started. Seat order: %(players)s; %(first)s moves first.") % values


def your_turn(game: Game, seq: int, seats: Seats, title: str) -> str:
    """The moves since the reader's own last move (up to the event ``seq`` that passed
    them the turn), in words."""
    moves = _moves_upto(game_table(game), seq)
    own = [index for index, step in enumerate(moves) if step.seat == seats.reader]
    since = moves[own[-1] + 1 :] if own else moves
    if since:
        # Translators: %(moves)s are the others' moves in words, "Bob took 3 blue tiles…".
        return _("Your turn in %(title)s — %(moves)s.") % {
            "title": title,
            "moves": moves_in_words(game, since, seats),
        }
    if not moves:
        return _("Your turn in %(title)s: you make the first move.") % {"title": title}
    return _("It is your turn in %(title)s.") % {"title": title}


def timed_out(game: Game, seq: int, payload: dict, seats: Seats, title: str) -> str:
    """What the timeout policy did: the moves played for the reader, in words (the
    notation of the payload where the moves are no longer in the game), or the forfeit."""
    values = {"title": title}
    if payload.get("policy") == Game.TimeoutPolicy.FORFEIT:
        return _("Your time ran out in %(title)s: you forfeited the game.") % values
    moves = _moves_upto(game_table(game), seq)
    played = []
    for step in reversed(moves):
        if step.seat != seats.reader or step.auto != "timeout":
            break
        played.insert(0, step)
    if played:
        # With the notation too: what a reply to the next turn email would have said.
        values["moves"] = "; ".join(
            f"{_described(game, step, seats)} ({step.move})" for step in played
        )
    elif payload.get("move"):
        values["moves"] = payload["move"]
    else:
        return _("Your time ran out in %(title)s.") % values
    count = len(played) or 1
    if payload.get("policy") == Game.TimeoutPolicy.BOT:
        values["bot"] = bot_name(game.timeout_bot)
        # Translators: %(bot)s is a computer player's name; %(moves)s the moves in words.
        return (
            ngettext(
                "Your time ran out in %(title)s, so %(bot)s played this move for you: %(moves)s.",
                "Your time ran out in %(title)s, so %(bot)s played these moves for you: %(moves)s.",
                count,
            )
            % values
        )
    return (
        ngettext(
            "Your time ran out in %(title)s, so this move was played for you: %(moves)s.",
            "Your time ran out in %(title)s, so these moves were played for you: %(moves)s.",
            count,
        )
        % values
    )


def game_over(game: Game, seats: Seats, title: str) -> str:
    """Who won and how: the last resignation or forfeit that left one player, or the final
    scores (the winners' first); or who resigned or ran out of time before every player
    had moved, which aborted the game."""
    table = game_table(game)
    if table.aborted_by is not None:
        return _aborted(game, table.aborted_by, seats, title)
    winners = list(table.winners())
    if not winners:
        return _("%(title)s is over.") % {"title": title}
    values = {"title": title, "winner": seats.name(winners[0])}
    if not table.engine.is_over(table.state):
        resigned = stored_events(game, upto=table.last_seq)
        left = [e for e in resigned if e.type == "table.Resigned"]
        loser = left[-1].data["seat"] if left else None
        values["loser"] = seats.name(loser) if loser is not None else ""
        timed = bool(left) and left[-1].reason == tbl.TIME_RAN_OUT
        if timed and loser == seats.reader:
            return _("Your time ran out: %(winner)s wins %(title)s.") % values
        if timed and winners[0] == seats.reader:
            return _("Time ran out for %(loser)s: you win %(title)s.") % values
        if timed:
            # Translators: %(loser)s ran out of time (and forfeited); %(winner)s wins.
            return _("Time ran out for %(loser)s: %(winner)s wins %(title)s.") % values
        if winners[0] == seats.reader:
            return _("%(loser)s resigned: you win %(title)s.") % values
        return _("%(loser)s resigned: %(winner)s wins %(title)s.") % values
    scores = table.scores()
    ranked = sorted(range(len(scores)), key=lambda seat: (seat not in winners, -scores[seat]))
    # The scores from the winners' down, "54–48".
    values["scores"] = "–".join(str(scores[seat]) for seat in ranked)
    if len(winners) > 1:
        values["winners"] = listing([seats.name(seat) for seat in winners])
        # Translators: %(winners)s are names, "Alice and Bob"; %(scores)s e.g. "50–50–31".
        return _("%(title)s is over: %(winners)s share the victory, %(scores)s.") % values
    if winners[0] == seats.reader:
        return _("%(title)s is over: you won %(scores)s.") % values
    # Translators: %(scores)s are the final scores from the winner's down, e.g. "54–48".
    return _("%(title)s is over: %(winner)s won %(scores)s.") % values


def _aborted(game: Game, seat: int, seats: Seats, title: str) -> str:
    timed = any(left.timed_out for left in departures([game])[game.pk] if left.seat == seat)
    values = {"title": title, "name": seats.name(seat)}
    if timed and seat == seats.reader:
        return (
            _("Your time ran out before every player had moved: %(title)s is aborted and unrated.")
            % values
        )
    if timed:
        # Translators: %(name)s ran out of time before every player had made a move, so the
        # game ends with no result and counts for nobody's rating.
        return (
            _(
                "Time ran out for %(name)s before every player had moved: %(title)s is aborted "
                "and unrated."
            )
            % values
        )
    # Translators: %(name)s resigned before every player had made a move, so the game ends
    # with no result and counts for nobody's rating.
    return (
        _("%(name)s resigned before every player had moved: %(title)s is aborted and unrated.")
        % values
    )


def takeback_asked(game: Game, request: int, payload: dict, seats: Seats, title: str) -> str:
    """Who asks, back to before which move (its number and the move in words, as the game
    page's takeback choices say it) and how many moves it takes back."""
    table = game_table(game, upto=request)
    pending = table.takeback if table.takeback and table.takeback.request == request else None
    asker = payload.get("seat", pending.seat if pending else None)
    to_seq = payload.get("to_seq", pending.to_seq if pending else None)
    values = {
        "title": title,
        "name": seats.name(asker) if asker is not None else _("Another player"),
    }
    back = [
        (number, step)
        for number, step in enumerate(table.steps)
        if step.seat is not None and to_seq is not None and step.seq > to_seq
    ]
    if not back:
        return (
            _(
                "%(name)s asks to take back moves in %(title)s. Accept or decline on the "
                "game's page."
            )
            % values
        )
    number, first = back[0]
    values.update(count=len(back), number=number, move=in_words(game, first, seats))
    # Translators: %(number)s is a move's number in the move list, %(move)s that move in
    # words ("Carol took 2 red tiles from factory 3 → line 2"), %(count)s how many moves
    # the takeback undoes.
    return (
        ngettext(
            "%(name)s asks to take %(title)s back to before move %(number)s, “%(move)s” "
            "(%(count)s move). Accept or decline on the game's page.",
            "%(name)s asks to take %(title)s back to before move %(number)s, “%(move)s” "
            "(%(count)s moves). Accept or decline on the game's page.",
            len(back),
        )
        % values
    )


def move_confirmed(game: Game, seq: int, payload: dict, seats: Seats, title: str) -> str:
    """The reader's emailed move, played: its notation and what it did, in words."""
    values = {"title": title, "move": payload.get("move", "")}
    step = game_table(game).step_at(seq)
    if step is None or step.seat is None:
        # Translators: %(move)s is a move in the notation, e.g. "F3 blue 4" (never translated).
        return _("Your move %(move)s is played in %(title)s.") % values
    values["words"] = in_words(game, step, seats)
    # Translators: %(move)s is the move in the notation, %(words)s the same move in words.
    return _("Your move %(move)s is played in %(title)s: %(words)s.") % values


def digest(games: list[Game]) -> str:
    """The games waiting for the reader's move, by title."""
    return ngettext(
        "%(count)s game is waiting for your move: %(games)s.",
        "%(count)s games are waiting for your move: %(games)s.",
        len(games),
    ) % {"count": len(games), "games": ", ".join(texts.game_title(game) for game in games)}
