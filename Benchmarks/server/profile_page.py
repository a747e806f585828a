#!/usr/bin/env python3
"""The server CPU one page costs, one request at a time, on the mix's database, and optionally a
`perf` profile of those requests: where a page's time goes, for a regression `make bench*` found.

    make bench-mix                                   # once: builds the release app and the database
    python3 Benchmarks/server/profile_page.py /lists/hardcover-fiction 3000 --perf
    python3 Benchmarks/server/profile_page.py /api/v1/wants 500 --api --perf
    python3 Benchmarks/server/profile_page.py '/people/{member}' 400 --perf
    perf report -i .build/bench/profile/perf.data --children --sort symbol -g none

Signs in as the bench member (`--api`: through a read token of hers), warms the page 200 times,
then measures N requests on one keep-alive connection. The same page asked for again is answered
from the read memo and the page caches; a path with `{member}` (or `{child}`) is instead a
different member's (child's) page each request, the warm-up's 200 apart from the measured N, as
the mix asks for them: each one rendered, none from a cache. A path with `{visit}` gets a number of
its own each request (`'/books/9798407925279?visit={visit}'`), as `make bench-scale` asks for its
pages: the same page, read from the database every time. `--language de` asks for the page in
that language (the bench member has none of her own, so `Accept-Language` decides).
"""
import http.client
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import mix  # noqa: E402

RUN = os.path.join(bench.ROOT, ".build", "bench", "profile")
WARMUP = 200
# Whose pages `{member}` and `{child}` stand for: other members who share with the household, and children.
PEOPLE = {
    "{member}": "SELECT username FROM user WHERE kind = 'member' AND sharing = 'household' AND disabled_at IS NULL AND id != 1 ORDER BY id",
    "{child}": "SELECT username FROM user WHERE kind = 'child' AND disabled_at IS NULL ORDER BY id",
}


def paths(pattern, database, count):
    """`pattern` for each request, the warm-up's first: itself, or one person's page a request."""
    for placeholder, query in PEOPLE.items():
        if placeholder in pattern:
            db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            try:
                names = [row[0] for row in db.execute(query)]
            finally:
                db.close()
            if len(names) < 1 + WARMUP + count:
                bench.die(f"{len(names)} pages for {placeholder}, fewer than the {1 + WARMUP + count} asked for")
            return [pattern.replace(placeholder, name) for name in names[:1 + WARMUP + count]]
    if "{visit}" in pattern:
        return [pattern.replace("{visit}", str(visit)) for visit in range(1 + WARMUP + count)]
    return [pattern] * (1 + WARMUP + count)


def main():
    pattern = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 2000
    os.makedirs(RUN, exist_ok=True)
    # The mix's database as the mix runs on it, its covers marked fetched: none is fetched during the profile.
    mix.RUN = RUN
    database = mix.run_database()
    port = bench.free_port()
    server = bench.Server("profile", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                          os.path.join(RUN, "server.log"), bench.APP_ENV)
    server.wait_ready(server.start(), "/healthz", timeout=120)
    try:
        cookie = "wishlist_session=" + bench.sign_in(port)
        headers = {"Authorization": "Bearer " + bench.api_token(port, cookie)} if "--api" in sys.argv else {"Cookie": cookie}
        if "--language" in sys.argv:
            # The bench member has no language of her own, so the browser's choice decides.
            headers["Accept-Language"] = sys.argv[sys.argv.index("--language") + 1]
        connection = http.client.HTTPConnection("127.0.0.1", port)

        path = iter(paths(pattern, database, count))

        def get():
            connection.request("GET", next(path), headers=headers)
            response = connection.getresponse()
            return response.status, response.read()

        status, body = get()
        print(f"{pattern}: {status}, {len(body):,} bytes")
        for _ in range(WARMUP):
            get()
        perf = None
        if "--perf" in sys.argv:
            perf = subprocess.Popen(["perf", "record", "-F", "2000", "-g", "-o", os.path.join(RUN, "perf.data"),
                                     "-p", str(server.process.pid)], stderr=subprocess.DEVNULL)
        before = server.cpu_seconds()
        for _ in range(count):
            get()
        after = server.cpu_seconds()
        if perf:
            perf.send_signal(2)
            perf.wait()
        print(f"{pattern}: {1e6 * (after - before) / count:,.0f} µs of server CPU a request over {count}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
