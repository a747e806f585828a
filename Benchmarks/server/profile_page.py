#!/usr/bin/env python3
"""The server CPU one page costs, one request at a time, on the mix's database, and optionally a
`perf` profile of those requests: where a page's time goes, for a regression `make bench*` found.

    make bench-mix                                   # once: builds the release app and the database
    python3 Benchmarks/server/profile_page.py /lists/hardcover-fiction 3000 --perf
    python3 Benchmarks/server/profile_page.py /api/v1/wants 500 --api --perf
    perf report -i .build/bench/profile/perf.data --children --sort symbol -g none

Signs in as the bench member (`--api`: through a read token of hers), warms the page 200 times,
then measures N requests on one keep-alive connection.
"""
import http.client
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

RUN = os.path.join(bench.ROOT, ".build", "bench", "profile")


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 2000
    os.makedirs(RUN, exist_ok=True)
    database = os.path.join(RUN, "run.sqlite")
    for suffix in ("", "-wal", "-shm"):
        source = os.path.join(bench.ROOT, ".build", "bench", "mix", "pristine.sqlite" + suffix)
        if os.path.exists(source):
            shutil.copy(source, database + suffix)
    port = bench.free_port()
    server = bench.Server("profile", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                          os.path.join(RUN, "server.log"), bench.APP_ENV)
    server.wait_ready(server.start(), "/healthz", timeout=120)
    try:
        cookie = "wishlist_session=" + bench.sign_in(port)
        headers = {"Authorization": "Bearer " + bench.api_token(port, cookie)} if "--api" in sys.argv else {"Cookie": cookie}
        connection = http.client.HTTPConnection("127.0.0.1", port)

        def get():
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            return response.status, response.read()

        status, body = get()
        print(f"{path}: {status}, {len(body):,} bytes")
        for _ in range(200):
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
        print(f"{path}: {1e6 * (after - before) / count:,.0f} µs of server CPU a request over {count}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
