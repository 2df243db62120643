"""The site after a year of a community: the hot paths at 1,000 to 100,000 games.

Builds a site of each ``--games`` size in its own database (``--database-url``, default
``azulsite_population``; made, and dropped first unless ``--reuse``), growing the same
site from the smallest size to the largest, and measures each size in one run:

- the build: 27 template games played through the services (Azul, Summer Pavilion and
  Miyabi, 2, 3 and 4 players; two played to their end, one stopped halfway: a third in
  play), a 200-player Swiss with two rounds played (``bench/tournaments.py``), then the
  templates cloned in SQL, rows of the store's own format: every event, seat, clock, table
  snapshot, result, rating change, delivery row (email or push) of a template copied with new ids,
  its seats given players of a pool of a tenth as many people as games (each with a rating
  in each game), its times shifted a minute a clone; a tournament in registration cloned
  one per 50 games. A sample of the clones is exported and replayed by ``verify_game``.
- in process through the site's WSGI application (``bench/move_cpu.py``'s ``Site``): a
  move (p50, p95) and the legal-moves poll, in games in play never read before by the
  process; through Django's test client, signed in: a game page, the lobby, home, the
  leaderboard, an archive search, a profile, the tournament list and the 200-player
  tournament's page (the lobby, the search and the profile of the pool's most typical
  player: ``typical_player``);
- the minute sweep (``games.services.sweep``) with nothing due and with 1% of the games
  in play past their deadline (a third of them with a computer to play the turn of a
  player out of time), then the games it handed to the workers run as one
  worker runs them (the broker's other tasks dropped), and the games still overdue; the
  retention job's pass half a year on (the sent rows it deletes);
  ``game_reproject`` of one game and of every game (timed on up to ``--rebuild-sample``
  games, the rest extrapolated) and ``ratings_rebuild`` (up to ``--ratings-up-to``
  games); a game's export;
- the event store at this size: an append, a stream's read, a cold replay (the whole
  stream folded, no snapshot, no cache);
- the database's size per game, the events table's and its indexes';
- the ``EXPLAIN`` of every query of the above, any sequential scan of events, games,
  seats or deliveries named.

Prints one table: each figure at each size and the largest size's over the smallest's.

Each size but the largest is then kept as it stands, in a database of its own
(``<name>_<size>``), and once the largest is measured the moves, pages and store figures
are measured again at every size in turns (``--turns`` rounds, the sizes alternating): two
sizes' own measurements lie half an hour apart, and a two-core machine shared with other
work drifts more than that between them (10-25% in a p50). The second table, in turns, is
the one that compares the sizes.

    nice -n 10 .venv/bin/python bench/population.py --games 1000 10000 100000
"""

import argparse
import io
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/azulsite_population"
KINDS = ("azul", "summer-pavilion", "miyabi")
FINISHED_PER_KIND, IN_PLAY_PER_KIND = 2, 1
# Clones' ids start here, apart from the ids the site's own sequences hand out (the
# templates, the tournament's games, whatever the measured requests create).
CLONE_BASE = 100_000_000
# Pool users' ids: CLONE_BASE + n, named pop-<n>.
# Events appended once the clones are made are numbered from here on.
APPENDED_BASE = 10**12
CLONES_PER_STATEMENT = 40
GAMES_PER_TOURNAMENT = 50
WATCHED = (
    "games_game",
    "games_seat",
    "events_event",
    "games_delivery",
    "auth_user",
)
# Correspondence games have a clock: every game in play has a deadline for the sweep.
TIME_CONTROL = {"kind": "per_move", "days": 3}
SEQ_SCAN = re.compile(r"Seq Scan on (\w+)")
HANDED_OUT = "games.tasks.games_handed_out"
SEND = "games.tasks.send_delivery"
# The event store's figures (medians), apart from the requests' (p50 and p95).
STORE_FIGURES = ("append", "stream read, ~100 events", "cold replay")


def setup(url: str, *, reuse: bool) -> None:
    """The bench's database made (dropped first unless ``reuse``) and migrated."""
    import psycopg

    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "azulsite.settings",
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "CELERY_BROKER_URL": "filesystem://",
            "LOG_LEVEL": "ERROR",
            "API_USER_RATE": "1000000/min",
        }
    )
    os.environ.setdefault("AZULSITE_VAR_DIR", str(ROOT / "var" / "bench-population"))
    name = url.rsplit("/", 1)[1]
    if not reuse:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    from bench.store import migrated

    migrated()
    # Loaded as a web process loads it (what it holds at start kept out of full collections).
    import azulsite.wsgi  # noqa: F401


def sql(statement: str, params=None) -> list:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def load() -> str:
    from bench.store import load as load_average

    return load_average()


# --- the build --------------------------------------------------------------------------------


