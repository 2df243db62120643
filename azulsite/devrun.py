"""``make run``: the web server, a Celery worker with embedded beat and the bots' move clock
(``manage.py move_clock``), together, until Ctrl-C stops them. Uses whatever the
environment configures (SQLite and the filesystem broker by default). The workers start
quietly, so that what a new user needs ends the output: the address, the demo logins and
where the sign-in emails land. A worker that stops on its own is started again, as a
platform restarts the Procfile's processes."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

HOST, PORT = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")


def site_url() -> str:
    """Where people reach the site started on ``HOST``:``PORT``: the address of the links
    in its emails and pushes (``SITE_URL``), unless it is set. A site listening on every
    interface is reached on this machine at 127.0.0.1."""
    host = "127.0.0.1" if HOST in ("0.0.0.0", "::", "") else HOST
    return f"http://{f'[{host}]' if ':' in host else host}:{PORT}"


# A worker that cannot start at all (a wrong setting) is tried again this often, not in
# a tight loop that would bury its error.
RESTART_PAUSE_SECONDS = 5.0


def stop(signum, frame) -> None:
    raise KeyboardInterrupt


def worker(*options: str) -> subprocess.Popen:
    """A quiet Celery worker of one process with ``options``: warnings and errors only,
    without its banner or the warning about running as root (a container's usual user)."""
    command = [sys.executable, "-m", "celery", "-A", "azulsite", "--quiet", "worker"]
    environment = {
        **os.environ,
        "PYTHONWARNINGS": "ignore:You're running the worker with superuser privileges",
    }
    return subprocess.Popen(
        [*command, *options, "--loglevel=warning", "--concurrency=1"], env=environment
    )


def move_clock() -> subprocess.Popen:
    """The bots' move clock and ladder (docs/bot-api.md), which production runs in its
    stream process."""
    return subprocess.Popen([sys.executable, "manage.py", "move_clock", "--skip-checks"])


class Supervised:
    """A quiet worker (``worker``, or what ``starts``) that is started again whenever it
    stops before ``make run`` does: a broker that restarts can end a worker
    (``docs/service.md``, "The worker and its broker"), and nobody watches ``make run`` to
    start it by hand."""

    def __init__(self, name: str, *options: str, starts=None) -> None:
        self.name, self.options, self.starts = name, options, starts
        self.start()

    def start(self) -> None:
        self.process = (self.starts or worker)(*self.options)
        self.started = time.monotonic()

    def keep_running(self) -> None:
        """Start the worker again if it stopped, once ``RESTART_PAUSE_SECONDS`` have passed
        since it was last started, with a line saying so."""
        if self.process.poll() is None:
            return
        if time.monotonic() - self.started < RESTART_PAUSE_SECONDS:
            return
        print(
            f"make run: the {self.name} worker stopped (exit status {self.process.returncode});"
            " starting it again",
            file=sys.stderr,
            flush=True,
        )
        self.start()


def banner(url: str) -> str:
    """The last lines of ``make run``: where the site is, who can sign in, and where the
    emails it sends (sign-in links among them) are written."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
    import django
    from django.conf import settings

    django.setup()
    from games.management.commands.demo import logins

    if getattr(settings, "EMAIL_FILE_PATH", None):
        mail = f"Emails (sign-in links too) are written as .eml files to {settings.EMAIL_FILE_PATH}"
    else:
        mail = f"Emails are sent by {settings.EMAIL_BACKEND}"
    lines = [
        f"azulsite is running at {url}  (Ctrl-C stops the site and its workers)",
        *logins(),
        mail,
        f"Bots connect here too: {url}api/bot/stream/event (docs/bot-api.md)",
    ]
    return "\n" + "\n".join(f"  {line}" for line in lines) + "\n"


def main() -> int:
    # Ctrl-C reaches the workers too and stops them: it must stop this process as well,
    # even where it was started with SIGINT ignored, or it would start them again.
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    python = sys.executable
    # Before the processes start: each reads it into its settings.
    os.environ.setdefault("SITE_URL", site_url())
    # runserver gives each request a thread: it holds the open pages' event streams and the
    # bots' streams itself (games/streams.py, games/bot_streams.py), where production has a
    # stream process of its own.
    os.environ.setdefault("NEWS_STREAM_IN_THREADS", "1")
    site = subprocess.Popen(
        [python, "manage.py", "runserver", f"{HOST}:{PORT}", "--noreload", "--skip-checks"]
    )
    workers = [
        Supervised("default", "--beat", "--queues=celery"),
        # Post-game analyses in a worker of their own: they never delay a move.
        Supervised("analysis", "--queues=analysis", "--hostname=analysis@%h"),
        Supervised("move clock", starts=move_clock),
    ]
    url = site_url() + "/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        print(banner(url), flush=True)
        while site.poll() is None:
            for supervised in workers:
                supervised.keep_running()
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        # A second Ctrl-C while the workers finish their task must not interrupt the wait.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        processes = [site, *(supervised.process for supervised in workers)]
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
