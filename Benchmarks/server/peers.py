#!/usr/bin/env python3
"""`make bench-peers`: the signed-in list page in our app, in Django and in Vapor 4 + Leaf, side by
side in one run, on one SQLite database.

1. Makes the database as `make bench` does (the release app loads the sample catalog, user `bench`
   with three books on the wishlist), and keeps our page.
2. Starts each peer on that same file (Benchmarks/peers/: Django's ORM, templates, sessions and
   CSRF under gunicorn; Vapor with Fluent, Leaf and sessions), signs in, fetches the page and
   checks that it shows what ours shows (Benchmarks/peers/content.py) before timing anything.
3. Measures each with the same wrk load (2 threads, BENCH_CONNECTIONS connections, BENCH_SECONDS
   each), one after the other, ours first and last so that drift in the machine shows.

Writes .build/bench/peers.md and peers.json, and the table into Benchmarks/README.md between
<!-- peers-results:start --> and <!-- peers-results:end --> (BENCH_UPDATE_README=0 leaves it).
A peer whose build is missing is reported as skipped, never as measured.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import time

import bench
from bench import (CONNECTIONS, FORM, LIST, OUT, ROOT, RUN, SECONDS, USERNAME, PASSWORD, WISHLIST_RANKS, Server,
                   app_argv, clean_environment, csrf_in, die, form, free_port, http_request, log, run_wrk, sign_in, wrk)

sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers"))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers", "django"))
import content  # noqa: E402
import run as django_peer  # noqa: E402

VAPOR = os.path.join(ROOT, "Benchmarks", "peers", "vapor", "VaporPeer", ".build", "release", "VaporPeer")
README = os.path.join(ROOT, "Benchmarks", "README.md")
BUDGET_TIMES_FASTER = 3.0


def make_database(database):
    made = subprocess.run(app_argv("user", "create", USERNAME, "--password-stdin", "--database", database), cwd=ROOT,
                          env=clean_environment(), input=PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0:
        die(f"wishlist user create failed: {made.stderr}")


def start_ours(database):
    port = free_port()
    app = Server("wishlist", app_argv("serve", "--port", str(port), "--database", database), port,
                 os.path.join(RUN, "peers-ours.log"))
    app.wait_ready(app.start(), "/healthz")
    cookie = f"wishlist_session={sign_in(port)}"
    return app, port, cookie


def add_wishlist_books(port, cookie):
    _, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
    csrf = csrf_in(page)
    by_rank = {int(rank): book for book, rank in re.findall(r'<li class="book" data-book="([^"]+)" data-rank="(\d+)"', page)}
    for rank in WISHLIST_RANKS:
        status, _, _, _ = http_request(port, "POST", "/wishlist", {**FORM, "Cookie": cookie},
                                       form({"book": by_rank[rank], "return_to": "/wishlist", "csrf_token": csrf}))
        if status != 303:
            die(f"adding a book answered {status}")


def start_django(database):
    port = free_port()
    state = os.path.join(RUN, "django-state")
    os.makedirs(state, exist_ok=True)
    argv = [sys.executable, os.path.join(ROOT, "Benchmarks", "peers", "django", "run.py"),
            "--database", database, "--port", str(port), "--state", state]
    server = Server("django", argv, port, os.path.join(RUN, "peers-django.log"))
    server.wait_ready(server.start(), "/healthz", timeout=300)  # the first run installs Django into its venv
    return server, port, django_peer.cookie_header(django_peer.sign_in(port))


def start_vapor(database):
    port = free_port()
    environment = {"DATABASE_PATH": database, "PEER_DATABASE_PATH": os.path.join(RUN, "vapor-peer.sqlite")}
    argv = [VAPOR, "serve", "--env", "production", "--hostname", "127.0.0.1", "--port", str(port), "--log", "warning"]
    server = Server("vapor", argv, port, os.path.join(RUN, "peers-vapor.log"), environment)
    server.wait_ready(server.start(), "/healthz")
    _, _, page, cookies = http_request(port, "GET", "/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    cookie = f"vapor-session={cookies['vapor-session']}"
    status, _, _, signed = http_request(port, "POST", "/login", {**FORM, "Cookie": cookie},
                                        form({"username": USERNAME, "password": PASSWORD, "csrf_token": token}))
    if status != 303:
        die(f"the Vapor peer's sign-in answered {status}")
    return server, port, f"vapor-session={signed.get('vapor-session', cookies['vapor-session'])}"


def process_tree_cpu_seconds(pid):
    """CPU of a process and its children still running (gunicorn's workers)."""
    total = 0.0
    pids = [pid]
    try:
        pids += [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()]
    except OSError:
        pass
    for each in pids:
        try:
            with open(f"/proc/{each}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def main():
    os.makedirs(RUN, exist_ok=True)
    database = os.path.join(RUN, "peers.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    results = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "load_before": " ".join(open("/proc/loadavg").read().split()[:3]), "seconds": SECONDS,
               "connections": CONNECTIONS, "rows": {}, "skipped": {}}
    make_database(database)
    servers = {}
    try:
        ours = start_ours(database)
        servers["ours"] = ours
        add_wishlist_books(ours[1], ours[2])
        _, _, our_page, _ = http_request(ours[1], "GET", f"/lists/{LIST}", {"Cookie": ours[2]})
        for name, start, available in [("django", start_django, True), ("vapor", start_vapor, os.path.exists(VAPOR))]:
            if not available:
                results["skipped"][name] = "not built"
                log(f"{name}: skipped, not built")
                continue
            servers[name] = start(database)
            _, port, cookie = servers[name]
            status, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
            found = content.differences(our_page, page) if status == 200 else [f"the page answered {status}"]
            if found:
                die(f"the {name} peer's page differs from ours: " + "; ".join(found[:5]))
            log(f"{name}: the page shows what ours shows ({len(page.encode()):,} bytes, ours {len(our_page.encode()):,})")
            results.setdefault("bytes", {})[name] = len(page.encode())
        results.setdefault("bytes", {})["ours"] = len(our_page.encode())
        order = ["ours"] + [name for name in ("django", "vapor") if name in servers] + ["ours"]
        for index, name in enumerate(order):
            server, port, cookie = servers[name]
            before = process_tree_cpu_seconds(server.process.pid)
            figures = run_wrk(wrk(f"peer_{name}_{index}", f"http://127.0.0.1:{port}/lists/{LIST}", 2, CONNECTIONS, SECONDS,
                                  extra=("-H", f"Cookie: {cookie}")))
            figures["cpu_us_per_request"] = (process_tree_cpu_seconds(server.process.pid) - before) * 1e6 / max(1, figures["requests"])
            key = name if name not in results["rows"] else f"{name}_again"
            results["rows"][key] = figures
            log(f"{key}: {figures['rps']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, {figures['errors']} errors")
    finally:
        # Vapor traps when stopped while wrk's last requests are still in flight: let them end.
        time.sleep(1)
        for server, _, _ in servers.values():
            server.stop()
    report = render(results)
    with open(os.path.join(OUT, "peers.json"), "w") as raw:
        json.dump(results, raw, indent=2)
    with open(os.path.join(OUT, "peers.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    if os.environ.get("BENCH_UPDATE_README", "1") != "0":
        update_readme(report)


LABELS = {"ours": "Bestseller Wishlist (Hummingbird 2, our templates, GRDB)",
          "django": "Django 5.2 + its ORM, templates, database sessions, CSRF middleware; gunicorn, 5 sync workers",
          "vapor": "Vapor 4.122 + Fluent (SQLite) + Leaf, memory sessions, a CSRF token per session",
          "ours_again": "Bestseller Wishlist again, after the peers"}


def render(results):
    rows = results["rows"]
    lines = ["| server | req/s | p50 ms | p99 ms | errors | server CPU µs a request | page bytes |", "|---|---:|---:|---:|---:|---:|---:|"]
    for key in ("ours", "django", "vapor", "ours_again"):
        row = rows.get(key)
        if row:
            lines.append(f"| {LABELS[key]} | {row['rps']:,.0f} | {row['p50_us'] / 1000:.2f} | {row['p99_us'] / 1000:.2f} | "
                         f"{row['errors']} | {row['cpu_us_per_request']:.0f} | {results['bytes'][key.replace('_again', '')]:,} |")
    for name, reason in results["skipped"].items():
        lines.append(f"| {LABELS[name]} | skipped: {reason} | | | | | |")
    peers = [rows[name] for name in ("django", "vapor") if name in rows]
    verdicts = []
    if peers:
        ours = min(rows["ours"]["rps"], rows.get("ours_again", rows["ours"])["rps"])
        fastest = max(peers, key=lambda row: row["rps"])
        ok = ours >= BUDGET_TIMES_FASTER * fastest["rps"] and max(rows["ours"]["p99_us"], rows.get("ours_again", rows["ours"])["p99_us"]) < fastest["p99_us"]
        verdicts.append(f"- Ours at least {BUDGET_TIMES_FASTER:.0f}× the faster peer's requests/s, with a lower p99: "
                        f"{'**met**' if ok else '**missed**'} ({ours / fastest['rps']:.1f}×, the slower of our two runs).")
    header = (f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-peers')}` · {results['started']} · load average before "
              f"{results['load_before']} · {results['seconds']} s each, {results['connections']} connections, wrk and the servers "
              f"on the same 2 cores · every page checked to show the same books, marks and forms as ours before timing")
    return header + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(verdicts) + "\n"


def update_readme(report):
    start, end = "<!-- peers-results:start -->", "<!-- peers-results:end -->"
    text = open(README).read()
    if start not in text:
        log("Benchmarks/README.md has no peers section; left alone")
        return
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    with open(README, "w") as out:
        out.write(before + start + "\n" + report + end + after)


if __name__ == "__main__":
    main()
