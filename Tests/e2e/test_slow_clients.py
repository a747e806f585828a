"""Slow and idle clients cannot hold the server: stalled connections are closed after
`server.idleTimeoutSeconds`, and at most `server.maxConnections` are open at once.

How fast pages stay for others meanwhile is measured by `make bench-slow-clients`, not here.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support import REPO_ROOT, http_get
from test_backup import free_port
from test_cli import BINARY, environment, wait_until_serving

HALF_A_REQUEST = b"GET /lists HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: stall"


@contextmanager
def serving(tmp_path: Path, server_settings: dict) -> Iterator[tuple[str, Path]]:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"server": server_settings}), encoding="utf-8")
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(BINARY), "serve", "--config", str(config), "--port", str(port), "--database", str(tmp_path / "db.sqlite")],
            cwd=REPO_ROOT, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(server, base, log)
        yield base, log
    finally:
        server.terminate()
        server.wait(timeout=10)


def stall(base: str, count: int) -> list[socket.socket]:
    """`count` connections that each send half a request head and then nothing."""
    port = int(base.rsplit(":", 1)[1])
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(HALF_A_REQUEST)
        sockets.append(connection)
    return sockets


def closed_by_server(connection: socket.socket, within: float) -> bool:
    """Whether the server closes `connection` (without answering) before `within` seconds pass."""
    connection.settimeout(within)
    try:
        return connection.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_stalled_connections_do_not_stop_others_and_are_closed_after_the_idle_timeout(tmp_path: Path) -> None:
    with serving(tmp_path, {"idleTimeoutSeconds": 3}) as (base, _):
        stalled = stall(base, 300)
        try:
            for _ in range(20):
                status, _, body = http_get(base + "/login", timeout=5)
                assert status == 200 and b"Sign in" in body
            deadline = time.monotonic() + 30
            still_open = [c for c in stalled if not closed_by_server(c, max(0.1, deadline - time.monotonic()))]
            assert not still_open, f"{len(still_open)} of 300 stalled connections were still open 30 s later"
        finally:
            for connection in stalled:
                connection.close()


def test_connections_past_the_limit_wait_and_the_log_says_so(tmp_path: Path) -> None:
    with serving(tmp_path, {"idleTimeoutSeconds": 2, "maxConnections": 16}) as (base, log):
        stalled = stall(base, 16)
        try:
            # A normal client is accepted once the stalled ones time out, and then answered.
            status, _, _ = http_get(base + "/login", timeout=20)
            assert status == 200
        finally:
            for connection in stalled:
                connection.close()
        assert "connection limit reached: 16 connections are open" in log.read_text()


def test_a_chunked_body_past_the_limit_is_refused_with_413_not_500(server: str) -> None:
    """A body sent in chunks declares no length, so only reading it can stop it: the 413 a
    declared length gets, on a form route and on a passkey (JSON) route alike."""
    host, port = server.removeprefix("http://").split(":")
    for path, content_type in [("/login", "application/x-www-form-urlencoded"), ("/passkeys/sign-in/options", "application/json")]:
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n"
                    "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            chunk = b"a" * (70 * 1024)
            connection.sendall(head.encode() + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
            status_line = connection.makefile("rb").readline().decode()
        assert status_line.split()[1] == "413", f"{path}: {status_line!r}"


def chunked_post(port: int, chunks: bytes) -> socket.socket:
    """A connection that has sent a form POST's head and `chunks` of its chunked body."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(
        b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks
    )
    return connection


def answer_or_close(connection: socket.socket, within: float) -> str:
    """The status line the server answers with, or "closed" when it closes without one."""
    connection.settimeout(within)
    try:
        line = connection.makefile("rb").readline().decode()
    except ConnectionResetError:
        return "closed"
    return line.split()[1] if line else "closed"


def test_a_malformed_or_stalled_chunked_body_is_a_4xx_not_a_500(tmp_path: Path) -> None:
    """Issue 50: a chunk size that is no number, and a body that stops mid-chunk, each gave a 500."""
    with serving(tmp_path, {"idleTimeoutSeconds": 2}) as (base, log):
        port = int(base.rsplit(":", 1)[1])
        with chunked_post(port, b"zz\r\nusername=a\r\n0\r\n\r\n") as bad_size:
            answered = answer_or_close(bad_size, 10)
        assert answered == "400" or answered == "closed", f"a chunk size that is no number: {answered}"
        with chunked_post(port, b"40\r\nusername=a&pass") as stalled:
            answered = answer_or_close(stalled, 30)
        assert answered in ("400", "408", "closed"), f"a body that stops mid-chunk: {answered}"
        status, _, _ = http_get(base + "/login", timeout=5)
        assert status == 200, "the server goes on"
    lines = log.read_text()
    assert "POST /login 500" not in lines and "unhandled error" not in lines, lines
    assert "POST /login 400" in lines, "the malformed body's line"
