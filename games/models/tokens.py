"""Named API tokens (issue 53): as many as a person wants, one per program or script, made
and revoked on the account page. Only a hash of each key is kept: the key is shown once,
when it is made, as a serious service does, so a copy of the database signs nobody in."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """A key for ``Authorization: Token <key>``, named by its owner, stored as the SHA-256
    of the key (``services.tokens``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    # The key's first characters, shown in the list so its owner can tell which key a
    # script holds (a few characters of a 240-bit secret).
    hint = models.CharField(max_length=12)
    created_at = models.DateTimeField(default=timezone.now)
    # To the hour: written at most once an hour per token (``services.tokens``).
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="api_token_name_unique"),
        ]

    def __str__(self) -> str:
        return f"API token {self.name!r} of {self.user_id}"
