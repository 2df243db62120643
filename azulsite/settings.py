"""One settings module, read from the environment, with safe defaults.

Without any environment the site runs embedded: SQLite under ``var/``, Celery on kombu's
filesystem broker under ``var/``, and every email written as an ``.eml`` file under
``var/mail/``. Production sets ``DATABASE_URL``, ``REDIS_URL`` (or ``CELERY_BROKER_URL``),
``EMAIL_URL``, ``SECRET_KEY``, ``ALLOWED_HOSTS`` and ``SITE_URL``.
"""

import os
import secrets
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("AZULSITE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def generated_secret_key() -> str:
    """A key made once per installation and kept in ``var/`` (never committed)."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or generated_secret_key()
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", SITE_URL)
# Reverse proxies in front of the site that append the client's address to
# X-Forwarded-For: rate limits count the address that many hops from the right. 0: the
# connecting address (REMOTE_ADDR) itself, as no header can then be forged.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served locally, no CDN
    "csp",
    "django_ratelimit",
    "events",
    "games",
]

MIDDLEWARE = [
    "azulsite.metrics.RequestMetrics",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "azulsite.middleware.GZipButStreams",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.i18n.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Pages are compressed (issue 41), BREACH considered. The attack needs a secret and text
# the attacker chose in one compressed body, and thousands of requests sent by the victim's
# browser with the victim's cookies. Here: (1) the session cookie is SameSite=Lax (Django's
# default, relied on), so another site's fetches, images and frames arrive without it and get
# a visitor's page, with no one's secret in it; only top-level navigations carry it, far too
# few and too visible to guess a secret; (2) the secret every page carries, the CSRF token, is
# masked anew in each response (Django), so there is nothing stable to guess; (3)
# GZipMiddleware pads each body with up to 100 random bytes ("Heal the Breach"), so a guess
# costs many requests more. So every page is compressed alike, but for the pages' event
# streams (azulsite/middleware.py): gzip would hold their events back.
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

ROOT_URLCONF = "azulsite.urls"
WSGI_APPLICATION = "azulsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.presenters.navigation.navigation",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'azulsite.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Bind parameters on the server, so psycopg prepares the statements it runs often
    # (the event store's append, the move path's reads: PostgreSQL then skips planning
    # them, and no Python quotes every value into the SQL). Set
    # DATABASE_PREPARE_THRESHOLD="" behind PgBouncer's transaction pooling, which cannot
    # keep prepared statements.
    _threshold = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5")
    DATABASES["default"]["OPTIONS"] = {
        "prepare_threshold": int(_threshold) if _threshold else None,
        "server_side_binding": True,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A web process and a worker share the file: wait for the lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# Reads that tolerate lag (replay, archive, exports, leaderboards) from a streaming replica
# when DATABASE_REPLICA_URL names one (games/replica.py); the suite mirrors the primary.
_replica_url = os.environ.get("DATABASE_REPLICA_URL", "")
READ_REPLICA = bool(_replica_url)
DATABASES["replica"] = {
    **DATABASES["default"],
    **(
        dj_database_url.parse(_replica_url, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))
        if _replica_url
        else {}
    ),
    "OPTIONS": DATABASES["default"].get("OPTIONS", {}),
    "TEST": {"MIRROR": "default"},
}
DATABASE_ROUTERS = ["games.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The rulebooks' languages (docs/translation.md). No language prefix in URLs: a game's
# address is the same for every player, each reading it in their own language.
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("pt", "Português"),
    ("pl", "Polski"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Serve straight from the apps' static folders, so ``make run`` needs no collectstatic;
# production's release step still collects and compresses them, under hashed names cached
# for good (azulsite/static_storage.py).
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "azulsite.static_storage.HashedOnceCollected"},
}

# --- Celery -----------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# "localhost" names no server: it only keeps kombu from warning that no host was given.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "filesystem://localhost/"
if CELERY_BROKER_URL.startswith("filesystem://"):
    BROKER_DIR = VAR_DIR / "broker"
    for folder in ("queue", "processed", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # The folder is read this often (kombu's default is once a second): a computer
        # player's move queued at a Confirm starts within a tenth of a second. A listing of
        # a near-empty folder, ten times a second per worker, costs next to nothing.
        "polling_interval": 0.1,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Post-game analyses (about a minute of CPU each) have a queue and a worker of their own,
# so they never hold up a computer player's move or an email (Procfile, compose.yaml,
# ``make run``).
CELERY_TASK_ROUTES = {"games.tasks.analysis_run": {"queue": "analysis"}}

# --- news to open pages (issue 42; games/news.py, games/streams.py) -----------------------
# Where news is published after each commit, for the stream server's subscriptions; empty
# (make run's defaults): a file per topic under NEWS_DIR is touched instead.
NEWS_REDIS_URL = os.environ.get("NEWS_REDIS_URL") or REDIS_URL
NEWS_DIR = VAR_DIR / "news"
# Whether the WSGI site holds streams itself, a thread each: runserver's way (make run sets
# it); never under gunicorn's synchronous workers, where the Procfile's stream process
# (uvicorn, ASGI) holds them.
NEWS_STREAM_IN_THREADS = env_bool("NEWS_STREAM_IN_THREADS")

# --- metrics (issue 57; azulsite/metrics.py, docs/operations.md) --------------------------
# /metrics answers only a request with "Authorization: Bearer <this>"; empty: off (404).
# Set in every process's environment: each then writes its figures to
# PROMETHEUS_MULTIPROC_DIR (default var/metrics), which the scrape adds up.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Workers and beat wait for a broker that is down however long it stays down (Celery gives
# up after 100 tries, some 45 minutes): when Redis comes back, work resumes by itself.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TIMEZONE = TIME_ZONE


# --- Cache: rate limits count here (games/throttles.py, DRF's throttles) ------------------
SILENCED_SYSTEM_CHECKS: list[str] = []
CACHE_URL = os.environ.get("CACHE_URL") or REDIS_URL
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "azulsite",
            "OPTIONS": {
                # A cache that is down or slow must not take the site with it: counts are
                # skipped (and logged) rather than every page failing.
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    # The embedded default: one web process (``make run``), so its memory is the count.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # django-ratelimit refuses a cache other processes cannot share; here there are none.
    SILENCED_SYSTEM_CHECKS += ["django_ratelimit.E003", "django_ratelimit.W001"]
RATELIMIT_IP_META_KEY = "games.throttles.client_ip"
# With the cache unreachable, each limit decides (games/throttles.py, ``fail_closed``):
# the sign-in emails and password tries refuse ("try again in a minute"), the rest let
# requests through (the cache logs it).
RATELIMIT_FAIL_OPEN = False


# --- Email ------------------------------------------------------------------------------
def email_settings(url: str) -> dict:
    """Settings from ``EMAIL_URL``: ``smtp://user:pass@host:port`` (``smtps://`` for TLS on
    connect, ``?tls=1`` for STARTTLS), ``console://``, or ``file:///path`` (``.eml`` files)."""
    parts = urlsplit(url)
    if parts.scheme in {"smtp", "smtps"}:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 25),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": parts.scheme == "smtps",
            "EMAIL_USE_TLS": "tls=1" in parts.query,
        }
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "file":
        return {
            "EMAIL_BACKEND": "azulsite.mail.EmlFileBackend",
            "EMAIL_FILE_PATH": unquote(parts.path) or str(VAR_DIR / "mail"),
        }
    raise ValueError(f"EMAIL_URL {url!r}: expected smtp://, smtps://, console:// or file:///path")


