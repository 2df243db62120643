"""``make run``: the web server and a Celery worker with embedded beat, together, until
Ctrl-C stops both. Uses whatever the environment configures (SQLite and the filesystem
broker by default)."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

HOST, PORT = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")


def stop(signum, frame) -> None:
    raise KeyboardInterrupt


def worker(*options: str) -> subprocess.Popen:
    """A Celery worker of one process with ``options``."""
    command = [sys.executable, "-m", "celery", "-A", "azulsite", "worker"]
    return subprocess.Popen([*command, *options, "--loglevel=info", "--concurrency=1"])


def main() -> int:
    signal.signal(signal.SIGTERM, stop)
    python = sys.executable
    processes = [
        subprocess.Popen([python, "manage.py", "runserver", f"{HOST}:{PORT}", "--noreload"]),
        worker("--beat", "--queues=celery"),
        # Post-game analyses in a worker of their own: they never delay a move.
        worker("--queues=analysis", "--hostname=analysis@%h"),
    ]
    url = f"http://{HOST}:{PORT}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        print(
            f"\n  azulsite is running at {url}  (Ctrl-C stops the site and its workers)\n",
            flush=True,
        )
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
