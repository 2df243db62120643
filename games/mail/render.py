"""The emails: plain text and HTML of every kind, readable in any mail client (the position
as monospaced text, no script, no image), the numbered legal moves in notation, links that
only open pages, and the headers (Reply-To for moving by reply, RFC 8058 unsubscribe)."""

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games import services
from games.mail import tokens
from games.mail.selectors import player_by_address
from games.models import Game, Outbox
from games.registry import game_type
from games.selectors import display_name, game_table, players_of, waiting_for

# The kinds about a turn to play: they carry the position, the moves and a reply address.
TURN_KINDS = (Outbox.Kind.YOUR_TURN, Outbox.Kind.REMINDER, Outbox.Kind.DEADLINE_WARNING)


def absolute(route: str, *args) -> str:
    """A page's full address, for links in emails."""
    return settings.SITE_URL + reverse(route, args=args)


def game_url(game: Game) -> str:
    return absolute("game", game.pk)


def replay_url(game: Game) -> str:
    return absolute("game-replay", game.pk)


def preferences_url(email: str) -> str:
    return absolute("mail-preferences-token", tokens.address_token(email))


def unsubscribe_url(email: str) -> str:
    return absolute("mail-unsubscribe", tokens.address_token(email))


@dataclass
class Section:
    """One game in an email: where it stands and, on the reader's turn, how to move."""

    title: str
    url: str
    players: list[str]
    position: str
    status: str = ""
    moves: list[tuple[int, str]] = field(default_factory=list)
    reply_address: str = ""


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


# Subject and first paragraph of each kind about one game; ``{title}`` and the row's
# payload fill them in.
KIND_TEXT = {
    Outbox.Kind.GAME_STARTED: ("{title} has started", "Everyone has joined: {title} has started."),
    Outbox.Kind.YOUR_TURN: ("Your turn in {title}", "It is your turn in {title}."),
    Outbox.Kind.REMINDER: (
        "Reminder: your turn in {title}",
        "{title} is still waiting for your move.",
    ),
    Outbox.Kind.DEADLINE_WARNING: (
        "Your time is running out in {title}",
        "Your time in {title} is running out.",
    ),
    Outbox.Kind.TIMEOUT: ("Your time ran out in {title}", "Your time ran out in {title}."),
    Outbox.Kind.GAME_OVER: ("{title} is over", "{title} is over."),
    Outbox.Kind.TAKEBACK_REQUEST: (
        "Takeback request in {title}",
        "A player asks to take {title} back to the position after event {to_seq}. Accept or "
        "decline on the game's page.",
    ),
    Outbox.Kind.MOVE_CONFIRMED: (
        "Played: {move} in {title}",
        "Your move {move} is played in {title}.",
    ),
    Outbox.Kind.REPLY_REFUSED: (
        "Your reply was not played in {title}",
        "Your reply was not played: {reason}",
    ),
}


def game_title(game: Game) -> str:
    return f"{game_type(game.game_type).title} #{game.pk}"


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
    players = []
    for player in players_of(game):
        at = player["seat"]
        if at is None:
            continue
        mark = " (to move)" if at == game.to_move else ""
        score = f", {scores[at]} points" if at < len(scores) else ""
        # Engines' texts count seats from 0 or players from 1: name both.
        players.append(f"Player {at + 1}: {player['player']}{score}{mark}")
    found = Section(
        title=game_title(game),
        url=game_url(game),
        players=players,
        position=engine.render_text(table.state) if table.started else "",
    )
    seat = seat_of_user(game, user)
    if game.status == Game.Status.ACTIVE and seat is not None and seat == game.to_move:
        found.moves = [
            (number, engine.format(command))
            for number, command in enumerate(engine.legal_commands(table.state), start=1)
        ]
        found.reply_address = tokens.reply_address(game.pk, seat, game.last_seq)
        found.status = "It is your turn." + deadline_text(game, now)
    elif game.status == Game.Status.ACTIVE and game.to_move is not None:
        found.status = "Waiting for another player."
    elif game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        found.status = f"The game is {game.get_status_display()}."
    return found


