"""Tournaments at scale (issue 31): how long pairing one round of a 1,000-player Swiss
takes (target: under 2 s), and how fast a 200-player tournament's page answers.

Pairing (the default): the pure decider, no database. 1,000 players registered with
random ratings, a Swiss of 2 players per game started, each round's games given random
results (places from random scores) and the ``decide`` of the round's last result timed:
standings, matching and seating the next round, as the services run it when a round's
last game ends. Prints each round's time and the worst.

    .venv/bin/python bench/tournaments.py [--players 1000] [--rounds 5] [--per-game 2]

The page (``--page``): its own database (``azulsite_bench_tournaments``), 200 players
joined through the services, the tournament started and two rounds played to their end
by resignations (100 real games a round; prints how long the move that ended each round
took, and the task that created the next round's games), then the tournament's page and
its API detail asked for ``--requests`` times each through Django's test client; prints
p50, p95 and the worst in ms. ``--reuse`` keeps the tournament a previous run made.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_bench_tournaments \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/tournaments.py --page [--requests 30] [--reuse]
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault(
    "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_bench_tournaments"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

from games.tournaments import core, decider  # noqa: E402
from games.tournaments.standings import competition_places  # noqa: E402

PAGE_PLAYERS = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-game", type=int, default=2)
    parser.add_argument("--page", action="store_true", help="time a 200-player page instead")
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    if args.page:
        page(args.requests, reuse=args.reuse)
    else:
        pairing(args.players, args.rounds, args.per_game)


def pairing(players: int, rounds: int, per_game: int) -> None:
    rng = random.Random(31)
    settings = core.Settings(
        format=core.SWISS,
        per_game=per_game,
        game="azul",
        rounds=rounds,
        max_players=players,
    )
    state = core.fold(
        decider.decide(core.Tournament(), decider.CreateTournament("Bench", 1, settings))
    )
    for player in range(1, players + 1):
        state = core.fold(
            decider.decide(state, decider.Register(player, rng.gauss(1500, 200))), state
        )
    timings = []
    started = time.perf_counter()
    state = core.fold(decider.decide(state, decider.Start()), state)
    timings.append(time.perf_counter() - started)
    game = 0
    while state.status == core.RUNNING:
        tables = state.round_tables()
        games = tuple(range(game + 1, game + 1 + len(tables)))
        game += len(tables)
        state = core.fold(decider.decide(state, decider.StartRound(state.round, games)), state)
        for table in tables[:-1]:
            scores = tuple(rng.randint(30, 90) for _ in table.players)
            command = decider.RecordResult(
                games[tables.index(table)], competition_places(scores), scores
            )
            state = core.fold(decider.decide(state, command), state)
        scores = tuple(rng.randint(30, 90) for _ in tables[-1].players)
        last = decider.RecordResult(games[-1], competition_places(scores), scores)
        started = time.perf_counter()
        state = core.fold(decider.decide(state, last), state)
        timings.append(time.perf_counter() - started)
    for number, seconds in enumerate(timings, start=1):
        print(f"round {number}: paired in {seconds:.2f} s")
    print(f"worst: {max(timings):.2f} s for {players} players ({per_game} a game)")


def page(requests: int, *, reuse: bool) -> None:
    from bench.store import migrated

    migrated()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games.models import Game, Tournament

    setup_test_environment()
    tournament = Tournament.objects.filter(players=PAGE_PLAYERS).order_by("-pk").first()
    if tournament is None or not reuse:
        started = time.perf_counter()
        tournament = _played_tournament(get_user_model(), Game)
        print(f"made a {PAGE_PLAYERS}-player tournament in {time.perf_counter() - started:.0f} s")
    viewer = get_user_model().objects.get(username="bench-player-2@bench.example")
    client = Client()
    client.force_login(viewer)
    for path in (f"/tournaments/{tournament.pk}/", f"/api/tournaments/{tournament.pk}/"):
        timings = []
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(path)
            timings.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (path, response.status_code)
        timings.sort()
        p95 = timings[min(len(timings) - 1, round(len(timings) * 0.95))]
        print(
            f"{path}: p50 {statistics.median(timings):.0f} ms, p95 {p95:.0f} ms, "
            f"worst {timings[-1]:.0f} ms ({requests} requests, {len(response.content)} bytes)"
        )


def _played_tournament(users, game_model):
    """A Swiss of ``PAGE_PLAYERS`` players, two rounds played by resignations (the
    lower-numbered player wins), the third in play."""
    from games.services.moves import game_resign
    from games.services.tournaments.entry import tournament_create, tournament_join
    from games.services.tournaments.organiser import tournament_start
    from games.services.tournaments.rounds import round_begin

    # The players of an earlier run play again (their old games keep them).
    people = list(users.objects.filter(username__startswith="bench-player-").order_by("pk"))
    if len(people) != PAGE_PLAYERS:
        people = users.objects.bulk_create(
            users(
                username=f"bench-player-{n}@bench.example",
                email=f"bench-player-{n}@bench.example",
                first_name=f"Player {n}",
            )
            for n in range(1, PAGE_PLAYERS + 1)
        )
    tournament = tournament_create(
        organiser=people[0],
        name="Bench open",
        format="swiss",
        game="azul",
        per_game=2,
        rounds=3,
        rated=False,
        max_players=PAGE_PLAYERS,
    )
    for person in people:
        tournament_join(tournament=tournament, user=person)
    tournament_start(tournament=tournament, user=people[0])
    # Each round's games, as the worker creates them after the pairing commits.
    round_begin(tournament.pk)
    for number in (1, 2):
        for game in game_model.objects.filter(
            tournament_table__tournament=tournament, status=game_model.Status.ACTIVE
        ):
            loser = max(game.seats.select_related("user"), key=lambda seat: seat.user_id).user
            began = time.perf_counter()
            game_resign(game=game, user=loser)
            ended = time.perf_counter() - began
        began = time.perf_counter()
        round_begin(tournament.pk)
        created = time.perf_counter() - began
        # The round's last result pairs the next round; its games come after, in the task.
        print(
            f"round {number}: the move that ended it {ended * 1000:.0f} ms; "
            f"the next round's {PAGE_PLAYERS // 2} games created by the task in {created:.1f} s"
        )
    tournament.refresh_from_db()
    return tournament


if __name__ == "__main__":
    main()
