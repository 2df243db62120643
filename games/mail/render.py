"""The emails: plain text and HTML of every kind. The text part shows the position as
monospaced text, in lines of at most 78 characters (RFC 5322 2.1.1); the HTML part shows
the boards as a PNG picture attached inline (``cid:``), fitting a 390 px phone. The legal
moves are numbered and grouped by source, then colour, each in HTML also a link that opens
the game's page with that move chosen (a link only opens a page: the page's button
plays it). Headers: Reply-To for moving by reply, RFC 8058 unsubscribe, a Message-ID of
the row, and one subject per game with ``References`` to the game's first email, so mail
clients thread a game's emails."""

import re
import textwrap
from dataclasses import dataclass, field
from datetime import datetime
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from urllib.parse import quote, urlencode

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import services
from games.boards import clickable_moves
from games.i18n import speaking_to
from games.mail import pictures, tokens, words
from games.mail.positions import position_text
from games.mail.selectors import player_by_address
from games.models import Game, Outbox
from games.registry import game_type
from games.repository import game_table
from games.selectors import bot_name, display_name, legal_moves_of, players_of, waiting_for

# The kinds about a turn to play: they carry the position, the moves and a reply address.
TURN_KINDS = (Outbox.Kind.YOUR_TURN, Outbox.Kind.REMINDER, Outbox.Kind.DEADLINE_WARNING)


def absolute(route: str, *args) -> str:
    """A page's full address, for links in emails."""
    return settings.SITE_URL + reverse(route, args=args)


def game_url(game: Game) -> str:
    return absolute("game", game.pk)


def replay_url(game: Game) -> str:
    return absolute("game-replay", game.pk)


def preferences_url(user) -> str:
    return absolute("mail-preferences-token", tokens.player_token(user.pk, user.email))


def unsubscribe_url(user) -> str:
    return absolute("mail-unsubscribe", tokens.player_token(user.pk, user.email))


def move_url(game: Game, move: str) -> str:
    """The game's page with ``move`` chosen, waiting for the player to confirm it."""
    return f"{game_url(game)}?move={quote(move)}"


# The longest line of the text part (RFC 5322 2.1.1 recommends 78 characters).
TEXT_WIDTH = 78
# A line that starts with a label ("Factories:"); its continuation lines are indented.
LABELLED = re.compile(r"^\s*[\w ]{1,24}:\s")


@dataclass
class Move:
    """One legal move in an email: its number (a reply may give just that), notation,
    and the link that opens the game's page with it chosen."""

    number: int
    notation: str
    url: str

    @property
    def label(self) -> str:
        return f"{self.number}. {self.notation}"


@dataclass
class MoveGroup:
    """The moves from one source (a factory display, the centre, a tile), one row per
    colour (or per second choice)."""

    title: str
    rows: list[list[Move]]


