"""A large simulated community (``tests/community/``): ``--people`` people over ``--days``
days of a fake clock, through the site's real doors, with the minute sweep, a worker in
this process and faults; every invariant checked after every step. Prints what happened
(games, moves, emails, pushes, faults, failures, time taken), or the failure with its seed
and the steps that led to it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/azulsite_community_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/community.py --people 500 --days 28 --seed 1

The database is emptied first: give it one of its own, never the development database.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/azulsite_community_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

from bench.store import migrated, truncate  # noqa: E402 - after the environment it reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=500)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if os.environ["DATABASE_URL"].rstrip("/").endswith("/azulsite"):
        sys.exit("refusing to empty the development database: set DATABASE_URL")
    migrated()
    from django.db import connection
    from django.test.utils import setup_test_environment

    # The people's clients call the site as "testserver", as in the tests.
    setup_test_environment()

    from tests.community.simulation import Community, CommunityFailure, summary

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT string_agg(quote_ident(tablename), ', ') FROM pg_tables "
            "WHERE schemaname = 'public' AND tablename <> 'django_migrations'"
        )
        tables = cursor.fetchone()[0]
    truncate(f"{tables} RESTART IDENTITY CASCADE")
    community = Community(seed=args.seed, people=args.people, days=args.days)
    try:
        community.run()
    except CommunityFailure as failure:
        print(summary(community))
        print(failure)
        sys.exit(1)
    print(summary(community))


if __name__ == "__main__":
    main()
