"""Reads and moves as a game grows, in one process (no HTTP, no gunicorn):

- a cold read (``repository.game_table`` in a process that has never seen the game) of a
  300-event game against a 30-event one, and what folding the whole stream costs (a cold
  read before the table snapshots);
- the server's time for a move: a request to ``POST /api/games/{id}/moves/`` through the
  whole of Django (middleware, DRF, the service, PostgreSQL) with Django's test client,
  early in a game against 150 events into it, and over every move played.

Medians (min–max) over ``--reps`` repetitions, the short and the long interleaved, with the
load average: the machine may be shared, so compare the ratios measured in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_reads \\
        .venv/bin/python bench/reads.py [--game summer-pavilion] [--players 4]
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_reads")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("LOG_LEVEL", "ERROR")
# A benchmark, not a client: past the API's per-user rate every move would be a 429.
os.environ.setdefault("API_USER_RATE", "1000000/min")

from store import load, migrated  # noqa: E402 (bench/store.py, beside this file)

SHORT, LONG = 30, 300  # events in the games read cold
LATE = 150  # events before a "late" move


def players(count: int) -> list:
    """``count`` users with API tokens."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    users = []
    for index in range(count):
        email = f"reads-{index}@bench.example"
        user, _ = get_user_model().objects.get_or_create(username=email, defaults={"email": email})
        Token.objects.get_or_create(user=user)
        users.append(user)
    return users


def new_game(kind: str, users: list):
    from games.services.tables import game_create, game_join

    game = game_create(creator=users[0], game=kind, players=len(users))
    for user in users[1:]:
        game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def grown(kind: str, users: list, events: int, chooser: random.Random):
    """A game of ``kind`` played at random (through the services) to at least ``events``
    events, on a new game whenever one ends first."""
    from games import repository
    from games.models import Game
    from games.selectors.moves import legal_moves_of
    from games.services.moves import move_submit

    game = new_game(kind, users)
    while game.last_seq < events:
        if game.status != Game.Status.ACTIVE:
            game = new_game(kind, users)
            continue
        seat = {s.position: s.user for s in game.seats.all()}[game.to_move]
        move = chooser.choice(legal_moves_of(repository.game_table(game)))["move"]
        move_submit(game=game, user=seat, move=move)
        game.refresh_from_db()
    return game


def cold_reads(short, long, reps: int) -> dict[str, list[float]]:
    """Seconds per cold read (snapshot and the events after it) and per whole fold."""
    from games import repository
    from games import table as tbl

    times: dict[str, list[float]] = {"short": [], "long": [], "short, all": [], "long, all": []}
    for _ in range(reps):
        for name, game in (("short", short), ("long", long)):
            repository.tables_forgotten()
            started = time.perf_counter()
            repository.game_table(game)
            times[name].append(time.perf_counter() - started)
            started = time.perf_counter()
            tbl.fold(repository.empty_table(game), repository.records(game))
            times[f"{name}, all"].append(time.perf_counter() - started)
    return times


def timed_moves(kind: str, users: list, games: int, chooser: random.Random) -> dict:
    """Server time of every move over the API in ``games`` games: the first, the first
    after ``LATE`` events, and all of them."""
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.models import Game

    tokens = {user.pk: Token.objects.get(user=user).key for user in users}
    client = Client()
    first, late, every = [], [], []
    for _ in range(games):
        game = new_game(kind, users)
        path = f"/api/games/{game.pk}/"
        late_done, played = False, 0
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            seat = {s.position: s.user for s in game.seats.all()}[game.to_move]
            auth = {"HTTP_AUTHORIZATION": f"Token {tokens[seat.pk]}"}
            offered = client.get(path + "legal-moves/", **auth).json()
            body = {"move": chooser.choice(offered["moves"])["move"], "expected_seq": game.last_seq}
            started = time.perf_counter()
            answer = client.post(
                path + "moves/",
                json.dumps(body),
                content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
                **auth,
            )
            seconds = time.perf_counter() - started
            assert answer.status_code == 201, answer.content[:300]
            every.append(seconds)
            if not played:
                first.append(seconds)
            elif game.last_seq >= LATE and not late_done:
                late.append(seconds)
                late_done = True
            played += 1
    return {"first": first, "late": late, "every": every}


def spread(values: list[float]) -> str:
    return (
        f"{statistics.median(values) * 1000:7.2f} ms "
        f"({min(values) * 1000:.2f}–{max(values) * 1000:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="summer-pavilion")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--games", type=int, default=4, help="games whose moves are timed")
    args = parser.parse_args()
    migrated()
    from django.conf import settings

    chooser = random.Random(1)
    users = players(args.players)
    print(
        f"{args.game}, {args.players} players; TABLE_SNAPSHOT_EVERY="
        f"{settings.TABLE_SNAPSHOT_EVERY}; load average {load()}"
    )
    short = grown(args.game, users, SHORT, chooser)
    long = grown(args.game, users, LONG, chooser)
    times = cold_reads(short, long, args.reps)
    print(f"\nCold read, median (min–max) of {args.reps}:")
    print(f"  {short.last_seq:3} events: {spread(times['short'])}")
    print(f"  {long.last_seq:3} events: {spread(times['long'])}")
    ratio = statistics.median(times["long"]) / statistics.median(times["short"])
    verdict = "meets" if ratio <= 1.5 else "MISSES"
    print(f"  ratio {ratio:.2f} ({verdict} the target of 1.5)")
    whole = statistics.median(times["long, all"]) / statistics.median(times["short, all"])
    print(
        f"  the whole stream folded instead (no snapshot): {spread(times['short, all'])} and "
        f"{spread(times['long, all'])}, ratio {whole:.2f}"
    )

    moves = timed_moves(args.game, users, args.games, chooser)
    print(f"\nServer time per move (Django test client, {len(moves['every'])} moves):")
    print(f"  every move:           {spread(moves['every'])}")
    print(f"  first move of a game: {spread(moves['first'])}")
    print(f"  first after {LATE} events: {spread(moves['late'])}")
    late = statistics.median(moves["late"]) / statistics.median(moves["first"])
    print(f"  late / first = {late:.2f}; load average {load()}")


if __name__ == "__main__":
    main()
