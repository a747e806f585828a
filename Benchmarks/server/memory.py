#!/usr/bin/env python3
"""The server's memory, two builds side by side: at start, after a sign-in, and after a few pages.

    python3 Benchmarks/server/memory.py DATABASE BEFORE_BINARY AFTER_BINARY [ROUNDS]

DATABASE is `make bench`'s (`.build/bench/run/wishlist.sqlite` after a run: its members and their
password are bench.py's). Each round starts each build in turn on a fresh copy of it, signs in (one
Argon2 hash), then runs wrk for 5 s at 32 connections on the list page, a member's 200-item page, the
own wishlist and the sign-in page, and prints the process's RSS and anonymous memory
(/proc/PID/smaps_rollup) after each step, with VmHWM: what `make bench`'s peak is made of, without its
eight minutes of load. Only 127.0.0.1 is contacted.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import bench

PAGES = ["/lists/hardcover-fiction", "/people/household", "/wishlist", "/login"]


def memory(pid):
    rollup = {}
    with open(f"/proc/{pid}/smaps_rollup") as lines:
        for line in lines:
            name, _, value = line.partition(":")
            if value.strip().endswith("kB"):
                rollup[name] = int(value.split()[0]) / 1024
    with open(f"/proc/{pid}/status") as lines:
        peak = next(int(line.split()[1]) / 1024 for line in lines if line.startswith("VmHWM:"))
    return f"RSS {rollup['Rss']:.1f} MB, anonymous {rollup['Anonymous']:.1f} MB, VmHWM {peak:.1f} MB"


def measure(binary, database, scratch):
    copy = os.path.join(scratch, "wishlist.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    shutil.copy(database, copy)
    port = bench.free_port()
    server = bench.Server(os.path.basename(binary), [binary, "serve", "--port", str(port), "--database", copy],
                          port, os.path.join(scratch, "server.log"))
    try:
        server.wait_ready(server.start(), "/healthz")
        print(f"  at start: {memory(server.process.pid)}")
        cookie = f"Cookie: wishlist_session={bench.sign_in(port)}"
        print(f"  signed in: {memory(server.process.pid)}")
        for path in PAGES:
            subprocess.run(["wrk", "-t2", "-c32", "-d5s", "-H", cookie, f"http://127.0.0.1:{port}{path}"],
                           capture_output=True, check=True)
            print(f"  after {path}: {memory(server.process.pid)}")
    finally:
        server.stop()


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    database, builds = sys.argv[1], sys.argv[2:4]
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else 2
    with tempfile.TemporaryDirectory() as scratch:
        for round_number in range(1, rounds + 1):
            for binary in builds:
                with open("/proc/loadavg") as load:
                    print(f"{binary}, round {round_number} (load {' '.join(load.read().split()[:3])})")
                measure(os.path.abspath(binary), database, scratch)


if __name__ == "__main__":
    main()
