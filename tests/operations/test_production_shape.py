"""The production shape tested whole (issue 57): the Procfile's processes started as an
operator starts them, with honcho (the Procfile runner of the Python world, pinned in
requirements-dev.txt: it reads the Procfile as it is and runs each line through the
shell, as a platform does), on a fresh PostgreSQL database with two roles, Redis and an
SMTP sink. The release step migrates as the owner and limits the web role; two people sign
in by the emailed link and play through HTTP on gunicorn while a third watches through the
stream process; the worker sends the emails. Then each process is killed (``kill -9``) in
turn, its health answer (``manage.py health``) checked to fail, the process started again
(what an orchestrator does) and its health answer checked to pass, while the game goes on:
nothing the players were told was taken is lost or doubled, no email is sent twice, none
is left due, the watcher hears the moves after the stream process came back, and beat's
sweep ran. And ``compose.yaml`` runs each process with its Procfile line."""

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest
import redis
import requests
import yaml
from aiosmtpd.controller import Controller
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from tests.mail.conftest import Sink, body_of, free_port

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("web", "stream", "worker", "analysis", "beat")
TOKEN = "metrics-token-of-the-test"


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def test_compose_runs_each_process_with_its_procfile_line_and_checks_its_health():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    lines = procfile()
    assert set(compose) - {"db", "redis"} == set(lines)
    for name, line in lines.items():
        shell, flag, command = compose[name]["command"]
        assert (shell, flag) == ("sh", "-c")
        # Long-running processes are exec'd, so that they get the stop signal themselves.
        expected = line if name == "release" else f"exec {line}"
        assert command.replace("$$", "$") == expected, name
        if name != "release":
            assert compose[name]["healthcheck"]["test"] == ["CMD", "python", "manage.py"] + [
                "health",
                name,
            ]


