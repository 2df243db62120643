"""What the emails say besides their first line (``headlines``): the games' names, titles
and subjects, a game's status, why a reply was refused, deadlines, the time
control and the result, in the active language (``games.i18n.speaking_to`` sets the
reader's)."""

from datetime import datetime

from django.utils import formats, timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.boards.words import listing
from games.durations import time_left_text
from games.models import Game, NoticeKind
from games.notify.channels.email import words
from games.repository import game_table
from games.selectors.names import bot_name, players_of
from games.selectors.seats import time_left

# A game's state in a sentence of its own (not "The game is <status>": the words agree
# with the word for game in each language).
STATUS_TEXT = {
    Game.Status.OPEN: gettext_lazy("The game is waiting for players."),
    Game.Status.FINISHED: gettext_lazy("The game is over."),
    Game.Status.CANCELLED: gettext_lazy("The game was cancelled."),
    Game.Status.ABORTED: gettext_lazy("The game was aborted."),
}

# Why an emailed reply was not played, by the code kept in the refusal's payload (rendered
# when the email is sent, in the recipient's language). A refusal by the game's service
# (an unreadable or illegal move) keeps the service's sentence, written in the player's
# language when the reply came in.
REFUSAL_TEXT = {
    "wrong_address": gettext_lazy("this address does not take moves (the link is wrong)."),
    "not_the_seats_address": gettext_lazy(
        "moves for a seat are taken only from the address its turn emails go to."
    ),
    "forged": gettext_lazy(
        "the receiving server could not confirm it came from your address (DMARC failed)."
    ),
    # Translators: %(error)s is the technical name of the unknown character set.
    "unreadable": gettext_lazy(
        "your email is written in a character set we cannot read (%(error)s). Please write "
        "again in plain text, as UTF-8 (the setting most mail programs use)."
    ),
    "no_move": gettext_lazy("no move found: write the move or its number."),
    "moved_on": gettext_lazy("the game has moved on since that email. Here is the position now."),
}

# What the seat's player is told of a reply whose DMARC check failed (sent to their
# account's address, at most once a day, whoever wrote it).
FORGED_HINT = gettext_lazy(
    "A forwarder, a mailing list or your mail provider changed the email on its way, so "
    "the receiving server could not confirm that you wrote it, and it does not count as "
    "your move. Reply from the address of your account without forwarding, or play on the "
    "game's page. If you did not write it, ignore this email: we tell you this at most once "
    "a day."
)


def game_name(slug: str) -> str:
    return words.game_name(slug)


def game_title(game: Game) -> str:
    # Translators: the title of one game, e.g. "Azul #12" (its emails' subject begins so).
    # Write the number the way your language does (e.g. "nr 12", "n.º 12").
    return pgettext("email subject", "%(game)s #%(number)s") % {
        "game": game_name(game.game_type),
        "number": game.pk,
    }


# What a game's email is about, first in its subject (``game_subject``); a game that ended
# says who won (``_ended``).
SUBJECT_WHAT = {
    NoticeKind.GAME_STARTED: gettext_lazy("Game started"),
    NoticeKind.YOUR_TURN: gettext_lazy("Your turn"),
    NoticeKind.REMINDER: gettext_lazy("Your turn"),
    NoticeKind.DEADLINE_WARNING: gettext_lazy("Your time is running out"),
    NoticeKind.TIMEOUT: gettext_lazy("Your time ran out"),
    NoticeKind.TAKEBACK_REQUEST: gettext_lazy("Takeback asked"),
    NoticeKind.MOVE_CONFIRMED: gettext_lazy("Your move is played"),
    NoticeKind.REPLY_REFUSED: gettext_lazy("Your reply was not played"),
    NoticeKind.PLAN_DROPPED: gettext_lazy("Your plan changed"),
}


