"""The cost of one sweep (``games.services.sweep``) against the number of games.

For each size (default 1,000 and 100,000 active games) the script fills its own database
with that many games in play — seats, seat clocks with reminders and deadlines days away,
and three sent emails per game — in bulk SQL, then adds the same small number of due items
made through the services (real games: reminders due, deadline warnings due, deadlines
passed). It times one sweep with nothing due and one with those items due, and prints the
plan of each "what is due" query. The cost must follow the number of due items (index
scans on the due columns), not the number of games.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_reminders \\
        .venv/bin/python bench/reminders.py [--sizes 1000 100000] [--due 20]
"""

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_reminders")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
# Emails stay in memory and tasks in an in-process broker: the sweep's own cost is measured.
os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
os.environ["CELERY_BROKER_URL"] = "memory://"
os.environ.setdefault("LOG_LEVEL", "ERROR")

from bench.store import ensure_database, truncate  # noqa: E402 - after the environment it reads

FILL = """
INSERT INTO games_game (game_type, options, players, time_control, timeout_policy, self_undo,
    private, created_by_id, created_at, started_at, status, last_seq, to_move, deadline,
    last_move_at, scores, winners, rng_secret, rated, timeout_bot)
SELECT 'azul', '{}', 2, '{"kind": "per_move", "days": 3}', 'default_move', true, false,
    %(creator)s, now(), now(), 'active', 10, 0, now() + interval '3 days', now(), '[0, 0]',
    '[]', md5(g::text), false, ''
FROM generate_series(1, %(games)s) AS g;

INSERT INTO games_seat (game_id, user_id, invited_email, status, position, joined_at, bot)
SELECT game.id, users.ids[1 + (game.id * 2 + p) %% array_length(users.ids, 1)], '', 'joined',
    p, now(), ''
FROM games_game AS game, generate_series(0, 1) AS p,
    (SELECT array_agg(id) AS ids FROM auth_user WHERE username LIKE 'filler%%') AS users
WHERE game.rng_secret NOT LIKE 'real%%';

INSERT INTO games_seatclock (seat_id, bank_seconds, increment_earned_seconds,
    next_reminder_at, warning_at)
SELECT seat.id, 259200, 0, now() + interval '1 day', now() + interval '60 hours'
FROM games_seat AS seat WHERE seat.position = 0
    AND NOT EXISTS (SELECT 1 FROM games_seatclock c WHERE c.seat_id = seat.id);

INSERT INTO games_delivery (channel, game_id, key, recipient, kind, payload, created_at, due_at,
    claimed_at, sent_at, attempts, last_error, withdrawn_because, message_id)
SELECT 'email', game.id, s, 'filler@bench.example', 'your_turn', '{}', now(), now(), now(),
    now(), 1, '', '',
    '<' || md5(game.id || ':' || s) || '@bench.example>'
FROM games_game AS game, generate_series(1, 3) AS s WHERE game.rng_secret NOT LIKE 'real%%';
"""


def reset() -> None:
    truncate(
        "games_delivery, games_seatclock, games_seat, games_inboundmessage, "
        "games_playersettings, games_game, events_event RESTART IDENTITY CASCADE"
    )


def users(count: int):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    existing = User.objects.filter(username__startswith="filler").count()
    User.objects.bulk_create(
        User(username=f"filler{i}@bench.example", email=f"filler{i}@bench.example")
        for i in range(existing, count)
    )
    real = []
    for i in range(2):
        email = f"real{i}@bench.example"
        user, _ = User.objects.get_or_create(username=email, defaults={"email": email})
        real.append(user)
    return real


def due_games(players, count: int, now):
    """``count`` real games made through the services, then made due: a reminder in each,
    a deadline warning in a third of them and a passed deadline in a tenth."""
    from games.models import Game, SeatClock
    from games.services.tables import game_create, game_join

    made = []
    for index in range(count):
        game = game_create(
            creator=players[0],
            game="azul",
            players=2,
            time_control={"kind": "per_move", "days": 3},
        )
        game_join(game=game, user=players[1])
        Game.objects.filter(pk=game.pk).update(rng_secret=f"real{index}")
        made.append(game.pk)
    clocks = SeatClock.objects.filter(seat__game_id__in=made, seat__position__isnull=False)
    clocks.filter(next_reminder_at__isnull=False).update(
        next_reminder_at=now - timedelta(minutes=1)
    )
    third = made[: max(1, count // 3)]
    clocks.filter(seat__game_id__in=third, warning_at__isnull=False).update(
        warning_at=now - timedelta(minutes=1)
    )
    tenth = made[: max(1, count // 10)]
    Game.objects.filter(pk__in=tenth).update(deadline=now - timedelta(minutes=1))
    return made


def plans(now) -> list[str]:
    from django.db import connection
    from django.db.models import Q

    from games.models import Game, Outbox, SeatClock

    queries = {
        "timeouts": Game.objects.filter(
            status=Game.Status.ACTIVE, deadline__lte=now, paused_at__isnull=True
        ).order_by("deadline")[:500],
        "warnings": SeatClock.objects.filter(warning_at__lte=now)[:500],
        "reminders": SeatClock.objects.filter(next_reminder_at__lte=now)[:500],
        "outbox": Outbox.objects.filter(
            Q(claimed_at__isnull=True),
            sent_at__isnull=True,
            cancelled_at__isnull=True,
            due_at__lte=now,
        ).order_by("due_at")[:500],
    }
    lines = []
    with connection.cursor() as cursor:
        for name, queryset in queries.items():
            sql, params = queryset.values("pk").query.sql_with_params()
            cursor.execute("EXPLAIN " + sql, params)
            first = [row[0] for row in cursor.fetchall() if "Scan" in row[0]]
            lines.append(f"  {name:9} {first[0].strip() if first else '?'}")
    return lines


def timed_sweep(now) -> tuple[float, dict]:
    from django.db import connection

    from games.services.sweep import sweep

    connection.force_debug_cursor = True
    connection.queries_log.clear()
    started = time.perf_counter()
    counts = sweep(now=now)
    elapsed = time.perf_counter() - started
    if os.environ.get("BENCH_SLOW_QUERIES"):
        slow = sorted(connection.queries, key=lambda q: -float(q["time"]))[:5]
        for query in slow:
            print("   ", query["time"], query["sql"][:300])
        print("    queries:", len(connection.queries))
    connection.force_debug_cursor = False
    return elapsed, counts


def run(size: int, due: int) -> None:
    from django.db import connection
    from django.utils import timezone

    reset()
    real = users(1000)
    now = timezone.now()
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for statement in FILL.split(";\n"):
            if statement.strip():
                cursor.execute(statement, {"games": size, "creator": real[0].pk})
    filled = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    idle, _ = timed_sweep(now)
    rounds = []
    for _ in range(3):
        due_games(real, due, timezone.now())
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        now = timezone.now() + timedelta(minutes=1)
        busy, counts = timed_sweep(now)
        again, _ = timed_sweep(now + timedelta(seconds=1))
        rounds.append((busy, again, counts))
    busy, again, counts = sorted(rounds, key=lambda r: r[0])[1]
    print(
        f"{size:>7} games (+{due} due, filled in {filled:.1f}s): "
        f"sweep with nothing due {idle * 1000:6.1f} ms; with the due ones (median of 3) "
        f"{busy * 1000:6.1f} ms {counts}; the next pass {again * 1000:5.1f} ms"
    )
    for line in plans(now):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--due", type=int, default=20)
    args = parser.parse_args()
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    for size in args.sizes:
        run(size, args.due)


if __name__ == "__main__":
    main()
