"""Fixtures of the people's-data tests (issue 45, 52): the mail tests' real SMTP sink, the
push tests' real push service and device."""

from tests.mail.conftest import smtp  # noqa: F401 (the turn emails a player replies to)
from tests.push.conftest import device, push_service  # noqa: F401 (a real push service)
