#!/usr/bin/env python3
"""Import benchmark for `make bench-import`: Goodreads imports while other members use the app.

Starts the app's release build on a new database and measures, first, for BENCH_SECONDS each:
  without   wrk on the signed-in list page (as bench.py's "list page"), and beside it one
            connection adding and removing a wishlist item (bench.py's add/remove, one loop),
            which needs SQLite's one writer as an import does
  during    the same two loads while, from 1 s in, other users import 5,000-row Goodreads exports
            one after another until the loads end (every file has new books, so each import adds
            5,000 items)
then, for each size in BENCH_IMPORT_ROWS (default 5,000 and 50,000 rows), one import by a new
member while another member signs in again and again and a third adds and removes a book, each
request timed: the import's duration, and how long the other writers waited (their longest
request during the import, beside their median on the idle server before it; and the server's
own count of every write's wait for the writer meanwhile, from /metrics). Before it, the
same file imported by another new member with nothing else running: its time, the server's CPU
over it (user + system, /proc/PID/stat), the figure to compare builds by on a shared machine, the
bytes the server wrote and read through system calls meanwhile (/proc/PID/io: SQLite copying its
pages) and its peak RSS.
Reports to .build/bench/import.md (raw figures in import.json).

Only 127.0.0.1 is ever contacted. Python 3 standard library only; uses bench.py's helpers.
Options (environment): BENCH_SECONDS (default 15), BENCH_CONNECTIONS (default 32), BENCH_APP=PATH
(a debug build: BENCH_APP=.build/debug/wishlist), BENCH_IMPORT_ROWS="5000 50000",
BENCH_IMPORT_LOAD=0 (skips the wrk phases), BENCH_PERF=1 (a `perf record` of the server during each
import alone, summarised in .build/bench/perf-import-ROWS.txt, as bench.py's).
"""
import datetime
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROWS = 5000
IMPORTERS = 5  # imports take turns among them
LIST_THREADS = 2
SIZES = [int(rows) for rows in os.environ.get("BENCH_IMPORT_ROWS", "5000 50000").split()]
WITH_LOAD = os.environ.get("BENCH_IMPORT_LOAD", "1") != "0"
UPLOAD_LIMIT = 20 * 1024 * 1024  # FormBody.uploads
IDLE_SAMPLES = 20
WAITER = "waiter"


def goodreads_export(catalog_isbns, first_number, rows=ROWS):
    """A Goodreads library export of `rows` to-read books: the catalog's books first (matched by
    ISBN-13), then books the catalog lacks, with ISBNs, notes on every tenth, all in Goodreads' columns."""
    header = ("Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
              "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
              "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies")
    lines = [header]
    for row in range(rows):
        number = first_number + row
        isbn13 = catalog_isbns[row] if row < len(catalog_isbns) else f"979{number:010d}"
        isbn10 = f"{number % 10**9:09d}X"
        notes = f"\"Recommended by a friend, #{row}\"" if row % 10 == 0 else ""
        lines.append(f"{number},\"Imported Book {number}: A Novel\",Author {row % 700},\"{row % 700}, Author\",,"
                     f"\"=\"\"{isbn10}\"\"\",\"=\"\"{isbn13}\"\"\",0,3.95,Publisher {row % 40},Hardcover,320,2024,2024,,"
                     f"2025/03/{row % 28 + 1:02d},to-read,to-read (#{row + 1}),to-read,,,{notes},0,0")
    return ("\r\n".join(lines) + "\r\n").encode()