class Site:
    """A fresh database with an owner and a web role, and the processes of the Procfile,
    each under a honcho of its own (an orchestrator's unit: kill the process, start the
    unit again)."""

    def __init__(self, tmp_path: Path, smtp_port: int) -> None:
        self.name = f"{connection.settings_dict['NAME']}_shape"
        self.owner, self.web_role = f"{self.name}_owner", f"{self.name}_web"
        self.port, self.stream_port = free_port(), free_port()
        self.units: dict[str, subprocess.Popen] = {}
        self.logs = tmp_path
        self.env = {
            **os.environ,
            # The site's interpreter and its commands (gunicorn, uvicorn, celery) first.
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
            "DJANGO_SETTINGS_MODULE": "azulsite.settings",
            "DATABASE_URL": self.url(self.web_role),
            "RELEASE_DATABASE_URL": self.url(self.owner),
            "DATABASE_WEB_ROLE": self.web_role,
            "REDIS_URL": settings.REDIS_URL,
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
            "SECRET_KEY": uuid.uuid4().hex * 2,
            "SITE_URL": f"http://127.0.0.1:{self.port}",
            "ALLOWED_HOSTS": "127.0.0.1",
            "WEB_CONCURRENCY": "2",
            "PORT": str(self.port),
            "STREAM_PORT": str(self.stream_port),
            "YOUR_TURN_GRACE_SECONDS": "0",
            "MAIL_BOARD_PICTURES": "0",
            "METRICS_TOKEN": TOKEN,
            "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
            "AZULSITE_VAR_DIR": str(tmp_path / "var"),
            "STATIC_ROOT": str(tmp_path / "static"),
            "CONN_MAX_AGE": "0",
        }
        for name in ("CELERY_BROKER_URL", "CACHE_URL", "NEWS_REDIS_URL"):
            self.env.pop(name, None)

    def url(self, role: str) -> str:
        database = connection.settings_dict
        return f"postgres://{role}@{database['HOST']}:{database['PORT']}/{self.name}"

    def sql(self, *statements: str) -> None:
        admin = connection.settings_dict
        url = f"postgres://{admin['USER']}@{admin['HOST']}:{admin['PORT']}/postgres"
        for statement in statements:
            subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", statement], check=True)

    def create(self) -> None:
        self.drop()
        self.sql(
            f'CREATE ROLE "{self.owner}" LOGIN',
            f'CREATE ROLE "{self.web_role}" LOGIN',
            f'CREATE DATABASE "{self.name}" OWNER "{self.owner}"',
        )
        redis.Redis.from_url(settings.REDIS_URL).flushdb()

    def drop(self) -> None:
        self.sql(
            f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)',
            f'DROP ROLE IF EXISTS "{self.owner}"',
            f'DROP ROLE IF EXISTS "{self.web_role}"',
        )

    def honcho(self, *names: str) -> subprocess.Popen:
        log = (self.logs / f"{'-'.join(names)}.log").open("a")
        return subprocess.Popen(
            [sys.executable, "-m", "honcho", "start", "-f", "Procfile", "-p", str(self.port)]
            + list(names),
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def release(self) -> None:
        assert self.honcho("release").wait(180) == 0, (self.logs / "release.log").read_text()

    def start(self, name: str) -> None:
        self.units[name] = self.honcho(name)

    def healthy(self, name: str) -> bool:
        """The process's health answer (``manage.py health``): asked here, in the test's
        process, which shares the site's broker and machine; beat's, which reads the
        site's database, in a process on it."""
        if name == "beat":
            return (
                subprocess.run(
                    [sys.executable, "manage.py", "health", name],
                    cwd=ROOT,
                    env=self.env,
                    capture_output=True,
                    timeout=60,
                ).returncode
                == 0
            )
        ports = {"PORT": str(self.port), "STREAM_PORT": str(self.stream_port)}
        with mock.patch.dict(os.environ, ports):
            try:
                call_command("health", name, stdout=io.StringIO())
            except CommandError:
                return False
        return True

    def until_healthy(self, name: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not self.healthy(name):
            assert time.monotonic() < deadline, f"{name} never became healthy"
            time.sleep(0.5)

    def kill(self, name: str) -> None:
        """``kill -9`` of the process and every process it started (honcho starts each in
        a process group of its own); its honcho sees it die and stops, as a unit whose
        process died."""
        unit = self.units.pop(name)
        for pid in descendants(unit.pid):
            if b"honcho" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        try:
            unit.wait(30)
        except subprocess.TimeoutExpired:
            for pid in [unit.pid, *descendants(unit.pid)]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            raise

    def stop(self) -> None:
        for name in list(self.units):
            self.kill(name)


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


class Person:
    """A browser's session on the site: signs in by the emailed link, plays through the
    API (the session's cookie and CSRF token), retrying a move with its idempotency key
    until the site answers."""

    def __init__(self, site: Site, email: str) -> None:
        self.site, self.email = site, email
        self.session = requests.Session()
        self.base = f"http://127.0.0.1:{site.port}"

    def csrf(self, path: str) -> str:
        page = self.session.get(self.base + path, timeout=10)
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)

    def sign_in(self, smtp: Sink) -> None:
        token = self.csrf("/signin/")
        asked = self.session.post(
            self.base + "/signin/",
            {"email": self.email, "csrfmiddlewaretoken": token},
            timeout=10,
        )
        asked.raise_for_status()
        body = waited(lambda: smtp.to(self.email) and smtp.to(self.email)[-1], 60)
        code = re.search(r"/signin/link/\S*#(\S+)", body_of(body)).group(1)
        token = self.csrf("/signin/link/")
        signed_in = self.session.post(
            self.base + "/signin/link/",
            {"code": code, "csrfmiddlewaretoken": token},
            allow_redirects=False,
            timeout=10,
        )
        assert signed_in.status_code == 302, signed_in.text

    def api(self, method: str, path: str, body=None, **headers) -> requests.Response:
        """The API, tried again while the web process is away (connection refused, 502)."""
        headers["X-CSRFToken"] = self.session.cookies.get("csrftoken", "")
        deadline = time.monotonic() + 90
        while True:
            try:
                answer = self.session.request(
                    method, self.base + path, json=body, headers=headers, timeout=15
                )
                if answer.status_code < 500:
                    return answer
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, f"{method} {path}: no answer"
            time.sleep(0.3)


def waited(found, seconds: float):
    deadline = time.monotonic() + seconds
    while not (value := found()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)
    return value


class Watcher(threading.Thread):
    """A third person with the game's page open: its stream, opened again whenever it
    ends (as EventSource does), counting the news."""

    def __init__(self, site: Site, game_id: int) -> None:
        super().__init__(daemon=True)
        self.url = f"http://127.0.0.1:{site.stream_port}/stream/games/{game_id}"
        self.news: list[float] = []
        self.hellos: list[dict] = []
        self.stopped = False

    def run(self) -> None:
        while not self.stopped:
            try:
                with requests.get(self.url, stream=True, timeout=30) as answer:
                    if answer.status_code != 200:
                        time.sleep(1)
                        continue
                    event = ""
                    for line in answer.iter_lines(chunk_size=1, decode_unicode=True):
                        if line.startswith("event:"):
                            event = line[6:].strip()
                            if event == "news":
                                self.news.append(time.monotonic())
                        elif line.startswith("data:") and event == "hello":
                            self.hellos.append(json.loads(line[5:]))
                        if self.stopped:
                            return
            except requests.RequestException:
                time.sleep(1)


def play_a_move(game_id: int, people: list[Person], told: list[str]) -> None:
    """The player to move plays the first legal move, with an idempotency key, retried
    until taken; ``told`` gets each move the site said it took."""
    for person in people:
        moves = person.api("GET", f"/api/games/{game_id}/legal-moves/").json()
        if moves.get("moves"):
            key = uuid.uuid4().hex
            move = moves["moves"][0]["move"]
            taken = person.api(
                "POST", f"/api/games/{game_id}/moves/", {"move": move}, **{"Idempotency-Key": key}
            )
            assert taken.status_code in (200, 201), taken.text
            told.append(move)
            return
    raise AssertionError("nobody could move")


@pytest.mark.django_db(transaction=True)
def test_the_procfiles_processes_play_on_while_each_is_killed_and_started_again(tmp_path):
    smtp = Sink()
    controller = Controller(smtp, hostname="127.0.0.1", port=free_port())
    controller.start()
    site = Site(tmp_path, controller.port)
    site.create()
    try:
        began = time.monotonic()
        site.release()
        print(f"release in {time.monotonic() - began:.1f} s")
        for name in PROCESSES:
            site.start(name)
        for name in ("web", "stream", "worker", "analysis"):
            site.until_healthy(name)
        alice, bob = Person(site, "alice@shape.example"), Person(site, "bob@shape.example")
        alice.sign_in(smtp)
        bob.sign_in(smtp)
        created = alice.api("POST", "/api/games/", {"game": "azul", "players": 2})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        assert bob.api("POST", f"/api/games/{game_id}/join/").status_code in (200, 201)
        watcher = Watcher(site, game_id)
        watcher.start()
        told: list[str] = []
        waited(lambda: watcher.hellos, 30)
        for _ in range(2):
            play_a_move(game_id, [alice, bob], told)
        for name in PROCESSES:
            began = time.monotonic()
            hellos = len(watcher.hellos)
            site.kill(name)
            assert not site.healthy(name) or name == "beat"
            if name != "web":
                play_a_move(game_id, [alice, bob], told)
            site.start(name)
            if name == "web":
                # Sent while the web process starts again: tried until it answers.
                play_a_move(game_id, [alice, bob], told)
            site.until_healthy(name, 90 if name == "beat" else 60)
            if name == "stream":
                # The page's stream open again on the new process before the next move: news
                # is told to the pages open when it happens, as EventSource would be.
                waited(lambda hellos=hellos: len(watcher.hellos) > hellos, 30)
            heard = len(watcher.news)
            play_a_move(game_id, [alice, bob], told)
            if name == "stream":
                waited(lambda heard=heard: len(watcher.news) > heard, 30)
            print(f"{name} killed and back in {time.monotonic() - began:.1f} s")
        # The watcher's one stream, on the stream process started again (not the killed one's).
        assert scraped_value(site, "azulsite_open_streams") == 1
        watcher.stopped = True

        # Nothing lost or doubled: every move the players were told was taken, once.
        events = alice.api("GET", f"/api/games/{game_id}/events/").json()
        moved = [e["data"]["move"] for e in events if e["type"] == "table.Moved"]
        assert moved == told
        # Nothing stuck: every email due goes out, once.
        state = f"/api/games/{game_id}/"
        waited(lambda: not due_emails(site), 60)
        ids = Counter(str(message["Message-ID"]) for message in smtp.messages)
        assert ids and max(ids.values()) == 1
        assert smtp.to("alice@shape.example") and smtp.to("bob@shape.example")
        assert alice.api("GET", state).status_code == 200
        # Beat's sweep ran, and the metrics of every process add up at the scrape.
        site.until_healthy("beat", 90)
        assert scraped_value(site, 'azulsite_moves_total{game="azul"}') >= len(told)
        checked = subprocess.run(
            [sys.executable, "manage.py", "check_database"],
            cwd=ROOT,
            env={**site.env, "DATABASE_URL": site.url(site.owner)},
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        site.stop()
        controller.stop()
        site.drop()


def scraped_value(site: Site, sample: str) -> float:
    """A sample of the site's /metrics, which adds up every process's figures."""
    scraped = requests.get(
        f"http://127.0.0.1:{site.port}/metrics",
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=10,
    ).text
    found = re.search(rf"^{re.escape(sample)} (\S+)$", scraped, re.MULTILINE)
    assert found, sample
    return float(found.group(1))


def due_emails(site: Site) -> int:
    """Emails due and not sent (nor settled) on the site's database."""
    answer = subprocess.run(
        ["psql", site.url(site.owner), "-tAc"]
        + [
            "SELECT count(*) FROM games_delivery WHERE sent_at IS NULL AND cancelled_at IS NULL"
            " AND due_at <= now()"
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(answer.stdout.strip())
