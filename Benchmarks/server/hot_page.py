#!/usr/bin/env python3
"""One cached page asked for again and again, for builds side by side: server CPU a request.

  python3 Benchmarks/server/hot_page.py BUILD... (KIND=list|book|wishlist, ROUNDS=2, SECONDS=10)

Each build in turn, ROUNDS times, starts on a fresh copy of the household mix's database (mix.py
builds it once), and one of the mix's members asks for the same page (a current list by
default) over two keep-alive connections with wrk for SECONDS, after 3 s of warm-up, as a
browser on the site asks (gzip, Sec-Fetch-Site: same-origin). The page comes from its shared
cache and the session's read from the read memo, since nothing is written: what is left is the
work every request does around a cached page (HTTP, filling its holes, gzip, the allocator).
Prints requests a second and the server's CPU a request (user + system, /proc) for each run.
Only 127.0.0.1 is contacted. Issue 34 used it for glibc's trim threshold (Benchmarks/history.md).
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import mix  # noqa: E402
import scale  # noqa: E402

KIND = os.environ.get("KIND", "list")
ROUNDS = int(os.environ.get("ROUNDS", "2"))
SECONDS = int(os.environ.get("SECONDS", "10"))


def measure(app):
    database = mix.run_database()
    world = mix.prepare_members(database, random.Random(scale.SEED))
    member = world["members"][0]
    path = mix.build_request(KIND, member, world, random.Random(1)).decode().split(" ", 2)[1]
    port = bench.free_port()
    server = bench.Server("wishlist", [app, "serve", "--port", str(port), "--database", database, "--config", bench.bench_config()],
                          port, os.path.join(mix.RUN, "server.log"), bench.APP_ENV)
    headers = ["-H", f"Cookie: wishlist_session={member['token']}", "-H", "Accept-Encoding: gzip, deflate, br, zstd",
               "-H", "Sec-Fetch-Site: same-origin"]
    url = f"http://127.0.0.1:{port}{path}"
    try:
        server.wait_ready(server.start(), "/healthz", timeout=120)
        subprocess.run(["wrk", "-t1", "-c2", "-d3s"] + headers + [url], capture_output=True, check=True)
        before = server.cpu_seconds()
        output = subprocess.run(["wrk", "-t1", "-c2", f"-d{SECONDS}s"] + headers + [url], capture_output=True, text=True, check=True).stdout
        cpu = server.cpu_seconds() - before
    finally:
        server.stop()
    requests = int(next(line for line in output.splitlines() if "requests in" in line).split()[0])
    if "Non-2xx" in output:
        bench.die(f"{path} did not answer 200 every time:\n{output}")
    return path, requests / SECONDS, cpu / requests


def main():
    builds = sys.argv[1:]
    if not builds:
        bench.die("usage: hot_page.py BUILD... (release builds of the app to compare)")
    mix.pristine_database()
    for round_number in range(1, ROUNDS + 1):
        for app in builds:
            path, rate, cpu = measure(app)
            print(f"round {round_number}  {app}  {path}  {rate:,.0f} req/s  {cpu * 1e6:,.0f} µs of server CPU a request", flush=True)


if __name__ == "__main__":
    main()
