"""The stream server lets only so many requests start at once (azulsite/asgi.py): pages
that all open their stream again at the same moment wait their turn for a database
connection instead of being refused by PostgreSQL; a stream already answering is not
counted."""

import asyncio
import threading
import time

from azulsite.asgi import StartsBounded


def test_at_most_the_limit_start_at_once_and_a_started_stream_is_not_counted():
    inside, most, answered = [0], [0], []

    async def app(scope, receive, send):
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        await asyncio.sleep(0.01)  # reading the session and the game
        inside[0] -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(0.2)  # the stream, long after its start
        answered.append(scope["path"])

    async def send(message):
        pass

    async def receive():
        return {"type": "http.request"}

    async def many():
        bounded = StartsBounded(app, 3)
        await asyncio.gather(
            *(bounded({"type": "http", "path": f"/s/{n}"}, receive, send) for n in range(20))
        )

    began = time.monotonic()
    # A thread of its own: the browser tests' Playwright may run a loop in this one.
    runner = threading.Thread(target=asyncio.run, args=(asyncio.wait_for(many(), timeout=5),))
    runner.start()
    runner.join()
    assert most[0] == 3
    assert len(answered) == 20
    # Counted until they end, the 20 streams would take 7 turns of 0.2 s.
    assert time.monotonic() - began < 1.0
