"""What a push says, in its reader's language (the caller renders inside
``games.i18n.speaking_to``): the game's title, what happened and what is asked, and the
game's address, which the service worker opens on a tap. Only what the game's page shows
every player: never the bag, the RNG or another player's private plans (a player's own
plan is said to that player only)."""

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.boards import board_of
from games.durations import time_left_text
from games.models import Delivery, Game, NoticeKind
from games.notify.wording import plan_dropped_reason, plan_dropped_title
from games.repository import game_table
from games.selectors.names import players_of
from games.selectors.seats import time_left

# A push service takes 4096 bytes of encrypted payload; the text stays far below it.
LONGEST_BODY = 400


def message(row: Delivery) -> dict:
    """The JSON the service worker shows: ``title``, ``body``, ``url`` (the game's page)
    and ``tag`` (a newer notification of the same game and tag replaces the older one)."""
    game = row.game
    title, body = _said(row, game, game_title(game))
    return {
        "title": title,
        "body": body[:LONGEST_BODY],
        "url": settings.SITE_URL + reverse("game", args=[game.pk]),
        "tag": topic(row),
        "kind": row.kind,
    }


def topic(row: Delivery) -> str:
    """The game's thread of news (RFC 8030 ``Topic``, at most 32 URL-safe characters): a
    newer push of one topic replaces an older one still waiting in the push service. A
    takeback request has its own: a later turn must not hide the question."""
    suffix = "-takeback" if row.kind == NoticeKind.TAKEBACK_REQUEST else ""
    return f"game-{row.game_id}{suffix}"


def game_title(game: Game) -> str:
    # Translators: one game's name in a notification's title, e.g. "Azul #12". Write the
    # number the way your language does (e.g. "nr 12", "n.º 12").
    return pgettext("notification", "%(game)s #%(number)s") % {
        "game": board_of(game.game_type).TITLE,
        "number": game.pk,
    }


def _said(row: Delivery, game: Game, title: str) -> tuple[str, str]:
    values = {"game": title}
    match row.kind:
        case NoticeKind.GAME_STARTED:
            return _("%(game)s has started") % values, _first_turn(row, game)
        case NoticeKind.TOURNAMENT_ROUND:
            # Translators: %(round)s is a round's number, %(name)s a tournament's name.
            said = _("Round %(round)s of %(name)s: your game has started") % {
                "round": row.payload.get("round", ""),
                "name": row.payload.get("name", ""),
            }
            return said, _first_turn(row, game)
        case NoticeKind.YOUR_TURN:
            return _("Your turn in %(game)s") % values, _last_move(row, game)
        case NoticeKind.REMINDER:
            return _("%(game)s is waiting for your move") % values, _last_move(row, game)
        case NoticeKind.DEADLINE_WARNING:
            # The time left as the page, the lobby, the API and the emails say it (issue 42).
            left = time_left(game, timezone.now())
            body = capfirst(time_left_text(left)) if left else _("It is your turn.")
            return _("Your time is running out in %(game)s") % values, body
        case NoticeKind.TIMEOUT:
            if row.payload.get("policy") == Game.TimeoutPolicy.FORFEIT:
                body = _("You forfeited the game.")
            else:
                body = _("Played for you: %(move)s") % {"move": row.payload.get("move", "")}
            return _("Your time ran out in %(game)s") % values, body
        case NoticeKind.GAME_OVER:
            return _("%(game)s is over") % values, _final_score(game)
        case NoticeKind.TAKEBACK_REQUEST:
            names = {player["seat"]: player["player"] for player in players_of(game)}
            asker = names.get(row.payload.get("seat"))
            if asker:
                # Translators: %(player)s is the name of the player asking for a takeback.
                body = _("%(player)s asks to take back moves: answer on the game's page.") % {
                    "player": asker
                }
            else:
                body = _("An opponent asks to take back moves: answer on the game's page.")
            return _("Takeback asked in %(game)s") % values, body
        case NoticeKind.PLAN_DROPPED:
            reason = plan_dropped_reason(game, row.payload or {})
            return plan_dropped_title(title, row.payload or {}), capfirst(reason) + "."
    return title, ""


def _first_turn(row: Delivery, game: Game) -> str:
    """Whether the reader moves first in a game that has just started."""
    mine = game.seats.filter(user=row.subscription.user_id, position=game.to_move)
    return _("It is your turn.") if mine.exists() else _("We will tell you when it is your turn.")


def _last_move(row: Delivery, game: Game) -> str:
    """The move that made it the reader's turn, in the move list's words."""
    table = game_table(game, upto=row.payload.get("seq") or None)
    step = table.steps[-1] if len(table.steps) > 1 else None
    if step is None or step.seat is None:
        return _("Make the first move.")
    names = {player["seat"]: player["player"] or "?" for player in players_of(game)}
    return board_of(game.game_type).describe(step.events, names.get(step.seat, "?"))


def _final_score(game: Game) -> str:
    if game.status == Game.Status.ABORTED:
        # A resignation before every player had moved (issue 29): the scores mean nothing.
        return _("The game is aborted and unrated: not every player had made a move") + "."
    names = {player["seat"]: player["player"] for player in players_of(game)}
    scores = " · ".join(
        f"{names.get(seat, seat + 1)} {score}" for seat, score in enumerate(game.scores or [])
    )
    return _("Final score: %(scores)s") % {"scores": scores}
