"""System checks (``manage.py check``, shown at every ``runserver`` and ``migrate``)."""

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security)
def inbound_webhook_secret(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """The inbound-mail webhook refuses every post while it has no secret: say so."""
    if settings.ANYMAIL.get("WEBHOOK_SECRET"):
        return []
    return [
        checks.Warning(
            "the inbound-mail webhook (/mail/anymail/<provider>/inbound/) refuses every post: "
            "ANYMAIL_WEBHOOK_SECRET is not set",
            hint="set ANYMAIL_WEBHOOK_SECRET=user:password and give the provider "
            "https://user:password@<host>/mail/anymail/<provider>/inbound/; replies by "
            "receive_email or mail_server do not need it",
            id="games.W001",
        )
    ]
