"""Shared fixtures: a few named users, as in every story we tell about the site."""

import copy
import os
from unittest import mock
from urllib.parse import urlsplit
from uuid import uuid4

import pytest
from django.contrib.auth import get_user_model
from django.db.backends.postgresql.operations import DatabaseOperations
from django.utils import translation

_sql_flush = DatabaseOperations.sql_flush
REDIS_ADDRESSES = ("REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL")


def redis_database_of_worker(url: str, worker: int) -> str:
    """``url`` with its Redis database number moved on by ``worker``."""
    parts = urlsplit(url)
    first = int(parts.path.strip("/") or 0)
    return parts._replace(path=f"/{first + worker}").geturl()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Each pytest-xdist worker has a Redis database of its own, as pytest-django gives it a
    test database of its own (``_gw0``, ``_gw1``): worker N uses the database N after the one
    the environment names (``make test``'s 0 and 1). The tests that flush or drain the
    broker (real Celery workers, the simulated community) then never meet another worker's
    tasks. Set in each worker's environment before it starts, so Django's settings and every
    process a test starts read it."""
    for number, spec in enumerate(specs):
        for name in REDIS_ADDRESSES:
            if os.environ.get(name, "").startswith("redis://"):
                spec.env[name] = redis_database_of_worker(os.environ[name], number)


# Single tests of minutes (the simulated community): started first of their kind, so that
# while one pytest-xdist worker runs one the other works through the rest, rather than one
# of them finishing alone at the end.
STARTED_FIRST = ("tests/test_community.py::",)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The tests of ``STARTED_FIRST`` first. Called before pytest-django's ordering (tests
    on the database, then transactional ones, then the rest), which keeps it within each of
    those: a transactional test empties the tables, the rows of data migrations too."""
    items.sort(key=lambda item: not item.nodeid.startswith(STARTED_FIRST))


def _sql_flush_past_the_history_guard(self, style, tables, **options):
    statements = _sql_flush(self, style, tables, **options)
    # SET LOCAL: for the flush's own transaction only, and only a superuser may.
    return ["SET LOCAL session_replication_role = replica", *statements] if statements else []


@pytest.fixture(scope="session", autouse=True)
def flush_past_the_history_guard():
    """Django empties the tables after each transactional test with one TRUNCATE, which the
    event table refuses (events migration 0003). The tests' superuser turns ordinary
    triggers off for that statement; the site's roles cannot."""
    with mock.patch.object(DatabaseOperations, "sql_flush", _sql_flush_past_the_history_guard):
        yield


@pytest.fixture(autouse=True)
def english_unless_asked():
    """Every test starts in the site's default language. Django activates each request's
    language in its thread and leaves it there for the next request to replace, so a test
    client's Polish page would otherwise make the next test's services speak Polish."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests make many users; Django's real hasher is slow on purpose (0.3 s each)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def sweep_does_its_timeouts_itself(settings):
    """A test's minute sweep times out every game due before it returns, however loaded
    the machine: handing the rest to the workers past ``SWEEP_SECONDS`` is the subject of
    its own tests (tests/games/test_sweep_hands_out.py) and of the simulated community."""
    settings.SWEEP_SECONDS = 3600


@pytest.fixture(autouse=True)
def own_rate_limits(settings):
    """Every test counts its own requests against the rate limits: the cache (the test
    Redis, where the suite has one) under a key prefix of its own."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid4().hex}"
    settings.CACHES = caches


def make_user(name: str, **extra):
    email = f"{name}@example.com"
    return get_user_model().objects.create_user(
        username=email, email=email, password="pw-" + name, first_name=name.title(), **extra
    )


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")
