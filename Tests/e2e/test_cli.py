"""The command line: exit codes, configuration errors, user administration and one catalog sync.

These run the real binary (WISHLIST_BIN) against a fresh database each; a created user then signs
in through the browser of the running server to show the account is real.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import termios
import time
import urllib.parse
from pathlib import Path

from support import REPO_ROOT, free_port, http_get, sign_in, signed_in_as, unique_username

BINARY = Path(os.environ.get("WISHLIST_BIN", REPO_ROOT / ".build" / "debug" / "wishlist"))


def environment(env: dict[str, str] | None) -> dict[str, str]:
    """This process's environment without the app's own settings, plus `env`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("WISHLIST_", "NYT_"))}
    clean.update(env or {})
    return clean


def run(*arguments: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BINARY), *arguments], input=stdin, capture_output=True, text=True,
        cwd=REPO_ROOT, env=environment(env), timeout=60,
    )


def test_usage_errors_exit_2_and_failures_exit_1(tmp_path: Path) -> None:
    usage = run("--no-such-flag")
    assert usage.returncode == 2
    assert "Unknown option" in usage.stderr

    bad_config = run("migrate", "--database", str(tmp_path / "db.sqlite"), env={"WISHLIST_PORT": "eighty"})
    assert bad_config.returncode == 1
    lines = [line for line in bad_config.stderr.splitlines() if line.strip()]
    assert lines == ['Error: configuration: server.port: expected a whole number from 1 to 65535, got "eighty"']

    assert run("--help").returncode == 0