def played(kind: str, users: list, chooser: random.Random, *, finish: bool):
    """A game of ``kind`` between ``users``, random legal moves through the services, to its
    end or (not ``finish``) to about half of a game's events."""
    from games import repository
    from games.models import Game
    from games.selectors.moves import legal_moves_of
    from games.services.moves import move_submit
    from games.services.tables import game_create, game_join

    game = game_create(creator=users[0], game=kind, players=len(users), time_control=TIME_CONTROL)
    for user in users[1:]:
        game_join(game=game, user=user)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE and (finish or game.last_seq < 50):
        seat = {s.position: s.user for s in game.seats.all()}[game.to_move]
        move = chooser.choice(legal_moves_of(repository.game_table(game)))["move"]
        move_submit(game=game, user=seat, move=move)
        game.refresh_from_db()
    return game


def templates() -> list[int]:
    """The template games (made once per database): their ids."""
    from django.contrib.auth import get_user_model

    from games.models import Game, PushSubscription

    made = list(
        Game.objects.filter(created_by__username="tmpl-0@bench.example").values_list(
            "pk", flat=True
        )
    )
    if made:
        return made
    users = []
    for n in range(4):
        email = f"tmpl-{n}@bench.example"
        user = get_user_model().objects.create(username=email, email=email, first_name=f"T{n}")
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example/{n}", p256dh="p", auth="a"
        )
        users.append(user)
    chooser = random.Random(7)
    for kind in KINDS:
        for players in (2, 3, 4):
            for n in range(FINISHED_PER_KIND + IN_PLAY_PER_KIND):
                made.append(played(kind, users[:players], chooser, finish=n < FINISHED_PER_KIND).pk)
    return made


def tournaments() -> tuple[int, int]:
    """The 200-player tournament (``bench/tournaments.py``) and a small one in registration
    (the template of the tournament list's clones): their ids, made once per database."""
    from django.contrib.auth import get_user_model

    from bench.tournaments import PAGE_PLAYERS, _played_tournament
    from games.models import Game, Tournament
    from games.services.tournaments.entry import tournament_create, tournament_join

    big = Tournament.objects.filter(players=PAGE_PLAYERS).first()
    if big is None:
        big = _played_tournament(get_user_model(), Game)
    small = Tournament.objects.filter(name="Bench registration").first()
    if small is None:
        people = list(get_user_model().objects.filter(username__startswith="tmpl-"))
        small = tournament_create(
            organiser=people[0],
            name="Bench registration",
            format="swiss",
            game="azul",
            per_game=2,
            rounds=3,
            rated=False,
            max_players=16,
        )
        for person in people:
            tournament_join(tournament=small, user=person)
    return big.pk, small.pk


def prepared(template_ids: list[int]) -> None:
    """The tables the clones' statements read: the templates' seats, and the remapping of a
    template's player to a pool player."""
    # A year-old site has sent the emails and pushes of its old games.
    sql("UPDATE games_delivery SET sent_at = created_at WHERE sent_at IS NULL")
    sql("CREATE TABLE IF NOT EXISTS pop_seat (game_id bigint, user_id bigint, position int)")
    sql("CREATE TABLE IF NOT EXISTS pop_meta (key text PRIMARY KEY, value bigint)")
    if not sql("SELECT 1 FROM pop_seat LIMIT 1"):
        sql(
            "INSERT INTO pop_seat SELECT game_id, user_id, position FROM games_seat"
            " WHERE game_id = ANY(%s)",
            [template_ids],
        )
    # A template's k-th clone seats pool player ((k * 4 + position) * 7919) mod pool: the
    # seats of one game get different players (7919 is prime, the pool no multiple of it).
    sql(
        "CREATE OR REPLACE FUNCTION pop_user(tgame bigint, tuser bigint, k bigint, pool bigint)"
        " RETURNS bigint LANGUAGE sql STABLE AS $$ SELECT COALESCE((SELECT"
        f" {CLONE_BASE} + ((k * 4 + position) * 7919) % pool FROM pop_seat"
        " WHERE game_id = tgame AND user_id = tuser), tuser) $$"
    )


def pool_made(people: int) -> None:
    """Pool players 0 … ``people`` - 1 (ids ``CLONE_BASE`` + n), each rated in every game."""
    sql(
        "INSERT INTO auth_user (id, password, is_superuser, username, first_name, last_name,"
        " email, is_staff, is_active, date_joined) SELECT %s + n, '!', false,"
        " 'pop-' || n || '@bench.example', 'Pop ' || n, '', 'pop-' || n || '@bench.example',"
        " false, true, now() FROM generate_series(0, %s - 1) n ON CONFLICT DO NOTHING",
        [CLONE_BASE, people],
    )
    sql(
        "INSERT INTO games_rating (user_id, game_type, mu, sigma, display, games,"
        " last_played_at) SELECT u.id, g, 25, 3, 1000 + (u.id * 7 + length(g)) %% 900,"
        " 10 + u.id %% 40, now() FROM auth_user u, unnest(%s::text[]) g WHERE u.id >= %s"
        " ON CONFLICT DO NOTHING",
        [list(KINDS), CLONE_BASE],
    )