def post_import(port, cookie, csrf, csv):
    """Seconds from sending the upload to the end of the answer, which must be the import's summary."""
    boundary = "----WishlistImportBench"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{csrf}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"goodreads_library_export.csv\"\r\n"
            "Content-Type: text/csv\r\n\r\n").encode() + csv + f"\r\n--{boundary}--\r\n".encode()
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1800)
    connection.request("POST", "/wishlist/import", body=body, headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
    response = connection.getresponse()
    page = response.read().decode("utf-8", "replace")
    seconds = time.perf_counter() - started
    connection.close()
    if response.status != 200 or 'id="import-summary"' not in page:
        bench.die(f"an import answered {response.status} without its summary")
    return seconds


def signed_in(port, username):
    """The session cookie of `username` and the CSRF token of their wishlist page."""
    session = bench.sign_in(port, username)
    cookie = f"wishlist_session={session}"
    status, _, page, _ = bench.http_request(port, "GET", "/wishlist", {"Cookie": cookie})
    if status != 200:
        bench.die(f"the wishlist page answered {status}")
    return cookie, bench.csrf_in(page)


def loads(port, cookie, csrf, free_book, name):
    """wrk on the list page and one add/remove loop, started together; returns their processes."""
    list_argv = bench.wrk(f"{name}_list", f"http://127.0.0.1:{port}/lists/{bench.LIST}", LIST_THREADS, bench.CONNECTIONS,
                          bench.SECONDS, extra=("-H", f"Cookie: {cookie}"))
    add_script = (f"cookie = {bench.lua_string(cookie)}\ncsrf = {bench.lua_string(urllib.parse.quote(csrf))}\n"
                  f"books = {{ {bench.lua_string(free_book)} }}\n" + open(os.path.join(bench.HERE, "addremove.lua")).read())
    add_argv = bench.wrk(f"{name}_add_remove", f"http://127.0.0.1:{port}/wishlist", 1, 1, bench.SECONDS, add_script)
    return [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for argv in (list_argv, add_argv)]


def finish(processes):
    figures = []
    for process in processes:
        out, err = process.communicate(timeout=bench.SECONDS + 120)
        figures.append(bench.parse_wrk(subprocess.CompletedProcess(process.args, process.returncode, out, err)))
    return figures


def main():
    if not os.path.exists(bench.APP) or (WITH_LOAD and not shutil.which("wrk")):
        bench.die("the app's release build or wrk is missing; run `make bench-import`, which builds and installs them")
    run = os.path.join(bench.OUT, "import-run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run, exist_ok=True)
    database = os.path.join(run, "wishlist.sqlite")
    importers = [f"importer{n}" for n in range(1, IMPORTERS + 1)] + [f"{who}{rows}" for rows in SIZES for who in ("alone", "big")]
    for username in [bench.USERNAME, WAITER, *importers]:
        made = subprocess.run(bench.app_argv("user", "create", username, "--password-stdin", "--database", database),
                              cwd=bench.ROOT, env=bench.clean_environment(), input=bench.PASSWORD + "\n",
                              capture_output=True, text=True)
        if made.returncode != 0:
            bench.die(f"wishlist user create failed: {made.stderr}")

    port = bench.free_port()
    # /metrics on loopback: the writes' waits for the writer (writer_waits).
    app = bench.Server("wishlist", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                       os.path.join(run, "server.log"), {"WISHLIST_METRICS": "true"})
    try:
        app.wait_ready(app.start(), "/healthz")
        results = measure(app, port)
    finally:
        app.stop()
    results["started"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    with open(os.path.join(bench.OUT, "import.json"), "w") as raw:
        json.dump(results, raw, indent=2)
    report = render_report(results)
    with open(os.path.join(bench.OUT, "import.md"), "w") as out:
        out.write(report)
    print()
    print(report)


def measure(app, port):
    load_before = open("/proc/loadavg").read().split()[:3]
    cookie, csrf = signed_in(port, bench.USERNAME)
    _, _, page, _ = bench.http_request(port, "GET", f"/lists/{bench.LIST}", {"Cookie": cookie})
    catalog_isbns = re.findall(r'<li class="book"[^>]* data-book="([^"]+)"', page)
    if len(catalog_isbns) != 15:
        bench.die(f"expected 15 books on /lists/{bench.LIST}, found {len(catalog_isbns)}")
    sessions = [signed_in(port, username) for username in [f"importer{n}" for n in range(1, IMPORTERS + 1)]]
    file_bytes = len(goodreads_export(catalog_isbns, 1_000_000))
    if file_bytes > UPLOAD_LIMIT:
        bench.die("the export is over the upload limit")

    results = {"load_before": " ".join(load_before), "cores": os.cpu_count(), "seconds": bench.SECONDS, "rows": ROWS,
               "file_bytes": file_bytes, "app": bench.APP, "sizes": []}
    if WITH_LOAD:
        results.update(measure_under_load(port, cookie, csrf, catalog_isbns, sessions))
    for rows in SIZES:
        results["sizes"].append(measure_waits(app, port, cookie, catalog_isbns, rows))
    return results


def measure_under_load(port, cookie, csrf, catalog_isbns, sessions):
    bench.log(f"without imports: list page ({bench.CONNECTIONS} conn.) and add/remove (1 conn.), {bench.SECONDS} s")
    without = finish(loads(port, cookie, csrf, catalog_isbns[0], "without"))

    bench.log(f"during imports of {ROWS:,} rows, one after another, from 1 s in")
    processes = loads(port, cookie, csrf, catalog_isbns[0], "during")
    durations = []
    stop = threading.Event()

    def import_until_stopped():
        time.sleep(1)
        while not stop.is_set():
            user_cookie, user_csrf = sessions[len(durations) % IMPORTERS]
            csv = goodreads_export(catalog_isbns, 1_000_000 + len(durations) * ROWS)
            durations.append(post_import(port, user_cookie, user_csrf, csv))
            bench.log(f"import {len(durations)}: {durations[-1] * 1000:.0f} ms")

    importer = threading.Thread(target=import_until_stopped)
    importer.start()
    during = finish(processes)
    stop.set()
    importer.join()
    return {"import_seconds": durations,
            "without": {"list": without[0], "add_remove": without[1]},
            "during": {"list": during[0], "add_remove": during[1]}}


def timed(action):
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def add_and_remove(port, cookie, csrf, book):
    """The bench user adds `book` and removes it again: two writes."""
    headers = {**bench.FORM, "Cookie": cookie}
    status, _, _, cookies = bench.http_request(port, "POST", "/wishlist", headers,
                                               bench.form({"book": book, "return_to": "/wishlist", "csrf_token": csrf}))
    item = re.match(r"(?:added|already)-(\d+)", cookies.get("wishlist_flash", ""))
    if status != 303 or not item:
        bench.die(f"adding a book answered {status}")
    status, _, _, _ = bench.http_request(port, "POST", f"/wishlist/{item.group(1)}/delete", headers, bench.form({"csrf_token": csrf}))
    if status != 303:
        bench.die(f"removing a book answered {status}")


def io_bytes(app):
    """Bytes the server has passed to write and read system calls so far (/proc/PID/io): its files,
    the database's and the log's, and its sockets. SQLite copies its pages with them."""
    with open(f"/proc/{app.process.pid}/io") as io:
        fields = dict(line.split(": ") for line in io.read().splitlines())
    return {"wchar": int(fields["wchar"]), "rchar": int(fields["rchar"])}


def write_wait_buckets(port):
    """The server's histogram of its writes' waits for the writer: {upper bound in s: writes so far}."""
    _, _, text, _ = bench.http_request(port, "GET", "/metrics")
    buckets = {}
    for bound, count in re.findall(r'^wishlist_database_write_wait_seconds_bucket\{le="([^"]+)"\} (\d+)$', text, re.M):
        buckets[float("inf") if bound == "+Inf" else float(bound)] = int(count)
    return buckets


def writer_waits(before, after):
    """The writes between two snapshots: how many, and the smallest bucket bound that holds them all."""
    gained = {bound: after.get(bound, 0) - before.get(bound, 0) for bound in after}
    total = gained.get(float("inf"), 0)
    longest = min((bound for bound, count in gained.items() if count == total), default=float("inf"))
    return {"writes": total, "longest_at_most_s": longest}


def measure_waits(app, port, cookie, catalog_isbns, rows):
    """One import of `rows` rows by a new member while another signs in again and again and the
    bench user adds and removes a book: the import's time and each writer's requests."""
    importer_cookie, importer_csrf = signed_in(port, f"big{rows}")
    csv = goodreads_export(catalog_isbns, 10_000_000 + rows * 10, rows)
    if len(csv) > UPLOAD_LIMIT:
        bench.die(f"the {rows:,}-row export is {len(csv):,} bytes, over the upload limit")
    alone_cookie, alone_csrf = signed_in(port, f"alone{rows}")
    bench.log(f"one import of {rows:,} rows alone")
    # Books of their own, so that the import beside the writers still finds none of its books added.
    alone_csv = goodreads_export(catalog_isbns, 20_000_000 + rows * 10, rows)
    profiler = bench.start_perf(app, f"import-{rows}")
    app.reset_peak()
    cpu_before, io_before = app.cpu_seconds(), io_bytes(app)
    alone_seconds = post_import(port, alone_cookie, alone_csrf, alone_csv)
    alone_cpu = app.cpu_seconds() - cpu_before
    alone_io = {name: value - io_before[name] for name, value in io_bytes(app).items()}
    alone_peak = app.peak_mb()
    bench.stop_perf(profiler, f"import-{rows}")
    bench.log(f"import of {rows:,} rows alone: {alone_seconds:.2f} s, {alone_cpu:.2f} s of server CPU, "
              f"{alone_io['wchar'] / 1e6:,.0f} MB written and {alone_io['rchar'] / 1e6:,.0f} MB read by the server, "
              f"peak RSS {alone_peak:.1f} MB")
    _, _, page, _ = bench.http_request(port, "GET", "/wishlist", {"Cookie": cookie})
    csrf = bench.csrf_in(page)
    writers = {
        "sign_in": lambda: bench.sign_in(port, WAITER),
        "add_remove": lambda: add_and_remove(port, cookie, csrf, catalog_isbns[-1]),
    }
    idle = {name: sorted(timed(action) for _ in range(IDLE_SAMPLES)) for name, action in writers.items()}
    bench.log(f"one import of {rows:,} rows ({len(csv):,} bytes) while a member signs in and another adds and removes")
    done = threading.Event()
    during = {name: [] for name in writers}

    def keep_writing(name):
        while True:  # at least once, however short the import
            during[name].append(timed(writers[name]))
            if done.is_set():
                return

    threads = [threading.Thread(target=keep_writing, args=(name,)) for name in writers]
    waits_before = write_wait_buckets(port)
    for thread in threads:
        thread.start()
    try:
        seconds = post_import(port, importer_cookie, importer_csrf, csv)
    finally:
        done.set()
        for thread in threads:
            thread.join()
    waits = writer_waits(waits_before, write_wait_buckets(port))
    bench.log(f"import of {rows:,} rows: {seconds:.2f} s; longest sign-in {max(during['sign_in']) * 1000:.0f} ms "
              f"({(max(during['sign_in']) - idle['sign_in'][len(idle['sign_in']) // 2]) * 1000:.0f} beyond its idle median), "
              f"longest add/remove {max(during['add_remove']) * 1000:.0f} ms "
              f"({(max(during['add_remove']) - idle['add_remove'][len(idle['add_remove']) // 2]) * 1000:.0f} beyond its idle median); "
              f"the writes' waits for the writer: {waits_text(waits)}")
    return {"rows": rows, "file_bytes": len(csv), "import_seconds": seconds,
            "writer_waits": waits,
            "alone": {"import_seconds": alone_seconds, "server_cpu_seconds": alone_cpu, "io_bytes": alone_io, "peak_mb": alone_peak},
            "idle": {name: {"median": values[len(values) // 2], "max": values[-1]} for name, values in idle.items()},
            "during": {name: {"count": len(values), "median": sorted(values)[len(values) // 2], "max": max(values)}
                       for name, values in during.items()}}


def waits_text(waits):
    """The histogram's answer; a build without it (before 2026-11-30) counts none."""
    if not waits["writes"]:
        return "— (not counted by this build)"
    return f"{waits['writes']} writes, each ≤ {waits['longest_at_most_s'] * 1000:g} ms"


def render_report(results):
    def ms(us):
        return f"{us / 1000:.2f}" if us < 10_000 else f"{us / 1000:.0f}"

    def row(label, figures, imports):
        return (f"| {label} | {figures['rps']:,.0f} | {ms(figures['p50_us'])} | {ms(figures['p99_us'])} | "
                f"{ms(figures['max_us'])} | {figures['errors']} | {imports} |")

    lines = [
        f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-import')}` · {results['started']} · {results['cores']} cores "
        f"shared by the load, the imports and the server, load average before the run {results['load_before']} · "
        f"app `{os.path.relpath(results['app'], bench.ROOT)}`",
    ]
    if "without" in results:
        durations = sorted(results["import_seconds"])
        median = durations[len(durations) // 2] if durations else 0
        imports = (f"{len(durations)} imports: {median * 1000:,.0f} ms median, {durations[0] * 1000:,.0f}–{durations[-1] * 1000:,.0f} ms"
                   if durations else "none finished")
        lines += [
            "",
            f"Under load: {results['seconds']} s per phase · each import {results['rows']:,} rows, {results['file_bytes']:,} bytes",
            "",
            "| load | req/s | p50 ms | p99 ms | max ms | errors | imports meanwhile |",
            "|---|---:|---:|---:|---:|---:|---|",
            row(f"list page, signed in ({bench.CONNECTIONS} conn.), without imports", results["without"]["list"], "—"),
            row(f"list page, signed in ({bench.CONNECTIONS} conn.), during imports", results["during"]["list"], imports),
            row("add-then-remove, CSRF (1 conn.), without imports", results["without"]["add_remove"], "—"),
            row("add-then-remove, CSRF (1 conn.), during imports", results["during"]["add_remove"], "the same"),
        ]
    if results["sizes"]:
        lines += [
            "",
            "One import at a time, beside a member signing in again and again and another adding and removing a book; "
            "before it, the same file alone (nothing else running) and the server's CPU over it:",
            "",
            "| rows | file | alone: import, server CPU | alone: server wrote, read; peak RSS | import | sign-ins during | sign-in median idle → during | longest sign-in (beyond the idle median) | add+remove median idle → during | longest add+remove (beyond the idle median) | the writes' waits for the writer (the server's histogram) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for size in results["sizes"]:
            idle, during = size["idle"], size["during"]

            def longest(name):
                return f"{during[name]['max'] * 1000:.0f} ms ({(during[name]['max'] - idle[name]['median']) * 1000:.0f})"

            lines.append(
                f"| {size['rows']:,} | {size['file_bytes'] / 1e6:.1f} MB | {size['alone']['import_seconds']:.2f} s, {size['alone']['server_cpu_seconds']:.2f} s | "
                f"{size['alone']['io_bytes']['wchar'] / 1e6:,.0f} MB, {size['alone']['io_bytes']['rchar'] / 1e6:,.0f} MB; {size['alone']['peak_mb']:.1f} MB | "
                f"{size['import_seconds']:.2f} s | {during['sign_in']['count']} | "
                f"{idle['sign_in']['median'] * 1000:.0f} → {during['sign_in']['median'] * 1000:.0f} ms | {longest('sign_in')} | "
                f"{idle['add_remove']['median'] * 1000:.0f} → {during['add_remove']['median'] * 1000:.0f} ms | {longest('add_remove')} | "
                f"{waits_text(size['writer_waits'])} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
