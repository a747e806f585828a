#!/usr/bin/env python3
"""Checks the Vapor peer by hand: makes a database as bench.py does (make-database.py), starts the
peer's release build on it, signs in as `bench`, fetches the list page, compares it with the
app's page of the same database (../content.py), and with --wrk SECONDS runs a brief wrk on it.

    python3 Benchmarks/peers/vapor/verify.py [--wrk 5] [--directory /tmp/vapor-peer-verify]

Builds nothing: run `swift build -c release --package-path Benchmarks/peers/vapor/VaporPeer`
first. Only 127.0.0.1.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PEER = os.path.join(HERE, "VaporPeer", ".build", "release", "VaporPeer")


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start(database, port, log_path, bench):
    """The peer's release build on `database`, as a bench.Server; returns once /healthz answers."""
    environment = {"DATABASE_PATH": database, "PEER_DATABASE_PATH": os.path.join(os.path.dirname(database), "vapor-peer.sqlite")}
    argv = [PEER, "serve", "--env", "production", "--hostname", "127.0.0.1", "--port", str(port), "--log", "warning"]
    server = bench.Server("vapor-peer", argv, port, log_path, environment)
    server.wait_ready(server.start(), "/healthz", timeout=60)
    return server


def sign_in(port, bench):
    """GET /login for a session and its CSRF token, then POST /login; returns the cookie header."""
    status, _, page, cookies = bench.http_request(port, "GET", "/login")
    if status != 200 or "vapor-session" not in cookies:
        bench.die(f"GET /login answered {status} without a vapor-session cookie")
    cookie = f"vapor-session={cookies['vapor-session']}"
    status, headers, _, cookies = bench.http_request(
        port, "POST", "/login", {**bench.FORM, "Cookie": cookie},
        bench.form({"username": bench.USERNAME, "password": bench.PASSWORD, "next": f"/lists/{bench.LIST}",
                    "csrf_token": bench.csrf_in(page)}))
    if status != 303:
        bench.die(f"POST /login answered {status}")
    return f"vapor-session={cookies.get('vapor-session', cookie.split('=', 1)[1])}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--directory", default="/tmp/vapor-peer-verify")
    parser.add_argument("--wrk", type=int, default=0, help="seconds of wrk -t2 -c32 on the page (0: none)")
    arguments = parser.parse_args()
    if not os.path.exists(PEER):
        sys.exit(f"{PEER} is missing: swift build -c release --package-path {os.path.relpath(os.path.dirname(os.path.dirname(os.path.dirname(PEER))))}")
    maker = load("make_database", os.path.join(HERE, "make-database.py"))
    bench, content = maker.bench, load("content", os.path.join(HERE, "..", "content.py"))
    directory = os.path.abspath(arguments.directory)
    for name in ("vapor-peer.sqlite", "vapor-peer.sqlite-wal", "vapor-peer.sqlite-shm"):
        if os.path.exists(os.path.join(directory, name)):
            os.remove(os.path.join(directory, name))
    database = maker.make(directory)
    with open(os.path.join(directory, "app-list-page.html")) as saved:
        ours = saved.read()
    port = bench.free_port()
    server = start(database, port, os.path.join(directory, "vapor-peer.log"), bench)
    try:
        cookie = sign_in(port, bench)
        status, headers, theirs, _ = bench.http_request(port, "GET", f"/lists/{bench.LIST}", {"Cookie": cookie})
        if status != 200:
            bench.die(f"the peer's list page answered {status}")
        with open(os.path.join(directory, "vapor-list-page.html"), "w") as out:
            out.write(theirs)
        print(f"ours:  {content.summary(ours)}, {len(ours.encode())} bytes")
        print(f"vapor: {content.summary(theirs)}, {len(theirs.encode())} bytes")
        found = content.differences(ours, theirs)
        for line in found:
            print(f"- {line}")
        print("content matches" if not found else f"{len(found)} difference(s)")
        if arguments.wrk and not found:
            argv = ["wrk", "-t2", "-c32", f"-d{arguments.wrk}s", "--latency", "-H", f"Cookie: {cookie}",
                    f"http://127.0.0.1:{port}/lists/{bench.LIST}"]
            cpu = server.cpu_seconds()
            result = subprocess.run(argv, capture_output=True, text=True, timeout=arguments.wrk + 60)
            used = server.cpu_seconds() - cpu
            print(result.stdout)
            requests = re.search(r"(\d+) requests in", result.stdout)
            if requests:
                print(f"server CPU: {used:.2f} s, {used * 1e6 / max(1, int(requests.group(1))):.0f} µs a request; "
                      f"peak RSS {server.peak_mb():.0f} MB")
            # wrk leaves requests in flight when it stops; a SIGTERM before they finish makes Vapor
            # crash in `req.db` (Fluent's databases are shut down under them). Let them finish.
            time.sleep(1)
        return 1 if found else 0
    finally:
        server.stop()
        if server.process and server.process.returncode not in (0, None):
            print(f"the peer exited with {server.process.returncode}; see {server.log_path}")


if __name__ == "__main__":
    sys.exit(main())
