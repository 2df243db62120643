"""Development mail: each message becomes one ``.eml`` file a mail client can open."""

import uuid
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class EmlFileBackend(BaseEmailBackend):
    """Writes every message to ``EMAIL_FILE_PATH/<time>-<id>.eml`` (RFC 822 bytes)."""

    def __init__(self, *args, file_path: str | None = None, **kwargs) -> None:
        from django.conf import settings

        super().__init__(*args, **kwargs)
        self.folder = Path(file_path or settings.EMAIL_FILE_PATH)

    def send_messages(self, email_messages) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        for message in email_messages:
            stamp = timezone.now().strftime("%Y%m%dT%H%M%S")
            path = self.folder / f"{stamp}-{uuid.uuid4().hex[:12]}.eml"
            path.write_bytes(message.message().as_bytes(linesep="\r\n"))
        return len(email_messages)
