"""A moderator may give any game's seat to someone else, a tournament's game too: the game
is then played to its end, its result goes to the entrant who was paired at that seat, and
the tournament moves on to its next round."""

import random

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games import repository
from games.models import Game
from games.repository import tournament_state
from games.selectors.access import MODERATORS_GROUP
from games.services.bots import bot_move
from games.services.moves import game_resign
from tests.conftest import make_user
from tests.games.api_helpers import client_for, post, url
from tests.games.helpers import every_player_moved, seated
from tests.tournaments.test_services import opened, organiser_starts, players, running_games

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_hard_bot(settings):
    settings.BOT_HARD_SECONDS = 0.1


@pytest.fixture
def moderator():
    """A moderator of the site who is not a superuser: staff, in the moderators' group."""
    user = make_user("maud", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def swiss_of_two_rounds():
    """Four entrants of a two-round Swiss, round 1's two games in play."""
    users = players(4)
    tournament = opened(users, format="swiss", per_game=2, rounds=2)
    organiser_starts(tournament, users[0])
    return tournament, running_games(tournament)


def replace(moderator, game: Game, seat: int, **form) -> None:
    """The moderator gives ``seat`` away on the game's moderation page in the admin."""
    response = moderator.post(
        f"/admin/games/game/{game.pk}/moderate/",
        {"reason": "the player has not been seen for weeks", "seat": str(seat), **form},
    )
    assert response.status_code == 302, response.content.decode()[-2000:]


def played_to_the_end_through_the_api(game: Game) -> None:
    """Whoever sits at the seat to move plays a legal move through the API (a computer
    player's turns as its worker plays them), until the game is over."""
    chooser = random.Random(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        user = seated(game)[game.to_move]
        if user is None:
            bot_move(game_id=game.pk)
        else:
            client = client_for(user)
            offered = client.get(url(game, "legal-moves")).json()
            move = chooser.choice(offered["moves"])["move"]
            body = {"move": move, "expected_seq": offered["last_seq"]}
            played = post(client, url(game, "moves"), body)
            assert played.status_code == 201, played.content.decode()
        game.refresh_from_db()


def test_a_seat_given_to_another_person_plays_to_the_end_and_the_round_moves_on(moderator):
    tournament, (first, second) = swiss_of_two_rounds()
    entrant = seated(first)[1]
    stand_in = make_user("sam")
    replace(moderator, first, 1, action="replace_seat", email=stand_in.email)
    assert seated(first)[1] == stand_in

    played_to_the_end_through_the_api(first)
    every_player_moved(second)
    game_resign(game=second, user=seated(second)[1])

    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED
    state = tournament_state(tournament)
    table = next(t for t in state.tables if t.game == first.pk)
    assert entrant.pk in table.players and table.result is not None
    assert stand_in.pk not in {e.player for e in state.entrants}
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert len(running_games(tournament)) == 2


def test_a_seat_given_to_a_computer_player_plays_to_the_end(moderator):
    tournament, (first, second) = swiss_of_two_rounds()
    replace(moderator, first, 0, action="replace_seat_bot", level="easy")
    assert repository.game_table(first).players[0] == "bot:easy"

    played_to_the_end_through_the_api(first)

    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED
    table = next(t for t in tournament_state(tournament).tables if t.game == first.pk)
    assert table.result is not None


def test_a_game_with_a_replaced_seat_can_be_aborted(moderator):
    tournament, (first, second) = swiss_of_two_rounds()
    replace(moderator, first, 1, action="replace_seat", email=make_user("sam").email)
    response = moderator.post(
        f"/admin/games/game/{first.pk}/moderate/", {"action": "abort", "reason": "a mix-up"}
    )
    assert response.status_code == 302

    first.refresh_from_db()
    assert first.status == Game.Status.ABORTED
    table = next(t for t in tournament_state(tournament).tables if t.game == first.pk)
    assert table.result is not None
