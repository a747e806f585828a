"""What the scan and the crash test share: a `wishlist serve` on a free loopback port with its own
temporary database, and a tiny cookie-keeping HTTP client that knows the page's CSRF token.

Standard library only, so the attack tests need no virtual environment. Every address used here is
127.0.0.1; every wait has a deadline.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = REPO_ROOT / ".build" / "debug" / "wishlist"
HOST = "127.0.0.1"
COOKIE = "wishlist_session"
STARTUP_DEADLINE_S = 30.0
REQUEST_TIMEOUT_S = 10.0

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Failure(Exception):
    """A problem that ends the run with a one-line explanation (exit code 1)."""


def binary() -> Path:
    path = Path(os.environ.get("WISHLIST_BIN", DEFAULT_BINARY))
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise Failure(f"no wishlist executable at {path}: run `swift build --product wishlist` or set WISHLIST_BIN")
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def server_env() -> dict[str, str]:
    """The environment without an NYT key (the sample catalog), without proxies, and with Open
    Library look-up at a closed loopback port, so nothing an attack types leaves the machine."""
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.pop("NYT_API_KEY", None)
    env.pop("NYT_BASE_URL", None)
    env["OPENLIBRARY_BASE_URL"] = "http://127.0.0.1:9"
    env["OPENLIBRARY_COVERS_URL"] = "http://127.0.0.1:9"
    return env


def create_user(database: Path, username: str, password: str, config: Path | None = None, admin: bool = False) -> None:
    command = [str(binary()), "user", "create", username, "--password-stdin", "--database", str(database)]
    if config:
        command += ["--config", str(config)]
    if admin:
        command.append("--admin")
    done = subprocess.run(
        command, cwd=REPO_ROOT, env=server_env(), input=password + "\n", text=True,
        capture_output=True, timeout=60,
    )
    if done.returncode != 0:
        raise Failure(f"`wishlist user create {username}` failed ({done.returncode}): {done.stderr.strip()}")


class Server:
    """`wishlist serve` on a fixed loopback port and database; start and kill it as often as needed."""

    def __init__(
        self, database: Path, port: int, log_path: Path, config: Path | None = None, env: dict[str, str] | None = None,
    ) -> None:
        self.database = database
        self.port = port
        self.log_path = log_path
        self.config = config
        self.env = env or {}
        self.proc: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        command = [str(binary()), "serve", "--host", HOST, "--port", str(self.port), "--database", str(self.database)]
        if self.config:
            command += ["--config", str(self.config)]
        log = open(self.log_path, "ab")
        try:
            self.proc = subprocess.Popen(
                command, cwd=REPO_ROOT, env=server_env() | self.env, stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        deadline = time.monotonic() + STARTUP_DEADLINE_S
        problem = "no answer yet"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failure(f"`wishlist serve` exited with code {self.proc.returncode} at start-up:\n{self.output()}")
            try:
                status, _, _ = Client(self.port).request("GET", "/healthz", timeout=2.0)
                if status == 200:
                    return
                problem = f"/healthz answered {status}"
            except OSError as error:
                problem = f"{type(error).__name__}: {error}"
            time.sleep(0.05)
        self.kill()
        raise Failure(f"`wishlist serve` did not answer /healthz within {STARTUP_DEADLINE_S:.0f} s ({problem}):\n{self.output()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9, then wait for the process to be gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> int | None:
        """SIGTERM and a clean exit within 10 s (else kill -9); returns the exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def output(self, limit: int = 6000) -> str:
        """The end of the server's log, for error messages."""
        return self.log()[-limit:] or "(no output)"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def settled_log(self) -> str:
        """The log with every line logged so far written. The server writes its access lines in
        batches, in order (`LogSink`, docs/decisions/access-log-in-batches.md), so once a /healthz
        request made now shows in the log, every request before it does too."""
        before = self.log().count("GET /healthz ")
        status, _, _ = Client(self.port).request("GET", "/healthz", timeout=REQUEST_TIMEOUT_S)
        if status != 200:
            raise Failure(f"/healthz answered {status}:\n{self.output()}")
        deadline = time.monotonic() + REQUEST_TIMEOUT_S
        while time.monotonic() < deadline:
            text = self.log()
            if text.count("GET /healthz ") > before:
                return text
            time.sleep(0.005)
        raise Failure(f"the server's log did not show a /healthz request within {REQUEST_TIMEOUT_S:.0f} s:\n{self.output()}")


class Client:
    """One browser: keeps the session cookie, remembers the CSRF token of the last page with a form."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.set_cookies: list[str] = []  # every Set-Cookie header received, in order

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
        timeout: float = REQUEST_TIMEOUT_S,
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            all_headers = {"User-Agent": "wishlist-attack-tests", "Connection": "close"}
            if self.cookies:
                all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            all_headers.update(headers or {})
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    self.set_cookies.append(value)
                    self._remember(value)
            found = _CSRF.search(text)
            if found:
                self.csrf = found.group(1)
            return response.status, {k.lower(): v for k, v in response.getheaders()}, text
        finally:
            connection.close()

    def _remember(self, header: str) -> None:
        pair, _, attributes = header.partition(";")
        name, _, value = pair.strip().partition("=")
        if not value or "max-age=0" in attributes.lower():
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def get(self, path: str, timeout: float = REQUEST_TIMEOUT_S) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, timeout=timeout)

    def post(self, path: str, fields: list[tuple[str, str]], timeout: float = REQUEST_TIMEOUT_S) -> tuple[int, dict[str, str], str]:
        if not any(name == "csrf_token" for name, _ in fields):
            fields = fields + [("csrf_token", self.csrf)]
        body = urllib.parse.urlencode(fields).encode()
        return self.request(
            "POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"}, timeout=timeout
        )

    def post_file(self, path: str, field: str, filename: str, content: bytes, content_type: str = "text/csv") -> tuple[int, dict[str, str], str]:
        """A multipart upload as a browser sends it: the CSRF token as a field, then the file."""
        boundary = "----wishlist-attack-" + os.urandom(8).hex()
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{self.csrf}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
            f"Content-Type: {content_type}\r\n\r\n"
        ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def sign_in(self, username: str, password: str) -> None:
        self.get("/login")
        status, headers, text = self.post("/login", [("username", username), ("password", password), ("next", "")], timeout=30)
        if status != 303 or not self.session:
            raise Failure(f"signing in as {username} answered {status} ({headers.get('location', '')})")
        self.get("/settings")  # a page with a form: the CSRF token of the new session

    @property
    def session(self) -> str:
        """The session cookie's value, whatever its name (`__Host-` behind HTTPS)."""
        return self.cookies.get(COOKIE) or self.cookies.get("__Host-" + COOKIE, "")


def book_ids(client: Client, list_name: str = "hardcover-fiction") -> list[str]:
    """The ids of a list's books, in the order the list page links them."""
    status, _, text = client.get(f"/lists/{list_name}")
    if status != 200:
        raise Failure(f"/lists/{list_name} answered {status}")
    ids = list(dict.fromkeys(re.findall(r'href="/books/(\d{13})"', text)))
    if not ids:
        raise Failure(f"/lists/{list_name} links no books")
    return ids