globals().update(email_settings(os.environ.get("EMAIL_URL", f"file://{VAR_DIR / 'mail'}")))
for _name in ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER"):
    if _name in os.environ:
        globals()[_name] = os.environ[_name]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "azulsite <games@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "games.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.toolkit.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Counted in the cache (below). "token" and "token-account": POST /api/token/, per
    # client address and per account asked for (games/api/accounts.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "games.throttles.AnonRateThrottle",
        "games.throttles.UserRateThrottle",
        "games.throttles.NamedTokenRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_ANON_RATE", "120/min"),
        "user": os.environ.get("API_USER_RATE", "1200/min"),
        # Per named token (a bot's key): a program's loop that ran away is braked alone.
        "named-token": os.environ.get("API_NAMED_TOKEN_RATE", "600/min"),
        "token": "20/hour",
        "token-account": "10/hour",
    },
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "azulsite API",
    "DESCRIPTION": "Correspondence games of Azul: Summer Pavilion, Azul and Miyabi.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # API docs page: its scripts come from drf_spectacular_sidecar, not a CDN (self-hosters
    # behind a firewall have no internet).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The bot streams are plain Django views: described by hand (docs/bot-api.md).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.bot_streams.schema_paths",
    ],
}
LOGIN_URL = "/signin/"
LOGIN_REDIRECT_URL = "/"