def clone_plan(stride: dict[str, int]) -> list[tuple[str, str, dict[str, str]]]:
    """Per table: which template rows (a condition on ``s``) and the columns rewritten for
    clone ``k`` (``CLONE_BASE`` + k × the table's stride + the template's id)."""

    def new(table: str, column: str = "s.id") -> str:
        return f"{CLONE_BASE} + k * {stride[table]} + {column}"

    game = new("games_game", "s.game_id")
    shift = "- k * interval '1 minute'"

    def user(game_column: str, user_column: str) -> str:
        return f"pop_user({game_column}, {user_column}, k, %(pool)s)"

    in_templates = "s.game_id IN (SELECT id FROM pop_template)"
    sent = {
        "sent_at": f"COALESCE(s.sent_at, s.created_at) {shift}",
        "claimed_at": f"COALESCE(s.claimed_at, s.created_at) {shift}",
        "created_at": f"s.created_at {shift}",
        "due_at": f"s.due_at {shift}",
    }
    return [
        (
            "games_game",
            "s.id IN (SELECT id FROM pop_template)",
            {
                "id": new("games_game"),
                "created_by_id": user("s.id", "s.created_by_id"),
                "created_at": f"s.created_at {shift}",
                "started_at": f"s.started_at {shift}",
                "finished_at": f"s.finished_at {shift}",
                "last_move_at": f"s.last_move_at {shift}",
                "deadline": "s.deadline + k * interval '1 second'",
            },
        ),
        (
            "games_seat",
            in_templates,
            {"id": new("games_seat"), "game_id": game, "user_id": user("s.game_id", "s.user_id")},
        ),
        (
            "games_seatclock",
            "s.seat_id IN (SELECT id FROM games_seat WHERE game_id IN"
            " (SELECT id FROM pop_template))",
            {"id": new("games_seatclock"), "seat_id": new("games_seat", "s.seat_id")},
        ),
        ("games_tablesnapshot", in_templates, {"id": new("games_tablesnapshot"), "game_id": game}),
        (
            "games_gameresult",
            in_templates,
            {"game_id": game, "ended_at": f"s.ended_at {shift}"},
        ),
        (
            "games_resultseat",
            "s.result_id IN (SELECT id FROM pop_template)",
            {
                "id": new("games_resultseat"),
                "result_id": new("games_game", "s.result_id"),
                "user_id": user("s.result_id", "s.user_id"),
                "actor": "'user:' || " + user("s.result_id", "s.user_id"),
                "ended_at": f"s.ended_at {shift}",
            },
        ),
        (
            "games_ratingchange",
            "s.result_id IN (SELECT id FROM pop_template)",
            {
                "id": new("games_ratingchange"),
                "result_id": new("games_game", "s.result_id"),
                "user_id": user("s.result_id", "s.user_id"),
                "ended_at": f"s.ended_at {shift}",
            },
        ),
        (
            "games_delivery",
            in_templates,
            {
                "id": new("games_delivery"),
                "game_id": game,
                "user_id": user("s.game_id", "s.user_id"),
                # An email goes to the pool player's address; a push to the template's
                # device, and names no address.
                "recipient": "CASE WHEN s.recipient = '' THEN '' ELSE 'pop-' || ("
                + user("s.game_id", "s.user_id")
                + f" - {CLONE_BASE}) || '@bench.example' END",
                "message_id": "s.message_id || '.' || k",
                **sent,
            },
        ),
        (
            "games_plan",
            in_templates,
            {"id": new("games_plan"), "game_id": game, "user_id": user("s.game_id", "s.user_id")},
        ),
    ]


def quoted(names: list[str]) -> str:
    """Column names for a statement (one of them is ``table``)."""
    return ", ".join(f'"{name}"' for name in names)


def columns(table: str) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        return [c.name for c in connection.introspection.get_table_description(cursor, table)]


