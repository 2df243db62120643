"""Ratings and the archive at scale (issue 16): rebuilding every ladder from 100,000
finished games, and archive searches over them.

The script fills its own database with finished games and their results in bulk SQL
(2,000 players, two to four seats each, one game in ten unrated), then times
``ratings_rebuild(results=False)`` — every ladder recomputed in game-end order from the
results, as ``rebuild_projections`` does after re-reading the results from the events — and
the archive search as the API runs it (a count up to 1,000, one page of 25, the seats with
names) for a mix of filters, and prints p50/p95 and the plan of the slowest kind of search.
With ``--reuse`` it keeps the games a previous run filled in.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_ratings \\
        .venv/bin/python bench/ratings.py [--games 100000] [--searches 300] [--reuse]
"""

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_ratings")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

from bench.store import ensure_database  # noqa: E402 - after the environment it reads

PLAYERS = 2000
PAGE = 25

FILL = """
INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
    is_staff, is_active, date_joined)
SELECT '', false, 'player' || u || '@bench.example', 'Player' || u, '',
    'player' || u || '@bench.example', false, true, now()
FROM generate_series(1, %(players)s) AS u;

INSERT INTO games_game (game_type, options, players, time_control, timeout_policy, self_undo,
    private, rated, created_by_id, created_at, started_at, finished_at, status, last_seq,
    scores, winners, rng_secret, timeout_bot)
SELECT (ARRAY['azul', 'summer-pavilion', 'miyabi'])[1 + g %% 3],
    (CASE g %% 3 WHEN 0 THEN '{"wall": "colored"}' WHEN 1 THEN '{"board": "grey"}'
        ELSE '{}' END)::jsonb,
    2 + (g * 7) %% 3, '{"kind": "none"}', 'default_move', true, g %% 50 = 0, g %% 10 <> 0,
    (SELECT min(id) FROM auth_user), now(), now(),
    now() - (%(games)s - g) * interval '5 minutes', 'finished', 100, '[]', '[]', md5(g::text),
    ''
FROM generate_series(1, %(games)s) AS g;

INSERT INTO games_gameresult (game_id, game_type, side, players, ended_at, end_seq, private,
    shared_win, excluded)
SELECT id, game_type, COALESCE((SELECT value FROM jsonb_each_text(options) LIMIT 1), ''),
    players, finished_at, 100, private, false, CASE WHEN rated THEN '' ELSE 'unrated' END
FROM games_game;

INSERT INTO games_resultseat (result_id, user_id, actor, seat, place, score, won, resigned,
    timed_out, game_type, ended_at)
SELECT r.game_id, u.id, 'user:' || u.id, p, 1 + (r.game_id * 13 + p * 5) %% r.players,
    20 + (r.game_id * 31 + p * 17) %% 80, 1 + (r.game_id * 13 + p * 5) %% r.players = 1,
    false, false, r.game_type, r.ended_at
FROM games_gameresult AS r
CROSS JOIN generate_series(0, 3) AS p
JOIN auth_user AS u ON u.username = 'player' || (1 + (abs(hashtext(r.game_id::text))
    + p * 97) %% %(players)s) || '@bench.example'
WHERE p < r.players;
"""


def reset() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_ratingchange, games_rating, games_ratingladder, games_resultseat,"
            " games_gameresult, games_seat, games_game, auth_user RESTART IDENTITY CASCADE"
        )


def fill(games: int) -> float:
    from django.db import connection

    started = time.perf_counter()
    with connection.cursor() as cursor:
        for statement in FILL.split(";\n"):
            if statement.strip():
                cursor.execute(statement, {"games": games, "players": PLAYERS})
        cursor.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


