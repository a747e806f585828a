#!/usr/bin/env python3
"""Checks the Django peer against our app, end to end, the way the benchmark will use it:

    python3 Benchmarks/peers/django/verify.py [--dir DIR] [--wrk SECONDS]

1. our release build (.build-bench/release/wishlist, not rebuilt here) makes a new database as
   Benchmarks/server/bench.py does: `user create bench`, a first start (loads the sample catalog),
   two years of history, a restart; then signs in and adds the books at ranks 2, 5 and 9 to the
   wishlist, saves the list page (DIR/ours.html) and stops;
2. the peer (run.py) serves the same database file; signs in through Django's login view, saves
   the list page (DIR/django.html);
3. compares the two with Benchmarks/peers/content.py, and checks that the comparison notices a
   page with a book missing;
4. with --wrk SECONDS, a short `wrk -t2 -c32` at the peer's list page with the session cookies.

Only 127.0.0.1 is contacted. Uses bench.py's functions by importing it (its main() is not run).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PEERS))
sys.path[:0] = [os.path.join(ROOT, "Benchmarks", "server"), PEERS, HERE]

import bench  # noqa: E402  Benchmarks/server/bench.py
import content  # noqa: E402  Benchmarks/peers/content.py
import run as peer  # noqa: E402  Benchmarks/peers/django/run.py


def our_database(work):
    """A database as bench.py leaves it before timing the list page; returns (path, our page)."""
    config = os.path.join(work, "bench-config.json")
    with open(os.path.join(ROOT, "config.json")) as shipped:
        settings = json.load(shipped)
    settings["accounts"]["failedLoginsPerAddress"] = settings["accounts"]["failedLoginsPerAccount"] = 10000
    with open(config, "w") as out:
        json.dump(settings, out)
    bench.APP_CONFIG = config
    database = os.path.join(work, "wishlist.sqlite")
    made = subprocess.run(bench.app_argv("user", "create", bench.USERNAME, "--password-stdin", "--database", database),
                          cwd=ROOT, env=bench.clean_environment(), input=bench.PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"wishlist user create failed: {made.stderr}")
    port = bench.free_port()
    argv = bench.app_argv("serve", "--port", str(port), "--database", database)
    app = bench.Server("wishlist", argv, port, os.path.join(work, "app-first.log"))
    try:
        app.wait_ready(app.start(), "/healthz")
    finally:
        app.stop()
    bench.seed_history(database)
    app = bench.Server("wishlist", argv, port, os.path.join(work, "app.log"))
    try:
        app.wait_ready(app.start(), "/healthz")
        cookie = f"wishlist_session={bench.sign_in(port)}"
        status, _, page, _ = bench.http_request(port, "GET", peer.LIST_PATH, {"Cookie": cookie})
        csrf = bench.csrf_in(page)
        by_rank = {int(rank): book for book, rank in re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page)}
        for rank in bench.WISHLIST_RANKS:
            status, _, _, _ = bench.http_request(port, "POST", "/wishlist", {**bench.FORM, "Cookie": cookie},
                                                 bench.form({"book": by_rank[rank], "return_to": "/wishlist", "csrf_token": csrf}))
            if status != 303:
                sys.exit(f"adding a book answered {status}")
        status, _, page, _ = bench.http_request(port, "GET", peer.LIST_PATH, {"Cookie": cookie})
        if status != 200:
            sys.exit(f"our list page answered {status}")
    finally:
        app.stop()
    return database, page


def server_cpu_seconds(master):
    """User + system CPU time so far of gunicorn's master and its workers."""
    total = 0
    pids = [master]
    try:
        with open(f"/proc/{master}/task/{master}/children") as children:
            pids += [int(pid) for pid in children.read().split()]
    except OSError:
        pass
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", help="a directory for the run (default: a new one under /tmp)")
    parser.add_argument("--wrk", type=int, default=0, metavar="SECONDS", help="then run wrk -t2 -c32 for SECONDS")
    options = parser.parse_args()
    work = options.dir or tempfile.mkdtemp(prefix="django-peer-")
    os.makedirs(work, exist_ok=True)
    print(f"[verify] working in {work}", flush=True)

    database, ours = our_database(work)
    with open(os.path.join(work, "ours.html"), "w") as out:
        out.write(ours)
    print(f"[verify] our page: {len(ours.encode()):,} bytes; {content.summary(ours)}", flush=True)

    state = os.path.join(work, "django-state")
    peer.prepare(database, state)
    port = bench.free_port()
    server = bench.Server("django peer", [sys.executable, os.path.join(HERE, "run.py"), "--database", database,
                                          "--port", str(port), "--state", state], port, os.path.join(work, "django.log"))
    try:
        started = server.start()
        print(f"[verify] peer answered /healthz after {server.wait_ready(started, '/healthz', timeout=60):.2f} s", flush=True)
        cookies = peer.sign_in(port)
        header = peer.cookie_header(cookies)
        print(f"[verify] signed in to the peer; cookies: {', '.join(cookies)}", flush=True)
        status, headers, theirs, set_cookies = bench.http_request(port, "GET", peer.LIST_PATH, {"Cookie": header})
        if status != 200:
            sys.exit(f"the peer's list page answered {status}")
        with open(os.path.join(work, "django.html"), "w") as out:
            out.write(theirs)
        print(f"[verify] peer page: {len(theirs.encode()):,} bytes; {content.summary(theirs)}; "
              f"Set-Cookie on it: {sorted(set_cookies) or 'none'}", flush=True)

        found = content.differences(ours, theirs)
        print("[verify] content check: " + ("match" if not found else "DIFFERENCES:\n  " + "\n  ".join(found)), flush=True)
        cut = re.sub(r'<li class="book" data-book="[^"]+" data-rank="7">.*?</li>', "", theirs, count=1, flags=re.S)
        caught = content.differences(ours, cut)
        print("[verify] with the 7th book cut out of the peer's page the check reports:\n  " + "\n  ".join(caught), flush=True)
        ok = not found and caught

        if options.wrk:
            argv = ["wrk", "-t2", "-c32", f"-d{options.wrk}s", "--latency", "-H", f"Cookie: {header}",
                    f"http://127.0.0.1:{port}{peer.LIST_PATH}"]
            print("[verify] " + " ".join(argv[:5]) + " -H 'Cookie: …' " + argv[-1], flush=True)
            time.sleep(0.5)
            cpu = server_cpu_seconds(server.process.pid)
            result = subprocess.run(argv, capture_output=True, text=True, timeout=120).stdout
            cpu = server_cpu_seconds(server.process.pid) - cpu
            print(result, flush=True)
            requests = re.search(r"(\d+) requests in", result)
            if requests:
                print(f"[verify] server CPU (gunicorn master + workers): {cpu:.2f} s, "
                      f"{cpu * 1e6 / max(1, int(requests.group(1))):,.0f} µs a request; "
                      f"load average {open('/proc/loadavg').read().split()[0]}", flush=True)
    finally:
        stopping = time.perf_counter()
        server.stop()
        print(f"[verify] peer stopped {time.perf_counter() - stopping:.2f} s after SIGTERM", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
