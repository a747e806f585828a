#!/usr/bin/env python3
"""Makes a database for the Vapor peer the way Benchmarks/server/bench.py makes the app's: the
app's release build creates the user `bench`, loads the sample catalog on its first start, gets
two years of history (bench.seed_history), and on a second start `bench` signs in and puts the
books at ranks 2, 5 and 9 of Hardcover Fiction on the wishlist. The app's own list page is saved
beside the database, for comparing with the peer's.

    python3 Benchmarks/peers/vapor/make-database.py DIRECTORY

writes DIRECTORY/wishlist.sqlite and DIRECTORY/app-list-page.html. Uses the app build that
bench.py uses (.build-bench/release/wishlist, or BENCH_APP); builds nothing. Only 127.0.0.1.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "server"))
# Use the benchmark's saved configuration when there is one, so importing bench writes nothing.
saved_config = os.path.join(ROOT, ".build", "bench", "bench-config.json")
if not os.environ.get("BENCH_CONFIG") and os.path.exists(saved_config):
    os.environ["BENCH_CONFIG"] = saved_config

import bench  # noqa: E402


def make(directory):
    os.makedirs(directory, exist_ok=True)
    database = os.path.join(directory, "wishlist.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    made = subprocess.run(bench.app_argv("user", "create", bench.USERNAME, "--password-stdin", "--database", database),
                          cwd=ROOT, env=bench.clean_environment(), input=bench.PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0:
        bench.die(f"wishlist user create failed: {made.stderr}")
    port = bench.free_port()
    argv = bench.app_argv("serve", "--port", str(port), "--database", database)
    first = bench.Server("wishlist", argv, port, os.path.join(directory, "app-first.log"))
    try:
        first.wait_ready(first.start(), "/healthz")
    finally:
        first.stop()
    bench.seed_history(database)
    app = bench.Server("wishlist", argv, port, os.path.join(directory, "app.log"))
    try:
        app.wait_ready(app.start(), "/healthz")
        cookie = "wishlist_session=" + bench.sign_in(port)
        status, _, page, _ = bench.http_request(port, "GET", f"/lists/{bench.LIST}", {"Cookie": cookie})
        if status != 200:
            bench.die(f"the list page answered {status}")
        csrf = bench.csrf_in(page)
        by_rank = {int(rank): book for book, rank in re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page)}
        for rank in bench.WISHLIST_RANKS:
            status, _, _, _ = bench.http_request(port, "POST", "/wishlist", {**bench.FORM, "Cookie": cookie},
                                                 bench.form({"book": by_rank[rank], "return_to": "/wishlist", "csrf_token": csrf}))
            if status != 303:
                bench.die(f"adding a book answered {status}")
        status, _, page, _ = bench.http_request(port, "GET", f"/lists/{bench.LIST}", {"Cookie": cookie})
        with open(os.path.join(directory, "app-list-page.html"), "w") as saved:
            saved.write(page)
    finally:
        app.stop()
    return database


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(make(os.path.abspath(sys.argv[1])))