def game_subject(game: Game, kind: str, reader: int | None, payload: dict | None = None) -> str:
    """The subject of an email about a started game, to the player of seat ``reader``:
    what happened, then the game, "Your turn — Azul #4 with Bob, Carol". The game's part is
    the same in every email of the game to one reader, a stable tail: mail programs that
    thread by headers (``References``, ``render.thread_headers``) keep the game's emails in
    one thread whatever comes first, and Gmail, which also wants the same subject, keeps
    each kind of a game's emails together (its turns in one thread). docs/architecture.md,
    "Notices and channels"."""
    names = [
        player["player"]
        for player in players_of(game)
        if player["seat"] is not None and player["player"] and player["seat"] != reader
    ]
    # Translators: a game in its emails' subject, "Azul #4 with Bob, Carol"; %(players)s
    # are the other players' names in seat order, separated by commas.
    tail = pgettext("email subject", "%(title)s with %(players)s") % {
        "title": game_title(game),
        "players": ", ".join(names),
    }
    what = _ended(game, reader) if kind == NoticeKind.GAME_OVER else SUBJECT_WHAT.get(kind)
    if kind == NoticeKind.TOURNAMENT_ROUND:
        payload = payload or {}
        # Translators: %(round)s is a round's number, %(name)s a tournament's name.
        what = _("Round %(round)s of %(name)s") % {
            "round": payload.get("round", ""),
            "name": payload.get("name", ""),
        }
    if not names:
        tail = game_title(game)
    if what is None:
        return tail
    # Translators: an email's subject: what happened ("Your turn"), then the game ("Azul #4
    # with Bob, Carol"), which stays the same in all the game's emails.
    return pgettext("email subject", "%(what)s — %(game)s") % {"what": what, "game": tail}


# A game that ended without a winner to name, in its subject.
ENDED_WITHOUT_WINNER = {
    Game.Status.FINISHED: gettext_lazy("Game over"),
    Game.Status.ABORTED: gettext_lazy("Game aborted"),
    Game.Status.CANCELLED: gettext_lazy("Game cancelled"),
}


def _ended(game: Game, reader: int | None) -> str:
    """Who won a game that ended, as its subject says it: "Bob won", "You won"."""
    if game.status in (Game.Status.ABORTED, Game.Status.CANCELLED):
        return str(ENDED_WITHOUT_WINNER[game.status])
    # The table's, which knows who won by the others' resignations as well.
    winners = list(game_table(game).winners())
    if reader in winners:
        return _("You won") if len(winners) == 1 else _("You shared the win")
    names = {player["seat"]: player["player"] for player in players_of(game)}
    said = [str(names.get(seat) or seat + 1) for seat in winners]
    if not said:
        return str(ENDED_WITHOUT_WINNER[Game.Status.FINISHED])
    # Translators: %(names)s are the winners' names, "Bob" or "Bob and Carol".
    return ngettext("%(names)s won", "%(names)s shared the win", len(said)) % {
        "names": listing(said)
    }


def refusal_reason(payload: dict) -> str:
    """Why a reply was refused, in the active language: from the code the refusal keeps
    (``refusal`` and its ``details``), or the sentence of an older row."""
    code = payload.get("refusal")
    details = payload.get("details") or {}
    if code in REFUSAL_TEXT:
        return str(REFUSAL_TEXT[code]) % details
    if code == "game_not_active":
        return str(STATUS_TEXT.get(details.get("status"), STATUS_TEXT[Game.Status.FINISHED]))
    if code:
        # Translators: %(written)s is what the player wrote; %(reason)s says what was wrong.
        return _("“%(written)s”: %(reason)s") % {
            "written": details.get("written", ""),
            "reason": details.get("message", ""),
        }
    return str(payload.get("reason", ""))


