"""Dugout's one settings module, driven by the environment (django-environ).

Newcomer defaults: a SQLite file under var/ and an embedded filesystem broker, so `make run` needs no
server. DATABASE_URL and REDIS_URL switch to PostgreSQL and Redis (as CI and production do).
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF

from dugout.api.schema_settings import API_SCHEMA_SETTINGS

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=False)
# The development key is refused by `check --deploy` (security.W009): production must set SECRET_KEY.
SECRET_KEY = env("SECRET_KEY", default="django-insecure-dugout-development-key-do-not-deploy")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "csp",
    "campaigns",
    "notifications",
    "league",
    "core",
    "teams",
    "matches",
    "dugout",
]

MIDDLEWARE = [
    # Outermost: refuses control characters in the address and oversized bodies, and answers any unreadable
    # request 400 (JSON under /api/), before anything else reads the request.
    "core.input_guard.InputGuardMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Both security headers on every answer, pages and API alike (docs/decisions/, 2026-12-01).
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "core.idempotency.IdempotencyKeyMiddleware",
    # DEBUG only (it removes itself otherwise): a missing page is the project's 404, not Django's technical one.
    "dugout.web.not_found.DebugNotFoundMiddleware",
]

ROOT_URLCONF = "dugout.urls"
WSGI_APPLICATION = "dugout.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dugout.web.context_processors.waiting",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'dugout.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Racing writers on the newcomer default must queue, never fail with "database is locked":
    # WAL lets readers run beside the writer, IMMEDIATE takes the write lock when a transaction
    # begins (so no deadlocking lock upgrades), and the busy timeout makes the second writer wait.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not :memory:) so live-server tests and concurrent requests share one database; one per
    # test process, so two test runs in one checkout never write to the same file.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-dugout-{os.getpid()}.sqlite3")}
else:
    # Persistent connections (a new one per request halved the small standings' throughput), checked
    # before each request reuses one so a connection the server or a failover closed is replaced, not an error.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("CONN_HEALTH_CHECKS", default=True))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache and Celery broker ---------------------------------------------------------
# Redis is a side service: with it down the cache misses (league.cache fails open, with bounded timeouts) and
# only what needs the queue ("generate now") says it is unavailable; log-in, pages and the API keep working.
from league.cache import BROKER_CONNECT_TIMEOUT, redis_broker_options, redis_cache  # noqa: E402

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL and env("PYTEST_XDIST_WORKER", default=""):
    # Each test process of a parallel run (pytest-xdist) gets a Redis database of its own: the suite clears the
    # cache between tests (a FLUSHDB), which must not empty another process's cache or broker queues mid-test.
    _database = 1 + int(env("PYTEST_XDIST_WORKER").removeprefix("gw")) % 15
    REDIS_URL = re.sub(r"(/\d*)?$", f"/{_database}", REDIS_URL, count=1)
if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Sessions live in the database, so any web process on any machine serves any user. Not cached_db: log-in would
# then touch the cache (it must work with Redis down, tests/league/test_login_throttle.py), and a log-out while
# Redis is unreachable would leave a cached copy of the session to come back with it (docs/decisions/).
SESSION_ENGINE = env("SESSION_ENGINE", default="django.contrib.sessions.backends.db")

# Every task's limits (seconds; the report is the longest, a few seconds on a big league): past the soft limit
# the task is interrupted (its transaction rolls back), past the hard one its worker process is replaced.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=100)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=120)
#: After how long the broker hands an unacknowledged task (its worker killed) to another worker: a little above
#: the hard time limit, so a task still running is never handed out twice, and minutes, not an hour.
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=CELERY_TASK_TIME_LIMIT + 30)
# A publish is tried once, and a connection attempt takes at most this long: "generate now" answers 503 at once
# with the broker down. (A worker still re-establishes a lost broker connection: broker_connection_retry.)
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_CONNECT_TIMEOUT

BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = REDIS_URL or "filesystem://"
if not REDIS_URL:
    # The embedded broker: kombu's filesystem transport, shared by web, worker and beat through var/.
    BROKER_DIR.mkdir(exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR),
        "data_folder_out": str(BROKER_DIR),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
else:
    # Fail fast when Redis is down (no publish retries, sub-second connect), so "generate now" can say the queue
    # is unavailable instead of hanging; redeliver a killed worker's task after CELERY_VISIBILITY_TIMEOUT.
    CELERY_BROKER_TRANSPORT_OPTIONS = redis_broker_options(visibility_timeout=CELERY_VISIBILITY_TIMEOUT)
    # Results are ignored unless a caller asks for one (ignore_result=False), e.g. a test awaiting a worker.
    CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    # The treasuries' nightly audit: every ledger's running balance recomputed from its entries.
    "ledger-audit-nightly": {"task": "teams.tasks.ledger_audit", "schedule": 24 * 60 * 60},
    # Players' SPP recomputed from their per-match rows (the source of truth).
    "player-totals-audit-nightly": {"task": "matches.tasks.player_totals_audit", "schedule": 24 * 60 * 60},
    # Hourly: each league whose report day and hour (in its own time zone) has come gets its weekly report.
    "weekly-reports-fanout": {"task": "dugout.tasks.weekly_reports_fanout", "schedule": crontab(minute=0)},
    # Every ten minutes, off the hour: the league clock confirms, forfeits and announces what the house rules say
    # (so "after N hours" holds within minutes) and mails match reminders two days before a deadline and on the day.
    "league-clock": {"task": "dugout.tasks.league_clock_tick", "schedule": crontab(minute="5-59/10")},
    # Password-reset mails the broker missed are queued; ones that never went out are marked failed.
    "password-reset-sweep": {"task": "dugout.tasks.password_reset_sweep", "schedule": crontab(minute="*/5")},
    # Hourly: webhook deliveries whose event committed while the broker was down are queued.
    "webhook-sweep": {"task": "dugout.webhook_tasks.webhook_sweep", "schedule": crontab(minute=10)},
    # Notification mails and pushes the broker missed are queued; stuck or too old ones are marked failed.
    "notifications-sweep": {"task": "dugout.tasks.notifications_sweep", "schedule": crontab(minute="*/5")},
    # Daily at 07:00 UTC (users' own time zones are not known yet): each digest reader's mails of the day in one.
    "notifications-digest": {"task": "dugout.tasks.notifications_digest", "schedule": crontab(hour=7, minute=0)},
}

# --- Outgoing webhooks (league/webhooks/) ---------------------------------------------------
#: Also allow loopback and private receivers (tests, closed networks); production refuses them.
WEBHOOK_ALLOW_PRIVATE_HOSTS = env.bool("WEBHOOK_ALLOW_PRIVATE_HOSTS", default=False)
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=5.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=6)
WEBHOOK_BACKOFF = env.float("WEBHOOK_BACKOFF", default=10.0)  # seconds before the first retry, doubled each time
WEBHOOK_BACKOFF_MAX = env.float("WEBHOOK_BACKOFF_MAX", default=3600.0)
WEBHOOK_GONE_LIMIT = env.int("WEBHOOK_GONE_LIMIT", default=3)  # 404/410 in a row before a hook is disabled

# --- Notifications: mail and Web Push from the outbox (notifications/delivery.py) ------------------
# VAPID, the pair that signs every push (the public key is what a browser subscribes with): from the environment
# (docs/deploy.md); under DEBUG (`make run`) generated once into var/vapid.json. No private key: push is off.
from notifications.vapid import configured_keys  # noqa: E402

VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = configured_keys(
    env("VAPID_PRIVATE_KEY", default=""),
    env("VAPID_PUBLIC_KEY", default=""),
    development=env.bool("VAPID_DEVELOPMENT_KEYS", default=DEBUG) and VAR_DIR / "vapid.json",
)
VAPID_SUBJECT = env("VAPID_SUBJECT", default="mailto:dugout@localhost")  # the operator, for the push services
PUSH_TIMEOUT = env.float("PUSH_TIMEOUT", default=5.0)  # seconds a push service has to answer
PUSH_TTL = env.int("PUSH_TTL", default=24 * 60 * 60)  # seconds it keeps a message for a device that is offline

# --- Auth, i18n, static ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule on passwords: Django calls it from User.save() after set_password, so every door that changes
    # a password ends that user's API tokens here (league/tokens.py).
    {"NAME": "league.tokens.EndTokensOnPasswordChange"},
]
# The log-in guard (league/logins.py), kept in the database so it works with Redis down: failures per account
# and address together. Numbers of failures, and the windows they are counted in.
LOGIN_THROTTLE = {
    "pair_failures": env.int("LOGIN_PAIR_FAILURES", default=5),
    "pair_window": timedelta(minutes=env.int("LOGIN_PAIR_COOLOFF_MINUTES", default=15)),
    "account_failures": env.int("LOGIN_ACCOUNT_FAILURES", default=10),
    "account_window": timedelta(hours=1),
    # Much higher than the pair's: it only stops one address spraying many accounts it never logged into.
    "address_failures": env.int("LOGIN_ADDRESS_FAILURES", default=100),
    "address_window": timedelta(hours=1),
    "known_address_for": timedelta(days=90),
    "failures_kept_for": timedelta(days=1),
}
# Accounts created from one client address (league/signups.py), counted in the database like the log-in guard.
SIGNUP_THROTTLE = {"per_address": env.int("SIGNUP_PER_ADDRESS_PER_HOUR", default=10), "window": timedelta(hours=1)}
# Password reset by e-mail (league/password_reset.py): a link is valid an hour; at most this many mails an hour
# to one address.
PASSWORD_RESET_TIMEOUT = 60 * 60
PASSWORD_RESET_THROTTLE = {"per_address": env.int("PASSWORD_RESET_PER_ADDRESS_PER_HOUR", default=3)}
# API tokens (django-rest-knox) end this long after they are issued: TOKEN_TTL in days (fractions allowed).
TOKEN_TTL = timedelta(days=env.float("TOKEN_TTL", default=30))
REST_KNOX = {
    "TOKEN_TTL": TOKEN_TTL,
    # A fixed end: using a token does not extend it.
    "AUTO_REFRESH": False,
}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
OPEN_REGISTRATION = env.bool("OPEN_REGISTRATION", default=True)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True

# Uploaded files (team logos) go through Django's storage API: local files under MEDIA_ROOT by
# default; any backend by setting STORAGES["default"] (docs/deploy.md). They are served by the view
# teams/identity/views.py in development and production alike, never from MEDIA_URL directly.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": env("DEFAULT_FILE_STORAGE_BACKEND", default="django.core.files.storage.FileSystemStorage")},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
#: A team logo upload: at most this many bytes and this many pixels a side; stored re-encoded at these sizes.
TEAM_LOGO_MAX_BYTES = env.int("TEAM_LOGO_MAX_BYTES", default=2 * 1024 * 1024)
TEAM_LOGO_MAX_SIDE = env.int("TEAM_LOGO_MAX_SIDE", default=4000)
TEAM_LOGO_SIZES = (256, 64)

# In DEBUG (`make run`) each mail is a file under var/mail/ and one line in the worker's log (dugout/mail_files.py);
# otherwise the console, until EMAIL_BACKEND names a real one (docs/deploy.md).
EMAIL_BACKEND = env(
    "EMAIL_BACKEND",
    default="dugout.mail_files.EmlFileBackend" if DEBUG else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_FILE_PATH = env.path("EMAIL_FILE_PATH", default=VAR_DIR / "mail")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Dugout <dugout@localhost>")
#: The service's address as the world sees it, for links in e-mails, feeds and report pages. Empty: pages and
#: feeds follow the request's own host, and the mailed report (no request) uses
#: dugout.reports.services.MAIL_FALLBACK_URL.
SITE_URL = env("SITE_URL", default="").rstrip("/")
#: The port `make run` serves on, handed to each of its processes: honcho gives every process a PORT of its own
#: (web 8000, worker 8100, beat 8200), so the worker cannot read the web's from PORT.
RUN_PORT = env.int("RUN_PORT", default=None)
if DEBUG and not SITE_URL and RUN_PORT:
    # Under `make run` the one address served is 127.0.0.1:RUN_PORT (runserver binds it alone): the worker's
    # mails, written with no request to follow, link there rather than to the default port.
    SITE_URL = f"http://127.0.0.1:{RUN_PORT}"

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "core.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    # Bodies bounded in size and depth before decoding, control characters refused (core/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "core.api.parsers.BoundedJSONParser",
        "core.api.parsers.GuardedFormParser",
        "core.api.parsers.GuardedMultiPartParser",
    ],
    # Id filters take any integer: an unknown id is an empty page, not a 400 (core/api/filters.py).
    "DEFAULT_FILTER_BACKENDS": ["core.api.filters.IdFilterBackend"],
    # Every operation's error answers documented in one place (core/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "core.api.schema.DugoutAutoSchema",
    "EXCEPTION_HANDLER": "core.api.errors.exception_handler",
    # How many proxies stand in front of Dugout: 0 means throttles and the log-in guard key by the socket
    # address and never trust a client-supplied X-Forwarded-For.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
#: An Idempotency-Key claim still unanswered after this long is a crashed request's; the next repeat runs it
#: (core/idempotency.py). Well above gunicorn's 30 s request timeout.
IDEMPOTENCY_CLAIM_SECONDS = env.int("IDEMPOTENCY_CLAIM_SECONDS", default=120)
SPECTACULAR_SETTINGS = API_SCHEMA_SETTINGS

# --- Production hardening (passes `manage.py check --deploy` when DEBUG is off) --------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Content-Security-Policy and Permissions-Policy ------------------------------------------
# Scripts and styles only from our own files: no inline <script>/<style>, no style= or on*= attributes, no
# eval (htmx's hx-on needs it, so the pages use none; static/js/ holds the handlers). The weekly report's
# page drops the e-mail's inline styles (core/templatetags/dugout_html.py); the Swagger page loads its
# init script as a file (SpectacularSwaggerSplitView). data: images for Swagger UI's inline icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}
# No page uses a device or payment API, so none may, nor an embedded frame.
PERMISSIONS_POLICY = {
    "camera": [],
    "microphone": [],
    "geolocation": [],
    "payment": [],
    "usb": [],
    "interest-cohort": [],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "django.utils.log.AdminEmailHandler",
        },
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    # Django's default "django" logger, less its own console handler (DEBUG only): its records reach the root's
    # too, so each was printed twice under `make run` ("Not Found: …" two times per missing page).
    "loggers": {"django": {"handlers": ["mail_admins"]}},
}

# The league import (POST /api/v1/leagues/import/) reads its body as a stream: its own limit, answered 413.
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=64 * 1024 * 1024)