# --- Games ------------------------------------------------------------------------------
# "Your turn" waits this long, so that a move taken back at once sends nothing.
YOUR_TURN_GRACE_SECONDS = int(os.environ.get("YOUR_TURN_GRACE_SECONDS", "120"))
# Computer players (issue 15): the hard bot's CPU time per move, in seconds.
BOT_HARD_SECONDS = float(os.environ.get("BOT_HARD_SECONDS", "2"))
# A task playing computer players goes on while one is to move, this long at most, then
# hands over to a new task (so that one game's computers never hold a worker for long).
BOT_TASK_SECONDS = float(os.environ.get("BOT_TASK_SECONDS", "10"))
# A snapshot of a game's folded table every so many events, so that no read folds more
# than about this many; and the memory a process may keep folded tables in.
TABLE_SNAPSHOT_EVERY = int(os.environ.get("TABLE_SNAPSHOT_EVERY", "40"))
TABLE_CACHE_MB = float(os.environ.get("TABLE_CACHE_MB", "64"))
# Post-game analysis: the hard bot's simulations per position (a fixed number, so an
# analysis repeats itself; the time a position takes is in docs/bots.md, "Analysis").
ANALYSIS_SIMULATIONS = int(os.environ.get("ANALYSIS_SIMULATIONS", "300"))

# --- Play by email (issue 7: games/mail reads, games/notify/channels/email sends) ------
# "Your turn" and reminders are not sent to a player seen on the game's page this recently.
MAIL_ACTIVE_WINDOW_SECONDS = int(os.environ.get("MAIL_ACTIVE_WINDOW_SECONDS", "300"))
# Reminder policy: the first reminder this long into a turn, then again every so often, and
# a warning this long before the deadline.
MAIL_REMINDER_FIRST_HOURS = int(os.environ.get("MAIL_REMINDER_FIRST_HOURS", "24"))
MAIL_REMINDER_EVERY_HOURS = int(os.environ.get("MAIL_REMINDER_EVERY_HOURS", "24"))
MAIL_DEADLINE_WARNING_HOURS = int(os.environ.get("MAIL_DEADLINE_WARNING_HOURS", "12"))
# Replies to turn emails come back to play+TOKEN@MAIL_REPLY_DOMAIN.
MAIL_REPLY_DOMAIN = os.environ.get("MAIL_REPLY_DOMAIN", urlsplit(SITE_URL).hostname or "localhost")
# The HTML emails show the boards as PNG pictures, drawn by the worker that sends them (what
# they cost: docs/service.md, "The boards' pictures in the emails"); "0" leaves the
# pictures out (the text part always has the position).
MAIL_BOARD_PICTURES = os.environ.get("MAIL_BOARD_PICTURES", "1") == "1"
# A claimed email not marked sent after this long is settled by the sweep: sent again if it
# never reached DATA, "in doubt" otherwise (see games/notify/channels/loop.py).
MAIL_CLAIM_STALE_SECONDS = int(os.environ.get("MAIL_CLAIM_STALE_SECONDS", "600"))
# Rows each periodic job handles per pass (the next pass, a minute later, takes the rest).
MAIL_SWEEP_BATCH = int(os.environ.get("MAIL_SWEEP_BATCH", "500"))
# A pass of the minute sweep does things one at a time itself (timeouts, computers' and
# plans' moves, deliveries) for this long in all; what is still due then is handed to
# tasks, SWEEP_HAND_OUT games a task (a delivery a task), that the workers share (issue 44:
# a thousand timeouts due at once, with their emails, held the sweep a minute;
# docs/service.md, "The minute sweep").
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "0.3"))
SWEEP_HAND_OUT = int(os.environ.get("SWEEP_HAND_OUT", "50"))
# A job of the sweep still running after this long is stopped (its item rolled back) and
# counted as failed, and the jobs after it go on: one that hangs never holds the minute.
SWEEP_JOB_SECONDS = float(os.environ.get("SWEEP_JOB_SECONDS", "20"))
# An SMTP server that stops answering must not hold a worker for ever.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "60"))
# Inbound mail from hosted providers: /mail/anymail/<provider>/inbound/ (basic auth secret).
INSTALLED_APPS += ["anymail"]
# The largest post the webhook reads, once its secret is checked (every other door keeps
# Django's 2.5 MB): providers forward messages of 25 to 40 MB (Postmark: 35 MB of
# attachments), JSON adds a third for base64.
MAIL_WEBHOOK_MAX_BYTES = int(os.environ.get("MAIL_WEBHOOK_MAX_BYTES", str(60 * 1024 * 1024)))
# Without ANYMAIL_WEBHOOK_SECRET the webhook refuses every post (games/mail/views.py).
# Every ANYMAIL_<NAME> of the environment is passed on, e.g. a provider's signing key
# (ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY, ANYMAIL_POSTMARK_…), which anymail then verifies.
ANYMAIL = {
    "WEBHOOK_SECRET": "",
    **{
        name.removeprefix("ANYMAIL_"): value
        for name, value in os.environ.items()
        if name.startswith("ANYMAIL_")
    },
}

