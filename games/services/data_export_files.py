"""The files of a player's data archive (``games.services.data_export`` builds it), one
function each, read in the player's language and time zone (the build speaks to them):
everything the site keeps about the player, and of anyone else only what their games and
tournaments show to everyone in them. ``FILES`` says what each holds, as README.txt and
index.json tell the player; ``docs/data-export.md`` describes the archive."""

import logging
from collections.abc import Callable
from datetime import datetime
from urllib.parse import urlsplit

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import (
    ApiToken,
    ChatMessage,
    InboundMessage,
    NoticeKind,
    Outbox,
    Plan,
    PlayerSettings,
    PushSubscription,
    Rating,
    RatingChange,
    Seat,
    TournamentGame,
)
from games.selectors.history import export_record
from games.selectors.names import display_name
from games.selectors.tournaments import (
    tournament_view,
    tournaments_of_person,
    tournaments_registered,
)
from games.services.moderation import hidden_reason_of

log = logging.getLogger(__name__)

ARCHIVE_FORMAT = "azulsite-data-export"
ARCHIVE_FORMAT_VERSION = 1
# The build renews its lease after this many emails too (rendering them is its slow part
# after the games).
EMAILS_PER_BEAT = 50
# The subject and text of a sent email as the mail door writes it now (it sits above the
# services, so the task that builds hands it in: ``mail.render.sent_text``).
EmailText = Callable[[Outbox, datetime], tuple[str, str]]

# What each file of the archive holds, said to the player (README.txt and index.json).
FILES = {
    "account.json": gettext_lazy(
        "Your account (number, email address, name, when you joined and last signed in, the "
        "names and dates of your API tokens) and your settings (language, time zone, playing "
        "hours, notices by channel, digest, vacation, profile privacy, suspension)."
    ),
    "ratings.json": gettext_lazy(
        "Your rating on each game's ladder, and how every rated game changed it."
    ),
    "games/": gettext_lazy(
        "One file per game you had a seat in (games/<number>.json): your seat, and the game's "
        "record as the site exports it (its settings, players and every event of the game)."
    ),
    "chat.json": gettext_lazy(
        "The messages you wrote in games' chats (only yours), with whether a moderator hid one."
    ),
    "plans.json": gettext_lazy("Your plans (conditional moves), one per game where you keep one."),
    "tournaments.json": gettext_lazy(
        "The tournaments you entered or organised: each as its page shows it, and your games in it."
    ),
    "devices.json": gettext_lazy(
        "The devices you receive notifications on: when each was added, when it expires, and "
        "the push service it goes through (never its address or keys)."
    ),
    "emails.json": gettext_lazy(
        "The emails the site sent you (kind, times, message id, subject and text as far as they "
        "can still be written) and the email replies it received from you (times and what "
        "became of them)."
    ),
    "sign-ins.json": gettext_lazy(
        "When you last signed in, and when sign-in links were sent to you."
    ),
}


def moment_text(moment: datetime) -> str:
    """A date and time as the archive and the download's messages say it: the active
    language's format, in the active time zone."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def readme(user) -> str:
    """README.txt: what the archive is and what each file holds, in the player's language."""
    lines = [
        _("Your data from azulsite"),
        "",
        _(
            "This archive holds everything azulsite keeps about you (%(name)s), as JSON files. "
            "It was made on %(when)s; the times in its files are in UTC (ISO 8601)."
        )
        % {"name": display_name(user), "when": moment_text(timezone.now())},
        _(
            "It holds nothing of other players but what your games and tournaments show to "
            "everyone in them: their names, moves and results."
        ),
        "",
    ]
    for name, description in FILES.items():
        lines += [name, "    " + str(description), ""]
    lines.append(_("index.json lists the same files for programs, and says the format's version."))
    return "\n".join(lines) + "\n"


def index(user) -> dict:
    return {
        "format": ARCHIVE_FORMAT,
        "format_version": ARCHIVE_FORMAT_VERSION,
        "player": user.pk,
        "created_at": timezone.now(),
        "files": {name: str(description) for name, description in FILES.items()},
    }


def account(user) -> dict:
    prefs = PlayerSettings.objects.filter(user=user).first()
    found = {
        "id": user.pk,
        "email": user.email,
        "name": display_name(user),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "settings": None,
        # Their names and dates: the keys are not kept (only their hashes, which sign no
        # one in and are not theirs to read).
        "api_tokens": [
            {"name": t.name, "created_at": t.created_at, "last_used_at": t.last_used_at}
            for t in ApiToken.objects.filter(user=user)
        ],
    }
    if prefs is not None:
        found["settings"] = {
            "language": prefs.language,
            "last_language": prefs.last_language,
            "time_zone": prefs.time_zone,
            "playing_hours": {"start": prefs.hours_start, "end": prefs.hours_end},
            "channels": prefs.channels,
            "unsubscribed_at": prefs.unsubscribed_at,
            "daily_digest": prefs.daily_digest,
            "last_digest_at": prefs.last_digest_at,
            "vacation": {
                "days_per_year": prefs.vacation_days_per_year,
                "started_at": prefs.vacation_started_at,
                "year": prefs.vacation_year,
                "seconds_used": prefs.vacation_seconds_used,
            },
            "profile_hidden": prefs.profile_hidden,
            "suspended_at": prefs.suspended_at,
            "suspended_reason": prefs.suspended_reason,
            "closed_at": prefs.closed_at,
        }
    return found


