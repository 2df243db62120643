"""Tournaments (issue 31): their lists, a tournament folded from its stream, its
page, who may enter."""

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from events.models import Event
from games.errors import NotFound
from games.models import Game, Rating, Tournament
from games.repository import TOURNAMENT_NAMESPACE, tournament_state
from games.selectors.access import is_moderator
from games.selectors.names import deleted_name, display_name, forgotten_numbers, is_forgotten
from games.tournaments import core as tournaments
from games.tournaments.standings import tie_break_names

TOURNAMENT_LISTS = {
    "open": [Tournament.Status.REGISTRATION],
    "running": [Tournament.Status.RUNNING],
    "finished": [Tournament.Status.FINISHED, Tournament.Status.CANCELLED],
}


def tournament_list(which: str, viewer=None) -> QuerySet[Tournament]:
    """Tournaments open for registration, running or finished (``TOURNAMENT_LISTS``),
    newest first: the public ones and, for a signed-in viewer, those they organise."""
    mine = Q(organiser=viewer) if viewer is not None and viewer.is_authenticated else Q()
    return (
        Tournament.objects.filter(status__in=TOURNAMENT_LISTS[which])
        .filter(Q(public=True) | mine)
        .select_related("organiser")
        .order_by("-created_at", "-pk")
    )


def tournaments_entered(viewer, listed: Iterable[Tournament]) -> set[int]:
    """Of the ``listed`` tournaments, the ids of those the viewer registered for and has not
    withdrawn from (their last registration or withdrawal in each stream)."""
    if not getattr(viewer, "is_authenticated", False):
        return set()
    by_stream = {tournament.stream: tournament.pk for tournament in listed}
    registered = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerRegistered.__name__}"
    withdrew = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerWithdrew.__name__}"
    entered: set[int] = set()
    for stream, kind in (
        Event.objects.filter(
            stream__in=by_stream, type__in=(registered, withdrew), data__player=viewer.pk
        )
        .order_by("stream", "seq")
        .values_list("stream", "type")
    ):
        if kind == registered:
            entered.add(by_stream[stream])
        else:
            entered.discard(by_stream[stream])
    return entered


def tournaments_registered(user) -> set[int]:
    """The ids of the tournaments ``user`` ever registered for, withdrawn since or not
    (entries live in the tournaments' streams only)."""
    registered = f"{TOURNAMENT_NAMESPACE}.{tournaments.PlayerRegistered.__name__}"
    streams = Event.objects.filter(type=registered, data__player=user.pk).values_list(
        "stream", flat=True
    )
    return {int(stream.rpartition(":")[2]) for stream in streams}


def tournaments_of_person(user) -> QuerySet[Tournament]:
    """The tournaments ``user`` registered for or organises (people's data, issue 45)."""
    return Tournament.objects.filter(Q(pk__in=tournaments_registered(user)) | Q(organiser=user))


def tournament_list_opening(viewer) -> str:
    """The list a viewer's tournaments page opens on (``TOURNAMENT_LISTS``): the running
    tournaments if they play in one, otherwise those open for registration."""
    return "running" if tournaments_entered(viewer, tournament_list("running", viewer)) else "open"


def tournament_get(tournament_id: int) -> Tournament:
    """The tournament, or ``NotFound``. An invitation-only tournament is unlisted, not
    hidden: whoever has its address may read it."""
    found = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(gettext("there is no tournament %(number)s") % {"number": tournament_id})
    return found


def may_enter(tournament: Tournament, user) -> bool:
    """Whether ``user`` may register: anyone for a public tournament; for an
    invitation-only one, the organiser and the invited addresses."""
    invited = tournament.settings.get("invited") or ()
    return (
        tournament.public
        or user.pk == tournament.organiser_id
        or (user.email or "").lower() in invited
    )


def ratings_now(tournament: Tournament, players: list[int], viewer=None) -> dict[int, int]:
    """Each player's rating on the tournament's game's ladder now (a player with no rated
    game has none); a hidden profile's is not told to visitors (issue 16)."""
    ratings = Rating.objects.filter(game_type=tournament.game_type, user_id__in=players)
    if not getattr(viewer, "is_authenticated", False):
        ratings = ratings.exclude(user__player_settings__profile_hidden=True)
    return dict(ratings.values_list("user_id", "display"))


