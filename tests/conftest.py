"""Shared fixtures: a few named users, as in every story we tell about the site."""

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests make many users; Django's real hasher is slow on purpose (0.3 s each)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
