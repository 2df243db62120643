"""The bots' move clock and ladder in a process of their own, until stopped: what ``make
run`` starts beside runserver, and what a deployment runs when its stream process does not
(``MOVE_CLOCK_IN_STREAMS=0``; docs/bot-api.md, "The move clock")."""

import asyncio
import contextlib

from django.core.management.base import BaseCommand

from games.bot_streams import clocks


class Command(BaseCommand):
    help = (
        "Run the bots' move clock (seconds per move) and the bot ladder's pairing until "
        "stopped. Several may run at once: none plays a timeout twice."
    )

    def handle(self, *args, **options) -> None:
        # Ctrl-C (make run's end) stops it without a traceback.
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(clocks())