def words_hint(game: Game | None) -> str:
    """For a refusal: that the reader's language's words are read too, with an example."""
    if game is None:
        return ""
    language = translation.get_language() or ""
    found = words.vocabulary(game.game_type, language)
    if found is None:
        return _("Write the move in the notation of the list below, or just its number.")
    pairs = ", ".join(f"{word} = {target}" for word, target in found.pairs())
    # Translators: %(example)s is a move written with words of the reader's language, e.g.
    # "azul de la fábrica 2 a la línea 3"; %(words)s lists "word = notation" pairs.
    return _(
        "Write the move in the notation of the list below, or just its number. The words of "
        "your language are read too, for example “%(example)s”: %(words)s."
    ) % {"example": words.example(game.game_type, language), "words": pairs}


def player_line(seat: int, name: str, scores: list, to_move: bool) -> str:
    """ "Player 2: Bob, 14 points (to move)": seats counted from 1, as the engines' texts
    do."""
    values = {"number": seat + 1, "name": name}
    if seat < len(scores):
        values["points"] = scores[seat]
        if to_move:
            # Translators: a line of the players' list; %(name)s is a player's name.
            return (
                ngettext(
                    "Player %(number)s: %(name)s, %(points)s point (to move)",
                    "Player %(number)s: %(name)s, %(points)s points (to move)",
                    scores[seat],
                )
                % values
            )
        return (
            ngettext(
                "Player %(number)s: %(name)s, %(points)s point",
                "Player %(number)s: %(name)s, %(points)s points",
                scores[seat],
            )
            % values
        )
    if to_move:
        return _("Player %(number)s: %(name)s (to move)") % values
    return _("Player %(number)s: %(name)s") % values


def deadline_text(game: Game, now: datetime) -> str:
    """ "Deadline: 21/11/2026 15:00 (Europe/Madrid); 2 days, 3 hours left." in the reader's
    language and time zone (both active: ``speaking_to``), the time left said as on the
    pages (``time_left_text``); only the time left while the clock is stopped."""
    left = time_left(game, now)
    if left is None:
        return ""
    if left.deadline is None:
        return f"{capfirst(time_left_text(left))}."
    # Translators: %(when)s is a date and time, %(zone)s the reader's time zone
    # (e.g. "Europe/Warsaw"), %(left)s the time left as the game's page says it, e.g.
    # "2 days, 3 hours left".
    return _("Deadline: %(when)s (%(zone)s); %(left)s.") % {
        "when": when_text(left.deadline),
        "zone": timezone.get_current_timezone_name(),
        "left": time_left_text(left),
    }


def when_text(moment: datetime) -> str:
    """A date and time in the active language's short format and the active time zone."""
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def timeout_text(game: Game) -> str:
    if game.timeout_policy == Game.TimeoutPolicy.FORFEIT:
        return _("If the deadline passes, you forfeit the game.")
    if game.timeout_policy == Game.TimeoutPolicy.BOT:
        return _("If the deadline passes, %(bot)s plays your turn.") % {
            "bot": bot_name(game.timeout_bot)
        }
    return _("If the deadline passes, the least wasteful move is played for you.")


def result_text(game: Game) -> str:
    names = {player["seat"]: player["player"] for player in players_of(game)}
    winners = [str(names.get(seat, seat)) for seat in game.winners or ()]
    if not winners:
        return ""
    # Translators: %(names)s are the winners' names, separated by commas.
    return ngettext("Winner: %(names)s.", "Winners: %(names)s.", len(winners)) % {
        "names": ", ".join(winners)
    }


def plan_kept_text(payload: dict) -> str:
    """What became of the plan lines of an emailed reply (conditional moves, issue 32)."""
    if "plan_refused" in payload:
        # Translators: %(reason)s says which line and move, and what is wrong with it.
        return _("Your plan was not kept: %(reason)s.") % {"reason": payload["plan_refused"]}
    count = payload.get("plan_lines", 0)
    return ngettext(
        "Your plan is kept: %(count)s line. Nobody else can see it.",
        "Your plan is kept: %(count)s lines. Nobody else can see it.",
        count,
    ) % {"count": count}
