#!/usr/bin/env python3
"""The household mix's page views one at a time, for builds side by side: server CPU a request.

  python3 Benchmarks/server/page_costs.py BUILD... (SAMPLES=400, ROUNDS=2)

Each build in turn, ROUNDS times, starts on a fresh copy of the mix's database (mix.py builds it
once) and answers SAMPLES requests of each of the mix's page views (list, book, own wishlist,
another member's page, reading, search), one at a time, from the mix's members in turn, each at
an address of its own so that none reuses an earlier one's read: mix.py's "one at a time"
column, with more samples, since the server's CPU time is read in ticks of 10 ms. Prints µs of
server CPU a request per page and build. Only 127.0.0.1 is contacted.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import mix  # noqa: E402
import scale  # noqa: E402

mix.COST_SAMPLES = int(os.environ.get("SAMPLES", "400"))
ROUNDS = int(os.environ.get("ROUNDS", "2"))


def costs_of(app):
    database = mix.run_database()
    world = mix.prepare_members(database, random.Random(scale.SEED))
    members = world.pop("members")
    config_path = os.path.join(mix.RUN, "mix-config.json")
    with open(bench.APP_CONFIG or bench.bench_config()) as source:
        config = json.load(source)
    with open(config_path, "w") as out:
        json.dump(config, out)
    port = bench.free_port()
    server = bench.Server("wishlist", [app, "serve", "--port", str(port), "--database", database, "--config", config_path],
                          port, os.path.join(mix.RUN, "server.log"), bench.APP_ENV)
    try:
        server.wait_ready(server.start(), "/healthz", timeout=120)
        mix.fetch_csrf_tokens(port, members)
        return mix.page_costs(port, server, world, members, random.Random(scale.SEED + 2))
    finally:
        server.stop()


def main():
    builds = sys.argv[1:]
    if not builds:
        bench.die("usage: page_costs.py BUILD... (release builds of the app to compare)")
    mix.pristine_database()
    for round_number in range(1, ROUNDS + 1):
        for app in builds:
            costs = costs_of(app)
            print(f"round {round_number}  {app}  " + "  ".join(f"{kind} {cost * 1e6:,.0f}" for kind, cost in costs.items())
                  + "  (µs of server CPU a request)", flush=True)


if __name__ == "__main__":
    main()
