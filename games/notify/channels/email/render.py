"""The emails: plain text and HTML of every kind. The text part shows the position as
monospaced text, in lines of at most 78 characters (RFC 5322 2.1.1); the HTML part shows
the boards as a PNG picture attached inline (``cid:``), fitting a 390 px phone. The legal
moves are numbered and grouped by source, then colour, each in HTML also a link that opens
the game's page with that move chosen (a link only opens a page: the page's button
plays it). Each email opens with what happened and what is asked (``headlines``): the
text part's first line, and in HTML a hidden preheader that mail lists show. Headers:
Reply-To for moving by reply, RFC 8058 unsubscribe, a Message-ID of the row, and a
subject that says what happened before the game's part, the same in all its emails
(``texts.game_subject``), with ``References`` to the game's first email, so mail clients
thread a game's emails."""

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
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.boards import clickable_moves
from games.durations import time_control_text
from games.i18n import speaking_to
from games.models import Delivery, Game, NoticeKind, Outbox, Tournament
from games.notify.channels.email import headlines, pictures, texts, tokens
from games.notify.channels.email.addresses import player_by_address
from games.notify.channels.email.positions import position_text
from games.repository import game_table
from games.selectors.lists import waiting_for
from games.selectors.moves import legal_moves_of
from games.selectors.names import display_name, players_of
from games.tournaments.core import KNOCKOUT

# The kinds about a turn to play: they carry the position, the moves and a reply address.
TURN_KINDS = (NoticeKind.YOUR_TURN, NoticeKind.REMINDER, NoticeKind.DEADLINE_WARNING)


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


def refuse_url(address: str) -> str:
    """The link that refuses all email to ``address``, which has no account (the same page
    as an account's unsubscribe link, its token naming the address)."""
    return absolute("mail-unsubscribe", tokens.address_token(address))


def move_url(game: Game, move: str) -> str:
    """The game's page with ``move`` chosen, waiting for the player to confirm it."""
    return f"{game_url(game)}?move={quote(move)}"


# After the hidden preheader: blank space that keeps a mail list from showing the greeting
# after it as part of the preview.
PREHEADER_PADDING = mark_safe("&zwnj;&nbsp;" * 60)

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
class Picture:
    """A picture attached inline: the table's or a player's board (under its
    ``caption``), shown the email column's width or half of it."""

    cid: str
    png: bytes
    alt: str
    caption: str = ""
    wide: bool = True

    @property
    def width(self) -> int:
        """Its width in CSS pixels on a desktop (the email's column is 600 px)."""
        return 600 if self.wide else 294


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
    pictures: list[Picture] = field(default_factory=list)

    @property
    def picture_rows(self) -> list[list[Picture]]:
        """The pictures as the HTML lays them out: a wide one alone, narrow ones in twos."""
        rows: list[list[Picture]] = []
        for picture in self.pictures:
            if picture.wide or not rows or rows[-1][0].wide or len(rows[-1]) == 2:
                rows.append([picture])
            else:
                rows[-1].append(picture)
        return rows

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
    """What the templates show: ``preview`` says what happened and what is asked (the
    text part's first line, the HTML part's hidden preheader and first paragraph), the
    ``paragraphs`` follow the greeting; ``headers`` go on the message."""

    subject: str
    greeting: str
    paragraphs: list[str]
    preview: str = ""
    sections: list[Section] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    preferences_url: str = ""
    # To an address with no account: the link that refuses all email to it.
    refuse_url: str = ""
    headers: dict = field(default_factory=dict)


def seat_of_user(game: Game, user) -> int | None:
    if user is None:
        return None
    seat = game.seats.filter(user=user, position__isnull=False).first()
    return seat.position if seat else None


def section(game: Game, user, now: datetime, *, with_pictures: bool = True) -> Section:
    """The game as ``user`` sees it: players and scores, the position as text (and the
    boards as pictures, unless ``with_pictures`` is false), and when it is their turn the
    numbered legal moves and the seat's signed reply address."""
    table = game_table(game)
    engine = table.engine
    scores = list(game.scores or ())
    players = {}
    for player in players_of(game):
        at = player["seat"]
        if at is None:
            continue
        players[at] = texts.player_line(at, player["player"], scores, at == game.to_move)
    found = Section(
        title=texts.game_title(game),
        url=game_url(game),
        players=list(players.values()),
        position=position_text(game.game_type, table.state) if table.started else "",
    )
    seat = seat_of_user(game, user)
    view = engine.view(table.state) if table.started else None
    if view is not None and with_pictures and settings.MAIL_BOARD_PICTURES:
        found.pictures = [
            Picture(
                cid=f"boards-{game.pk}-" + ("table" if panel.seat is None else f"{panel.seat}"),
                png=panel.png,
                alt=panel.label if panel.seat is None else players[panel.seat],
                caption="" if panel.seat is None else players[panel.seat],
                wide=panel.wide,
            )
            for panel in pictures.panels(game.game_type, view, sorted(players), seat)
        ]
    if game.status == Game.Status.ACTIVE and seat is not None and seat == game.to_move:
        found.moves, found.groups = grouped_moves(game, table, view)
        found.reply_address = tokens.reply_address(game.pk, seat, game.last_seq)
        found.status = " ".join(
            filter(None, [_("It is your turn."), texts.deadline_text(game, now)])
        )
    elif game.status == Game.Status.ACTIVE and game.to_move is not None:
        found.status = _("Waiting for another player.")
    elif game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        found.status = str(texts.STATUS_TEXT[game.status])
    return found


