"""An open page is told of a move the moment it is committed (issue 42): the news is
published after the commit (Redis), and a real stream server (uvicorn, the Procfile's
``stream`` process) passes it on to the page's event stream within half a second; the
WSGI site never holds a stream under gunicorn, and runserver's threads hold one
themselves (``make run``)."""

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import Client

from games import news
from games.services.chat import chat_post
from games.services.moves import move_submit
from games.services.tables import game_cancel, game_create
from tests.games.helpers import legal, started, to_move

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def stream_server():
    """The Procfile's stream process on the test database and Redis."""
    database = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
        "NEWS_REDIS_URL": settings.NEWS_REDIS_URL,
        "CONN_MAX_AGE": "0",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "azulsite.asgi:application",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "no stream server"
            time.sleep(0.1)
    yield port
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        # uvicorn waits for open streams to end before it stops.
        process.kill()
        process.wait(5)


class Events:
    """An open ``text/event-stream``, read frame by frame."""

    def __init__(self, port: int, path: str, session: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request(
            "GET", path, headers={"Cookie": f"sessionid={session}", "Accept": "text/event-stream"}
        )
        self.response = self.connection.getresponse()

    def next(self) -> str:
        """The next event's name (pings skipped)."""
        lines = []
        while True:
            line = self.response.fp.readline().decode()
            assert line, "the stream ended"
            if line == "\n":
                named = [entry[7:].strip() for entry in lines if entry.startswith("event:")]
                if named:
                    return named[0]
                lines = []
            else:
                lines.append(line)

    def close(self) -> None:
        self.connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_move_is_published_once_committed(alice, bob):
    game = started("azul", alice, bob)
    subscription = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
        ignore_subscribe_messages=True
    )
    subscription.subscribe(news.channel(news.game_topic(game.pk)))
    assert subscription.get_message(timeout=0.2) is None
    move_submit(game=game, user=to_move(game), move=legal(game)[0])
    assert subscription.get_message(timeout=2) is not None
    chat_post(game=game, user=alice, text="well played")
    assert subscription.get_message(timeout=2) is not None
    subscription.close()


@pytest.mark.django_db(transaction=True)
def test_a_game_called_off_before_it_starts_is_published_to_its_page(alice):
    """Whoever waits on an open game's page learns that its creator called it off (found
    by the simulated community when a closed account cancelled its open games)."""
    game = game_create(creator=alice, game="azul", players=2)
    subscription = redis.Redis.from_url(settings.NEWS_REDIS_URL).pubsub(
        ignore_subscribe_messages=True
    )
    subscription.subscribe(news.channel(news.game_topic(game.pk)))
    assert subscription.get_message(timeout=0.2) is None
    game_cancel(game=game, user=alice)
    assert subscription.get_message(timeout=2) is not None
    subscription.close()


@pytest.mark.django_db(transaction=True)
def test_the_stream_server_tells_an_open_page_of_a_move_within_half_a_second(
    alice, bob, stream_server
):
    game = started("azul", alice, bob)
    page = Events(stream_server, f"/stream/games/{game.pk}", session_of(alice))
    try:
        assert page.response.status == 200
        assert page.response.getheader("Content-Type").startswith("text/event-stream")
        assert page.next() == "hello"
        waits = []
        for _move in range(8):
            time.sleep(0.2)  # the subscription is in place, as it is long before a move
            moved_at = time.monotonic()
            move_submit(game=game, user=to_move(game), move=legal(game)[0])
            assert page.next() == "news"
            waits.append(time.monotonic() - moved_at)
    finally:
        page.close()
    assert max(waits) < 0.5, waits


@pytest.mark.django_db(transaction=True)
def test_a_stream_is_only_for_who_may_see_the_game(alice, bob, carol, stream_server):
    game = started("azul", alice, bob, private=True)
    stranger = Events(stream_server, f"/stream/games/{game.pk}", session_of(carol))
    assert stranger.response.status == 404
    stranger.close()


@pytest.mark.django_db
def test_the_wsgi_site_holds_no_stream_but_runserver_threads_do(alice, bob, settings):
    game = started("azul", alice, bob)
    client = Client()
    client.force_login(alice)
    settings.NEWS_STREAM_IN_THREADS = False
    assert client.get(f"/stream/games/{game.pk}").status_code == 204
    settings.NEWS_STREAM_IN_THREADS = True
    answer = client.get(f"/stream/games/{game.pk}")
    assert answer.status_code == 200 and answer.streaming
    first = next(iter(answer.streaming_content)).decode()
    assert "event: hello" in first and f'"seq": {game.last_seq}' in first
    answer.close()