def tournament_view(tournament: Tournament, viewer=None) -> dict:
    """Everything a tournament's page and API show: settings, players with their rating at
    registration (the seeding) and now, rounds with their tables (games, players, places),
    byes, live standings with tie-breaks (and, in a knockout, the round each player went
    out in), the viewer's own game in play or their exit, and what the viewer may do."""
    state = tournament_state(tournament)
    users = get_user_model().objects.in_bulk([e.player for e in state.entrants])
    entrants = [users.get(e.player) for e in state.entrants]
    forgotten = forgotten_numbers(entrants)
    names = {
        user.pk: deleted_name(forgotten.get(index)) if is_forgotten(user) else display_name(user)
        for index, user in enumerate(entrants)
        if user is not None
    }
    now = ratings_now(tournament, [e.player for e in state.entrants], viewer)
    exits = tournaments.knocked_out(state)
    settings = state.settings
    games = dict(
        Game.objects.filter(tournament_table__tournament=tournament).values_list("pk", "status")
    )
    me = viewer.pk if viewer is not None and viewer.is_authenticated else None
    rounds = []
    for number in range(1, state.round + 1):
        tables = [
            {
                "table": index,
                "game": table.game,
                "status": games.get(table.game, ""),
                "players": [{"id": p, "name": names.get(p, "")} for p in table.players],
                "places": list(table.result.places) if table.result else None,
                "scores": list(table.result.scores) if table.result else None,
                "mine": me in table.players,
            }
            for index, table in enumerate(state.round_tables(number), start=1)
        ]
        byes = [
            {"id": bye.player, "name": names.get(bye.player, ""), "walkover": bye.walkover}
            for bye in state.byes
            if bye.round == number
        ]
        rounds.append({"number": number, "tables": tables, "byes": byes})
    entrant = state.entrant(me) if me is not None else None
    registered = entrant is not None and not entrant.withdrawn
    organising = me is not None and (me == tournament.organiser_id or is_moderator(viewer))
    open_for_entry = state.status == tournaments.REGISTRATION
    return {
        "id": tournament.pk,
        "name": tournament.title,
        "status": tournament.status,
        "organiser": {"id": state.organiser, "name": display_name(tournament.organiser)},
        "settings": {
            "format": settings.format,
            "game": settings.game,
            "per_game": settings.per_game,
            "rounds": settings.rounds,
            "points": list(settings.points),
            "min_players": settings.min_players,
            "max_players": settings.max_players,
            "min_rating": settings.min_rating,
            "min_games": settings.min_games,
            "options": settings.options,
            "time_control": settings.time_control,
            "rated": settings.rated,
            "public": settings.public,
            "entry_closes": tournament.entry_closes,
            "round_days": settings.round_days,
        },
        "current_round": state.round,
        "round_deadline": datetime.fromisoformat(state.deadline) if state.deadline else None,
        "players": [
            {
                "id": e.player,
                "name": names.get(e.player, ""),
                "rating": e.rating,
                "rating_now": now.get(e.player),
                "withdrawn": e.withdrawn,
            }
            for e in state.entrants
        ],
        "tie_breaks": list(tie_break_names(settings.per_game)),
        "standings": [
            {
                "rank": line.rank,
                "player": {"id": line.player, "name": names.get(line.player, "")},
                "points": line.points,
                "tie_breaks": list(line.tie_breaks),
                "games": line.games,
                "byes": line.byes,
                "withdrawn": line.withdrawn,
                "out_in_round": exits[line.player].round if line.player in exits else None,
            }
            for line in state.standings()
        ],
        "my_exit": (
            {"round": exits[me].round, "places": exits[me].places, "players": len(state.seeds)}
            if me in exits
            else None
        ),
        "rounds": rounds,
        "my_game": next(
            (
                table["game"]
                for table in (rounds[-1]["tables"] if rounds else [])
                if table["mine"] and table["status"] == Game.Status.ACTIVE
            ),
            None,
        ),
        "can_join": me is not None
        and open_for_entry
        and not registered
        and may_enter(tournament, viewer),
        # A player knocked out has nothing left to withdraw from.
        "can_withdraw": registered
        and me not in exits
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
        "can_start": organising and open_for_entry,
        "can_remove": organising
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
        "paused": state.paused,
        "can_pause": organising and state.status == tournaments.RUNNING and not state.paused,
        "can_resume": organising and state.paused and state.status == tournaments.RUNNING,
        "can_cancel": organising
        and state.status in (tournaments.REGISTRATION, tournaments.RUNNING),
    }