@dataclass
class Section:
    """One game in an email: where it stands and, on the reader's turn, how to move."""

    title: str
    url: str
    players: list[str]
    position: str
    status: str = ""
    moves: list[Move] = field(default_factory=list)
    groups: list[MoveGroup] = field(default_factory=list)
    reply_address: str = ""
    picture_cid: str = ""
    picture: bytes = b""

    def move_lines(self) -> list[str]:
        """The grouped moves as text lines of at most ``TEXT_WIDTH`` characters: each group
        under its title, its moves side by side in columns, a row of several moves (one
        colour) starting a line of its own."""
        digits = len(str(len(self.moves)))
        labels = {move.number: f"{move.number:>{digits}}. {move.notation}" for move in self.moves}
        cell = max(map(len, labels.values())) + 3
        per_line = max(1, (TEXT_WIDTH - 2) // cell)
        lines = []

        def flush(cells: list[str]) -> None:
            if cells:
                lines.append(("  " + "".join(cells)).rstrip())
                cells.clear()

        for group in self.groups:
            lines.append(group.title + ":")
            cells: list[str] = []
            for row in group.rows:
                if len(row) > 1:
                    flush(cells)
                for move in row:
                    cells.append(labels[move.number].ljust(cell))
                    if len(cells) == per_line:
                        flush(cells)
                if len(row) > 1:
                    flush(cells)
            flush(cells)
        return lines


@dataclass
class Email:
    """What the templates show; ``headers`` go on the message."""

    subject: str
    greeting: str
    paragraphs: list[str]
    sections: list[Section] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    preferences_url: str = ""
    headers: dict = field(default_factory=dict)


# The first paragraph of each kind about one game; ``%(title)s`` and the row's payload
# fill them in. The subject is the game's (one per game, so mail clients thread its emails).
KIND_TEXT = {
    # Translators: %(title)s is a game's title, e.g. "Azul #12".
    Outbox.Kind.GAME_STARTED: gettext_lazy("Everyone has joined: %(title)s has started."),
    Outbox.Kind.YOUR_TURN: gettext_lazy("It is your turn in %(title)s."),
    Outbox.Kind.REMINDER: gettext_lazy("%(title)s is still waiting for your move."),
    Outbox.Kind.DEADLINE_WARNING: gettext_lazy("Your time in %(title)s is running out."),
    Outbox.Kind.TIMEOUT: gettext_lazy("Your time ran out in %(title)s."),
    Outbox.Kind.GAME_OVER: gettext_lazy("%(title)s is over."),
    # Translators: %(to_seq)s is the number of an event in the game's move log.
    Outbox.Kind.TAKEBACK_REQUEST: gettext_lazy(
        "A player asks to take %(title)s back to the position after event %(to_seq)s. "
        "Accept or decline on the game's page."
    ),
    # Translators: %(move)s is a move in the notation, e.g. "F3 blue 4" (never translated).
    Outbox.Kind.MOVE_CONFIRMED: gettext_lazy("Your move %(move)s is played in %(title)s."),
    Outbox.Kind.REPLY_REFUSED: gettext_lazy("Your reply was not played: %(reason)s"),
}

# The games' names as the publishers' books in each language call them.
GAME_NAMES = {
    "azul": pgettext_lazy("game name", "Azul"),
    "summer-pavilion": pgettext_lazy("game name", "Azul: Summer Pavilion"),
    "miyabi": pgettext_lazy("game name", "Miyabi"),
}

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


def game_name(slug: str) -> str:
    return str(GAME_NAMES.get(slug) or game_type(slug).title)


def game_title(game: Game) -> str:
    # Translators: the title of one game, the subject of its emails, e.g. "Azul #12".
    # Write the number the way your language does (e.g. "nr 12", "n.º 12").
    return pgettext("email subject", "%(game)s #%(number)s") % {
        "game": game_name(game.game_type),
        "number": game.pk,
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


def seat_of_user(game: Game, user) -> int | None:
    if user is None:
        return None
    seat = game.seats.filter(user=user, position__isnull=False).first()
    return seat.position if seat else None


def section(game: Game, user, now: datetime) -> Section:
    """The game as ``user`` sees it: players and scores, the position as text, and when it
    is their turn the numbered legal moves and the seat's signed reply address."""
    table = game_table(game)
    engine = table.engine
    scores = list(game.scores or ())
    players = {}
    for player in players_of(game):
        at = player["seat"]
        if at is None:
            continue
        players[at] = player_line(at, player["player"], scores, at == game.to_move)
    found = Section(
        title=game_title(game),
        url=game_url(game),
        players=list(players.values()),
        position=position_text(game.game_type, table.state) if table.started else "",
    )
    seat = seat_of_user(game, user)
    view = engine.view(table.state) if table.started else None
    if view is not None and settings.MAIL_BOARD_PICTURES:
        found.picture = pictures.boards_png(game.game_type, view, players, seat)
        found.picture_cid = f"boards-{game.pk}"
    if game.status == Game.Status.ACTIVE and seat is not None and seat == game.to_move:
        found.moves, found.groups = grouped_moves(game, table, view)
        found.reply_address = tokens.reply_address(game.pk, seat, game.last_seq)
        found.status = " ".join(filter(None, [_("It is your turn."), deadline_text(game, now)]))
    elif game.status == Game.Status.ACTIVE and game.to_move is not None:
        found.status = _("Waiting for another player.")
    elif game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        found.status = str(STATUS_TEXT[game.status])
    return found


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


def grouped_moves(game: Game, table, view) -> tuple[list[Move], list[MoveGroup]]:
    """The legal moves, numbered in the order of ``selectors.legal_moves_of`` (the numbers
    a reply may give), grouped by the first click that chooses them on the board (the
    source) and then the second (the colour)."""
    legal = legal_moves_of(table)
    clicks = clickable_moves(game.game_type, legal, view)
    moves, groups = [], {}
    for number, move in enumerate(clicks, start=1):
        found = Move(number, move["move"], move_url(game, move["move"]))
        moves.append(found)
        labels = [label for _pick, label in move["steps"]] or [_("Other moves")]
        title = labels[0][:1].upper() + labels[0][1:]
        rows = groups.setdefault(title, {})
        rows.setdefault(labels[1] if len(labels) > 1 else "", []).append(found)
    return moves, [MoveGroup(title, list(rows.values())) for title, rows in groups.items()]


def deadline_text(game: Game, now: datetime) -> str:
    """ "Deadline: 21/11/2026 15:00 (Europe/Madrid), in 2 days, 3 hours." in the reader's
    language and time zone (both active: ``speaking_to``)."""
    if game.deadline is None:
        return ""
    # Translators: %(when)s is a date and time, %(zone)s the reader's time zone
    # (e.g. "Europe/Warsaw"), %(left)s a duration such as "2 days, 3 hours".
    return _("Deadline: %(when)s (%(zone)s), in %(left)s.") % {
        "when": when_text(game.deadline),
        "zone": timezone.get_current_timezone_name(),
        "left": duration_text(game.deadline - now),
    }


def when_text(moment: datetime) -> str:
    """A date and time in the active language's short format and the active time zone."""
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def duration_text(left) -> str:
    """ "2 days, 3 hours", "5 hours", "40 minutes": the two largest units, each with its
    plural (Polish has three forms)."""
    minutes = max(0, int(left.total_seconds() // 60))
    days, hours = divmod(minutes // 60, 24)
    if not days and not hours:
        return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    hours_text = ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    if not days:
        return hours_text
    days_text = ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
    if not hours:
        return days_text
    # Translators: a duration of days and hours, e.g. "2 days, 3 hours".
    return _("%(days)s, %(hours)s") % {"days": days_text, "hours": hours_text}


def compose(row: Outbox, now: datetime) -> Email:
    """The email of an outbox row, from the game as it stands now."""
    user = player_by_address(row.recipient)
    game = row.game
    name = display_name(user) if user else ""
    email = Email(
        subject="",
        # Translators: the greeting of an email; %(name)s is the player's name.
        greeting=_("Hello %(name)s,") % {"name": name} if name else _("Hello,"),
        paragraphs=[],
        preferences_url=preferences_url(user) if user else "",
    )
    payload = row.payload or {}
    kind = row.kind
    if kind == Outbox.Kind.DIGEST:
        waiting = list(waiting_for(user)) if user else []
        email.subject = ngettext(
            "%(count)s game waiting for your move",
            "%(count)s games waiting for your move",
            len(waiting),
        ) % {"count": len(waiting)}
        email.paragraphs = [
            _(
                "Your daily digest: every game waiting for your move. To move by email, write "
                "the move or its number to the reply address given under each game."
            )
        ]
        email.sections = [section(each, user, now) for each in waiting]
        return _finish(email, row, user)
    title = game_title(game)
    email.links = [(_("Open the game"), game_url(game))]
    if kind == Outbox.Kind.INVITATION:
        values = {"creator": display_name(game.created_by), "game": game_name(game.game_type)}
        # Translators: %(creator)s is a player's name, %(game)s a game's name ("Azul").
        email.subject = _("%(creator)s invites you to play %(game)s") % values
        email.paragraphs = [
            # Translators: %(time_control)s is e.g. "3 days per move" or "no time limit".
            ngettext(
                "%(creator)s invites you to a game of %(game)s for %(count)s player "
                "(%(time_control)s).",
                "%(creator)s invites you to a game of %(game)s for %(count)s players "
                "(%(time_control)s).",
                game.players,
            )
            % {**values, "count": game.players, "time_control": time_control_text(game)},
            _("Open the invitation to take your seat."),
        ]
        email.links = [(_("Open the invitation"), absolute("invitation", payload.get("token", "")))]
        return _finish(email, row, user)
    email.sections = [section(game, user, now)]
    values = {"title": title, "to_seq": payload.get("to_seq", ""), "move": payload.get("move", "")}
    if kind == Outbox.Kind.REPLY_REFUSED:
        values["reason"] = refusal_reason(payload)
    email.subject = title
    email.paragraphs = [str(KIND_TEXT[kind]) % values]
    match kind:
        case Outbox.Kind.REPLY_REFUSED:
            email.paragraphs.append(words_hint(game))
        case Outbox.Kind.DEADLINE_WARNING:
            email.paragraphs += [deadline_text(game, now), timeout_text(game)]
        case Outbox.Kind.TIMEOUT if payload.get("policy") == Game.TimeoutPolicy.FORFEIT:
            email.paragraphs.append(_("You forfeited the game."))
        case Outbox.Kind.TIMEOUT if payload.get("policy") == Game.TimeoutPolicy.BOT:
            email.paragraphs.append(
                _("%(bot)s played for you: %(move)s.")
                % {"bot": bot_name(game.timeout_bot), "move": payload.get("move", "")}
            )
        case Outbox.Kind.TIMEOUT:
            # Translators: %(move)s is a move in the notation, e.g. "F3 blue 4".
            email.paragraphs.append(
                _("The move %(move)s was played for you.") % {"move": payload.get("move", "")}
            )
        case Outbox.Kind.GAME_OVER:
            email.paragraphs.append(result_text(game))
            email.links.append((_("Replay the game"), replay_url(game)))
    return _finish(email, row, user)


def refusal_without_game(row: Outbox) -> Email:
    """The answer to a reply that names no game its sender may see."""
    return Email(
        subject=_("Your reply could not be read as a move"),
        greeting=_("Hello,"),
        paragraphs=[
            _("Your email was not played: %(reason)s")
            % {"reason": refusal_reason(row.payload or {})},
            _(
                "To move by email, reply to the latest turn email of the game with the move or "
                "its number."
            ),
        ],
    )


def sign_in(row: Outbox) -> Email:
    """The sign-in email: the link (its code in the fragment, which reaches no server's log)
    and the code alone, for a browser that does not fill it in."""
    code = services.sign_in_code(row)
    query = urlencode({"next": (row.payload or {}).get("next") or "/lobby/"})
    link = f"{absolute('sign-in-link')}?{query}#{code}"
    return Email(
        subject=_("Your sign-in link for azulsite"),
        greeting=_("Hello,"),
        paragraphs=[
            _("Follow this link to sign in to azulsite (it works once, within 30 minutes):"),
            _("If the page asks for a code, copy this one: %(code)s") % {"code": code},
            _(
                "If you did not ask for it, ignore this email: nothing happens unless the "
                "link is used."
            ),
        ],
        links=[(_("Sign in"), link)],
    )


def time_control_text(game: Game) -> str:
    control = game.time_control or {}
    match control.get("kind"):
        case "per_move":
            days = control["days"]
            return ngettext("%(count)s day per move", "%(count)s days per move", days) % {
                "count": days
            }
        case "bank":
            # Translators: the three parts of a time bank, e.g. "a bank of 72 hours",
            # "12 hours more per move", "at most 120 hours".
            return _("%(bank)s, %(increment)s, %(cap)s") % {
                "bank": ngettext(
                    "a bank of %(count)s hour", "a bank of %(count)s hours", control["bank_hours"]
                )
                % {"count": control["bank_hours"]},
                "increment": ngettext(
                    "%(count)s hour more per move",
                    "%(count)s hours more per move",
                    control["increment_hours"],
                )
                % {"count": control["increment_hours"]},
                "cap": ngettext(
                    "at most %(count)s hour", "at most %(count)s hours", control["cap_hours"]
                )
                % {"count": control["cap_hours"]},
            }
    return _("no time limit")


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


class EmailWithPictures(EmailMultiAlternatives):
    """An email whose HTML part shows pictures attached inline: ``multipart/alternative``
    of the text and a ``multipart/related`` of the HTML and its pictures (RFC 2387), so
    a client that shows the text part shows no attachment."""

    def __init__(self, *args, pictures: list[tuple[str, bytes]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pictures = pictures

    def _create_mime_attachment(self, content, mimetype):
        part = super()._create_mime_attachment(content, mimetype)
        if mimetype != "text/html" or not self.pictures:
            return part
        related = MIMEMultipart("related")
        related.attach(part)
        for cid, png in self.pictures:
            picture = MIMEImage(png, "png")
            picture.add_header("Content-ID", f"<{cid}>")
            picture.add_header("Content-Disposition", "inline", filename=f"{cid}.png")
            related.attach(picture)
        return related


def message(row: Outbox, now: datetime) -> EmailMultiAlternatives:
    """The message to send for ``row``, in its recipient's language and time zone (an
    address with no account yet: the language its row was queued in)."""
    reader = player_by_address(row.recipient)
    with speaking_to(reader, language=(row.payload or {}).get("language")):
        if row.kind == Outbox.Kind.REPLY_REFUSED and row.game_id is None:
            email = refusal_without_game(row)
        elif row.kind == Outbox.Kind.SIGN_IN:
            email = sign_in(row)
        else:
            email = compose(row, now)
        context = {
            "email": email,
            "site_url": settings.SITE_URL,
            "language": translation.get_language(),
        }
        text = fold(render_to_string("mail/message.txt", context))
        html = render_to_string("mail/message.html", context)
    headers = {
        "Message-ID": row.message_id,
        "Auto-Submitted": "auto-generated",
        **thread_headers(row),
        **email.headers,
    }
    reply_to = [s.reply_address for s in email.sections if s.reply_address]
    result = EmailWithPictures(
        subject=email.subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.recipient],
        reply_to=reply_to[:1] if len(email.sections) == 1 else None,
        headers=headers,
        pictures=[(s.picture_cid, s.picture) for s in email.sections if s.picture],
    )
    result.attach_alternative(html, "text/html")
    return result


def thread_headers(row: Outbox) -> dict[str, str]:
    """``In-Reply-To`` and ``References`` that thread a game's emails to one reader: to
    the first email of the game they were sent, and an answer also to the reply it
    answers (RFC 5322 3.6.4)."""
    chain = []
    if row.game_id:
        first = (
            Outbox.objects.filter(game_id=row.game_id, recipient=row.recipient)
            .order_by("pk")
            .values_list("message_id", flat=True)
            .first()
        )
        if first and first != row.message_id:
            chain.append(first)
    answered = (row.payload or {}).get("in_reply_to")
    if answered:
        chain.append(answered)
    if not chain:
        return {}
    return {"In-Reply-To": chain[-1], "References": " ".join(chain)}


def fold(text: str, width: int = TEXT_WIDTH) -> str:
    """``text`` in lines of at most ``width`` characters: a long line is broken between the
    items of a ``|`` list, then between words, its continuation lines indented under a
    label. A single word longer than a line (a web address) keeps a line of its own."""
    folded = []
    for line in text.split("\n"):
        if len(line) <= width:
            folded.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        hanging = indent + ("  " if LABELLED.match(line) else "")
        items = line.split(" | ")
        for index, item in enumerate(items):
            folded += textwrap.wrap(
                item if index == 0 else hanging + item,
                width,
                subsequent_indent=hanging,
                break_long_words=False,
                break_on_hyphens=False,
            )
    return "\n".join(folded)


def _finish(email: Email, row: Outbox, user) -> Email:
    if user is not None:
        email.headers = {
            "List-Unsubscribe": f"<{unsubscribe_url(user)}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    return email
