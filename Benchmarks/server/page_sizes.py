#!/usr/bin/env python3
"""What a cached wishlist page costs by its length, and what gzip would lose if its fixed parts
were compressed once, each on its own.

  python3 Benchmarks/server/page_sizes.py [BUILD]   (default: .build-bench/release/wishlist; REQUESTS=50)

On a fresh copy of the household mix's database (mix.py builds it once), with the mix's members:
for the members at the 10th, 50th, 90th and 99th percentile of wishlist length and the longest,
one member asks for the other's page (`/people/NAME`) and the other for her own `/wishlist`, as
the mix does (gzip, Sec-Fetch-Site: same-origin), once to fill the cache and then REQUESTS times
one after another. Prints the items, the body's bytes with and without gzip, the server's CPU
(user + system, /proc) and the wall time of a request.

The last columns test an idea for the gzip that every request pays: compress each fixed run of
a cached page once and splice the runs between the per-request parts (as the inline stylesheet
already is, `Gzip.SharedPart`). Runs deflated alone cannot refer to one another, so the page is
cut where per-request parts stand (every CSRF token, every card and form start, a close
approximation of the page's slots) and each piece is deflated on its own at level 9, against
the whole body at level 2 as served. Only 127.0.0.1 is contacted.

Since a wishlist comes 100 books a page (ea04ac5), the longer lists' pages show their first 100;
the lengths' costs are those of a build before it (Benchmarks/history.md).
"""
import http.client
import os
import random
import re
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import mix  # noqa: E402
import scale  # noqa: E402

REQUESTS = int(os.environ.get("REQUESTS", "50"))


def get(port, member, path, compressed=True):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Cookie": f"wishlist_session={member['token']}", "Sec-Fetch-Site": "same-origin"}
    if compressed:
        headers["Accept-Encoding"] = "gzip, deflate, br, zstd"
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        bench.die(f"{path} answered {response.status}")
    return body


def pieces_deflated_alone(body):
    """Bytes of the body cut at its per-request parts, each piece deflated on its own."""
    cuts = set()
    token = re.search(rb'name="csrf_token" value="([^"]+)"', body)
    if token:
        for found in re.finditer(re.escape(token.group(1)), body):
            cuts.update((found.start(), found.end()))
    for found in re.finditer(rb'<form|</form>|id="(book|item)-', body):
        cuts.add(found.start())
    cuts = sorted(cuts)
    total = 0
    for start, end in zip([0] + cuts, cuts + [len(body)]):
        deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
        total += len(deflater.compress(body[start:end]) + deflater.flush(zlib.Z_FULL_FLUSH))
    return len(cuts) + 1, total


def main():
    app = sys.argv[1] if len(sys.argv) > 1 else os.path.join(bench.ROOT, ".build-bench/release/wishlist")
    mix.pristine_database()
    database = mix.run_database()
    members = sorted(mix.prepare_members(database, random.Random(scale.SEED))["members"], key=lambda m: len(m["items"]))
    port = bench.free_port()
    server = bench.Server("wishlist", [app, "serve", "--port", str(port), "--database", database, "--config", bench.bench_config()],
                          port, os.path.join(mix.RUN, "server.log"), bench.APP_ENV)
    print("| items | page | bytes | gzip bytes | server CPU µs a request | ms a request | pieces | pieces deflated alone, bytes | against gzip |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    try:
        server.wait_ready(server.start(), "/healthz", timeout=120)
        viewer = members[0]
        for quantile in (0.1, 0.5, 0.9, 0.99, 1.0):
            member = members[round(quantile * (len(members) - 1))]
            for page, path, asker in (("member's", f"/people/{member['username']}", viewer), ("own", "/wishlist", member)):
                zipped = get(port, asker, path)
                cpu, began = server.cpu_seconds(), time.perf_counter()
                for _ in range(REQUESTS):
                    get(port, asker, path)
                cpu_us = (server.cpu_seconds() - cpu) / REQUESTS * 1e6
                wall_ms = (time.perf_counter() - began) / REQUESTS * 1e3
                body = get(port, asker, path, compressed=False)
                count, alone = pieces_deflated_alone(body)
                print(f"| {len(member['items'])} | {page} | {len(body):,} | {len(zipped):,} | {cpu_us:,.0f} | {wall_ms:.2f} | "
                      f"{count} | {alone:,} | {alone / len(zipped):.2f}× |", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
