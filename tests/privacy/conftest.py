"""Fixtures of the people's-data tests (issue 45): the mail tests' real SMTP sink."""

from tests.mail.conftest import smtp  # noqa: F401 (the turn emails a player replies to)
