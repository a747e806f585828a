"""Debian's nginx and Caddy running the files in `deploy/` on loopback, for test_deploy.py.

Each file is used as written, with only what a test machine must change: the public ports become
free loopback ports, the Let's Encrypt certificate a self-signed one made here, the app's
127.0.0.1:8080 and Authelia's 127.0.0.1:9091 the test's own servers, and Caddy's site plain `http://`
on loopback (no certificate is fetched). Every substitution must find its text, so a changed
deploy file fails here loudly instead of being tested in some other shape.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

from support import REPO_ROOT
from test_cli import free_port

DEPLOY = REPO_ROOT / "deploy"
PROXIES = ["nginx", "caddy"]


def substituted(text: str, replacements: dict[str, str], name: str) -> str:
    for old, new in replacements.items():
        assert old in text, f"deploy/{name} no longer has {old!r}: update reverse_proxies.py with it"
        text = text.replace(old, new)
    return text


def nginx_site(app_port: int, port: int, certificate: tuple[Path, Path], authelia_port: int | None) -> str:
    """deploy/nginx.conf, its `location /` replaced by deploy/nginx-authelia.conf's when `authelia_port`."""
    site = substituted((DEPLOY / "nginx.conf").read_text(), {
        "listen 80;": f"listen 127.0.0.1:{free_port()};",
        "listen [::]:80;": "",
        "listen [::]:443 ssl http2;": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{port} ssl http2;",
        "/etc/letsencrypt/live/wishlist.example.org/fullchain.pem": str(certificate[0]),
        "/etc/letsencrypt/live/wishlist.example.org/privkey.pem": str(certificate[1]),
    }, "nginx.conf")
    if authelia_port is not None:
        locations = substituted((DEPLOY / "nginx-authelia.conf").read_text(), {
            "http://127.0.0.1:9091/": f"http://127.0.0.1:{authelia_port}/",
        }, "nginx-authelia.conf")
        site, count = re.subn(r"\n    location / \{\n.*?\n    \}\n", lambda _: "\n" + locations, site, flags=re.S)
        assert count == 1, "deploy/nginx.conf has no single `location /` for nginx-authelia.conf to replace"
    return substituted(site, {"http://127.0.0.1:8080": f"http://127.0.0.1:{app_port}"}, "nginx.conf")


def caddy_site(app_port: int, port: int, authelia_port: int | None) -> str:
    name = "Caddyfile" if authelia_port is None else "Caddyfile.authelia"
    replacements = {
        "wishlist.example.org {": f"http://wishlist.example.org:{port} {{\n\tbind 127.0.0.1",
        "reverse_proxy 127.0.0.1:8080": f"reverse_proxy 127.0.0.1:{app_port}",
    }
    if authelia_port is not None:
        replacements["forward_auth 127.0.0.1:9091"] = f"forward_auth 127.0.0.1:{authelia_port}"
    # Caddy's own API and its automatic HTTPS stay off on a test machine.
    return "{\n\tadmin off\n\tauto_https off\n}\n" + substituted((DEPLOY / name).read_text(), replacements, name)


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "certificate.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
         "-subj", "/CN=wishlist.example.org", "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=60,
    )
    return certificate, key


@contextmanager
def running(command: list[str], port: int, log: Path, env: dict[str, str] | None = None) -> Iterator[None]:
    """Runs `command` until the block ends, once it accepts connections on `port`."""
    with open(log, "wb") as output:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, f"{command[0]} exited with {process.returncode}:\n{log.read_text()}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"{command[0]} did not listen on {port} within 30 s:\n{log.read_text()}"
                try:
                    process.wait(timeout=0.1)  # the pause between tries, cut short if it dies
                except subprocess.TimeoutExpired:
                    pass
        yield
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def reverse_proxy(kind: str, folder: Path, app_port: int, authelia_port: int | None = None) -> Iterator[tuple[str, int]]:
    """nginx or Caddy with its deploy file in front of `app_port`: yields its scheme and port."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    if kind == "nginx":
        (folder / "site.conf").write_text(nginx_site(app_port, port, self_signed_certificate(folder), authelia_port))
        # One process (no workers under another user, who could not read this folder), in the foreground.
        (folder / "nginx.conf").write_text(
            f"daemon off;\nmaster_process off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
            f"http {{\n    access_log {folder}/access.log;\n"
            + "".join(f"    {temp}_temp_path {folder}/{temp};\n" for temp in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
            + f"    include {folder}/site.conf;\n}}\n"
        )
        command = ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
        with running(command, port, folder / "nginx.log"):
            yield "https", port
    else:
        (folder / "Caddyfile").write_text(caddy_site(app_port, port, authelia_port))
        home = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"), "PATH": "/usr/bin:/bin"}
        with running(["caddy", "run", "--adapter", "caddyfile", "--config", str(folder / "Caddyfile")], port, folder / "caddy.log", env=home):
            yield "http", port


class Visitor:
    """A browser's requests without a browser, from the loopback address `source`: keeps cookies,
    reads the CSRF token of the last page, and can add any header, as an attacker's script would."""

    def __init__(self, scheme: str, port: int, source: str = "127.0.0.1") -> None:
        self.scheme, self.port, self.source = scheme, port, source
        self.cookies: dict[str, str] = {}
        self.csrf_token = ""

    def request(self, method: str, path: str, body: str | bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        if self.scheme == "https":
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the certificate made for the test
            connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0), context=context)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        sent = {"Host": "wishlist.example.org", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if body is not None:
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            content = response.read()
            for line in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = line.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            if found := re.search(rb'name="csrf_token" value="([^"]+)"', content):
                self.csrf_token = found.group(1).decode()
            return response.status, content
        finally:
            connection.close()

    def post_form(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None) -> int:
        """Loads `path` for its CSRF token, then posts `fields` to it with `headers`; returns the status."""
        self.request("GET", path)
        return self.request("POST", path, urlencode({**fields, "csrf_token": self.csrf_token}), headers)[0]

    def post_file(self, path: str, field: str, filename: str, content: bytes) -> tuple[int, bytes]:
        """Posts `content` as the file of a multipart form, with the CSRF token of the last page first."""
        boundary = "----WishlistDeployTest"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{self.csrf_token}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
                "Content-Type: text/csv\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def status_of_a_declared_body(self, path: str, length: int) -> int:
        """Sends a POST's headers declaring a body of `length` bytes, and none of it: the status of the
        answer a proxy gives before reading any (a limit it checks on the declared length)."""
        connection = socket.create_connection(("127.0.0.1", self.port), timeout=30, source_address=(self.source, 0))
        if self.scheme == "https":
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            connection = context.wrap_socket(connection)
        with connection:
            connection.sendall(f"POST {path} HTTP/1.1\r\nHost: wishlist.example.org\r\nContent-Type: text/csv\r\n"
                               f"Content-Length: {length}\r\n\r\n".encode())
            response = http.client.HTTPResponse(connection)
            response.begin()
            return response.status


class _Recorder(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass


@contextmanager
def header_echo() -> Iterator[int]:
    """An upstream in the app's place that answers every request with its headers as JSON."""
    class Echo(_Recorder):
        def do_GET(self) -> None:
            body = json.dumps({name.lower(): value for name, value in self.headers.items()}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with _serving(Echo) as port:
        yield port


@contextmanager
def authelia_fake(username: str) -> Iterator[int]:
    """Authelia's authorization endpoints as forward authentication uses them: every request is
    allowed, and `username` is who it is, in Remote-User."""
    class Authz(_Recorder):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Remote-User", username)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_HEAD = do_GET

    with _serving(Authz) as port:
        yield port


@contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
