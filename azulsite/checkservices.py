"""Before the tests: are PostgreSQL and Redis reachable? Says plainly which is not and how
to start it, and exits non-zero, instead of letting hundreds of tests fail one by one."""

import os
import sys

import psycopg
import redis

HOW_TO_START = {
    "PostgreSQL": (
        "start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
        "  (or: sudo systemctl start postgresql)"
    ),
    "Redis": (
        "start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ''"
        "  (or: sudo systemctl start redis-server)"
    ),
}


def problems() -> list[str]:
    database_url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres"
    redis_url = os.environ["REDIS_URL"]
    found = []
    try:
        psycopg.connect(database_url, connect_timeout=3).close()
    except psycopg.Error as error:
        found.append(("PostgreSQL", database_url, error))
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        found.append(("Redis", redis_url, error))
    return [
        f"{name} is not reachable at {url} ({str(error).strip().splitlines()[0]});\n"
        f"    {HOW_TO_START[name]}"
        for name, url, error in found
    ]


if __name__ == "__main__":
    found = problems()
    for line in found:
        print(f"make test: {line}", file=sys.stderr)
    sys.exit(1 if found else 0)
