"""Lighthouse's scores in every category (performance, accessibility, best practices, SEO)
of the pages people use most — the home page, the lobby, a game in play (the player to move
looking), the replay of a finished game, a player's profile and the leaderboard — with
Lighthouse's mobile profile, on Debian's Chromium, against the site as it is deployed
(static files collected, gunicorn, ``DEBUG`` off, whitenoise) on a throwaway SQLite
database.

    .venv/bin/python bench/lighthouse.py [--pages lobby game] [--keep]

Lighthouse is the npm package, installed on first use under ``var/lighthouse/`` (npm's
registry). Target (issues 29 and 41): >= 95 in every category on every page. Each failed
audit is listed under its page, so a score below target says what to fix. A page whose
Lighthouse run fails is tried again (``TRIES`` runs in all), and a page that never scores
is reported alone: the other pages keep their scores (issue 53).
"""

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LIGHTHOUSE_VERSION = "12.8.2"
LIGHTHOUSE_HOME = ROOT / "var" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
TARGET = 95
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = ("home", "lobby", "game", "replay", "profile", "leaderboard")


def lighthouse() -> Path:
    """The Lighthouse command, installed with npm the first time."""
    command = LIGHTHOUSE_HOME / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        LIGHTHOUSE_HOME.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", f"lighthouse@{LIGHTHOUSE_VERSION}"],
            cwd=LIGHTHOUSE_HOME,
            check=True,
        )
    return command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def site_environment(home: Path, port: int) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "azulsite.settings",
        "AZULSITE_VAR_DIR": str(home),
        "DATABASE_URL": f"sqlite:///{home / 'site.sqlite3'}",
        "STATIC_ROOT": str(home / "static"),
        "REDIS_URL": "",
        "CELERY_BROKER_URL": f"filesystem://localhost/{home / 'broker'}",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "SECRET_KEY": "lighthouse-bench-" + "x" * 40,
        "LOG_LEVEL": "ERROR",
    }


def played(game, moves: int | None, chooser: random.Random):
    """``game`` played at random through the services: ``moves`` moves, or to its end."""
    from games import repository
    from games.models import Game
    from games.selectors.moves import legal_moves_of
    from games.services.moves import move_submit

    while moves is None or moves > 0:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = {s.position: s.user for s in game.seats.all()}[game.to_move]
        move = chooser.choice(legal_moves_of(repository.game_table(game)))["move"]
        move_submit(game=game, user=seat, move=move)
        moves = None if moves is None else moves - 1
    game.refresh_from_db()
    return game


def pages_and_cookie() -> tuple[dict[str, str], str]:
    """The demo's players, a two-player Azul game in play with alice to move, a finished
    one; the pages to score and alice's session cookie."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("demo", verbosity=0)
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.models import Game
    from games.services.tables import game_create, game_join

    users = get_user_model().objects
    alice, bob = users.get(username="alice@example.com"), users.get(username="bob@example.com")
    chooser = random.Random(29)

    def new_game():
        game = game_create(creator=alice, game="azul", players=2)
        game_join(game=game, user=bob)
        return Game.objects.get(pk=game.pk)

    finished = played(new_game(), None, chooser)
    in_play = new_game()
    for _ in range(12):
        in_play = played(in_play, 1, chooser)
        if in_play.status == Game.Status.ACTIVE and in_play.to_move is not None:
            seat = in_play.seats.get(position=in_play.to_move)
            if seat.user == alice and in_play.last_seq > 8:
                break
    client = Client()
    client.force_login(alice)
    return {
        "home": "/",
        "lobby": "/lobby/",
        "game": f"/games/{in_play.pk}/",
        "replay": f"/games/{finished.pk}/replay/",
        "profile": f"/players/{bob.pk}/",
        "leaderboard": "/leaderboard/",
    }, client.cookies["sessionid"].value


# Runs of one page before it is reported without scores: Lighthouse sometimes fails a run
# on its own (a page that never painted in its trace, a protocol timeout), and one such
# run lost every page's scores.
TRIES = 3


class RunFailed(Exception):
    """One Lighthouse run gave no scores."""


def score(command: Path, url: str, cookie: str, report: Path) -> dict:
    """One Lighthouse run of ``url`` (mobile profile): scores and the failed audits.
    Raises ``RunFailed`` when Lighthouse fails or scores nothing."""
    report.unlink(missing_ok=True)
    run = subprocess.run(
        [
            str(command),
            url,
            "--quiet",
            f"--only-categories={','.join(CATEGORIES)}",
            "--output=json",
            f"--output-path={report}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu "
            "--disable-background-networking",
            "--extra-headers",
            json.dumps({"Cookie": f"sessionid={cookie}"}),
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines()
        raise RunFailed(f"exit {run.returncode}: {lines[-1] if lines else 'no output'}")
    try:
        result = json.loads(report.read_text())
    except (OSError, ValueError) as error:
        raise RunFailed(f"no report: {error}") from None
    if result.get("runtimeError"):
        raise RunFailed(result["runtimeError"].get("message", "runtime error"))
    scores, failed = {}, []
    for name in CATEGORIES:
        category = result["categories"][name]
        if category["score"] is None:
            raise RunFailed(f"no {name} score")
        scores[name] = round(category["score"] * 100)
        for ref in category["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                failed.append(f"{name}: {audit['title']}")
    return {"scores": scores, "failed": failed}


def scored(command: Path, url: str, cookie: str, report: Path) -> dict:
    """``score`` of ``url``, tried up to ``TRIES`` times: its scores and how many runs
    failed first, or, when every run failed, the errors."""
    errors = []
    for _ in range(TRIES):
        try:
            return {**score(command, url, cookie, report), "errors": errors}
        except RunFailed as error:
            errors.append(str(error))
            print(f"{url}: Lighthouse failed ({error}); trying again", file=sys.stderr)
    return {"scores": None, "failed": [], "errors": errors}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="*", choices=PAGES, default=list(PAGES))
    parser.add_argument("--keep", action="store_true", help="keep the temporary site's folder")
    args = parser.parse_args()
    command = lighthouse()
    home = Path(tempfile.mkdtemp(prefix="azulsite-lighthouse-"))
    port = free_port()
    os.environ.update(site_environment(home, port))
    pages, cookie = pages_and_cookie()
    site = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "azulsite.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ,
    )
    results = {}
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        for name in args.pages:
            results[name] = scored(
                command, f"http://127.0.0.1:{port}{pages[name]}", cookie, home / f"{name}.json"
            )
    finally:
        site.terminate()
        site.wait(timeout=30)
        if not args.keep:
            shutil.rmtree(home, ignore_errors=True)
    print(f"\nLighthouse {LIGHTHOUSE_VERSION}, mobile profile, Chromium at {CHROMIUM}")
    print(f"{'page':12}" + "".join(f"{name:>16}" for name in CATEGORIES))
    below = False
    for name, result in results.items():
        scores = result["scores"]
        if scores is None:
            print(f"{name:12}  no scores: Lighthouse failed {TRIES} times")
            for error in result["errors"]:
                print(f"    ! {error}")
            below = True
            continue
        print(f"{name:12}" + "".join(f"{scores[category]:>16}" for category in CATEGORIES))
        if result["errors"]:
            print(f"    (scored on try {len(result['errors']) + 1}: {result['errors'][-1]})")
        for line in result["failed"]:
            print(f"    - {line}")
        below |= any(value < TARGET for value in scores.values())
    print(f"target: >= {TARGET} on each ({'missed' if below else 'met'})")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