def deadline_text(game: Game, now: datetime) -> str:
    if game.deadline is None:
        return ""
    hours = max(0, int((game.deadline - now).total_seconds() // 3600))
    return f" Deadline: {game.deadline:%Y-%m-%d %H:%M} UTC (in about {hours} hours)."


def compose(row: Outbox, now: datetime) -> Email:
    """The email of an outbox row, from the game as it stands now."""
    user = player_by_address(row.recipient)
    game = row.game
    name = display_name(user) if user else ""
    email = Email(
        subject="",
        greeting=f"Hello {name}," if name else "Hello,",
        paragraphs=[],
        preferences_url=preferences_url(row.recipient) if user else "",
    )
    payload = row.payload or {}
    kind = row.kind
    if kind == Outbox.Kind.DIGEST:
        waiting = list(waiting_for(user)) if user else []
        email.subject = f"{len(waiting)} game(s) waiting for your move"
        email.paragraphs = [
            "Your daily digest: every game waiting for your move. To move by email, write "
            "the move or its number to the reply address given under each game."
        ]
        email.sections = [section(each, user, now) for each in waiting]
        return _finish(email, row, user)
    title = game_title(game)
    email.links = [("Open the game", game_url(game))]
    if kind == Outbox.Kind.INVITATION:
        creator = display_name(game.created_by)
        email.subject = f"{creator} invites you to play {game_type(game.game_type).title}"
        email.paragraphs = [
            f"{creator} invites you to a game of {game_type(game.game_type).title} for "
            f"{game.players} players ({time_control_text(game)}).",
            "Open the invitation to take your seat.",
        ]
        email.links = [("Open the invitation", absolute("invitation", payload.get("token", "")))]
        return _finish(email, row, user)
    email.sections = [section(game, user, now)]
    values = {"title": title, **payload}
    subject, paragraph = KIND_TEXT[kind]
    email.subject = subject.format_map(values)
    email.paragraphs = [paragraph.format_map(values)]
    match kind:
        case Outbox.Kind.DEADLINE_WARNING:
            email.paragraphs += [deadline_text(game, now).strip(), timeout_text(game)]
        case Outbox.Kind.TIMEOUT if payload.get("policy") == Game.TimeoutPolicy.FORFEIT:
            email.paragraphs.append("You forfeited the game.")
        case Outbox.Kind.TIMEOUT:
            email.paragraphs.append(f"The move {payload.get('move', '')} was played for you.")
        case Outbox.Kind.GAME_OVER:
            email.paragraphs.append(result_text(game))
            email.links.append(("Replay the game", replay_url(game)))
    return _finish(email, row, user)


def refusal_without_game(row: Outbox) -> Email:
    """The answer to a reply that names no game its sender may see."""
    return Email(
        subject="Your reply could not be read as a move",
        greeting="Hello,",
        paragraphs=[
            f"Your email was not played: {(row.payload or {}).get('reason', '')}",
            "To move by email, reply to the latest turn email of the game with the move or "
            "its number.",
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
            return f"{control['days']} day(s) per move"
        case "bank":
            return (
                f"a bank of {control['bank_hours']} hours, {control['increment_hours']} hours "
                f"more per move, at most {control['cap_hours']} hours"
            )
    return "no time limit"


def timeout_text(game: Game) -> str:
    if game.timeout_policy == Game.TimeoutPolicy.FORFEIT:
        return "If the deadline passes, you forfeit the game."
    return "If the deadline passes, the least wasteful move is played for you."


def result_text(game: Game) -> str:
    names = {player["seat"]: player["player"] for player in players_of(game)}
    winners = ", ".join(str(names.get(seat, seat)) for seat in game.winners or ())
    return f"Winner: {winners}." if winners else ""


def message(row: Outbox, now: datetime) -> EmailMultiAlternatives:
    """The message to send for ``row``."""
    if row.kind == Outbox.Kind.REPLY_REFUSED and row.game_id is None:
        email = refusal_without_game(row)
    elif row.kind == Outbox.Kind.SIGN_IN:
        email = sign_in(row)
    else:
        email = compose(row, now)
    context = {"email": email, "site_url": settings.SITE_URL}
    text = render_to_string("mail/message.txt", context)
    html = render_to_string("mail/message.html", context)
    headers = {
        "Message-ID": f"<outbox.{row.pk}@{settings.MAIL_REPLY_DOMAIN}>",
        "Auto-Submitted": "auto-generated",
        **email.headers,
    }
    if row.game_id:
        headers["References"] = f"<game.{row.game_id}@{settings.MAIL_REPLY_DOMAIN}>"
    if (row.payload or {}).get("in_reply_to"):
        headers["In-Reply-To"] = row.payload["in_reply_to"]
        headers["References"] = row.payload["in_reply_to"]
    reply_to = [s.reply_address for s in email.sections if s.reply_address]
    result = EmailMultiAlternatives(
        subject=email.subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.recipient],
        reply_to=reply_to[:1] if len(email.sections) == 1 else None,
        headers=headers,
    )
    result.attach_alternative(html, "text/html")
    return result


def _finish(email: Email, row: Outbox, user) -> Email:
    if user is not None:
        email.headers = {
            "List-Unsubscribe": f"<{unsubscribe_url(row.recipient)}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    return email
