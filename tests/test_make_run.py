"""``make run`` on the embedded default (SQLite, filesystem broker, mail to files): the
site and its two workers start, and what a new user needs ends the output — the address,
the demo logins, and where the sign-in emails land — not a worker's banner; one Ctrl-C
stops everything. Started on another ``PORT``, the links of its emails lead there."""

import email
import email.policy
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_make_run_ends_with_the_address_the_logins_and_the_mail_folder(tmp_path):
    environment = {
        "PATH": os.environ["PATH"],
        "AZULSITE_VAR_DIR": str(tmp_path / "var"),
        "PORT": str(free_port()),
    }
    for command in (["migrate", "--no-input", "--verbosity", "0"], ["demo", "--verbosity", "0"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=environment, check=True
        )
    site = subprocess.Popen(
        [sys.executable, "-m", "azulsite.devrun"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not any("api/bot/" in line for line in lines):
            lines.append(site.stdout.readline().rstrip())
        time.sleep(3)  # whatever the workers would print once they are ready
        link = sign_in_link(f"http://127.0.0.1:{environment['PORT']}", tmp_path / "var" / "mail")
    finally:
        os.killpg(site.pid, signal.SIGINT)  # the terminal's Ctrl-C goes to the whole group
        rest, _ = site.communicate(timeout=60)
    shown = [line.strip() for line in [*lines, *rest.splitlines()] if line.strip()]
    start = next(i for i, line in enumerate(shown) if "azulsite is running at" in line)
    assert f"http://127.0.0.1:{environment['PORT']}/" in shown[start]
    assert shown[start + 1].startswith("Demo logins (password for each: azul-demo)")
    assert shown[start + 2 : start + 5] == [
        "alice@example.com  (admin and moderator)",
        "bob@example.com",
        "carol@example.com",
    ]
    assert str(tmp_path / "var" / "mail") in shown[start + 5]
    assert f"{environment['PORT']}/api/bot/stream/event" in shown[start + 6]
    before_stop = shown[: start + 6]
    assert not any("celery@" in line or "SecurityWarning" in line for line in before_stop)
    assert site.returncode == 0
    assert link.startswith(f"http://127.0.0.1:{environment['PORT']}/signin/link/")


def sign_in_link(site: str, mail: Path) -> str:
    """Ask the running site for alice's sign-in link, as a browser does (the form and its
    CSRF token), and read the link from the email its worker writes."""
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    form = browser.open(f"{site}/signin/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "email": "alice@example.com"})
    request = urllib.request.Request(
        f"{site}/signin/", data=body.encode(), headers={"Referer": f"{site}/signin/"}
    )
    browser.open(request, timeout=10)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for eml in mail.glob("*.eml"):
            message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
            text = next(p for p in message.walk() if p.get_content_type() == "text/plain")
            found = re.search(r"https?://\S+/signin/link/\S*", text.get_content())
            if found:
                return found.group(0)
        time.sleep(0.5)
    raise AssertionError(f"no sign-in email in {mail}")