def test_a_link_template_that_is_not_https_stops_the_server_at_start(tmp_path: Path) -> None:
    """Issue 52: `books.borrowLinks` takes https templates only; `serve` stops before listening,
    with one line naming the key, the entry and the problem."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"books": {"borrowLinks": [{"name": "Our library", "url": "http://library.example/{isbn13}"}]}}))
    result = run("serve", "--config", str(config), "--database", str(tmp_path / "db.sqlite"), "--port", "1")
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [
        'Error: configuration: books.borrowLinks: entry 1 ("Our library") must be an https URL with a host, got "http://library.example/{isbn13}"'
    ]


def test_migrate_creates_the_schema(tmp_path: Path) -> None:
    database = tmp_path / "nested" / "db.sqlite"
    result = run("migrate", "--database", str(database))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(database) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"user", "session", "wishlist_item", "catalog_list"} <= tables


def test_user_create_reset_and_delete(tmp_path: Path) -> None:
    database = str(tmp_path / "users.sqlite")
    name = unique_username("cli")
    created = run("user", "create", name, "--password-stdin", "--database", database, stdin="first password\n")
    assert created.returncode == 0, created.stderr
    assert run("user", "create", name, "--password-stdin", "--database", database, stdin="first password\n").returncode == 1
    assert run("user", "create", "x", "--password-stdin", "--database", database, stdin="first password\n").returncode == 1
    with sqlite3.connect(database) as db:
        (stored,) = db.execute("SELECT password_hash FROM user WHERE username = ?", (name,)).fetchone()
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")

    reset = run("user", "reset-password", name, "--password-stdin", "--database", database, stdin="second password\n")
    assert reset.returncode == 0, reset.stderr
    with sqlite3.connect(database) as db:
        (changed,) = db.execute("SELECT password_hash FROM user WHERE username = ?", (name,)).fetchone()
    assert changed != stored

    assert run("user", "delete", name, "--database", database).returncode == 0
    missing = run("user", "delete", name, "--database", database)
    assert missing.returncode == 1
    assert f"no user named {name}" in missing.stderr


def test_a_user_made_on_the_command_line_can_sign_in(server: str, browser) -> None:
    # With sign-up closed, accounts are made on the command line, against the server's database.
    name = unique_username("admin")
    server_db = os.environ.get("WISHLIST_E2E_DATABASE")
    assert server_db, "the server fixture exports WISHLIST_E2E_DATABASE"
    created = run("user", "create", name, "--password-stdin", "--database", server_db, stdin="made on the command line\n")
    assert created.returncode == 0, created.stderr
    sign_in(browser, name, "made on the command line")
    assert signed_in_as(browser) == name


class Terminal:
    """`wishlist` run at a terminal, as a person at a shell runs it: a pseudo-terminal is its
    standard input, output and error. `shown` is everything the terminal displayed, the line
    discipline's echo of what was typed included."""

    DEADLINE_S = 30.0

    def __init__(self, *arguments: str) -> None:
        # The test keeps the terminal's own side open too, to read its settings (termios) while the
        # command waits for input.
        self.master, self.terminal = os.openpty()
        self.process = subprocess.Popen(
            [str(BINARY), *arguments], stdin=self.terminal, stdout=self.terminal, stderr=self.terminal,
            cwd=REPO_ROOT, env=environment({}), start_new_session=True,
        )
        self.shown = b""

    def _read(self, wait_s: float) -> None:
        ready, _, _ = select.select([self.master], [], [], wait_s)
        if ready:
            self.shown += os.read(self.master, 4096)

    def echoes(self) -> bool:
        return bool(termios.tcgetattr(self.terminal)[3] & termios.ECHO)

    def wait_for_password_prompt(self, prompt: bytes) -> None:
        """Returns once `prompt` is shown and the terminal has stopped echoing: the command turns
        echo off just after writing the prompt, and typing before that would be discarded."""
        deadline = time.monotonic() + self.DEADLINE_S
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the command exited with {self.process.returncode}:\n{self.shown.decode(errors='replace')}"
            if self.shown.endswith(prompt) and not self.echoes():
                return
            self._read(0.05)
        raise AssertionError(
            f"no {prompt!r} with echo off within {self.DEADLINE_S:.0f} s (echo {'on' if self.echoes() else 'off'}); "
            f"the terminal shows:\n{self.shown.decode(errors='replace')}")

    def type_line(self, text: str) -> None:
        # Enter sends a carriage return; the terminal turns it into the newline the command reads.
        os.write(self.master, text.encode() + b"\r")

    def finish(self) -> int:
        """Waits for the command to exit, reading what it shows meanwhile, then the rest."""
        deadline = time.monotonic() + self.DEADLINE_S
        while self.process.poll() is None:
            assert time.monotonic() < deadline, f"the command did not exit:\n{self.shown.decode(errors='replace')}"
            self._read(0.05)
        before = None
        while before != len(self.shown):
            before = len(self.shown)
            self._read(0.05)
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.terminal)


def create_at_a_terminal(database: str, name: str, first: str, second: str) -> tuple[int, str, bool]:
    """`wishlist user create NAME` at a terminal, typing `first` and then `second` at its prompts
    once each waits with echo off. Returns the exit code, what the terminal showed and whether
    echo was back on afterwards."""
    terminal = Terminal("user", "create", name, "--database", database)
    try:
        terminal.wait_for_password_prompt(b"Password: ")
        terminal.type_line(first)
        terminal.wait_for_password_prompt(b"Password again: ")
        terminal.type_line(second)
        code = terminal.finish()
        return code, terminal.shown.decode(errors="replace"), terminal.echoes()
    finally:
        terminal.close()


def test_user_create_at_a_terminal_asks_twice_without_echo(server: str, browser) -> None:
    name = unique_username("tty")
    password = "typed-at-the-terminal-Qx7"
    server_db = os.environ.get("WISHLIST_E2E_DATABASE")
    assert server_db, "the server fixture exports WISHLIST_E2E_DATABASE"
    code, shown, echo_restored = create_at_a_terminal(server_db, name, password, password)
    assert code == 0, shown
    assert f"created user {name}" in shown
    assert password not in shown, "the password was shown on the terminal"
    assert echo_restored, "the terminal was left without echo"
    # The account has the password typed, not some other reading of the keystrokes.
    sign_in(browser, name, password)
    assert signed_in_as(browser) == name


