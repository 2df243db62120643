"""The bot ladder (issue 55): bots that opt in are paired by the site for a match of two
games on one deal with the seats swapped; the ladder's own ratings move, the people's do
not; the deal's seed, published once the match is over, replays each game's record."""

import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from games.models import BotRating, Game, LadderMatch, Rating
from games.services.bot_accounts import bot_create, bot_update
from games.services.bot_ladder import ladder_pair, ladder_settle
from tests.games.helpers import play


@pytest.fixture
def ladder_bots(alice, bob):
    bots = [
        bot_create(owner=owner, name=name, games=["azul"])
        for owner, name in ((alice, "North"), (bob, "South"))
    ]
    for bot in bots:
        bot_update(owner=bot.owner, bot_id=bot.user_id, on_ladder=True)
    return [bot.user for bot in bots]


def played_out(game: Game, chooser: random.Random) -> None:
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        play(game, chooser=chooser)
        game.refresh_from_db()


def test_a_ladder_match_is_two_games_on_one_deal_with_seats_swapped(ladder_bots, client, tmp_path):
    assert ladder_pair() == 1
    assert ladder_pair() == 0  # both bots are at their most games at once
    match = LadderMatch.objects.get()
    one, two = match.games.order_by("pk")
    assert one.rng_secret == two.rng_secret == match.secret
    seats = [[seat.user_id for seat in game.seats.order_by("position")] for game in (one, two)]
    assert seats[0] == seats[1][::-1]
    page = client.get("/bots/ladder/azul/").content.decode()
    assert "BOT North" in page and match.secret not in page  # no seed while in play
    chooser = random.Random(5)
    played_out(one, chooser)
    assert ladder_settle() == 0  # one game still in play
    played_out(two, chooser)
    assert ladder_settle() == 1
    ratings = BotRating.objects.filter(game_type="azul")
    assert sorted(rating.games for rating in ratings) == [2, 2]
    assert not Rating.objects.filter(user__in=ladder_bots).exists()
    page = client.get("/bots/ladder/azul/").content.decode()
    assert match.secret in page
    answer = APIClient().get("/api/bot/ladder/azul/").json()
    assert answer["matches"][0]["seed"] == match.secret
    assert {row["games"] for row in answer["standings"]} == {2}
    north = ladder_bots[0].pk
    assert len(APIClient().get(f"/api/bot/ladder/azul/?bot={north}").json()["matches"]) == 1
    assert APIClient().get("/api/bot/ladder/azul/?bot=999999").json()["matches"] == []
    assert "Matches of BOT North" in client.get(f"/bots/ladder/azul/?bot={north}").content.decode()
    deals = []
    for game in (one, two):
        record = tmp_path / f"game-{game.pk}.jsonl"
        export = APIClient().get(
            f"/api/games/{game.pk}/export/", HTTP_ACCEPT="application/x-ndjson"
        )
        record.write_bytes(
            b"".join(export.streaming_content) if export.streaming else export.content
        )
        deals.append(json.loads(record.read_text().splitlines()[2])["data"])  # the opening draw
        call_command("verify_game", str(record), seed=match.secret)
        with pytest.raises(CommandError, match="NOT OK"):
            call_command("verify_game", str(record), seed="not the seed")
    assert deals[0] == deals[1]
