"""Read one raw RFC 822 message on stdin and handle it as a reply (a Postfix or Exim pipe:
``play: "|/path/manage.py receive_email"``)."""

import sys

from django.core.management.base import BaseCommand

from games.mail import services

# sysexits.h: EX_DATAERR makes the MTA bounce the message; EX_TEMPFAIL makes it try again
# later (the database restarting, say), so no reply is lost.
EX_DATAERR = 65
EX_TEMPFAIL = 75


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
        try:
            outcome = services.reply_receive(raw=raw, recipients=tuple(recipient))
        except Exception as error:
            self.stderr.write(f"not handled, try again later: {error}")
            sys.exit(EX_TEMPFAIL)
        self.stdout.write(outcome)
