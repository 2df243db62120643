"""Simulated communities (``tests/community/``): ``--people`` people over ``--days`` days of a
fake clock, through the site's real doors, with the minute sweep, a worker in this process
and faults, every invariant checked after every step, then the story's end (nothing new
opened, the clock on until every game and tournament has ended). A seed is a story: the
same seed plays the same steps, writes the same events and sends the same emails.

One seed prints what happened (games, moves, emails, pushes, faults, time taken), or the
failure with the steps that led to it; with ``--shrink``, a failing story is then shrunk
(fewer days, fewer people, steps made quiet) to the shortest that fails alike, and its
steps and the command that replays it are printed. ``--seeds N`` runs N seeds from
``--seed`` in ``--jobs`` processes at once, each with a database of its own
(``DATABASE_URL`` and ``_1``, ``_2`` …) and its own keys in the one Redis, and prints a
table.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_community_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/community.py --people 30 --days 7 --seeds 12 --jobs 2

The databases are emptied first: give them names of their own, never the development
database's.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_community_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# Sets and dicts of strings in the same order in every run, as make test has them.
HASH_SEED = "0"

COLUMNS = ("seed", "result", "steps", "games", "moves", "emails", "pushes", "faults", "seconds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=30)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=0, help="run this many seeds from --seed")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once with --seeds")
    parser.add_argument("--quiet", default="", help="steps in which nobody acts (1,5,9)")
    parser.add_argument("--shrink", action="store_true", help="shrink a failing story")
    parser.add_argument("--job", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--report", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if os.environ["DATABASE_URL"].rstrip("/").endswith("/azulsite"):
        sys.exit("refusing to empty the development database: set DATABASE_URL")
    if os.environ.get("PYTHONHASHSEED") != HASH_SEED:
        # Started again with the hash seed set: it is read when the interpreter starts.
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": HASH_SEED}
        )
    if args.seeds:
        _many(args)
    else:
        _one(args)


def _many(args) -> None:
    """Every seed in a process of its own, ``--jobs`` at once; a table of what each did."""
    seeds = list(range(args.seed, args.seed + args.seeds))
    running: list[tuple[int, subprocess.Popen]] = []
    free = list(range(1, args.jobs + 1))
    rows, failed = [], []
    print(" ".join(f"{name:>9}" for name in COLUMNS), flush=True)
    while seeds or running:
        while seeds and free:
            seed, job = seeds.pop(0), free.pop(0)
            command = [sys.executable, __file__, "--report", "--job", str(job), "--seed", str(seed)]
            command += ["--people", str(args.people), "--days", str(args.days)]
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
            running.append((job, process))
        time.sleep(0.5)
        for job, process in list(running):
            if process.poll() is None:
                continue
            running.remove((job, process))
            free.append(job)
            lines = process.stdout.read().splitlines()
            row = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
            row.setdefault("result", f"crashed ({process.returncode})")
            rows.append(row)
            if row["result"] != "held":
                failed.append(row)
            print(" ".join(f"{row.get(name, ''):>9}" for name in COLUMNS), flush=True)
    held = sum(row["result"] == "held" for row in rows)
    print(f"{held} of {len(rows)} stories held every invariant")
    for row in failed:
        print(f"seed {row.get('seed')}: {row.get('failure', '')}")
        print(
            f"  shrink it: bench/community.py --seed {row.get('seed')} --people "
            f"{args.people} --days {args.days} --shrink"
        )


def _one(args) -> None:
    from bench.store import ensure_database, migrated

    if args.job:
        os.environ["DATABASE_URL"] += f"_{args.job}"
    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.conf import settings

    from azulsite.celery import app

    # This process's own keys in the one Redis: its broker's queues and its cache.
    app.conf.broker_transport_options = {
        **(app.conf.broker_transport_options or {}),
        "global_keyprefix": f"community{args.job}:",
    }
    settings.CACHES["default"]["KEY_PREFIX"] = f"community{args.job}"
    from games import news

    # Channels are one namespace for the server: this process's news apart too.
    channel = news.channel
    news.channel = lambda topic: channel(topic).replace(":news:", f":community{args.job}:news:")
    migrated()
    from django.test.utils import setup_test_environment

    # The people's clients call the site as "testserver", as in the tests.
    setup_test_environment()

    from tests.community.simulation import summary
    from tests.community.story import Story, shrunk

    quiet = frozenset(int(step) for step in args.quiet.split(",") if step)
    story = Story(args.seed, args.people, args.days, quiet)
    began = time.monotonic()
    community, failure = _played(story)
    figures = json.loads(summary(community))
    if args.report:
        print(json.dumps(_row(story, figures, failure, time.monotonic() - began)))
        return
    print(summary(community))
    if failure is None:
        print(f"held: {story.command()}")
        return
    print(failure)
    if args.shrink:
        kind = _kind(failure)

        def fails(smaller) -> bool:
            _community, again = _played(smaller)
            print(f"  {smaller.command()}: {'fails' if again else 'holds'}", flush=True)
            return again is not None and _kind(again) == kind

        least = shrunk(story, fails, steps=community.figures.steps)
        community, failure = _played(least)
        print(f"\nThe shortest failing story: {least.command()}\n")
        print("\n".join(community.log))
        print(failure)
    sys.exit(1)


def _played(story):
    """Play ``story`` on an emptied database: the community, and its failure or ``None``."""
    from tests.community.simulation import Community, CommunityFailure
    from tests.community.story import empty_database

    empty_database()
    community = Community(seed=story.seed, people=story.people, days=story.days, quiet=story.quiet)
    try:
        community.run()
    except CommunityFailure as failure:
        return community, str(failure)
    return community, None


def _kind(failure: str) -> str:
    """What broke, without the numbers that name rows and times: the first failure's
    first words."""
    first = failure.split("\n\n")[1] if "\n\n" in failure else failure
    return re.sub(r"\d+", "#", first.splitlines()[0])[:80]


def _row(story, figures: dict, failure: str | None, seconds: float) -> dict:
    return {
        "seed": story.seed,
        "result": "held" if failure is None else "FAILED",
        "steps": figures["steps"],
        "games": sum(figures["games"].values()),
        "moves": figures["moves"],
        "emails": figures["emails delivered"],
        "pushes": figures["pushes sent"],
        "faults": sum(figures["faults"].values()) + sum(figures["faults in mid-step"].values()),
        "seconds": round(seconds),
        "failure": _kind(failure) if failure else "",
    }


if __name__ == "__main__":
    main()
