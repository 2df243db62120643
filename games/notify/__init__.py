"""Notices: who is told what after a change, addressed to players, delivered by channels.

A writer (a service, or a reaction after an append) calls one function here per kind of
notice, with the facts; the function decides who is told (never the person whose own act
it reports: they are looking at it) and hands a ``Notice`` to every channel
(the setting ``NOTICE_CHANNELS``: email first). A channel keeps the notice in the same
transaction as the change, in the one table of deliveries, and the one delivery loop
(``channels.loop``) sends it after commit; the player's choice of channels per kind
(``preferences``) is read when it leaves, so a change of mind also covers notices already
waiting. The game does not know who listens: this package is the only one that does."""

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings

from games.models import DataExport, Game, NoticeKind, Seat, Tournament, TournamentGame
from games.notify.channels import every_channel, loop
from games.notify.notice import TURN_KINDS, Notice
from games.selectors.names import display_name, is_forgotten


def tell(notice: Notice) -> bool:
    """Hand ``notice`` to every channel; whether one of them took it as new (a notice
    already given for the same key is not given twice). A closed account is told nothing
    (issue 45): its person is gone, and so is their address."""
    if notice.user is not None and is_forgotten(notice.user) and not notice.address:
        return False
    taken = [channel.deliver(notice) for channel in every_channel()]
    return any(taken)


def moves_taken_back(*, game: Game, after_seq: int, now: datetime) -> None:
    """Take back the "your turn" notices about moves after ``after_seq`` that have not
    left yet, on every channel (the moves they announce were taken back)."""
    reason = "the move was taken back"
    loop.withdraw(
        game=game, kinds=(NoticeKind.YOUR_TURN,), after_seq=after_seq, reason=reason, now=now
    )


def turn_passed(*, game: Game, to_move: Seat | None, now: datetime) -> None:
    """Take back every turn notice of ``game`` that has not left yet, on every channel,
    but those of the player of ``to_move`` (``None``: nobody is to move, the game ended):
    the turn they ask for has passed. Withdrawn in the write that passes the turn, so that
    a burst of moves leaves no row for the delivery loop to claim and skip ahead of other
    games' notices (issue 58)."""
    reason = "no longer this player's turn"
    user_id = to_move.user_id if to_move is not None else None
    loop.withdraw_but_for(game=game, kinds=TURN_KINDS, user_id=user_id, reason=reason, now=now)


def send_due(*, now: datetime) -> dict[str, int]:
    """Every channel's rows due that no task sent, and the claims of workers that stopped
    (``channels.loop``)."""
    return loop.send_due(now=now)


def due_jobs() -> list[tuple[str, Callable[..., dict[str, int]]]]:
    """The minute sweep's jobs that send the rows due, one per channel (``Channel.job``),
    so that one channel that fails never stops another."""
    return [(way.job or way.name, partial(loop.send_due, name=way.name)) for way in every_channel()]


def _players(seats: list[Seat], *, but: int | None = None) -> list[Seat]:
    """The seats of people (not computer players), without the one of user ``but``."""
    return [seat for seat in seats if seat.user_id is not None and seat.user_id != but]


def game_started(game: Game, seq: int, seats: list[Seat], *, by: int | None) -> None:
    """Every player but the one whose act started the game (they are on its page). A
    tournament's game says so: the round of which tournament has started, and this is
    your game in it."""
    kind, payload = NoticeKind.GAME_STARTED, {}
    table = TournamentGame.objects.filter(game=game).select_related("tournament").first()
    if table is not None:
        kind = NoticeKind.TOURNAMENT_ROUND
        payload = {**_tournament(table.tournament), "round": table.round}
    for seat in _players(seats, but=by):
        tell(Notice(kind, seq, game=game, user=seat.user, payload=payload))


def _tournament(tournament: Tournament) -> dict:
    return {"tournament": tournament.pk, "name": tournament.title}


def tournament_joined(tournament: Tournament, user) -> None:
    """The player who registered: confirmed, once per tournament."""
    payload = _tournament(tournament)
    tell(Notice(NoticeKind.TOURNAMENT_JOINED, tournament.pk, user=user, payload=payload))


