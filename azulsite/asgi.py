"""The site as an ASGI application, for the Procfile's ``stream`` process (uvicorn): it
holds the open pages' event streams (``games.streams``), each a coroutine waiting on
Redis. Every other page is the WSGI site's (``azulsite.wsgi``, gunicorn). From its start
(the ASGI lifespan) it also runs the bots' move clock and ladder (``games.bot_streams``)."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

# Streams starting at once: each start reads the session, the player and the game in a
# thread of its own with a database connection of its own (closed once the stream runs).
# Pages that all open their stream again at the same moment (the stream server restarted)
# must not open a connection each at once: PostgreSQL refuses past max_connections.
STARTS_AT_ONCE = int(os.environ.get("STREAM_STARTS_AT_ONCE", "8"))


class StartsBounded:
    """At most ``limit`` requests between their arrival and the start of their answer;
    the others wait their turn. A stream's long life after its start is not counted."""

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit
        self.starting: asyncio.Semaphore | None = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.starting is None:
            self.starting = asyncio.Semaphore(self.limit)
        starting = self.starting
        await starting.acquire()
        held = [True]

        def release() -> None:
            if held[0]:
                held[0] = False
                starting.release()

        async def answering(message) -> None:
            if message["type"] == "http.response.start":
                release()
            await send(message)

        try:
            await self.app(scope, receive, answering)
        finally:
            release()


async def lifespan(receive, send) -> None:
    """The process's start and end (Django answers no lifespan): the bots' move clock and
    ladder run from the start, not from the first bot stream, so timed games are timed
    out after a restart before any bot comes back."""
    # Imported once Django is set up (``get_asgi_application`` below): it reads models.
    from games.bot_streams import clocks_start

    tasks = []
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            tasks = clocks_start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            for task in tasks:
                task.cancel()
            await send({"type": "lifespan.shutdown.complete"})
            return


application = StartsBounded(get_asgi_application(), STARTS_AT_ONCE)
