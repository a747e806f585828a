#!/usr/bin/env python3
"""`make bench-peers`: the signed-in list page in our app, in Django and in Vapor 4 + Leaf, side by
side in one run, on one SQLite database.

1. Makes the database as `make bench` does (the release app loads the sample catalog, user `bench`
   with three books on the wishlist), and keeps our page.
2. Starts each peer on that same file (Benchmarks/peers/: Django's ORM, templates, sessions and
   CSRF under gunicorn; Vapor with Fluent, Leaf and sessions), signs in, fetches the page and
   checks that it shows what ours shows (Benchmarks/peers/content.py) before timing anything.
3. Measures each with the same wrk load (2 threads, BENCH_CONNECTIONS connections, BENCH_SECONDS
   each), one after the other, ours first and last so that drift in the machine shows. Ours is
   measured two ways, each twice:
   - memo-served repeat: the same URL again and again with nothing written, as a browser reloading
     the page: after the first request our app answers from its read memo (PageReadMemo) and shared
     page cache, reading nothing from the database and rendering nothing;
   - every request reads: each request at an address of its own (server/distinct.lua adds
     `visit=<thread>-<n>` to the query, a parameter the page ignores), so the memo never matches and
     each request reads the session, favourites and wishlist marks from the database; the catalog
     part of the page still comes from the shared page cache (rendered once per edition).
   Ours is a browser that holds the stylesheet, as one does after its first page here: its pages
   link the sheet, as the peers' do (BENCH_PEERS_INLINE_SHEET=1: each page carries it inline, as a
   first visit's does; the only way before 2026-11-30).
   The peers read the database and render the whole page on every request: the reading row is the
   one to compare them with (budget: ours at least BUDGET_READS_TIMES_FASTER times the faster peer).
4. Checks every timed run's bytes per response (wrk's total bytes read / requests, headers
   included) against the size of the page that server was checked to serve: a server that lost
   its session answers a short redirect to /login, fast and without any error wrk counts. A run
   below BYTES_FLOOR of its page's size is marked INVALID in the table, the README is left alone,
   and the script exits with status 1.

The resolved versions are printed in the table's header: Hummingbird of the app's build
(.build-bench) and, when it is built, of the Benchmarks package (Benchmarks/.build; the run stops if
they differ), and Vapor, Leaf, Fluent and FluentSQLiteDriver of the Vapor peer's build; Django's
from its virtual environment. The peers' labels are made from them.

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
from bench import (APP_BUILD, BENCHMARKS_BUILD, CONNECTIONS, FORM, HERE, LIST, OUT, ROOT, RUN, SECONDS, USERNAME, PASSWORD,
                   WISHLIST_RANKS, Server, app_argv, clean_environment, csrf_in, die, form, free_port, http_request,
                   hummingbird_versions, log, lua_string, resolved_versions, run_wrk, sign_in, wrk)

sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers"))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "peers", "django"))
import content  # noqa: E402
import run as django_peer  # noqa: E402

VAPOR_PACKAGE = os.path.join(ROOT, "Benchmarks", "peers", "vapor", "VaporPeer")
VAPOR = os.path.join(VAPOR_PACKAGE, ".build", "release", "VaporPeer")
VAPOR_PACKAGES = ("vapor", "leaf", "fluent", "fluent-sqlite-driver")
README = os.path.join(ROOT, "Benchmarks", "README.md")
BUDGET_TIMES_FASTER = 3.0        # the memo-served repeat row (issue 17)
BUDGET_READS_TIMES_FASTER = 10.0  # the row where every request reads the database (issue 34)
# A timed run whose responses average less than this share of its page's size did not serve the
# page (a lost session answers a redirect of a few hundred bytes): the run is invalid.
BYTES_FLOOR = 0.9
# Ours as a browser that has been here before, as a signed-in one has: it holds the stylesheet and
# gets pages that link it, as the peers' pages do. BENCH_PEERS_INLINE_SHEET=1 measures the first
# visit's pages instead, the stylesheet inline in each (the figures before 2026-11-30).
INLINE_SHEET = os.environ.get("BENCH_PEERS_INLINE_SHEET") == "1"


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
    if not INLINE_SHEET:
        cookie += "; " + stylesheet_cookie(port, cookie)
    return app, port, cookie


def stylesheet_cookie(port, cookie):
    """What a browser holds after its first page here: the stylesheet that page prefetched, and the
    cookie its answer set, so that every page after it links the sheet instead of carrying it."""
    _, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
    found = re.search(r'<link rel="prefetch" href="(/static/style\.css\?v=[0-9a-f]+)"', page)
    if not found:
        die("our first page prefetches no stylesheet")
    _, _, _, cookies = http_request(port, "GET", found.group(1), {"Cookie": cookie})
    if "wishlist_stylesheet" not in cookies:
        die("the stylesheet's answer set no wishlist_stylesheet cookie")
    return f"wishlist_stylesheet={cookies['wishlist_stylesheet']}"


def add_wishlist_books(port, cookie):
    _, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
    csrf = csrf_in(page)
    by_rank = {int(rank): book for book, rank in re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page)}
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


def vapor_versions():
    """The Vapor peer's resolved versions of VAPOR_PACKAGES, and where they were read."""
    versions, source = resolved_versions(os.path.join(VAPOR_PACKAGE, ".build"), VAPOR_PACKAGE)
    missing = [name for name in VAPOR_PACKAGES if name not in versions]
    if missing:
        die(f"the Vapor peer is built but its resolution ({source or 'none'}) names no {', '.join(missing)}")
    log("Vapor peer: " + ", ".join(f"{name} {versions[name]}" for name in VAPOR_PACKAGES) + f", read from {source}")
    return {name: versions[name] for name in VAPOR_PACKAGES}


