#!/usr/bin/env python3
"""Prepares and serves the Django peer of the list-page benchmark, in the foreground.

    python3 Benchmarks/peers/django/run.py --database PATH --port PORT --state DIR

1. makes the virtual environment .venv beside this file from requirements.txt when it is missing
   or the requirements changed (pip, from PyPI);
2. migrates the peer's own tables (auth, sessions, content types) into DIR/peer.sqlite3;
3. makes the Django user `bench` (password `bench-password-2026`), which maps by username onto
   the `user` row of the same name in our database (it must exist there);
4. replaces itself with gunicorn (exec: same process id), sync workers, 2 x cores + 1 of them,
   bound to 127.0.0.1:PORT. SIGTERM stops it (gunicorn's graceful shutdown).

A benchmark driver can Popen this, wait for a 200 on /healthz (or /login), sign in with
`sign_in(port)` below (import this file as a module), and SIGTERM it afterwards. Our database is
only read. Python 3 standard library only (this file runs outside the virtual environment).
"""
import argparse
import hashlib
import http.client
import os
import re
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, ".venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
USERNAME = "bench"
PASSWORD = "bench-password-2026"
LIST_PATH = "/lists/hardcover-fiction"


def log(message):
    print(f"[django-peer] {message}", file=sys.stderr, flush=True)


def default_workers():
    """gunicorn's suggestion: (2 x cores) + 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return 2 * cores + 1


def ensure_venv(python=sys.executable):
    """The virtual environment, installed from requirements.txt unless it already matches it."""
    with open(REQUIREMENTS, "rb") as requirements:
        wanted = hashlib.sha256(requirements.read()).hexdigest()
    marker = os.path.join(VENV, ".requirements.sha256")
    try:
        with open(marker) as installed:
            if installed.read().strip() == wanted and os.path.exists(VENV_PYTHON):
                return
    except OSError:
        pass
    if not os.path.exists(VENV_PYTHON):
        log(f"making {os.path.relpath(VENV)} with {python}")
        subprocess.run([python, "-m", "venv", VENV], check=True)
    log("installing requirements.txt")
    subprocess.run([VENV_PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS],
                   check=True)
    with open(marker, "w") as out:
        out.write(wanted + "\n")


def environment(database, state, sample_data=True):
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "peer.settings",
        "WISHLIST_PEER_DATABASE": os.path.abspath(database),
        "WISHLIST_PEER_STATE": os.path.abspath(state),
        "WISHLIST_PEER_SAMPLE_DATA": "1" if sample_data else "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    return env


def manage(env, *arguments, stdin=None):
    result = subprocess.run([VENV_PYTHON, os.path.join(HERE, "manage.py"), *arguments], cwd=HERE, env=env,
                            input=stdin, text=True, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"django-peer: manage.py {' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def prepare(database, state, username=USERNAME, password=PASSWORD, sample_data=True):
    """Everything before serving; returns the environment to serve with."""
    if not os.path.isfile(database):
        sys.exit(f"django-peer: no database at {database}")
    os.makedirs(state, exist_ok=True)
    ensure_venv()
    env = environment(database, state, sample_data)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    log(manage(env, "peer_user", username, "--password-stdin", stdin=password + "\n").strip())
    return env


def gunicorn_argv(port, workers=None):
    return [os.path.join(VENV, "bin", "gunicorn"), "peer.wsgi:application",
            "--chdir", HERE,
            "--bind", f"127.0.0.1:{port}",
            "--worker-class", "sync",
            "--workers", str(workers or default_workers()),
            "--error-logfile", "-", "--log-level", "warning"]


# MARK: - Signing in (for a driver: standard library only)

def _request(port, method, path, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        page = response.read().decode("utf-8", "replace")
        cookies = {}
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                if "=" in pair:
                    key, val = pair.split("=", 1)
                    cookies[key.strip()] = val.strip()
        return response.status, page, cookies
    finally:
        connection.close()


def sign_in(port, username=USERNAME, password=PASSWORD, next_path=LIST_PATH):
    """Signs in through Django's LoginView; returns the cookies a signed-in browser sends,
    {"csrftoken": ..., "sessionid": ...} (the CSRF secret is rotated at sign-in, so the new one)."""
    status, page, cookies = _request(port, "GET", "/login")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or "csrftoken" not in cookies or not token:
        raise RuntimeError(f"GET /login answered {status} without a CSRF cookie and token")
    body = urllib.parse.urlencode({"username": username, "password": password, "next": next_path,
                                   "csrfmiddlewaretoken": token.group(1)})
    status, _, new_cookies = _request(port, "POST", "/login", {
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={cookies['csrftoken']}"}, body)
    if status != 302 or "sessionid" not in new_cookies:
        raise RuntimeError(f"POST /login answered {status} without a session cookie")
    return {"csrftoken": new_cookies.get("csrftoken", cookies["csrftoken"]), "sessionid": new_cookies["sessionid"]}


def cookie_header(cookies):
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="our app's SQLite database (read only)")
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--state", required=True, help="a directory for the peer's own database and secret key")
    parser.add_argument("--workers", type=int, default=None, help=f"gunicorn workers (default 2 x cores + 1 = {default_workers()})")
    parser.add_argument("--username", default=USERNAME)
    parser.add_argument("--password", default=PASSWORD)
    parser.add_argument("--no-sample-data", action="store_true", help="leave out the sample-catalog banner")
    parser.add_argument("--prepare-only", action="store_true", help="prepare, then exit without serving")
    options = parser.parse_args()
    env = prepare(options.database, options.state, options.username, options.password, not options.no_sample_data)
    if options.prepare_only:
        return
    argv = gunicorn_argv(options.port, options.workers)
    log(f"serving on http://127.0.0.1:{options.port}/ with {argv[argv.index('--workers') + 1]} sync workers")
    os.chdir(HERE)
    os.execve(argv[0], argv, env)


if __name__ == "__main__":
    main()
