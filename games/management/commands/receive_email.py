"""Read one raw RFC 822 message on stdin and handle it as a reply (a Postfix or Exim pipe:
``play: "|/path/manage.py receive_email"``)."""

import sys

from django.core.management.base import BaseCommand

from games.mail import services

# sysexits.h EX_DATAERR: the MTA bounces the message instead of retrying.
EX_DATAERR = 65


class Command(BaseCommand):
    help = "Handle one emailed reply: the raw message on stdin."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--recipient",
            action="append",
            default=[],
            help="the envelope recipient (Postfix: ${recipient}); may repeat",
        )

    def handle(self, *args, recipient: list[str], **options) -> None:
        raw = sys.stdin.buffer.read()
        if not raw.strip():
            self.stderr.write("no message on stdin")
            sys.exit(EX_DATAERR)
        self.stdout.write(services.reply_receive(raw=raw, recipients=tuple(recipient)))
