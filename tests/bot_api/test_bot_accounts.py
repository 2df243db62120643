"""Bot accounts (issue 55) as their owner and a bot author meet them: made by a person,
marked BOT wherever their name appears, signed in by their own tokens alone, challenged
only as they accept, never on the people's leaderboards."""

import pytest
from rest_framework.test import APIClient

from games.errors import BadRequest, Forbidden, NotFound
from games.models import Game
from games.selectors.names import players_of
from games.services.bot_accounts import (
    bot_create,
    bot_delete,
    bot_pause,
    bot_token_create,
    bot_token_revoke,
    bot_update,
)
from games.services.challenges import challenge_accept, challenge_create


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def bot(alice):
    return bot_create(owner=alice, name="Greedy", games=["azul"], accepts_people=True)


def test_a_bots_token_signs_in_as_the_bot_and_its_name_says_bot(alice, bot):
    _token, key = bot_token_create(owner=alice, bot_id=bot.user_id, name="laptop")
    answer = token_client(key).get("/api/account/")
    assert answer.status_code == 200
    assert answer.json()["name"] == "BOT Greedy"
    assert answer.json()["bot"] is True and answer.json()["games"] == ["azul"]


def test_the_owner_renames_pauses_and_deletes_and_nobody_else_can(alice, bob, bot):
    with pytest.raises(NotFound):
        bot_update(owner=bob, bot_id=bot.user_id, name="Stolen")
    bot_update(owner=alice, bot_id=bot.user_id, name="Greedy 2", games=["azul", "miyabi"])
    bot.refresh_from_db()
    bot.user.refresh_from_db()
    assert bot.user.first_name == "Greedy 2" and bot.games == ["azul", "miyabi"]
    with pytest.raises(BadRequest):
        bot_update(owner=alice, bot_id=bot.user_id, accepts_people=False, accepts_bots=False)
    bot_pause(owner=alice, bot_id=bot.user_id, paused=True)
    with pytest.raises(Forbidden) as refused:
        challenge_create(challenger=bob, opponent_id=bot.user_id, game="azul")
    assert "paused" in refused.value.message
    assert bot_delete(owner=alice, bot_id=bot.user_id) == "Greedy 2"


def test_a_revoked_token_is_refused(alice, bot):
    token, key = bot_token_create(owner=alice, bot_id=bot.user_id, name="ci")
    bot_token_revoke(owner=alice, bot_id=bot.user_id, token_id=token.pk)
    assert token_client(key).get("/api/account/").status_code == 401


def test_a_bot_is_challenged_only_in_its_games_and_by_whom_it_accepts(alice, bob, carol):
    only_bots = bot_create(
        owner=alice, name="Shy", games=["azul"], accepts_people=False, accepts_bots=True
    )
    other = bot_create(owner=carol, name="Rival", games=["azul", "miyabi"])
    with pytest.raises(Forbidden):
        challenge_create(challenger=bob, opponent_id=only_bots.user_id, game="azul")
    with pytest.raises(Forbidden):
        challenge_create(challenger=other.user, opponent_id=only_bots.user_id, game="miyabi")
    challenge = challenge_create(
        challenger=other.user, opponent_id=only_bots.user_id, game="azul", seconds_per_move=30
    )
    game = challenge_accept(user=only_bots.user, challenge_id=challenge.pk)
    assert game.status == Game.Status.ACTIVE and not game.rated
    names = {player["player"] for player in players_of(game)}
    assert names == {"BOT Shy", "BOT Rival"}


def test_the_owner_makes_a_bot_and_its_token_on_the_bots_page(alice, client):
    client.force_login(alice)
    assert client.get("/account/").content.decode().count("/account/bots/") >= 1
    page = client.post(
        "/account/bots/new/",
        {"name": "Random", "games": ["azul"], "accepts_people": "on", "accepts_bots": "on"},
        follow=True,
    )
    assert "BOT Random" in page.content.decode()
    bot = alice.bots_owned.get()
    shown = client.post(f"/account/bots/{bot.user_id}/tokens/", {"name": "server"})
    key = shown.context["new_key"]
    assert key.startswith("azs_") and key in shown.content.decode()
    assert key not in client.get("/account/bots/").content.decode()
    assert token_client(key).get("/api/account/").json()["name"] == "BOT Random"
    refused = client.post("/account/bots/new/", {"name": "", "games": ["azul"]})
    assert refused.status_code == 400 and "Give the bot a name." in refused.content.decode()


def test_a_bot_joins_only_a_tournament_whose_organiser_lets_bots_in(alice, bot):
    from games.services.tournaments.entry import tournament_create, tournament_join

    tournament = tournament_create(
        organiser=alice, name="Spring", format="swiss", game="azul", per_game=2, rounds=2
    )
    with pytest.raises(Forbidden):
        tournament_join(tournament=tournament, user=bot.user)
    open_to_bots = tournament_create(
        organiser=alice,
        name="Machines",
        format="swiss",
        game="azul",
        per_game=2,
        rounds=2,
        bots=True,
    )
    tournament_join(tournament=open_to_bots, user=bot.user)
    assert "BOT Greedy" in APIClient().get(f"/api/tournaments/{open_to_bots.pk}/").content.decode()


def test_each_token_has_its_own_rate_with_a_clear_429(alice, bot, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "named-token", "3/min")
    _one, busy = bot_token_create(owner=alice, bot_id=bot.user_id, name="busy")
    _two, calm = bot_token_create(owner=alice, bot_id=bot.user_id, name="calm")
    answers = [token_client(busy).get("/api/account/") for _call in range(4)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert 0 < int(answers[-1]["Retry-After"]) <= 60
    assert answers[-1].json()["code"] == "throttled"
    assert token_client(calm).get("/api/account/").status_code == 200