def django_version():
    found = subprocess.run([django_peer.VENV_PYTHON, "-c", "import django; print(django.get_version())"],
                           capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else "?"


# The rows, in the order they are measured: ours both ways first, the peers, ours both ways again.
# (row key, server, reads: each request at an address of its own)
ORDER = [("ours", "ours", False), ("ours_reads", "ours", True), ("django", "django", False), ("vapor", "vapor", False),
         ("ours_reads_again", "ours", True), ("ours_again", "ours", False)]


def main():
    os.makedirs(RUN, exist_ok=True)
    database = os.path.join(RUN, "peers.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    results = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "load_before": " ".join(open("/proc/loadavg").read().split()[:3]), "seconds": SECONDS,
               "connections": CONNECTIONS, "rows": {}, "skipped": {}, "invalid": {},
               "hummingbird": hummingbird_versions([APP_BUILD, BENCHMARKS_BUILD], require=[APP_BUILD[0]])}
    if os.path.exists(VAPOR):
        results["vapor_versions"] = vapor_versions()
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
        if "django" in servers:
            results["django_version"] = django_version()
        distinct = f"path = {lua_string('/lists/' + LIST)}\n" + open(os.path.join(HERE, "distinct.lua")).read()
        for index, (key, name, reads) in enumerate(ORDER):
            if name not in servers:
                continue
            server, port, cookie = servers[name]
            log(f"{key}: {SECONDS} s, {CONNECTIONS} connections" + (", each request at an address of its own" if reads else ""))
            before = process_tree_cpu_seconds(server.process.pid)
            figures = run_wrk(wrk(f"peer_{key}_{index}", f"http://127.0.0.1:{port}/lists/{LIST}", 2, CONNECTIONS, SECONDS,
                                  distinct if reads else "", extra=("-H", f"Cookie: {cookie}")))
            figures["cpu_us_per_request"] = (process_tree_cpu_seconds(server.process.pid) - before) * 1e6 / max(1, figures["requests"])
            figures["bytes_per_response"] = figures["bytes"] / max(1, figures["requests"])
            page_bytes = results["bytes"][name]
            if figures["requests"] == 0 or figures["bytes_per_response"] < BYTES_FLOOR * page_bytes:
                results["invalid"][key] = (f"{figures['bytes_per_response']:,.0f} bytes a response (headers included) against "
                                           f"its page's {page_bytes:,}: it did not serve the page (a lost session answers a redirect)")
                log(f"!!! {key}: INVALID, {results['invalid'][key]}")
            results["rows"][key] = figures
            log(f"{key}: {figures['rps']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, {figures['errors']} errors, "
                f"{figures['bytes_per_response']:,.0f} bytes a response")
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
    if results["invalid"]:
        die("INVALID runs, the README left alone: " + "; ".join(f"{key}: {why}" for key, why in results["invalid"].items()))
    if os.environ.get("BENCH_UPDATE_README", "1") != "0":
        update_readme(report)


def labels(results):
    vapor = results.get("vapor_versions", {})
    return {
        "ours": "Bestseller Wishlist (Hummingbird 2, our templates, GRDB), **memo-served repeat**: the same URL with nothing "
                "written, answered from its read memo and shared page cache (no database read, no render)",
        "ours_reads": "Bestseller Wishlist, **every request reads**: each at an address of its own (`?visit=…`), so the "
                      "session, favourites and wishlist marks are read from the database each time; the catalog part of "
                      "the page from the shared page cache (rendered once per edition)",
        "django": f"Django {results.get('django_version', '5.2')} + its ORM, templates, database sessions, CSRF middleware; "
                  "gunicorn, 5 sync workers; reads and renders every request",
        "vapor": f"Vapor {vapor.get('vapor', '4')} + Fluent {vapor.get('fluent', '4')} (SQLite, driver "
                 f"{vapor.get('fluent-sqlite-driver', '4')}) + Leaf {vapor.get('leaf', '4')}, memory sessions, a CSRF token per "
                 "session; reads and renders every request",
        "ours_reads_again": "Bestseller Wishlist again, after the peers, **every request reads**",
        "ours_again": "Bestseller Wishlist again, after the peers, **memo-served repeat**",
    }


def render(results):
    rows = results["rows"]
    names = labels(results)
    lines = ["| server | req/s | p50 ms | p99 ms | errors | server CPU µs a request | page bytes | bytes a response in the run |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for key, name, _ in ORDER:
        row = rows.get(key)
        if row:
            invalid = " **INVALID: not the page**" if key in results["invalid"] else ""
            lines.append(f"| {names[key]}{invalid} | {row['rps']:,.0f} | {row['p50_us'] / 1000:.2f} | {row['p99_us'] / 1000:.2f} | "
                         f"{row['errors']} | {row['cpu_us_per_request']:.0f} | {results['bytes'][name]:,} | "
                         f"{row['bytes_per_response']:,.0f} |")
    for name, reason in results["skipped"].items():
        lines.append(f"| {names[name]} | skipped: {reason} | | | | | | |")
    peers = [rows[name] for name in ("django", "vapor") if name in rows]
    verdicts = []
    if results["invalid"]:
        verdicts.append("- No verdict: a timed run did not serve its page (below).")
    elif peers:
        fastest = max(peers, key=lambda row: row["rps"])
        for first, again, times, what in [("ours_reads", "ours_reads_again", BUDGET_READS_TIMES_FASTER, "every request reads"),
                                          ("ours", "ours_again", BUDGET_TIMES_FASTER, "memo-served repeat")]:
            if first not in rows:
                continue
            ours = min(rows[first]["rps"], rows.get(again, rows[first])["rps"])
            p99 = max(rows[first]["p99_us"], rows.get(again, rows[first])["p99_us"])
            ok = ours >= times * fastest["rps"] and p99 < fastest["p99_us"]
            verdicts.append(f"- Ours, {what}, at least {times:.0f}× the faster peer's requests/s, with a lower p99: "
                            f"{'**met**' if ok else '**missed**'} ({ours / fastest['rps']:.1f}×, the slower of our two runs).")
    for key, why in results["invalid"].items():
        verdicts.append(f"- **INVALID** {key}: {why}.")
    versions = [results["hummingbird"]]
    if results.get("vapor_versions"):
        versions.append("Vapor peer: " + ", ".join(f"{name} {version}" for name, version in results["vapor_versions"].items()))
    if results.get("django_version"):
        versions.append(f"Django {results['django_version']}")
    header = (f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-peers')}` · {results['started']} · load average before "
              f"{results['load_before']} · {results['seconds']} s each, {results['connections']} connections, wrk and the servers "
              f"on the same 2 cores · every page checked to show the same books, marks and forms as ours before timing, "
              f"and every timed run's bytes a response (headers included) checked against its page's size · "
              + ("ours as a first visit, the stylesheet inline in each page · " if INLINE_SHEET
                 else "ours as a browser that holds the stylesheet, its pages linking it as the peers' do · ")
              + " · ".join(versions))
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
