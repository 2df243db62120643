"""A small local SMTP server for development: every message it receives is handled as a
reply, by the same code as the webhook and ``receive_email``."""

import logging
import time

from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async
from django.core.management.base import BaseCommand

from games.mail import services


class ReplyHandler:
    """aiosmtpd handler: hand the raw message and its envelope recipients to the service."""

    def __init__(self, report) -> None:
        self.report = report

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or envelope.content
        outcome = await sync_to_async(services.reply_receive, thread_sensitive=False)(
            raw=raw, recipients=tuple(envelope.rcpt_tos)
        )
        self.report(f"{envelope.mail_from} -> {', '.join(envelope.rcpt_tos)}: {outcome}")
        return "250 Message accepted"


class Command(BaseCommand):
    help = "Receive replies by SMTP on a local port (development only)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=2525)

    def handle(self, *args, host: str, port: int, **options) -> None:
        # aiosmtpd logs every SMTP command; the outcome line of each reply is enough here.
        logging.getLogger("mail.log").setLevel(logging.WARNING)
        controller = Controller(ReplyHandler(self.stdout.write), hostname=host, port=port)
        controller.start()
        self.stdout.write(f"receiving replies on smtp://{host}:{port} (Ctrl-C stops)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()