def test_user_create_at_a_terminal_refuses_two_different_passwords(tmp_path: Path) -> None:
    database = str(tmp_path / "tty.sqlite")
    name = unique_username("tty")
    code, shown, echo_restored = create_at_a_terminal(database, name, "first-typing-Kd81", "second-typing-Kd82")
    assert code == 1
    assert "the two passwords differ" in shown
    assert "first-typing" not in shown and "second-typing" not in shown
    assert echo_restored
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM user WHERE username = ?", (name,)).fetchone() == (0,)


def test_sync_loads_the_sample_and_fails_with_exit_1_when_the_api_is_unreachable(tmp_path: Path) -> None:
    database = str(tmp_path / "sync.sqlite")
    sample = run("sync", "--database", database)
    assert sample.returncode == 0, sample.stderr
    assert "6 lists updated" in sample.stdout

    closed_port = free_port()  # a loopback port nobody listens on
    unreachable = run(
        "sync", "--database", database,
        env={"NYT_API_KEY": "secret-key-never-printed", "NYT_BASE_URL": f"http://127.0.0.1:{closed_port}/svc/books/v3"},
    )
    assert unreachable.returncode == 1
    assert "the NYT API could not be reached" in unreachable.stderr
    assert "secret-key-never-printed" not in unreachable.stdout + unreachable.stderr


def wait_until_serving(server: subprocess.Popen, base_url: str, log: Path) -> None:
    """Returns once /healthz answers 200; fails with the server's output if it exits or never does."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server exited with {server.returncode}:\n{log.read_text()}"
        try:
            if http_get(base_url + "/healthz", timeout=2.0)[0] == 200:
                return
        except OSError:  # still binding
            pass
        try:
            server.wait(timeout=0.1)  # the pause between polls, cut short if the server dies
        except subprocess.TimeoutExpired:
            pass
    raise AssertionError(f"the server did not answer /healthz within 30 s:\n{log.read_text()}")


# A bound between two lengths, not a measurement of "at once": far longer than stopping takes on a
# loaded machine, yet short of libcurl's 30-second timeout, counted from the refresh's request,
# until which a refresh that shutdown failed to cancel would hold the process.
SIGTERM_DURING_A_REFRESH_DEADLINE_S = 20


def test_sigterm_during_a_catalog_refresh_stops_the_server_at_once(tmp_path: Path) -> None:
    # An "NYT API" that accepts the connection and never answers: without cancellation the
    # refresh would hold the process for libcurl's 30-second timeout.
    with socket.socket() as silent_api:
        silent_api.bind(("127.0.0.1", 0))
        silent_api.listen()
        silent_api.settimeout(30)
        port = free_port()
        log = tmp_path / "server.log"
        env = {
            "NYT_API_KEY": "secret-key-never-printed",
            "NYT_BASE_URL": f"http://127.0.0.1:{silent_api.getsockname()[1]}/svc/books/v3",
        }
        with open(log, "wb") as output:
            server = subprocess.Popen(
                [str(BINARY), "serve", "--port", str(port), "--database", str(tmp_path / "db.sqlite")],
                cwd=REPO_ROOT, env=environment(env), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
            )
        try:
            wait_until_serving(server, f"http://127.0.0.1:{port}", log)
            connection, _ = silent_api.accept()  # the refresh's first request is under way
            with connection:
                server.send_signal(signal.SIGTERM)
                try:
                    code = server.wait(timeout=SIGTERM_DURING_A_REFRESH_DEADLINE_S)
                except subprocess.TimeoutExpired:
                    code = None
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    output = log.read_text()
    assert code == 0, (f"the server was still running {SIGTERM_DURING_A_REFRESH_DEADLINE_S} s after SIGTERM, "
                       f"or failed (code {code}):\n{output}")
    assert "catalog refresh stopped for shutdown" in output
    assert "secret-key-never-printed" not in output


def unread_bytes(server_port: int, client_port: int) -> int:
    """How many bytes the client at `client_port` sent that the server at `server_port` has not yet
    read from its socket (the receive queue in /proc/net/tcp, Linux only)."""
    wanted = (f"0100007F:{server_port:04X}", f"0100007F:{client_port:04X}")
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1], fields[2]) == wanted:
            return int(fields[4].split(":")[1], 16)
    raise AssertionError(f"no connection from {client_port} to {server_port} in /proc/net/tcp")


def refuses_connections(port: int) -> bool:
    """Whether nothing takes connections on `port`. A connection that reaches the listening socket's
    queue as the server closes it is reset, not refused: either says it is no longer taken."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        return False
    except (ConnectionRefusedError, ConnectionResetError):
        return True


