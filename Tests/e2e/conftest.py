"""Fixtures for the browser tests: a real `wishlist serve` and a headless Debian Chromium per test."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from support import (
    DEFAULT_WINDOW, PASSWORD, REPO_ROOT, Browser, free_port, http_get, new_chromium, sign_in, sign_up, unique_username,
)

STARTUP_DEADLINE_S = 30.0
SHUTDOWN_DEADLINE_S = 5.0


# Test files whose tests share one browser, one household and one report, which two workers would
# each make and both write, and so run on one worker when pytest-xdist spreads the tests over
# workers (`make e2e`: two). Every other test goes to whichever worker is free.
ONE_WORKER_FILES = ("test_accessibility.py", "test_languages_walk.py")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; unused under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist load` (what `-n N` picks), except that each of ONE_WORKER_FILES is one unit of work.

    Not `--dist loadgroup` with an `xdist_group` mark: pytest-xdist 3.8 marks the groups by
    rewriting each test's node id, which pytest 9.2 no longer lets it do, so the groups are
    silently split (pytest-xdist issue 1386). Not `--dist loadfile`: whole files as units leave
    one worker idle for the last half minute or so.
    """
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerFiles(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path.endswith(ONE_WORKER_FILES) else nodeid

    return OneWorkerFiles(config, log)


def _public_url(port: int) -> str:
    """The origin the server is told browsers use (`server.publicURL`): passkeys are bound to its
    host, and browsers refuse an IP address there, so it is localhost rather than 127.0.0.1."""
    return f"http://localhost:{port}"


def _output(log_path: Path) -> str:
    text = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    return text[-8000:] or "(no output)"


def _wait_until_healthy(proc: subprocess.Popen, base_url: str, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    last_problem = "no answer yet"
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            pytest.fail(
                f"`wishlist serve` exited with code {code} before /healthz answered.\n"
                f"--- server output ---\n{_output(log_path)}",
                pytrace=False,
            )
        try:
            status, _, _ = http_get(base_url + "/healthz", timeout=2.0)
            if status == 200:
                return
            last_problem = f"/healthz answered {status}"
        except OSError as error:  # refused while the server is still binding, resets, timeouts
            last_problem = f"{type(error).__name__}: {error}"
        try:
            proc.wait(timeout=0.1)  # the pause between polls, cut short if the server dies
        except subprocess.TimeoutExpired:
            pass
    pytest.fail(
        f"`wishlist serve` did not answer 200 on /healthz within {STARTUP_DEADLINE_S:.0f} s "
        f"({last_problem}).\n--- server output ---\n{_output(log_path)}",
        pytrace=False,
    )


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Starts `wishlist serve` on a free loopback port with a fresh database; yields its base URL.

    Session-scoped, so under pytest-xdist each worker has a server, a temporary folder and a
    database of its own (and its own `reader`), and tests on one worker never see the other's.

    The NYT key is removed from the environment, so the app serves its bundled sample catalog.
    The base URL is http://127.0.0.1:{port}; the server's public URL (`public_url`, for passkeys)
    is the same server at http://localhost:{port}.
    Teardown sends SIGTERM and requires a clean exit (code 0) within five seconds.
    """
    binary = Path(os.environ.get("WISHLIST_BIN", REPO_ROOT / ".build" / "debug" / "wishlist"))
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.fail(f"no wishlist executable at {binary}: build it first or set WISHLIST_BIN", pytrace=False)

    workdir = tmp_path_factory.mktemp("server")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    env = dict(os.environ)
    env.pop("NYT_API_KEY", None)
    env.pop("OPENLIBRARY_BASE_URL", None)
    # Every test signs up from 127.0.0.1; the default 10 sign-ups per address would run out.
    # Passkeys are bound to the public URL's host, which browsers require to be a name.
    config = workdir / "config.json"
    config.write_text(json.dumps({
        "accounts": {"signupsPerAddress": 500},
        "server": {"publicURL": _public_url(port)},
        # Nothing a test does reaches beyond this machine; test_any_book.py looks up in a fake.
        "openLibrary": {"baseURL": ""},
    }), encoding="utf-8")
    command = [
        str(binary), "serve",
        "--config", str(config),
        "--host", "127.0.0.1",
        "--port", str(port),
        "--database", str(workdir / "e2e.sqlite"),
    ]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env,
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_healthy(proc, base_url, log_path)
    except BaseException:
        _kill(proc)
        raise

    # For tests that administer the running server's database on the command line.
    os.environ["WISHLIST_E2E_DATABASE"] = str(workdir / "e2e.sqlite")
    yield base_url

    if proc.poll() is not None:
        pytest.fail(
            f"the server died during the tests (code {proc.returncode}).\n"
            f"--- server output ---\n{_output(log_path)}",
            pytrace=False,
        )
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=SHUTDOWN_DEADLINE_S)
    except subprocess.TimeoutExpired:
        code = None
    if code is None:
        _kill(proc)
        pytest.fail(
            f"the server was still running {SHUTDOWN_DEADLINE_S:.0f} s after SIGTERM.\n"
            f"--- server output ---\n{_output(log_path)}",
            pytrace=False,
        )
    assert code == 0, f"the server exited with code {code} after SIGTERM.\n--- server output ---\n{_output(log_path)}"


@pytest.fixture(scope="session")
def public_url(server: str) -> str:
    """The running server at its public URL, http://localhost:{port}: where passkeys work.

    Cookies are host-only, so a test that starts on one of the two hosts stays on it.
    """
    port = urlsplit(server).port
    assert port is not None, server
    return _public_url(port)


# Where the server looks for the outside services. A server started by `configured_server` must take
# them from its config file alone, whatever the shell running the tests has set.
SERVICE_VARIABLES = (
    "NYT_API_KEY", "NYT_BASE_URL", "OPENLIBRARY_BASE_URL", "OPENLIBRARY_COVERS_URL",
    "WISHLIST_SMTP_URL", "WISHLIST_SMTP_USERNAME", "WISHLIST_SMTP_PASSWORD", "WISHLIST_MAIL_FROM",
)


@pytest.fixture(scope="session")
def configured_server(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, dict], AbstractContextManager[str]]:
    """Starts a server of a test's own: `with configured_server("name", settings) as base_url:`.

    It runs as `server` does (a free loopback port, a fresh database in a temporary folder named
    after `name`, 500 sign-ups per address, the public URL on localhost) with `settings` (nested
    as in the config file) added to its config file, and without SERVICE_VARIABLES in its
    environment. Leaving the block sends SIGTERM and requires exit code 0 within five seconds.
    With `workdir`, that folder is used (and kept) instead: a second run there finds the first
    run's database, as a restarted server does; `workdir / "server.log"` has both runs' output.
    """
    binary = Path(os.environ.get("WISHLIST_BIN", REPO_ROOT / ".build" / "debug" / "wishlist"))
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.fail(f"no wishlist executable at {binary}: build it first or set WISHLIST_BIN", pytrace=False)

    @contextmanager
    def run(name: str, settings: dict, workdir: Path | None = None) -> Iterator[str]:
        workdir = workdir or tmp_path_factory.mktemp(name)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        log_path = workdir / "server.log"
        env = {key: value for key, value in os.environ.items() if key not in SERVICE_VARIABLES}
        config: dict[str, dict] = {
            "accounts": {"signupsPerAddress": 500},
            "server": {"publicURL": _public_url(port)},
        }
        for section, values in settings.items():
            config.setdefault(section, {}).update(values)
        (workdir / "config.json").write_text(json.dumps(config), encoding="utf-8")
        command = [
            str(binary), "serve",
            "--config", str(workdir / "config.json"),
            "--host", "127.0.0.1",
            "--port", str(port),
            "--database", str(workdir / "e2e.sqlite"),
        ]
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                command, cwd=REPO_ROOT, env=env,
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            )
        try:
            _wait_until_healthy(proc, base_url, log_path)
        except BaseException:
            _kill(proc)
            raise
        try:
            yield base_url
        finally:
            _stop_cleanly(proc, log_path)

    return run


def _stop_cleanly(proc: subprocess.Popen, log_path: Path) -> None:
    """SIGTERM, then exit code 0 within SHUTDOWN_DEADLINE_S; otherwise the test fails with the output."""
    if proc.poll() is not None:
        pytest.fail(
            f"the server died during the test (code {proc.returncode}).\n--- server output ---\n{_output(log_path)}",
            pytrace=False,
        )
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=SHUTDOWN_DEADLINE_S)
    except subprocess.TimeoutExpired:
        _kill(proc)
        pytest.fail(
            f"the server was still running {SHUTDOWN_DEADLINE_S:.0f} s after SIGTERM.\n--- server output ---\n{_output(log_path)}",
            pytrace=False,
        )
    assert code == 0, f"the server exited with code {code} after SIGTERM.\n--- server output ---\n{_output(log_path)}"


@pytest.fixture
def browser(server: str, request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A fresh headless Chromium per test, its viewport 1280 x 900 until the test resizes it."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        session = Browser(driver, server, request.node.name)
        session.resize(*DEFAULT_WINDOW)
        yield session
    finally:
        driver.quit()


# Accounts. Sign-ups are throttled per client address (10 per 15 minutes by default) and every test
# talks to the server from 127.0.0.1, so tests share one account wherever they only read, and make
# their own only when they change something that belongs to the user (favourites, the wishlist).


@pytest.fixture(scope="session")
def reader(server: str) -> tuple[str, str]:
    """(username, password) of one account, made once through the real sign-up form."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        session = Browser(driver, server, "reader-account")
        session.resize(*DEFAULT_WINDOW)
        username = unique_username("reader")
        sign_up(session, username)
    finally:
        driver.quit()
    return username, PASSWORD


@pytest.fixture
def signed_in(browser: Browser, reader: tuple[str, str]) -> Browser:
    """The test's browser, signed in through the sign-in form as the shared `reader` account."""
    sign_in(browser, *reader)
    assert browser.path == "/lists", f"signing in led to {browser.driver.current_url}"
    return browser


@pytest.fixture
def new_account(browser: Browser) -> str:
    """Signs the test's browser up as a brand-new user (through the form) and returns the username."""
    username = unique_username("e2e")
    sign_up(browser, username)
    return username
