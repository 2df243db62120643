"""The stream process (the Procfile's ``stream``, uvicorn) holds one Redis connection and
one subscription for all its open pages, passing each message on to the pages of its
channel (issue 57: a connection per page met Redis's 10,000 clients long before the
machine was busy). When Redis is away a stream answers 503 with ``Retry-After`` before it
starts, so the browser gives up and the page polls, with one line in the log and no
traceback a page."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.db import connection

from games import news, streams
from games.services.moves import move_submit
from tests.games.helpers import legal, started, to_move
from tests.games.test_news_stream import Events, free_port, session_of

ROOT = Path(__file__).resolve().parents[1]


def stream_process(port: int, news_redis_url: str, log: Path) -> subprocess.Popen:
    """The Procfile's stream process on the test database, its log written to ``log``."""
    database = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
        "NEWS_REDIS_URL": news_redis_url,
        "CONN_MAX_AGE": "0",
    }
    command = ["-m", "uvicorn", "azulsite.asgi:application", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, *command, "--timeout-graceful-shutdown", "1"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    answering(port, process)
    return process


def answering(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            Events(port, "/healthz", "").close()
            return
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "no stream process"
            time.sleep(0.1)


def ended(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def redis_server(port: int) -> subprocess.Popen:
    """A Redis of the test's own, which it can take away."""
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        + ["--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return process
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "no Redis"
            time.sleep(0.05)


def clients_of(server: redis.Redis, process: subprocess.Popen) -> list[dict]:
    return [
        client
        for client in server.client_list()
        if client["name"] == f"azulsite-stream-{process.pid}"
    ]


@pytest.mark.django_db(transaction=True)
def test_many_open_pages_share_one_redis_connection_and_hear_only_their_games(
    alice, bob, carol, settings, tmp_path
):
    games = [started("azul", alice, bob), started("azul", bob, carol)]
    port = free_port()
    process = stream_process(port, settings.NEWS_REDIS_URL, tmp_path / "stream.log")
    pages = []
    try:
        for number in range(12):
            game = games[number % 2]
            pages.append((game, Events(port, f"/stream/games/{game.pk}", session_of(alice))))
        for _game, page in pages:
            assert page.response.status == 200
            assert page.next() == "hello"
        server = redis.Redis.from_url(settings.NEWS_REDIS_URL)
        (client,) = clients_of(server, process)
        assert client["sub"] == "2"  # the two games' channels, once each
        move_submit(game=games[0], user=to_move(games[0]), move=legal(games[0])[0])
        for game, page in pages:
            if game == games[0]:
                assert page.next() == "news"
        # The other game's pages heard nothing: their next frame is the news of its move.
        move_submit(game=games[1], user=to_move(games[1]), move=legal(games[1])[0])
        for game, page in pages:
            if game == games[1]:
                assert page.next() == "news"
        for game, page in pages:
            if game == games[1]:
                page.close()
        channel = news.channel(news.game_topic(games[1].pk))
        deadline = time.monotonic() + 5
        while server.pubsub_numsub(channel)[0][1] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.pubsub_numsub(channel)[0][1] == 0, "a closed game's channel stays"
        assert len(clients_of(server, process)) == 1
    finally:
        for _game, page in pages:
            page.close()
        ended(process)


@pytest.mark.django_db(transaction=True)
def test_with_redis_away_a_stream_answers_503_before_it_starts_and_comes_back_with_it(
    alice, bob, tmp_path
):
    game = started("azul", alice, bob)
    redis_port, port = free_port(), free_port()
    url = f"redis://127.0.0.1:{redis_port}/0"
    log = tmp_path / "stream.log"
    session = session_of(alice)
    away = stream_process(port, url, log)
    try:
        page = Events(port, f"/stream/games/{game.pk}", session)
        assert page.response.status == 503
        assert page.response.getheader("Retry-After") == str(streams.AWAY_SECONDS)
        page.close()
    finally:
        ended(away)
    server = redis_server(redis_port)
    process = stream_process(port, url, log)
    try:
        page = Events(port, f"/stream/games/{game.pk}", session)
        assert page.response.status == 200 and page.next() == "hello"
        ended(server)
        # The stream ends at once (chunked: its last, empty chunk) rather than failing later.
        assert page.response.fp.read().endswith(b"0\r\n\r\n")
        page.close()
        for _retry in range(20):
            page = Events(port, f"/stream/games/{game.pk}", session)
            assert page.response.status == 503
            page.close()
        server = redis_server(redis_port)
        time.sleep(streams.AWAY_SECONDS + 0.5)
        page = Events(port, f"/stream/games/{game.pk}", session)
        assert page.response.status == 200 and page.next() == "hello"
        channel = f"azulsite:0:news:{news.game_topic(game.pk)}"
        redis.Redis(port=redis_port).publish(channel, "1")
        assert page.next() == "news"
        page.close()
    finally:
        ended(process)
        ended(server)
    written = log.read_text()
    assert "Traceback" not in written, written
    assert written.count("streams answer 503") <= 3, written
