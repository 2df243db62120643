"""The bridge (contrib/azulbot) plays itself through the real stream process (issue 55): two
bots made by a person, each with its own token and event stream, one challenges the other,
both play a whole game of each kind from the streams alone; a bot author's mistakes (a bad
token, a move out of turn, an illegal move) are answered clearly; the event stream tells of
challenges made, cancelled and declined; a bot that stops answering is timed out within 2 s
of its deadline; a revoked token ends its stream."""

import json
import random
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from games.models import Game
from games.services.bot_accounts import bot_create, bot_token_create, bot_token_revoke
from tests.games.test_news_stream import free_port
from tests.test_stream_process import ended, stream_process

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "contrib" / "azulbot"))

from azulbot import ApiError, Bot, Client  # noqa: E402
from examples.site_computer import computer_player  # noqa: E402


def random_player(seed: int):
    draw = random.Random(seed)

    def choose(position: dict, legal_moves: list[str]) -> str:
        # The seat's view: the bag (where the game has one) only as a count, its order and
        # the game's secret never.
        assert isinstance(position["state"].get("bag", 0), int)
        assert "secret" not in json.dumps(position)
        return draw.choice(legal_moves)

    return choose


def bots_of(owner, count: int) -> list[tuple[int, str]]:
    made = []
    for number in range(count):
        bot = bot_create(
            owner=owner, name=f"Random {number}", games=["azul", "summer-pavilion", "miyabi"]
        )
        _token, key = bot_token_create(owner=owner, bot_id=bot.user_id, name="bridge")
        made.append((bot.user_id, key))
    return made


def until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def site(settings, tmp_path):
    port = free_port()
    process = stream_process(port, settings.NEWS_REDIS_URL, tmp_path / "stream.log")
    yield f"http://127.0.0.1:{port}"
    ended(process)


@pytest.mark.django_db(transaction=True)
def test_two_bridged_bots_play_a_whole_game_of_each_kind_from_the_streams(alice, site):
    (first, first_key), (second, second_key) = bots_of(alice, 2)
    # One plays random legal moves, the other too but in Azul, where it is the site's
    # computer player as an outside process would run it (examples/site_computer.py: it
    # replays the game's record each turn, which is slow for a test's every game).
    computer, chance = computer_player(site, second_key, "easy"), random_player(2)

    def either(position: dict, legal_moves: list[str]) -> str:
        chooser = computer if position["game"] == "azul" else chance
        return chooser(position, legal_moves)

    players = [Bot(site, first_key, random_player(1)), Bot(site, second_key, either)]
    threads = [threading.Thread(target=bot.run, daemon=True) for bot in players]
    for thread in threads:
        thread.start()
    try:
        until(lambda: all(bot.me for bot in players), 20, "the bots did not connect")
        for number, kind in enumerate(["azul", "summer-pavilion", "miyabi"], start=1):
            challenge = Client(site, first_key).challenge(second, kind, seconds_per_move=60)
            until(
                lambda number=number: all(len(bot.finished) == number for bot in players),
                120,
                f"the game of {kind} did not end",
            )
            game = Game.objects.get(challenge__pk=challenge["id"])
            assert game.status == Game.Status.FINISHED and not game.rated
            assert players[0].finished[-1]["id"] == players[1].finished[-1]["id"] == game.pk
            assert game.last_seq > 20  # a whole game, every move sent by a bridge
    finally:
        for bot in players:
            bot.stop()


@pytest.mark.django_db(transaction=True)
def test_mistakes_challenges_a_silent_bot_and_a_revoked_token_as_the_streams_tell_them(alice, site):
    (first, first_key), (second, second_key) = bots_of(alice, 2)
    with pytest.raises(ApiError) as refused:
        Client(site, "azs_not-a-token").account()
    assert refused.value.status == 401
    one, other = Client(site, first_key), Client(site, second_key)
    challenge = one.challenge(second, "azul")
    game_id = other.accept(challenge["id"])["game_id"]
    lines = other.stream(f"/api/bot/game/stream/{game_id}")
    full = next(lines)
    assert full["type"] == "gameFull" and "rng" not in json.dumps(full)
    assert {player["player"] for player in full["players"]} == {"BOT Random 0", "BOT Random 1"}
    mover, waiter = (other, one) if full["state"]["moves"] else (one, other)
    with pytest.raises(ApiError) as out_of_turn:
        waiter.move(game_id, "anything", full["state"]["last_seq"])
    assert out_of_turn.value.status in (400, 403) and out_of_turn.value.code
    with pytest.raises(ApiError) as illegal:
        mover.move(game_id, "not a move", full["state"]["last_seq"])
    assert illegal.value.status == 400 and illegal.value.body.get("legal_moves")
    with pytest.raises(ApiError) as no_key:
        next(Client(site, "azs_wrong").stream("/api/bot/stream/event"))
    assert no_key.value.status == 401
    events = Client(site, first_key).stream("/api/bot/stream/event")
    assert next(events)["type"] == "gameStart"

    def next_of(kind: str) -> dict:
        return next(line for line in events if line is not None and line["type"] == kind)

    asked = other.challenge(first, "miyabi")
    assert next_of("challenge")["challenge"]["id"] == asked["id"]
    other.call("POST", f"/api/challenges/{asked['id']}/cancel/")
    assert next_of("challengeCanceled")["challenge"]["id"] == asked["id"]
    asked = other.challenge(first, "azul", seconds_per_move=5)
    assert next_of("challenge")["challenge"]["seconds_per_move"] == 5
    one.decline(asked["id"], "later")
    declined = next_of("challengeDeclined")["challenge"]
    assert declined["id"] == asked["id"] and declined["decline_reason"] == "later"
    # A bot that stops answering: the stream process's clock plays the timeout (here the
    # game is aborted, nobody having moved) within 2 s of the deadline.
    timed = Game.objects.get(
        pk=one.accept(other.challenge(first, "azul", seconds_per_move=5)["id"])["game_id"]
    )
    until(lambda: Game.objects.get(pk=timed.pk).finished_at is not None, 10, "no timeout")
    timed.refresh_from_db()
    late = timed.finished_at - (timed.last_move_at + timedelta(seconds=5))
    assert timed.status == Game.Status.ABORTED and timedelta(0) <= late < timedelta(seconds=2)
    assert next_of("gameFinish")["game"]["id"] == timed.pk
    bot = alice.bots_owned.get(user_id=first)
    token = bot.user.api_tokens.get()
    bot_token_revoke(owner=alice, bot_id=first, token_id=token.pk)
    rest = []
    started = time.monotonic()
    for line in events:  # the stream ends (cleanly: no error) soon after the revocation
        rest.append(line)
    assert time.monotonic() - started < 10
    with pytest.raises(ApiError):
        one.account()
