"""The bots' move clock runs whenever the site runs, and the bot streams answer under
``make run`` too (issue 55): the stream process times out a bot game with no bot connected
since its start; two clocks running at once play a timeout once; runserver's door (WSGI,
``NEWS_STREAM_IN_THREADS``) serves the event stream, with and without Redis."""

import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

from games import bot_streams
from games.models import Game
from games.services.bot_accounts import bot_create, bot_token_create
from games.services.challenges import challenge_accept, challenge_create
from games.services.move_clock import clocks_fire, next_due
from tests.games.test_news_stream import free_port
from tests.test_stream_process import ended, stream_process


def bot_with_key(owner, name: str) -> tuple:
    bot = bot_create(owner=owner, name=name, games=["azul"])
    _token, key = bot_token_create(owner=owner, bot_id=bot.user_id, name="bridge")
    return bot.user, key


def timed_game(challenger, opponent, policy: str) -> Game:
    challenge = challenge_create(
        challenger=challenger,
        opponent_id=opponent.pk,
        game="azul",
        seconds_per_move=5,
        timeout_policy=policy,
    )
    return challenge_accept(user=opponent, challenge_id=challenge.pk)


@pytest.mark.django_db(transaction=True)
def test_the_stream_process_times_out_a_bot_game_with_no_bot_connected(alice, settings, tmp_path):
    port = free_port()
    process = stream_process(port, settings.NEWS_REDIS_URL, tmp_path / "stream.log")
    try:
        (one, _key), (other, _key) = bot_with_key(alice, "A"), bot_with_key(alice, "B")
        game = timed_game(one, other, Game.TimeoutPolicy.FORFEIT)
        deadline = time.monotonic() + 10
        while Game.objects.get(pk=game.pk).finished_at is None:
            assert time.monotonic() < deadline, "no timeout without a bot stream"
            time.sleep(0.1)
    finally:
        ended(process)
    game.refresh_from_db()
    late = game.finished_at - (game.started_at + timedelta(seconds=5))
    assert game.status == Game.Status.ABORTED and timedelta(0) <= late < timedelta(seconds=2)


@pytest.mark.django_db(transaction=True)
def test_two_clocks_at_once_play_a_timeout_once(alice):
    (one, _key), (other, _key) = bot_with_key(alice, "A"), bot_with_key(alice, "B")
    game = timed_game(one, other, Game.TimeoutPolicy.DEFAULT_MOVE)
    due, seq = next_due(), game.last_seq
    both = threading.Barrier(2)
    fired = []

    def clock() -> None:
        both.wait()
        try:
            fired.append(clocks_fire(now=due))
        finally:
            connection.close()

    loops = [threading.Thread(target=clock) for _ in range(2)]
    for loop in loops:
        loop.start()
    for loop in loops:
        loop.join(30)
    game.refresh_from_db()
    assert sorted(fired) == [0, 1]
    # One move played for the seat out of time, and the clock runs again from it.
    assert game.last_seq > seq
    assert game.last_move_at == due and next_due() == due + timedelta(seconds=5)


@pytest.mark.parametrize("redis", [True, False], ids=["with Redis", "news files"])
@pytest.mark.django_db(transaction=True)
def test_runserver_serves_the_event_stream(alice, client, settings, monkeypatch, tmp_path, redis):
    settings.NEWS_STREAM_IN_THREADS = True
    if not redis:
        settings.NEWS_REDIS_URL, settings.NEWS_DIR = "", tmp_path / "news"
    monkeypatch.setattr(bot_streams, "KEEP_ALIVE_SECONDS", 0.5)
    (one, key), (other, _key) = bot_with_key(alice, "A"), bot_with_key(alice, "B")
    game = timed_game(other, one, Game.TimeoutPolicy.FORFEIT)
    response = client.get("/api/bot/stream/event", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = iter(response.streaming_content)
    try:
        opening = json.loads(next(lines))
        assert opening["type"] == "gameStart" and opening["game"]["id"] == game.pk
        rest = [next(lines) for _ in range(2 if opening["game"]["is_my_turn"] else 1)]
        assert rest[-1] == b"\n"  # a keep-alive
        asked = challenge_create(challenger=other, opponent_id=one.pk, game="azul")
        told = next(line for line in lines if line != b"\n")
        assert json.loads(told) == {"type": "challenge", "challenge": json.loads(told)["challenge"]}
        assert json.loads(told)["challenge"]["id"] == asked.pk
    finally:
        response.close()


def test_runserver_without_threads_still_says_where_the_streams_are(client, settings):
    settings.NEWS_STREAM_IN_THREADS = False
    response = client.get("/api/bot/stream/event", HTTP_AUTHORIZATION="Token azs_x")
    assert response.status_code == 503 and response["Retry-After"]


@pytest.mark.django_db(transaction=True)
def test_a_bot_opening_too_many_event_streams_at_once_is_told_to_wait(
    alice, client, settings, monkeypatch
):
    settings.NEWS_STREAM_IN_THREADS = True
    monkeypatch.setattr(bot_streams, "KEEP_ALIVE_SECONDS", 0.2)
    _bot, key = bot_with_key(alice, "A")

    def opened():
        return client.get("/api/bot/stream/event", HTTP_AUTHORIZATION=f"Token {key}")

    streams = [opened() for _ in range(bot_streams.MOST_EVENT_STREAMS)]
    try:
        for stream in streams:
            assert next(iter(stream.streaming_content)) == b"\n"
        refused = opened()
        assert refused.status_code == 429 and refused["Retry-After"] == "0.2"
        assert refused.json()["code"] == "too_many_streams"
        assert "4 event streams open already" in refused.json()["detail"]
        streams.pop().close()
        streams.append(opened())
        assert streams[-1].status_code == 200
    finally:
        for stream in streams:
            stream.close()