def grouped_moves(game: Game, table, view) -> tuple[list[Move], list[MoveGroup]]:
    """The legal moves, numbered in the order of ``selectors.moves.legal_moves_of`` (the numbers
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


def compose(row: Delivery, now: datetime, *, with_pictures: bool = True) -> Email:
    """The email of an outbox row, from the game as it stands now (the boards' pictures
    drawn unless ``with_pictures`` is false)."""
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
    if kind == NoticeKind.DIGEST:
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
        email.preview = headlines.digest(waiting) if waiting else email.paragraphs[0]
        email.sections = [section(each, user, now, with_pictures=with_pictures) for each in waiting]
        return _finish(email, row, user)
    if kind == NoticeKind.DATA_EXPORT_READY:
        return _finish(data_export_ready(email, payload), row, user)
    if kind == NoticeKind.BOT_PAUSED:
        return _finish(bot_paused(email, payload), row, user)
    if kind in (
        NoticeKind.TOURNAMENT_JOINED,
        NoticeKind.TOURNAMENT_RESULTS,
        NoticeKind.TOURNAMENT_FINISHED,
        NoticeKind.TOURNAMENT_INVITATION,
        NoticeKind.TOURNAMENT_CANCELLED,
    ):
        return _finish(tournament_news(email, kind, payload), row, user)
    email.links = [(_("Open the game"), game_url(game))]
    if kind == NoticeKind.TOURNAMENT_ROUND:
        email.links.append((_("Open the tournament"), tournament_url(payload)))
    if kind == NoticeKind.INVITATION:
        values = {"creator": display_name(game.created_by), "game": texts.game_name(game.game_type)}
        # Translators: %(creator)s is a player's name, %(game)s a game's name ("Azul").
        email.subject = _("%(creator)s invites you to play %(game)s") % values
        # Translators: %(time_control)s is e.g. "3 days per move" or "no time limit".
        email.preview = ngettext(
            "%(creator)s invites you to a game of %(game)s for %(count)s player "
            "(%(time_control)s).",
            "%(creator)s invites you to a game of %(game)s for %(count)s players "
            "(%(time_control)s).",
            game.players,
        ) % {
            **values,
            "count": game.players,
            "time_control": time_control_text(game.time_control, bank_in_parts=True),
        }
        email.paragraphs = [_("Open the invitation to take your seat.")]
        email.links = [(_("Open the invitation"), absolute("invitation", payload.get("token", "")))]
        return _finish(email, row, user)
    email.sections = [section(game, user, now, with_pictures=with_pictures)]
    reader = seat_of_user(game, user)
    email.subject = texts.game_subject(game, kind, reader, payload)
    email.preview = headlines.headline(row, reader, now)
    match kind:
        case NoticeKind.REPLY_REFUSED if payload.get("refusal") == "forged":
            email.paragraphs.append(str(texts.FORGED_HINT))
        case NoticeKind.REPLY_REFUSED:
            email.paragraphs.append(texts.words_hint(game))
        case NoticeKind.MOVE_CONFIRMED if "plan_lines" in payload or "plan_refused" in payload:
            email.paragraphs.append(texts.plan_kept_text(payload))
        case NoticeKind.DEADLINE_WARNING:
            email.paragraphs += [texts.deadline_text(game, now), texts.timeout_text(game)]
        case NoticeKind.GAME_OVER:
            email.paragraphs.append(texts.result_text(game))
            email.links.append((_("Replay the game"), replay_url(game)))
    return _finish(email, row, user)


def tournament_url(payload: dict) -> str:
    return absolute("tournament", payload.get("tournament", 0))


# What a tournament's email about no game says: its subject and its first line.
TOURNAMENT_NEWS = {
    NoticeKind.TOURNAMENT_JOINED: (
        gettext_lazy("You are registered for %(name)s"),
        gettext_lazy(
            "You are registered for the tournament %(name)s. We will tell you when your "
            "first game starts."
        ),
    ),
    NoticeKind.TOURNAMENT_RESULTS: (
        gettext_lazy("Round %(round)s of %(name)s is over"),
        # Translators: %(rank)s is the reader's place now, %(players)s how many are still in.
        gettext_lazy(
            "Round %(round)s of %(name)s is over: you are %(rank)s of %(players)s. The next "
            "round has started."
        ),
    ),
    NoticeKind.TOURNAMENT_FINISHED: (
        gettext_lazy("%(name)s is over"),
        # Translators: %(rank)s is the reader's final place, %(players)s how many played.
        gettext_lazy("The tournament %(name)s is over: you finished %(rank)s of %(players)s."),
    ),
    NoticeKind.TOURNAMENT_CANCELLED: (
        gettext_lazy("%(name)s is called off"),
        gettext_lazy(
            "The tournament %(name)s is called off: no more of its rounds will start. Games "
            "of it still in play go on as ordinary games."
        ),
    ),
    NoticeKind.TOURNAMENT_INVITATION: (
        # Translators: %(organiser)s is a player's name, %(name)s a tournament's.
        gettext_lazy("%(organiser)s invites you to the tournament %(name)s"),
        gettext_lazy(
            "%(organiser)s invites you to the tournament %(name)s. Open its page to read its "
            "settings and join it (sign in with this address)."
        ),
    ),
}


# A round's results to a player it knocked out of a knockout (``notify.knocked_out``).
KNOCKED_OUT_NEWS = (
    gettext_lazy("You are out of %(name)s"),
    # Translators: %(places)s is the reader's final place ("3", or "3–4" when shared),
    # %(players)s how many started.
    gettext_lazy(
        "You lost your game in round %(round)s of %(name)s and are out of the tournament: "
        "you finish %(places)s of %(players)s."
    ),
)


# A round's results to a player a knockout keeps in: a rank among those still in ("2 of 2")
# would read as last place.
KNOCKOUT_THROUGH_NEWS = (
    gettext_lazy("You go through to round %(next)s of %(name)s"),
    # Translators: %(players)s is how many players are still in the knockout.
    gettext_lazy(
        "Round %(round)s of %(name)s is over: you go through to round %(next)s, one of "
        "%(players)s players still in. The next round has started."
    ),
)


def tournament_news(email: Email, kind: str, payload: dict) -> Email:
    """A tournament's email about no game: registration confirmed, a round's results (to a
    player a knockout keeps in, that they go through; to one it knocked out, that they are
    out) or the tournament finished, with the reader's standing and points; or the
    tournament called off."""
    values = {key: payload.get(key) for key in ("name", "round", "rank", "players", "places")}
    values["organiser"] = payload.get("organiser", "")
    if payload.get("knocked_out"):
        subject, preview = KNOCKED_OUT_NEWS
    elif kind == NoticeKind.TOURNAMENT_RESULTS and _knockout(payload):
        subject, preview = KNOCKOUT_THROUGH_NEWS
        values["next"] = (payload.get("round") or 0) + 1
    else:
        subject, preview = TOURNAMENT_NEWS[kind]
    email.subject, email.preview = str(subject) % values, str(preview) % values
    email.links = [(_("Open the tournament"), tournament_url(payload))]
    if kind in (NoticeKind.TOURNAMENT_RESULTS, NoticeKind.TOURNAMENT_FINISHED):
        points = f"{payload.get('points', 0):g}"
        email.paragraphs = [_("Your points: %(points)s.") % {"points": points}]
    return email


def _knockout(payload: dict) -> bool:
    """Whether the notice's tournament is a knockout (read when the email leaves, so that
    rows queued before this was asked say it too)."""
    return Tournament.objects.filter(pk=payload.get("tournament"), format=KNOCKOUT).exists()


def data_export_ready(email: Email, payload: dict) -> Email:
    """The player's download of their data is ready (issue 45): the link opens the account
    page, whose link downloads it (an email's link only opens a page)."""
    email.subject = _("Your data is ready to download")
    expires = payload.get("expires_at")
    until = texts.when_text(datetime.fromisoformat(expires)) if expires else ""
    # Translators: %(until)s is a date and time in the reader's time zone.
    email.preview = _(
        "The archive of your data you asked for is ready. Download it from your account page "
        "until %(until)s; then it is deleted."
    ) % {"until": until}
    email.paragraphs = [
        _(
            "It is a ZIP file of JSON files: your account and settings, ratings, games, chat "
            "messages, plans, tournaments, devices and emails. Its README.txt says what each "
            "file holds."
        ),
        _("Only you can download it, signed in to your account."),
    ]
    email.links = [(_("Open your account page"), absolute("account") + "#your-data")]
    return email


def bot_paused(email: Email, payload: dict) -> Email:
    """The site paused the reader's bot (issue 55): why, and where to let it play again."""
    # Translators: %(name)s is the name its owner gave a bot (a program that plays).
    email.subject = _("Your bot %(name)s is paused") % {"name": payload.get("bot", "")}
    email.preview = _(
        "The site paused your bot: it %(reason)s. It takes no challenge and plays no ladder "
        "match until you let it play again."
    ) % {"reason": _(payload.get("reason", ""))}
    email.paragraphs = [
        _(
            "Its games in play go on. Check that your program is running and answers its "
            "turns in time, then let the bot play again on your bots page."
        )
    ]
    email.links = [(_("Open your bots page"), absolute("bots"))]
    return email


def refusal_without_game(row: Delivery) -> Email:
    """The answer to a reply that names no game its sender may see."""
    return Email(
        subject=_("Your reply could not be read as a move"),
        greeting=_("Hello,"),
        preview=_("Your email was not played: %(reason)s")
        % {"reason": texts.refusal_reason(row.payload or {})},
        paragraphs=[
            _(
                "To move by email, reply to the latest turn email of the game with the move or "
                "its number."
            ),
        ],
    )


def sign_in(row: Delivery) -> Email:
    """The sign-in email: the link (its code in the fragment, which reaches no server's log)
    and the code alone, for a browser that does not fill it in."""
    code = tokens.sign_in_code(row)
    query = urlencode({"next": (row.payload or {}).get("next") or "/lobby/"})
    link = f"{absolute('sign-in-link')}?{query}#{code}"
    return Email(
        subject=_("Your sign-in link for azulsite"),
        greeting=_("Hello,"),
        preview=_("Follow this link to sign in to azulsite (it works once, within 30 minutes):"),
        paragraphs=[
            _("If the page asks for a code, copy this one: %(code)s") % {"code": code},
            _(
                "If you did not ask for it, ignore this email: nothing happens unless the "
                "link is used."
            ),
        ],
        links=[(_("Sign in"), link)],
    )


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


def message(row: Delivery, now: datetime, *, with_pictures: bool = True) -> EmailMultiAlternatives:
    """The message to send for ``row``, in its recipient's language and time zone (an
    address with no account yet: the language its row was queued in); without the boards'
    pictures if ``with_pictures`` is false (the text of a sent email in a player's data)."""
    reader = player_by_address(row.recipient)
    with speaking_to(reader, language=(row.payload or {}).get("language")):
        if row.kind == NoticeKind.REPLY_REFUSED and row.game_id is None:
            email = refusal_without_game(row)
        elif row.kind == NoticeKind.SIGN_IN:
            email = sign_in(row)
        else:
            email = compose(row, now, with_pictures=with_pictures)
        context = {
            "email": email,
            "site_url": settings.SITE_URL,
            "language": translation.get_language(),
            "preheader_padding": PREHEADER_PADDING,
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
        pictures=[(p.cid, p.png) for s in email.sections for p in s.pictures],
    )
    result.attach_alternative(html, "text/html")
    return result


# A reply address (``tokens.reply_address``): its signature plays moves.
REPLY_ADDRESS = re.compile(re.escape(tokens.REPLY_PREFIX) + r"[a-z0-9.\-]+@", re.IGNORECASE)


def sent_text(row: Delivery, now: datetime) -> tuple[str, str]:
    """The subject and text of an email sent to a player, as written now, for their data
    (issue 45): without the boards' pictures, and without what acts for them (a reply
    address's signature, the token of their preferences and unsubscribe links). Raises
    what writing it raises (a row whose game is gone)."""
    written = message(row, now, with_pictures=False)
    text = REPLY_ADDRESS.sub(tokens.REPLY_PREFIX + "…@", written.body)
    reader = row.user or player_by_address(row.recipient)
    if reader is not None:
        text = text.replace(tokens.player_token(reader.pk, reader.email), "…")
    return written.subject, text


def thread_headers(row: Delivery) -> dict[str, str]:
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


def _finish(email: Email, row: Delivery, user) -> Email:
    """The unsubscribe headers (RFC 8058): of the player's account, or, for an address
    with no account yet (an invitation), of the address, whose link is also shown."""
    if user is None:
        url = email.refuse_url = refuse_url(row.recipient)
    else:
        url = unsubscribe_url(user)
    email.headers = {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    return email