def tournament_cancelled(tournament: Tournament, users) -> None:
    """The players still registered in a tournament that was called off (by its
    organiser, a moderator, too few players, or its organiser closing their account):
    once per tournament."""
    for user in users:
        payload = _tournament(tournament)
        tell(Notice(NoticeKind.TOURNAMENT_CANCELLED, tournament.pk, user=user, payload=payload))


def tournament_invitation(tournament: Tournament, address: str) -> None:
    """An address the organiser invited to an invitation-only tournament (it may have no
    account yet): the link opens the tournament's page, where joining is a button."""
    payload = {**_tournament(tournament), "organiser": display_name(tournament.organiser)}
    tell(Notice(NoticeKind.TOURNAMENT_INVITATION, tournament.pk, address=address, payload=payload))


# A round's results are keyed by tournament and round: a tournament has fewer rounds than
# this (fewer than its players, at most ``tournaments.core.MOST_PLAYERS``).
ROUNDS_PER_KEY = 1000


def round_results(tournament: Tournament, number: int, standings: list[tuple]) -> None:
    """Every player still in the tournament when round ``number`` is over: their standing
    now. ``standings``: (user, rank, points) for each, best first."""
    for user, rank, points in standings:
        payload = {**_tournament(tournament), "round": number, "rank": rank, "points": points}
        payload["players"] = len(standings)
        _round_over(tournament, number, user, payload)


def knocked_out(tournament: Tournament, number: int, out: list[tuple], *, players: int) -> None:
    """Every player a knockout's round ``number`` sent out: that they are out, and the
    places they finish in of the ``players`` who started. ``out``: (user, ``KnockedOut``,
    points) for each. In place of that round's standing (they are no longer in it)."""
    for user, knocked, points in out:
        payload = {**_tournament(tournament), "round": number, "points": points}
        payload |= {"knocked_out": True, "places": knocked.places, "players": players}
        _round_over(tournament, number, user, payload)


def _round_over(tournament: Tournament, number: int, user, payload: dict) -> None:
    key = tournament.pk * ROUNDS_PER_KEY + number
    tell(Notice(NoticeKind.TOURNAMENT_RESULTS, key, user=user, payload=payload))


def tournament_finished(tournament: Tournament, standings: list[tuple]) -> None:
    """Every player of a finished tournament: their final standing. ``standings``: (user,
    rank, points) for each, best first."""
    for user, rank, points in standings:
        payload = {**_tournament(tournament), "rank": rank, "points": points}
        payload["players"] = len(standings)
        tell(Notice(NoticeKind.TOURNAMENT_FINISHED, tournament.pk, user=user, payload=payload))


def game_over(game: Game, seq: int, seats: list[Seat], *, by: int | None) -> None:
    """Every player but the one whose move or resignation ended it: the result and the
    replay."""
    for seat in _players(seats, but=by):
        tell(Notice(NoticeKind.GAME_OVER, seq, game=game, user=seat.user))


def your_turn(game: Game, seq: int, seat: Seat, *, now: datetime) -> None:
    """The seat to move, after a grace period (``YOUR_TURN_GRACE_SECONDS``) so that an
    immediate undo tells nobody; withdrawn if the move is taken back."""
    grace = timedelta(seconds=settings.YOUR_TURN_GRACE_SECONDS)
    tell(
        Notice(
            NoticeKind.YOUR_TURN,
            seq,
            game=game,
            user=seat.user,
            due_at=now + grace,
            payload={"seat": seat.position},
        )
    )


def turn_waiting(game: Game, slot: int, seat: Seat, kind: str, *, now: datetime) -> None:
    """A reminder or a deadline warning (``kind``) for the seat to move; ``slot``, the
    minute it was scheduled for, keys it (they fall many times on one position)."""
    tell(Notice(kind, slot, game=game, user=seat.user, due_at=now, payload={"seat": seat.position}))


