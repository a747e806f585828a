"""Cold starts of several builds side by side: for each build in turn, a new database made by
`wishlist user create` (as `make bench` makes its own), then the time from exec to the first 200 on
/healthz twice: the first start, which loads the sample catalog, and a restart. Rounds alternate the
builds, so a machine that speeds up or slows down moves them alike.

    python3 Benchmarks/server/cold_start.py ROUNDS BUILD...   # from the repository's root
"""
import os
import statistics
import subprocess
import sys
import tempfile

import bench


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds, builds = int(sys.argv[1]), sys.argv[2:]
    config = bench.bench_config()
    first = {build: [] for build in builds}
    restart = {build: [] for build in builds}
    for _ in range(rounds):
        for build in builds:
            work = tempfile.mkdtemp(prefix="cold-start-")
            database = os.path.join(work, "wishlist.sqlite")
            subprocess.run([build, "user", "create", "bench", "--password-stdin", "--database", database, "--config", config],
                           input="a long enough password\n", capture_output=True, text=True, check=True,
                           env=bench.clean_environment())
            for starts in (first, restart):
                port = bench.free_port()
                argv = [build, "serve", "--port", str(port), "--database", database, "--config", config]
                server = bench.Server("wishlist", argv, port, os.path.join(work, "server.log"), bench.APP_ENV)
                try:
                    starts[build].append(server.wait_ready(server.start(), "/healthz") * 1000)
                finally:
                    server.stop()
    for build in builds:
        print(f"{build}: first start {' '.join(f'{ms:.0f}' for ms in first[build])} ms, median {statistics.median(first[build]):.0f}; "
              f"restart {' '.join(f'{ms:.0f}' for ms in restart[build])} ms, median {statistics.median(restart[build]):.0f}")


if __name__ == "__main__":
    main()
