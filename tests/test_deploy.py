"""Production settings are safe by default: with an https SITE_URL, ``check --deploy`` is
clean (HSTS, https redirect, secure cookies, a Content Security Policy), and the webhook
without a secret is reported."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def check_deploy(tmp_path, **extra) -> subprocess.CompletedProcess:
    environment = {
        "PATH": os.environ["PATH"],
        "SITE_URL": "https://azul.example.org",
        "ALLOWED_HOSTS": "azul.example.org",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": os.environ.get("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}"),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "ANYMAIL_WEBHOOK_SECRET": "hook:" + secrets.token_urlsafe(24),
        "AZULSITE_VAR_DIR": str(tmp_path / "var"),
        **extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_for_an_https_site(tmp_path):
    done = check_deploy(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_names_the_webhook_without_a_secret(tmp_path):
    done = check_deploy(tmp_path, ANYMAIL_WEBHOOK_SECRET="")
    assert done.returncode != 0
    assert "games.W001" in done.stdout + done.stderr


def test_every_page_carries_the_content_security_policy(client, db):
    policy = client.get("/signin/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
