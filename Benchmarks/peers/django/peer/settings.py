"""Settings of the Django peer: the list page of Bestseller Wishlist, written the way Django's
documentation teaches, to be benchmarked beside our app (Benchmarks/peers/django/README.md).

Two databases: `default` is the peer's own SQLite file (Django's auth, sessions and content types,
made by `manage.py migrate`), and `wishlist` is our app's SQLite database, read through unmanaged
models (bestsellers/models.py) that bestsellers/routers.py sends there.

The environment names the files: WISHLIST_PEER_DATABASE (our database, required) and
WISHLIST_PEER_STATE (a directory for the peer's own database and secret key). run.py sets both.
"""
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ.get("WISHLIST_PEER_STATE") or BASE_DIR / ".state")
STATE_DIR.mkdir(parents=True, exist_ok=True)

try:
    WISHLIST_DATABASE = os.environ["WISHLIST_PEER_DATABASE"]
except KeyError:
    raise ImproperlyConfigured("Set WISHLIST_PEER_DATABASE to the app's SQLite database (run.py does).") from None


def _secret_key():
    """One random key per state directory, kept in a file so that every worker and every restart
    signs sessions alike."""
    path = STATE_DIR / "secret_key"
    try:
        with open(path, "x") as out:
            out.write(secrets.token_urlsafe(50))
    except FileExistsError:
        pass
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "bestsellers",
]

# The middleware `django-admin startproject` generates, as generated.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "peer.urls"
WSGI_APPLICATION = "peer.wsgi.application"

# With DEBUG off, Django compiles each template once per process (the cached loader).
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "bestsellers.context_processors.site",
            ],
        },
    },
]

# Persistent connections, as the deployment checklist suggests: each sync worker keeps its two
# SQLite connections open between requests instead of opening the files for every request.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE_DIR / "peer.sqlite3",
        "CONN_MAX_AGE": 600,
    },
    "wishlist": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": WISHLIST_DATABASE,
        "CONN_MAX_AGE": 600,
    },
}
DATABASE_ROUTERS = ["bestsellers.routers.WishlistRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's defaults, spelled out: database-backed sessions in the `default` database, the
# `sessionid` and `csrftoken` cookies, the CSRF secret kept in its cookie.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_NAME = "sessionid"
CSRF_COOKIE_NAME = "csrftoken"

LOGIN_URL = "/login"
LOGIN_REDIRECT_URL = "/lists/hardcover-fiction"
LOGOUT_REDIRECT_URL = "/login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Our app shows the "Sample data" banner when it runs without an NYT API key, as the benchmark does.
WISHLIST_SAMPLE_DATA = os.environ.get("WISHLIST_PEER_SAMPLE_DATA", "1") != "0"

# DEBUG is off, so say on standard error (gunicorn's error log) what went wrong in a request.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