def ratings(user) -> dict:
    return {
        "ratings": [
            {
                "game": rating.game_type,
                "rating": rating.display,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "games": rating.games,
                "last_played_at": rating.last_played_at,
            }
            for rating in Rating.objects.filter(user=user).order_by("game_type")
        ],
        "history": [
            {
                "game": change.game_type,
                "game_id": change.result_id,
                "ended_at": change.ended_at,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu": change.mu,
                "sigma": change.sigma,
                "rating": change.display,
            }
            for change in RatingChange.objects.filter(user=user).order_by(
                "game_type", "ended_at", "result_id"
            )
        ],
    }


def game_file(seat: Seat) -> dict:
    """One game: the player's seat and the game's record (``selectors.export_record``)."""
    return {
        "seat": {
            "position": seat.position,
            "status": seat.status,
            "joined_at": seat.joined_at,
            "playing_hours": seat.playing_hours,
        },
        "record": export_record(seat.game),
    }


def chat(user) -> list[dict]:
    return [
        {
            "game": message.game_id,
            "created_at": message.created_at,
            "text": message.text,
            "hidden_at": message.hidden_at,
            "hidden_reason": hidden_reason_of(message),
            "erased_at": message.erased_at,
        }
        for message in ChatMessage.objects.filter(author=user)
        .select_related("game")
        .order_by("created_at", "pk")
    ]


def plans(user) -> list[dict]:
    return [
        {
            "game": plan.game_id,
            "seat": plan.seat,
            "lines": plan.lines,
            "next_move": plan.next_move,
            "at_seq": plan.at_seq,
            "updated_at": plan.updated_at,
        }
        for plan in Plan.objects.filter(user=user).order_by("game_id")
    ]


def tournaments_of(user) -> list[dict]:
    """The tournaments ``user`` registered for (withdrawn since or not) or organises: each
    as its page shows it to them, their role and their games in it."""
    entered = tournaments_registered(user)
    found = tournaments_of_person(user).select_related("organiser")
    games = {}
    for table in TournamentGame.objects.filter(game__seats__user=user, tournament__in=found):
        games.setdefault(table.tournament_id, []).append(
            {"game": table.game_id, "round": table.round}
        )
    return [
        {
            "entered": tournament.pk in entered,
            "organiser": tournament.organiser_id == user.pk,
            "created_at": tournament.created_at,
            "my_games": sorted(games.get(tournament.pk, []), key=lambda g: g["game"]),
            "tournament": tournament_view(tournament, user),
        }
        for tournament in found.order_by("pk")
    ]


def devices(user) -> list[dict]:
    return [
        {
            "created_at": device.created_at,
            "expires_at": device.expires_at,
            "push_service": urlsplit(device.endpoint).hostname or "",
        }
        for device in PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
    ]


def _to_them(user) -> Q:
    return Q(user=user) | Q(recipient__iexact=user.email)


def sign_ins(user) -> dict:
    return {
        "last_login": user.last_login,
        "sign_in_emails": [
            {"created_at": row.created_at, "sent_at": row.sent_at}
            for row in Outbox.objects.filter(_to_them(user), kind=NoticeKind.SIGN_IN).order_by(
                "created_at", "pk"
            )
        ],
    }


def emails(user, *, beat, email_text: EmailText) -> dict:
    """The emails sent to ``user`` (their account's or their address's) and the replies
    received from them. A sign-in email is listed by its facts alone: its link signs in."""
    now = timezone.now()
    sent = []
    rows = Outbox.objects.filter(_to_them(user)).select_related("game").order_by("created_at", "pk")
    for number, row in enumerate(rows, start=1):
        if number % EMAILS_PER_BEAT == 0:
            beat()
        entry = {
            "kind": row.kind,
            "game": row.game_id,
            "to": row.recipient,
            "created_at": row.created_at,
            "sent_at": row.sent_at,
            "cancelled_at": row.cancelled_at,
            "cancelled_because": row.withdrawn_because,
            "message_id": row.message_id,
            "subject": None,
            "text": None,
        }
        if row.kind != NoticeKind.SIGN_IN:
            try:
                entry["subject"], entry["text"] = email_text(row, now)
            except Exception:
                # The game or what the row names may be gone: its facts stay.
                log.info("data export: outbox %s cannot be written any more", row.pk)
        sent.append(entry)
    received = [
        {
            "message_id": reply.message_id,
            "received_at": reply.received_at,
            "game": reply.game_id,
            "outcome": reply.outcome,
        }
        for reply in InboundMessage.objects.filter(sender__iexact=user.email).order_by(
            "received_at", "pk"
        )
    ]
    return {"sent": sent, "received": received}