# --- Web Push (issue 28: games/notify/channels/push) -------------------------------------
# The VAPID private key that signs every push (base64url of the raw P-256 key, as web-push
# tools print it); empty: one made once and kept in var/vapid_private_key. Its public half
# is served to the pages (and GET /api/push-subscriptions/).
WEB_PUSH_VAPID_PRIVATE_KEY = os.environ.get("WEB_PUSH_VAPID_PRIVATE_KEY", "")
# Who push services may contact about our pushes (the VAPID "sub" claim).
WEB_PUSH_CONTACT = os.environ.get("WEB_PUSH_CONTACT") or (
    SITE_URL if SITE_URL.startswith("https://") else "mailto:" + parseaddr(DEFAULT_FROM_EMAIL)[1]
)
# The push services the site posts to (https only): "host", "*.domain" or "host:port"; a
# loopback "127.0.0.1:8765" also allows plain http to that port (tests, self-hosters).
WEB_PUSH_ALLOWED_HOSTS = env_list(
    "WEB_PUSH_ALLOWED_HOSTS",
    "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,*.notify.windows.com",
)
# A push service that does not answer within this many seconds is tried again later.
WEB_PUSH_TIMEOUT = float(os.environ.get("WEB_PUSH_TIMEOUT", "10"))
# A claimed push not marked sent after this long was lost with its worker: never resent.
WEB_PUSH_CLAIM_STALE_SECONDS = int(os.environ.get("WEB_PUSH_CLAIM_STALE_SECONDS", "600"))

# --- notices (games.notify) ---------------------------------------------------------------
# The channels a notice travels by, email first: a channel is a folder with a ``Channel``
# subclass (games/notify/channels/) and a line here.
NOTICE_CHANNELS = {
    "email": "games.notify.channels.email.EmailChannel",
    "push": "games.notify.channels.push.PushChannel",
}

# --- people's data (issue 45; docs/privacy.md) --------------------------------------------
# A download of one's data stays ready for this many days, and one may be asked for this
# many times a day.
DATA_EXPORT_DAYS = int(os.environ.get("DATA_EXPORT_DAYS", "7"))
DATA_EXPORTS_PER_DAY = int(os.environ.get("DATA_EXPORTS_PER_DAY", "3"))
# What is needed only for a while goes away by itself after this many days (the sweep's
# "retention" job): received emails, sign-in emails and their codes, the bodies of sent
# emails and pushes (their fact and time stay), finished downloads.
RETENTION_DAYS = {
    "inbound": int(os.environ.get("RETAIN_INBOUND_DAYS", "30")),
    "sign_in": int(os.environ.get("RETAIN_SIGN_IN_DAYS", "2")),
    "sent_bodies": int(os.environ.get("RETAIN_SENT_BODIES_DAYS", "90")),
    "sent_rows": int(os.environ.get("RETAIN_SENT_ROWS_DAYS", "180")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# --- HTTPS and browser protections -------------------------------------------------------
# Behind a proxy that terminates TLS, name the header it sets to "https" (opt-in: trusting
# a header the client could send itself would let anyone claim https), e.g.
# SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    _header = os.environ["SECURE_PROXY_SSL_HEADER"].upper().replace("-", "_")
    SECURE_PROXY_SSL_HEADER = (f"HTTP_{_header}", "https")
if SITE_URL.startswith("https://") and not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe /healthz over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 86400)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if not SECURE_HSTS_PRELOAD:
        # Preloading commits the domain in browsers for good: the operator's choice to
        # make (SECURE_HSTS_PRELOAD=1), not a default.
        SILENCED_SYSTEM_CHECKS.append("security.W021")
# Links carry no secret in their path or query (the sign-in token travels in the
# fragment and is POSTed), and other sites learn no more than our origin.
SECURE_REFERRER_POLICY = "same-origin"
# No inline script or style anywhere: JavaScript and CSS come from our static files
# (the API docs from drf-spectacular-sidecar, served by us too).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