def test_sigterm_lets_a_request_whose_body_is_still_arriving_finish(tmp_path: Path) -> None:
    """A sign-up whose head and half its body are in when SIGTERM comes: the server stops taking
    connections, takes the rest of the body, answers, stores the account, and exits 0."""
    port = free_port()
    database = tmp_path / "db.sqlite"
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--database", str(database)],
            cwd=REPO_ROOT, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(server, f"http://127.0.0.1:{port}", log)
        # A sign-up: a request that writes, whose form needs the page's cookie and token first.
        status, headers, page = http_get(f"http://127.0.0.1:{port}/signup")
        assert status == 200
        cookie = headers["set-cookie"].split(";", 1)[0]
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        name = unique_username("sigterm")
        body = urllib.parse.urlencode({
            "csrf_token": token, "invite": "", "username": name, "email": "",
            "password": "finished after SIGTERM", "password_confirm": "finished after SIGTERM",
        }).encode()
        head = (f"POST /signup HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(head + body[: len(body) // 2])
            # The request is in flight once the server has read its head: Hummingbird counts a
            # request from its head on, and shutting down waits for those but closes connections
            # with none. The socket's receive queue says when the server has read what was sent.
            deadline = time.monotonic() + 10
            while unread_bytes(port, client.getsockname()[1]) > 0:
                assert time.monotonic() < deadline, "the server did not read the request's head within 10 s"
                time.sleep(0.01)
            server.send_signal(signal.SIGTERM)
            # Shutting down has begun once the server stops accepting connections.
            deadline = time.monotonic() + 10
            while not refuses_connections(port):
                assert server.poll() is None, f"the server exited with {server.returncode} before the request finished"
                assert time.monotonic() < deadline, "the server still accepted connections 10 s after SIGTERM"
                time.sleep(0.01)
            response = b""
            try:
                client.sendall(body[len(body) // 2:])
                while chunk := client.recv(65536):
                    response += chunk
            except ConnectionError:  # the server went away without answering
                pass
        code = server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    output = log.read_text()
    status_line = response.split(b"\r\n", 1)[0].decode(errors="replace")
    assert status_line == "HTTP/1.1 303 See Other", f"{status_line!r}\n{output}"
    assert code == 0, f"exit code {code} after SIGTERM:\n{output}"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM user WHERE username = ?", (name,)).fetchone() == (1,), "the sign-up was not stored"


def test_admins_are_made_promoted_and_demoted_but_never_the_last(tmp_path: Path) -> None:
    database = str(tmp_path / "admins.sqlite")
    first, second = unique_username("adm"), unique_username("adm")
    made = run("user", "create", first, "--admin", "--password-stdin", "--database", database, stdin="an admin password\n")
    assert made.returncode == 0 and f"created admin {first}" in made.stdout, made.stderr
    assert run("user", "create", second, "--password-stdin", "--database", database, stdin="a user password\n").returncode == 0

    def admins() -> set[str]:
        with sqlite3.connect(database) as db:
            return {row[0] for row in db.execute("SELECT username FROM user WHERE is_admin")}

    assert admins() == {first}
    last = run("user", "demote", first, "--database", database)
    assert last.returncode == 1 and f"{first} is the only admin" in last.stderr
    assert run("user", "promote", second, "--database", database).returncode == 0
    assert run("user", "demote", first, "--database", database).returncode == 0
    assert admins() == {second}
    missing = run("user", "promote", "nobody-here", "--database", database)
    assert missing.returncode == 1 and "no user named nobody-here" in missing.stderr
    assert run("user", "promote", "--database", database).returncode == 2, "the name is required"
    assert run("user", "promote", first, second, "--database", database).returncode == 2, "one name at a time"
    assert run("user", "create", "x", "--admin", "--password-stdin", "--database", database, stdin="long enough\n").returncode == 1
    with sqlite3.connect(database) as db:
        log = [row[0] for row in db.execute("SELECT action || ' ' || subject FROM audit_event ORDER BY id")]
    assert log == [f"made admin {second}", f"no longer admin {first}"]


def test_sync_with_history_plans_then_back_fills_and_refuses_a_bad_count(tmp_path: Path) -> None:
    database = str(tmp_path / "history.sqlite")
    result = run("sync", "--history", "3", "--database", database)
    assert result.returncode == 0, result.stderr
    assert re.search(r"back-fill: at most \d+ requests, about 0 minutes at 5 a minute", result.stdout), result.stdout
    assert "back-fill made 0 API requests" in result.stdout, "the sample costs no requests"
    with sqlite3.connect(database) as db:
        (editions,) = db.execute("SELECT COUNT(*) FROM edition WHERE list_name_encoded = 'hardcover-fiction'").fetchone()
    assert editions == 8, "the sample's whole history"
    assert run("sync", "--history", "0", "--database", database).returncode == 2
    assert run("sync", "--history", "many", "--database", database).returncode == 2


def test_user_passkeys_lists_and_removes_and_a_password_reset_leaves_them(tmp_path: Path) -> None:
    """Lost-device recovery from the command line. Registering needs a browser (test_passkeys.py),
    so the two passkeys are written into the database as a registration stores them."""
    database = str(tmp_path / "passkeys.sqlite")
    name = unique_username("pk")
    assert run("user", "create", name, "--password-stdin", "--database", database, stdin="first password\n").returncode == 0
    with sqlite3.connect(database) as db:
        (user_id,) = db.execute("SELECT id FROM user WHERE username = ?", (name,)).fetchone()
        db.execute("INSERT INTO passkey_user (user_id, handle) VALUES (?, ?)", (user_id, os.urandom(32)))
        for label, used in [("Phone", "2026-11-20 10:00:00.000"), ("Laptop", None)]:
            db.execute(
                "INSERT INTO passkey (user_id, credential_id, public_key, sign_count, name, created_at, last_used_at) "
                "VALUES (?, ?, x'a0', 0, ?, '2026-11-01 09:00:00.000', ?)", (user_id, os.urandom(16), label, used))
        ids = [row[0] for row in db.execute("SELECT id FROM passkey ORDER BY id")]

    listed = run("user", "passkeys", name, "--database", database)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines == [f"{ids[0]}\tPhone\tadded 2026-11-01\tlast used 2026-11-20", f"{ids[1]}\tLaptop\tadded 2026-11-01\tlast used never"]

    reset = run("user", "reset-password", name, "--password-stdin", "--database", database, stdin="second password\n")
    assert reset.returncode == 0, reset.stderr
    assert run("user", "passkeys", name, "--database", database).stdout.splitlines() == lines, "a password reset keeps passkeys"

    removed = run("user", "passkeys", name, "--remove", str(ids[0]), "--database", database)
    assert removed.returncode == 0 and f"removed passkey {ids[0]} of {name}" in removed.stdout
    assert run("user", "passkeys", name, "--database", database).stdout.splitlines() == lines[1:]
    again = run("user", "passkeys", name, "--remove", str(ids[0]), "--database", database)
    assert again.returncode == 1 and f"has no passkey number {ids[0]}" in again.stderr
    assert run("user", "passkeys", "nobody-here", "--database", database).returncode == 1
    run("user", "passkeys", name, "--remove", str(ids[1]), "--database", database)
    assert run("user", "passkeys", name, "--database", database).stdout.strip() == f"{name} has no passkeys"