def searches(count: int) -> list:
    """A mix of what people search for: by game, players, side, a player (and their wins),
    a name, a month, and nothing at all."""
    from django.utils import timezone

    from games.models import GameResult
    from games.ratings.selectors import ArchiveQuery

    rng = random.Random(16)
    users = list(range(1, PLAYERS + 1))
    newest = GameResult.objects.order_by("-ended_at").values_list("ended_at", flat=True)[0]
    kinds = [
        lambda: ArchiveQuery(),
        lambda: ArchiveQuery(game=rng.choice(["azul", "summer-pavilion", "miyabi"])),
        lambda: ArchiveQuery(game="azul", players=rng.choice([2, 3, 4])),
        lambda: ArchiveQuery(side="grey"),
        lambda: ArchiveQuery(player=rng.choice(users)),
        lambda: ArchiveQuery(player=rng.choice(users), result="won", game="miyabi"),
        lambda: ArchiveQuery(player_name=f"Player{rng.choice(users)}"),
        lambda: ArchiveQuery(
            date_from=timezone.localdate(newest - timedelta(days=rng.randrange(300))),
            date_to=timezone.localdate(newest - timedelta(days=rng.randrange(0, 30))),
        ),
        lambda: ArchiveQuery(rated=False, players=4),
    ]
    return [(index % len(kinds), kinds[index % len(kinds)]()) for index in range(count)]


def timed_search(query) -> float:
    from games.ratings.selectors import archive_search, capped_count, with_seats

    started = time.perf_counter()
    results = archive_search(query, None)
    capped_count(results)
    with_seats(results[:PAGE])
    return time.perf_counter() - started


def round_trip() -> float:
    """The floor under every query on this machine right now: a SELECT 1, p50 of 50."""
    from django.db import connection

    times = []
    with connection.cursor() as cursor:
        for _ in range(50):
            started = time.perf_counter()
            cursor.execute("SELECT 1")
            cursor.fetchone()
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def plan(query) -> str:
    from django.db import connection

    from games.ratings.selectors import archive_search

    sql, params = archive_search(query, None)[:PAGE].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + sql, params)
        return "\n".join("    " + row[0] for row in cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument(
        "--reuse", action="store_true", help="keep the games a previous run filled in"
    )
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    from games.models import RatingChange
    from games.services.ratings import ratings_rebuild

    call_command("migrate", verbosity=0)
    if not args.reuse:
        reset()
        filled = fill(args.games)
        print(f"filled {args.games} finished games with {PLAYERS} players in {filled:.1f}s")

    started, cpu = time.perf_counter(), time.process_time()
    rated = ratings_rebuild(results=False)
    rebuild, cpu = time.perf_counter() - started, time.process_time() - cpu
    changes = RatingChange.objects.count()
    print(
        f"rebuild of every ladder: {rebuild:.1f}s ({cpu:.1f}s of this process's CPU; load "
        f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores) for "
        f"{sum(rated.values())} rated games ({changes} rating changes written; {rated})"
    )

    for _, query in searches(20):
        timed_search(query)  # warm the caches as a running site has them
    times: dict[int, list[float]] = {}
    queries = searches(args.searches)
    for kind, query in queries:
        times.setdefault(kind, []).append(timed_search(query))
    every = sorted(t for kind_times in times.values() for t in kind_times)
    print(f"  (a bare SELECT 1 round trip meanwhile: p50 {round_trip() * 1000:.1f} ms)")
    p50 = statistics.median(every) * 1000
    p95 = every[int(len(every) * 0.95) - 1] * 1000
    print(f"archive search (count up to 1000 + page of {PAGE} + names), {len(every)} searches:")
    print(f"  p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {every[-1] * 1000:.1f} ms")
    slowest = max(times, key=lambda kind: statistics.median(times[kind]))
    for kind, kind_times in sorted(times.items()):
        print(f"  kind {kind}: median {statistics.median(kind_times) * 1000:.1f} ms")
    example = next(query for kind, query in queries if kind == slowest)
    print(f"plan of the slowest kind ({example}):")
    print(plan(example))


if __name__ == "__main__":
    main()