def timed_out(game: Game, seat: Seat, *, moves: list[str]) -> None:
    """The player whose time ran out: what the timeout policy did (``moves`` played for
    them, or the forfeit)."""
    tell(
        Notice(
            NoticeKind.TIMEOUT,
            game.last_seq,
            game=game,
            user=seat.user,
            payload={
                "seat": seat.position,
                "policy": game.timeout_policy,
                "move": ", ".join(moves),
            },
        )
    )


def takeback_asked(game: Game, request: int, to_seq: int, seats: list[Seat], *, asker: int) -> None:
    """The players of ``seats`` (the others still in the game), who answer the request of
    seat ``asker`` to go back to the position after ``to_seq``."""
    for seat in _players(seats):
        tell(
            Notice(
                NoticeKind.TAKEBACK_REQUEST,
                request,
                game=game,
                user=seat.user,
                payload={"request": request, "to_seq": to_seq, "seat": asker},
            )
        )


def plan_dropped(game: Game, key: int, seat: Seat, *, reason: str, **facts) -> None:
    """The player whose plan (conditional moves, issue 32) was dropped, in whole or in part,
    and why (``reason``: ``deviated``, a move none of the lines expected, with its ``move``
    and the ``player`` seat that made it; ``taken_back``, moves were taken back;
    ``not_legal``, the move for this turn, ``move``, was no longer legal; ``new_tiles``, a
    draw came before the turn of the move ``move``). Only its owner is ever told: nobody
    else learns that there was a plan."""
    payload = {"seat": seat.position, "reason": reason, **facts}
    tell(Notice(NoticeKind.PLAN_DROPPED, key, game=game, user=seat.user, payload=payload))


def invitation(game: Game, address: str, *, token: str) -> None:
    """An invitation to an address (which may have no account yet)."""
    tell(Notice(NoticeKind.INVITATION, 0, game=game, address=address, payload={"token": token}))


def sign_in_link(
    address: str, minute: int, user, *, last: str, next_url: str, language: str
) -> bool:
    """A sign-in link to an address, of ``user`` or of nobody yet (the first sign-in);
    whether one was queued now (``False``: one of the same minute is on its way, and its
    link works)."""
    payload = {"last": last, "next": next_url, "language": language}
    notice = Notice(NoticeKind.SIGN_IN, minute, user=user, address=address, payload=payload)
    return tell(notice)


def data_export_ready(export: DataExport) -> None:
    """The player whose download of their data (issue 45) is ready: once per download,
    with until when it is kept. Nobody else learns of it."""
    payload = {"export": export.pk, "expires_at": export.expires_at.isoformat()}
    tell(Notice(NoticeKind.DATA_EXPORT_READY, export.pk, user=export.user, payload=payload))


def digest(user, day: int) -> None:
    """The day's digest of the games waiting for ``user``."""
    tell(Notice(NoticeKind.DIGEST, day, user=user))


def reply_played(game: Game, seq: int, user, *, move: str, in_reply_to: str, **plan) -> None:
    """The answer to an emailed reply whose move was played, and of the plan it gave, if
    any (``plan_lines``: the lines kept; ``plan_refused``: why not)."""
    payload = {"move": move, "in_reply_to": in_reply_to, **plan}
    tell(Notice(NoticeKind.MOVE_CONFIRMED, seq, game=game, user=user, payload=payload))


def reply_refused(
    game: Game | None, key: int, user, *, code: str, details: dict, in_reply_to: str
) -> None:
    """The answer to an emailed reply that was refused: the reason's ``code`` and
    ``details``, said in the reader's language when it leaves."""
    payload = {"refusal": code, "details": details, "in_reply_to": in_reply_to}
    tell(Notice(NoticeKind.REPLY_REFUSED, key, game=game, user=user, payload=payload))


def bot_paused(owner, bot_user, *, reason: str, at: datetime) -> None:
    """The owner of a bot the site paused (issue 55: it ran out of time in three games in
    a row): once per pause."""
    payload = {"bot": bot_user.first_name, "reason": reason}
    key = int(at.timestamp())
    tell(Notice(NoticeKind.BOT_PAUSED, key, user=owner, payload=payload))