def grown(games: int, template_ids: list[int], tournament_template: int) -> float:
    """Clones of the templates (and of the small tournament) added until the site holds
    ``games`` games; the seconds it took."""
    from django.db import transaction

    started = time.perf_counter()
    sql("CREATE TABLE IF NOT EXISTS pop_template (id bigint PRIMARY KEY)")
    sql(
        "INSERT INTO pop_template SELECT unnest(%s::bigint[]) ON CONFLICT DO NOTHING",
        [template_ids],
    )
    stride = strides()
    plans = clone_plan(stride)
    done = sql("SELECT value FROM pop_meta WHERE key = 'clones'")
    done = done[0][0] if done else 0
    existing = sql("SELECT count(*) FROM games_game")[0][0]
    wanted = max(0, -(-(games - existing) // len(template_ids)))
    # A player sits at about thirty clones at every size (three seats a game): the pool is
    # a tenth of the clones (the templates and the tournament's games, 227, are not theirs).
    pool = max(1, (done + wanted) * len(template_ids) // 10)
    pool_made(pool)
    event_columns = columns("events_event")
    for first in range(done + 1, done + wanted + 1, CLONES_PER_STATEMENT):
        last = min(first + CLONES_PER_STATEMENT - 1, done + wanted)
        with transaction.atomic():
            for table, where, rewritten in plans:
                if table in stride:
                    # The templates' rows as they were when the strides were taken (a
                    # measurement may have rewritten a template's snapshot since).
                    where += f" AND s.id < {stride[table]}"
                names = columns(table)
                values = ", ".join(rewritten.get(name, f's."{name}"') for name in names)
                sql(
                    f"INSERT INTO {table} ({quoted(names)}) SELECT {values} FROM {table} s,"
                    f" generate_series(%(first)s::bigint, %(last)s::bigint) k WHERE {where}",
                    {"first": first, "last": last, "pool": pool},
                )
            sql(events_clone(event_columns, stride), {"first": first, "last": last, "pool": pool})
            sql(
                "INSERT INTO pop_meta VALUES ('clones', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [last],
            )
    tournaments_cloned(games // GAMES_PER_TOURNAMENT, tournament_template)
    # Events appended from now on are numbered after the clones', as a site's are numbered
    # in the order they are written (the games to watch read the newest by number), and
    # apart from the numbers the clones of a larger size will take.
    sql(
        "SELECT setval(pg_get_serial_sequence('events_event', 'id'), GREATEST(max(id), %s))"
        " FROM events_event",
        [APPENDED_BASE],
    )
    sql("ANALYZE")
    return time.perf_counter() - started


def strides() -> dict[str, int]:
    """Each cloned table's stride: its largest id when the templates were made (kept)."""
    kept = dict(sql("SELECT key, value FROM pop_meta"))
    tables = {
        "games_game": "id",
        "games_seat": "id",
        "games_seatclock": "id",
        "games_tablesnapshot": "id",
        "games_resultseat": "id",
        "games_ratingchange": "id",
        "games_delivery": "id",
        "games_plan": "id",
        "events_event": "id",
    }
    for table, column in tables.items():
        if table not in kept:
            largest = sql(f"SELECT COALESCE(max({column}), 0) + 1 FROM {table}")[0][0]
            sql("INSERT INTO pop_meta VALUES (%s, %s)", [table, largest])
            kept[table] = largest
    return kept


def events_clone(names: list[str], stride: dict[str, int]) -> str:
    """The statement copying the template games' events to clones ``first`` … ``last``:
    each template event under its clone's stream, its player's actor remapped."""
    game = f"{CLONE_BASE} + k * {stride['games_game']} + t.id"
    rewritten = {
        "id": f"{CLONE_BASE} + k * {stride['events_event']} + s.id",
        "stream": f"'game-' || ({game})",
        "actor": "CASE WHEN p.user_id IS NULL THEN s.actor ELSE 'user:' ||"
        f" ({CLONE_BASE} + ((k * 4 + p.position) * 7919) %% %(pool)s) END",
        "recorded_at": "s.recorded_at - k * interval '1 minute'",
        # The start names its players (``table.Started``): the clone's, as its seats do, so
        # that a result rebuilt from the events names the same people as the one cloned.
        "data": "CASE WHEN s.type = 'table.Started' THEN jsonb_set(s.data, '{players}',"
        " (SELECT jsonb_agg(CASE WHEN x LIKE 'user:%%' THEN to_jsonb('user:' ||"
        " pop_user(t.id, substr(x, 6)::bigint, k, %(pool)s)) ELSE to_jsonb(x) END"
        " ORDER BY i) FROM jsonb_array_elements_text(s.data -> 'players')"
        " WITH ORDINALITY AS e(x, i))) ELSE s.data END",
    }
    values = ", ".join(rewritten.get(name, f"s.{name}") for name in names)
    return (
        f"INSERT INTO events_event ({', '.join(names)}) SELECT {values} FROM pop_template t"
        " JOIN events_event s ON s.stream = 'game-' || t.id"
        " LEFT JOIN pop_seat p ON p.game_id = t.id AND s.actor = 'user:' || p.user_id"
        " CROSS JOIN generate_series(%(first)s::bigint, %(last)s::bigint) k"
        f" WHERE s.id < {stride['events_event']}"
    )


def tournaments_cloned(wanted: int, template: int) -> None:
    """Copies of the tournament in registration (its row and its stream) up to ``wanted``,
    created an hour apart."""
    from django.db import transaction

    have = sql("SELECT count(*) FROM games_tournament WHERE name = 'Bench registration'")[0][0]
    if have >= wanted:
        return
    names = [n for n in columns("games_tournament") if n != "id"]
    values = ", ".join(
        "s.created_at - n * interval '1 hour'" if n == "created_at" else f"s.{n}" for n in names
    )
    event_names = [n for n in columns("events_event") if n != "id"]
    event_values = ", ".join(
        "'tournament:' || c.id" if n == "stream" else f"s.{n}" for n in event_names
    )
    with transaction.atomic():
        made = sql(
            f"INSERT INTO games_tournament ({', '.join(names)}) SELECT {values}"
            " FROM games_tournament s, generate_series(1, %s) n WHERE s.id = %s RETURNING id",
            [wanted - have, template],
        )
        sql(
            f"INSERT INTO events_event ({', '.join(event_names)}) SELECT {event_values}"
            " FROM events_event s, unnest(%s::bigint[]) c(id) WHERE s.stream = %s",
            [[row[0] for row in made], f"tournament:{template}"],
        )


def verified(sample: int) -> str:
    """``sample`` clones (finished and in play) exported and replayed by ``verify_game``."""
    from django.core.management import call_command

    from games.models import Game
    from games.selectors.history import export_record

    games = Game.objects.filter(pk__gte=CLONE_BASE).order_by("?")[:sample]
    ok = 0
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            path = Path(folder) / f"{game.pk}.jsonl"
            path.write_text("\n".join(json.dumps(line) for line in export_record(game)))
            call_command("verify_game", str(path), stdout=io.StringIO())
            ok += 1
    return f"{ok}/{sample} OK"


class Explained:
    """The SQL of the measured requests, each statement's plan read once: sequential scans
    of the watched tables, by what ran them."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.scans: dict[str, set[str]] = {}
        self.plans = 0

    def __call__(self, name: str, request, *arguments, **keywords):
        """``request(*arguments, **keywords)`` with its statements captured and explained."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            answer = request(*arguments, **keywords)
        for query in captured.captured_queries:
            statement = query["sql"]
            if not re.match(r"\s*(SELECT|UPDATE|DELETE|WITH)", statement, re.I):
                continue
            shape = re.sub(r"\b\d+\b|'[^']*'", "?", statement)
            if shape in self.seen:
                continue
            self.seen.add(shape)
            self.plans += 1
            plan = "\n".join(row[0] for row in sql("EXPLAIN " + statement))
            for table in SEQ_SCAN.findall(plan):
                if table in WATCHED:
                    where = statement[statement.find(" FROM ") :][:220]
                    self.scans.setdefault(name, set()).add(f"{table}:{where}")
        return answer


def percentiles(values: list[float]) -> tuple[float, float]:
    """p50 and p95 in ms."""
    ordered = sorted(values)
    return (
        statistics.median(ordered) * 1000,
        ordered[min(len(ordered) - 1, round(len(ordered) * 0.95))] * 1000,
    )


def timed(request, *arguments, times: int) -> list[float]:
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        request(*arguments)
        seconds.append(time.perf_counter() - started)
    return seconds


def moves(explained: Explained, count: int) -> dict[str, list[float]]:
    """Moves and polls through the WSGI application in ``count`` clones in play, each
    game read first by this request (a process that has not seen it): their seconds."""
    from rest_framework.authtoken.models import Token

    from bench import floor_wsgi
    from bench.move_cpu import Site
    from games.models import Game

    site = Site(floor_wsgi.application)
    games = list(
        Game.objects.filter(pk__gte=CLONE_BASE, status=Game.Status.ACTIVE).order_by("?")[:count]
    )
    polls, posts = [], []
    for game in games:
        user = game.seats.get(position=game.to_move).user
        token = Token.objects.get_or_create(user=user)[0].key
        path = f"/api/games/{game.pk}/"
        started = time.perf_counter()
        status, offered = explained("poll", site.call, "GET", path + "legal-moves/", token)
        polls.append(time.perf_counter() - started)
        assert status == 200, offered
        if not offered["moves"]:
            continue
        body = {"move": offered["moves"][0]["move"], "expected_seq": offered["last_seq"]}
        started = time.perf_counter()
        status, answer = explained(
            "move", site.call, "POST", path + "moves/", token, body, uuid.uuid4().hex
        )
        posts.append(time.perf_counter() - started)
        assert status == 201, answer
    return {"move": posts, "poll (legal moves)": polls}


def typical_player():
    """The pool player whose games in play and games over are nearest the pool's medians
    (the lowest id of those): the lobby and the profile read at every size for a player
    like the others, whose lists are as long at every size."""
    from django.contrib.auth import get_user_model

    counts = sql(
        "SELECT s.user_id, count(*) FILTER (WHERE g.status = 'active'),"
        " count(*) FILTER (WHERE g.status <> 'active') FROM games_seat s"
        " JOIN games_game g ON g.id = s.game_id WHERE s.user_id >= %s GROUP BY s.user_id",
        [CLONE_BASE],
    )
    playing = statistics.median_low(row[1] for row in counts)
    over = statistics.median_low(row[2] for row in counts)
    chosen = min(counts, key=lambda row: (abs(row[1] - playing) + abs(row[2] - over), row[0]))
    return get_user_model().objects.get(pk=chosen[0])


def pages(explained: Explained, tournament: int, times: int) -> dict[str, list[float]]:
    """Each page asked ``times`` times (after one asking, explained, not timed): the game
    page of games in play signed in as their first player, the others signed in as the
    ``typical_player``: their seconds."""
    from django.test import Client

    from games.models import Game

    in_play = list(
        Game.objects.filter(pk__gte=CLONE_BASE, status=Game.Status.ACTIVE).order_by("?")[:times]
    )
    viewer = typical_player()
    client = Client()
    client.force_login(viewer)
    playing = Client()

    def get(path: str, asking=client) -> None:
        response = asking.get(path)
        assert response.status_code == 200, (path, response.status_code)

    def game_page() -> None:
        game = in_play.pop()
        playing.force_login(game.seats.get(position=0).user)
        get(f"/games/{game.pk}/", playing)

    asked = {
        "lobby": ("/lobby/",),
        # Home sends a signed-in player to their lobby: a visitor's.
        "home": ("/", Client()),
        "leaderboard": ("/leaderboard/azul/",),
        # By the name the pages show (the pool's first names: "Pop 76").
        "archive search": (f"/archive/?player={viewer.first_name}&game=azul",),
        "profile": (f"/players/{viewer.pk}/",),
        "tournament list": ("/tournaments/",),
        "tournament, 200 players": (f"/tournaments/{tournament}/",),
    }
    figures = {"game page": timed(game_page, times=times - 1)}
    in_play.append(in_play[0])
    explained("game page", game_page)
    for name, arguments in asked.items():
        explained(name, get, *arguments)
        figures[name] = timed(get, *arguments, times=times)
    return figures


def swept(explained: Explained) -> dict[str, float]:
    """The minute sweep with nothing due, then with 1% of the games past their deadline
    (the clones in play first, at random), pass after pass with the workers' part between
    them until none is left, and the retention job's pass half a year on: seconds, and
    how many were due, handed out and left."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game
    from games.services.retention import forget_expired
    from games.services.sweep import sweep

    now = timezone.now()
    # The clones' deadlines lie in the days after they were made: a sweep then, all due
    # things done, finds nothing due; the 1% are put a minute before it.
    later = now + timezone.timedelta(minutes=1)
    Game.objects.filter(deadline__lt=later).update(deadline=later + timezone.timedelta(days=3))
    # What is due (the emails of the measured moves, the tournament's) done, the workers'
    # part with it.
    for _ in range(3):
        sweep(now=later)
        worker_ran()
    started = time.perf_counter()
    explained("sweep, none due", sweep, now=later)
    idle = time.perf_counter() - started
    due = Game.objects.count() // 100
    chosen = list(
        Game.objects.filter(pk__gte=CLONE_BASE, status=Game.Status.ACTIVE)
        .order_by("?")
        .values_list("pk", flat=True)[:due]
    )
    Game.objects.filter(pk__in=chosen).update(deadline=later - timezone.timedelta(seconds=30))
    # A third of them have a computer play the turn of a player out of time.
    Game.objects.filter(pk__in=chosen[::3]).update(
        timeout_policy=Game.TimeoutPolicy.BOT, timeout_bot="easy"
    )
    overdue = Game.objects.filter(pk__in=chosen, status=Game.Status.ACTIVE, deadline__lte=later)
    # A pass a minute takes at most MAIL_SWEEP_BATCH games due, and the workers the games
    # it hands them, until none is left.
    passes, handed, sent, worked = [], 0, 0, 0.0
    while overdue.exists() and len(passes) < 10:
        started = time.perf_counter()
        explained("sweep, 1% due", sweep, now=later)
        passes.append(time.perf_counter() - started)
        games, deliveries, seconds = worker_ran()
        handed, sent, worked = handed + games, sent + deliveries, worked + seconds
    # Half a year on, the retention job's pass (the sent rows it deletes at most in one),
    # rolled back: the templates' rows are cloned again for a larger size.
    with transaction.atomic():
        started = time.perf_counter()
        forgotten = explained("retention", forget_expired, now=later + timezone.timedelta(days=200))
        retained = time.perf_counter() - started
        transaction.set_rollback(True)
    return {
        "sweep, none due (s)": idle,
        "sweep, 1% due, longest pass (s)": max(passes),
        "due": len(chosen),
        "passes": len(passes),
        "games handed to workers": handed,
        "deliveries handed to workers": sent,
        "their time in one worker (s)": worked,
        "overdue after": overdue.count(),
        "retention pass, 200 days on (s)": retained,
        "sent rows deleted in it": forgotten["emails_deleted"] + forgotten["pushes_deleted"],
    }


def worker_ran() -> tuple[int, int, float]:
    """A worker's part: the broker emptied, the games and the deliveries the sweep handed
    out run in this process (the other tasks, those of the measured moves, dropped): how
    many games and deliveries, and the seconds they took."""
    from kombu.simple import SimpleQueue

    import games.tasks  # noqa: F401  (registers the site's tasks, as a worker does)
    from azulsite.celery import app

    games = deliveries = 0
    seconds = 0.0
    with app.connection_for_read() as connection:
        queue = SimpleQueue(connection, "celery", no_ack=True)
        while True:
            try:
                message = queue.get(block=False)
            except queue.Empty:
                break
            task = message.headers["task"]
            if task not in (HANDED_OUT, SEND):
                continue
            args, _kwargs, _embed = message.decode()
            started = time.perf_counter()
            app.tasks[task](*args)
            seconds += time.perf_counter() - started
            if task == HANDED_OUT:
                games += len(args[1])
            else:
                deliveries += 1
        queue.close()
    return games, deliveries, seconds


def rebuilt(
    explained: Explained, sample: int, tournament: int, ratings_up_to: int
) -> dict[str, float | str]:
    """``game_reproject`` of one game (the median of ``sample``) and of every game (the
    sample's mean times the games), ``ratings_rebuild`` (up to ``ratings_up_to`` games:
    it replays every result, minutes at 100,000), ``tournament_reproject`` of the
    200-player tournament, and one export."""
    from django.db import transaction

    from games.models import Game, Tournament
    from games.selectors.history import export_record
    from games.services.ratings import ratings_rebuild
    from games.services.tables import game_reproject
    from games.services.tournaments.stream import tournament_reproject

    big = Tournament.objects.get(pk=tournament)
    games = Game.objects.exclude(status__in=[Game.Status.OPEN, Game.Status.CANCELLED])
    total = games.count()
    chosen = list(games.filter(pk__gte=CLONE_BASE).order_by("?")[:sample])
    explained("rebuild one", game_reproject, game=chosen[0])
    each = [timed(lambda game=game: game_reproject(game=game), times=1)[0] for game in chosen]
    ratings: float | str = "not run"
    if total <= ratings_up_to:
        # Rolled back: the ratings replayed from the clones' results are not those of a
        # year's ladder (a larger size's leaderboard would list other players).
        with transaction.atomic():
            started = time.perf_counter()
            explained("ratings rebuild", ratings_rebuild)
            ratings = time.perf_counter() - started
            transaction.set_rollback(True)
    finished = Game.objects.filter(pk__gte=CLONE_BASE, status=Game.Status.FINISHED).first()
    export = timed(lambda: list(explained("export", export_record, finished)), times=5)
    return {
        "rebuild one game (ms)": statistics.median(each) * 1000,
        "rebuild all games (s)": statistics.mean(each) * total,
        "rebuild a 200-player tournament (ms)": statistics.median(
            timed(
                lambda: explained("rebuild tournament", tournament_reproject, tournament=big),
                times=3,
            )
        )
        * 1000,
        "ratings rebuild (s)": ratings,
        "export a game (ms)": statistics.median(export) * 1000,
    }


def store_figures(explained: Explained, times: int) -> dict[str, list[float]]:
    """The event store at this size, seconds: an append (one event, its own transaction, to a
    clone's stream of about 100 events, as a move appends), a stream's read and a cold
    replay (the whole stream folded from no snapshot and no cache)."""
    from django.db import transaction

    from events import store
    from games import repository
    from games import table as tbl
    from games.models import Game

    games = list(Game.objects.filter(pk__gte=CLONE_BASE, last_seq__gte=80).order_by("?")[:times])
    appends, reads, replays = [], [], []
    for game in games:
        stream = f"bench-append-{uuid.uuid4().hex}"
        started = time.perf_counter()
        with transaction.atomic():
            explained(
                "append",
                store.append,
                stream,
                0,
                [store.NewEvent("Benched", {"n": 1})],
                actor="bench",
            )
        appends.append(time.perf_counter() - started)
        started = time.perf_counter()
        explained("stream read", store.load, game.stream)
        reads.append(time.perf_counter() - started)
        started = time.perf_counter()
        tbl.fold(repository.empty_table(game), repository.records(game))
        replays.append(time.perf_counter() - started)
    return {"append": appends, "stream read, ~100 events": reads, "cold replay": replays}


def sizes() -> dict[str, float]:
    """The database per game (KiB), the events table and its indexes (MiB), the counts."""
    games, events, outbox, pushes, tournaments = sql(
        "SELECT (SELECT count(*) FROM games_game), (SELECT count(*) FROM events_event),"
        " (SELECT count(*) FROM games_delivery WHERE channel = 'email'),"
        " (SELECT count(*) FROM games_delivery WHERE channel = 'push'),"
        " (SELECT count(*) FROM games_tournament)"
    )[0]
    database, table, indexes = sql(
        "SELECT pg_database_size(current_database()), pg_table_size('events_event'),"
        " pg_indexes_size('events_event')"
    )[0]
    return {
        "games": games,
        "events": events,
        "outbox rows": outbox,
        "push rows": pushes,
        "tournaments": tournaments,
        "events per game": events / games,
        "database per game (KiB)": database / games / 1024,
        "events table (MiB)": table / 2**20,
        "events indexes (MiB)": indexes / 2**20,
    }


def latencies(samples: dict[str, list[float]]) -> dict[str, float]:
    """Request and store timings (seconds) as the table's figures: a request's p50 and p95,
    the store's medians, in ms."""
    figures = {}
    for name, seconds in samples.items():
        if name in STORE_FIGURES:
            figures[f"{name} (ms)"] = statistics.median(seconds) * 1000
        else:
            figures[f"{name} p50 (ms)"], figures[f"{name} p95 (ms)"] = percentiles(seconds)
    return figures


def timings(explained: Explained, args, big: int, share: int = 1) -> dict[str, list[float]]:
    """The moves, pages and store figures' samples (a ``share``-th of each count)."""
    return {
        **moves(explained, max(2, args.moves // share)),
        **pages(explained, big, max(3, args.requests // share)),
        **store_figures(explained, max(2, args.requests // share)),
    }


def measured(size: int, args, template_ids, big: int, small: int) -> dict:
    """Grow the site to ``size`` games and measure it."""
    figures: dict = {"load before": load()}
    figures["build (s)"] = grown(size, template_ids, small)
    sql("VACUUM ANALYZE")
    figures.update(sizes())
    figures["verified"] = verified(args.verify)
    explained = Explained()
    figures.update(latencies(timings(explained, args, big)))
    figures.update(rebuilt(explained, args.rebuild_sample, big, args.ratings_up_to))
    figures.update(swept(explained))
    figures["plans read"] = explained.plans
    figures["seq scans"] = explained.scans
    figures["load after"] = load()
    return figures


def kept(url: str, size: int) -> str:
    """The site as it stands copied to a database of its own (``<name>_<size>``, dropped
    first), to be measured again in turns with the larger sizes: its name."""
    import psycopg
    from django.db import connections

    connections.close_all()
    base, name = url.rsplit("/", 1)
    copy = f"{name}_{size}"
    with psycopg.connect(base + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')
    return copy


def switched(database: str) -> None:
    """This process's requests sent to ``database`` from now on, with no table kept from
    another (a clone's id names another game there)."""
    from django.db import connections

    from games import repository

    connections.close_all()
    connections["default"].settings_dict["NAME"] = database
    repository.tables_forgotten()
    sql("SELECT 1")


def in_turns(args, sites: dict[int, str], big: int) -> dict[int, dict[str, float]]:
    """The moves, pages and store figures measured again at every size in ``--turns``
    rounds, the sizes alternating (smallest first, then largest first), each round a
    ``--turns``-th of the requests: a machine whose load drifts over the hour between
    two sizes' own measurements weighs on every size alike here."""

    def unexplained(_name, request, *arguments, **keywords):
        return request(*arguments, **keywords)

    samples: dict[int, dict[str, list[float]]] = {size: {} for size in sites}
    for turn in range(args.turns):
        for size in sorted(sites, reverse=bool(turn % 2)):
            switched(sites[size])
            for name, seconds in timings(unexplained, args, big, share=args.turns).items():
                samples[size].setdefault(name, []).extend(seconds)
    return {size: latencies(samples[size]) for size in sites}


def table(results: dict[int, dict], *, scans: bool = True) -> None:
    """One line a figure, one column a size, the largest size's over the smallest's."""
    sizes_run = sorted(results)
    names = [n for n in results[sizes_run[0]] if n != "seq scans"]
    print(f"\n{'figure':40}" + "".join(f"{size:>16,}" for size in sizes_run) + f"{'ratio':>8}")
    for name in names:
        values = [results[size].get(name) for size in sizes_run]
        line = f"{name:40}" + "".join(
            f"{value:>16.2f}" if isinstance(value, float) else f"{value!s:>16}" for value in values
        )
        numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(numbers) == len(values) > 1 and numbers[0]:
            line += f"{numbers[-1] / numbers[0]:>8.2f}"
        print(line)
    for size in sizes_run if scans else ():
        found = results[size]["seq scans"]
        print(
            f"\nsequential scans of {', '.join(WATCHED)} at {size:,} games:",
            "none" if not found else "",
        )
        for name, statements in sorted(found.items()):
            for statement in sorted(statements):
                print(f"  {name}: {statement}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE)
    parser.add_argument("--reuse", action="store_true", help="keep the site a run built")
    parser.add_argument("--moves", type=int, default=60, help="moves timed at each size")
    parser.add_argument("--requests", type=int, default=30, help="requests per page")
    parser.add_argument("--verify", type=int, default=30, help="clones replayed")
    parser.add_argument("--rebuild-sample", type=int, default=300)
    parser.add_argument(
        "--ratings-up-to", type=int, default=20000, help="games up to which ratings are rebuilt"
    )
    parser.add_argument(
        "--turns", type=int, default=6, help="rounds of the sizes measured again in turns"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    setup(args.database_url, reuse=args.reuse)
    started = time.perf_counter()
    template_ids = templates()
    big, small = tournaments()
    prepared(template_ids)
    print(f"templates and tournaments in {time.perf_counter() - started:.0f} s; load {load()}")
    results: dict = {}
    sizes_asked = sorted(args.games)
    sites = {}
    for size in sizes_asked:
        results[size] = measured(size, args, template_ids, big, small)
        print(f"{size:,} games measured; load {load()}", flush=True)
        sites[size] = (
            kept(args.database_url, size)
            if size != sizes_asked[-1]
            else args.database_url.rsplit("/", 1)[1]
        )
        if args.json:
            args.json.write_text(json.dumps(results, default=sorted, indent=1))
    table(results)
    if len(sites) > 1 and args.turns:
        print(f"\nmeasured again in turns ({args.turns} rounds, the sizes alternating):")
        turns = in_turns(args, sites, big)
        table(turns, scans=False)
        if args.json:
            results["in turns"] = turns
            args.json.write_text(json.dumps(results, default=sorted, indent=1))


if __name__ == "__main__":
    main()
