#!/usr/bin/env python3
"""Import benchmark for `make bench-import`: 5,000-row Goodreads imports while wrk loads the app.

Starts the app's release build on a new database and measures twice, each for BENCH_SECONDS:
  without   wrk on the signed-in list page (as bench.py's "list page"), and beside it one
            connection adding and removing a wishlist item (bench.py's add/remove, one loop),
            which needs SQLite's one writer as an import does
  during    the same two loads while, from 1 s in, other users import 5,000-row Goodreads exports
            one after another until the loads end (every file has new books, so each import adds
            5,000 items)
and reports each import's duration (POST /wishlist/import to its 200) and the p50/p99 of the list
page and of the add/remove requests in both, to .build/bench/import.md (raw figures in import.json).

Only 127.0.0.1 is ever contacted. Python 3 standard library only; uses bench.py's helpers.
Options (environment): BENCH_SECONDS (default 15), BENCH_CONNECTIONS (default 32), BENCH_APP=PATH.
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


def goodreads_export(catalog_isbns, first_number):
    """A Goodreads library export of ROWS to-read books: the catalog's books first (matched by
    ISBN-13), then books the catalog lacks, with ISBNs, notes on every tenth, all in Goodreads' columns."""
    header = ("Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
              "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
              "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies")
    lines = [header]
    for row in range(ROWS):
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
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
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
    if not os.path.exists(bench.APP) or not shutil.which("wrk"):
        bench.die("the app's release build or wrk is missing; run `make bench-import`, which builds and installs them")
    run = os.path.join(bench.OUT, "import-run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run, exist_ok=True)
    database = os.path.join(run, "wishlist.sqlite")
    importers = [f"importer{n}" for n in range(1, IMPORTERS + 1)]
    for username in [bench.USERNAME, *importers]:
        made = subprocess.run(bench.app_argv("user", "create", username, "--password-stdin", "--database", database),
                              cwd=bench.ROOT, env=bench.clean_environment(), input=bench.PASSWORD + "\n",
                              capture_output=True, text=True)
        if made.returncode != 0:
            bench.die(f"wishlist user create failed: {made.stderr}")

    port = bench.free_port()
    app = bench.Server("wishlist", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                       os.path.join(run, "server.log"))
    try:
        app.wait_ready(app.start(), "/healthz")
        results = measure(port)
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


def measure(port):
    load_before = open("/proc/loadavg").read().split()[:3]
    cookie, csrf = signed_in(port, bench.USERNAME)
    _, _, page, _ = bench.http_request(port, "GET", f"/lists/{bench.LIST}", {"Cookie": cookie})
    catalog_isbns = re.findall(r'<li class="book"[^>]* data-book="([^"]+)"', page)
    if len(catalog_isbns) != 15:
        bench.die(f"expected 15 books on /lists/{bench.LIST}, found {len(catalog_isbns)}")
    sessions = [signed_in(port, username) for username in [f"importer{n}" for n in range(1, IMPORTERS + 1)]]
    file_bytes = len(goodreads_export(catalog_isbns, 1_000_000))
    if file_bytes > 2 * 1024 * 1024:
        bench.die("the export is over the 2 MiB upload limit")

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
    return {"load_before": " ".join(load_before), "cores": os.cpu_count(), "seconds": bench.SECONDS, "rows": ROWS,
            "file_bytes": file_bytes, "import_seconds": durations,
            "without": {"list": without[0], "add_remove": without[1]},
            "during": {"list": during[0], "add_remove": during[1]}}


def render_report(results):
    def ms(us):
        return f"{us / 1000:.2f}" if us < 10_000 else f"{us / 1000:.0f}"

    def row(label, figures, imports):
        return (f"| {label} | {figures['rps']:,.0f} | {ms(figures['p50_us'])} | {ms(figures['p99_us'])} | "
                f"{ms(figures['max_us'])} | {figures['errors']} | {imports} |")

    durations = sorted(results["import_seconds"])
    median = durations[len(durations) // 2] if durations else 0
    imports = (f"{len(durations)} imports: {median * 1000:,.0f} ms median, {durations[0] * 1000:,.0f}–{durations[-1] * 1000:,.0f} ms"
               if durations else "none finished")
    lines = [
        f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-import')}` · {results['started']} · {results['cores']} cores "
        f"shared by wrk, the imports and the server, load average before the run {results['load_before']} · "
        f"{results['seconds']} s per phase · each import {results['rows']:,} rows, {results['file_bytes']:,} bytes",
        "",
        "| load | req/s | p50 ms | p99 ms | max ms | errors | imports meanwhile |",
        "|---|---:|---:|---:|---:|---:|---|",
        row(f"list page, signed in ({bench.CONNECTIONS} conn.), without imports", results["without"]["list"], "—"),
        row(f"list page, signed in ({bench.CONNECTIONS} conn.), during imports", results["during"]["list"], imports),
        row("add-then-remove, CSRF (1 conn.), without imports", results["without"]["add_remove"], "—"),
        row("add-then-remove, CSRF (1 conn.), during imports", results["during"]["add_remove"], "the same"),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
