#!/usr/bin/env python3
"""A browsing session's bytes (`make bench-session`, issue 58): a household member's first visit and
the nine pages she clicks through after it, in headless Chromium on DevTools' "Slow 4G" with the CPU
slowed 4x, as lcp.py drives it (its server, member, Chromium, throttling and LCP observer: imported,
not copied).

    nice -n -10 .venv/bin/python Benchmarks/browser/session.py

The household: `bench` (lcp.py's member: three books of the Hardcover Fiction list on her wishlist)
and `sally`, who shares her wishlist with the household (the welcome's choice) and wants three
others; `bench` has reserved one of Sally's as a gift. Each session
starts with Chromium's cache cleared and without the stylesheet's cookie, as a phone that never saw
the site but whose member is signed in (the session cookie only), then:

   1  the lists page      /lists                     typed in (the address bar): the first visit
   2  a list              /lists/hardcover-fiction   the book she came for is on it
   3  a book              /books/<rank 1>
   4  her wishlist        /wishlist
   5  People              /people                    who else is in the household
   6  a member's page     /people/sally              what Sally wants
   7  Gifts I'm giving    /reservations              the book she reserved for Sally
   8  search              /search?q=the
   9  another book        /books/<rank 4>            a result
  10  Settings            /settings

Pages 2 to 10 are same-origin navigations (`location.assign` from the page before, as a click: the
browser sends `Sec-Fetch-Site: same-origin`, so the HTML comes gzipped), with the cache kept. For
each page: Largest Contentful Paint (lcp.py's observer), the requests that went over the network
and the bytes they took (DevTools' `encodedDataLength`: headers and the compressed body, of the
HTML and of every subresource, the stylesheet's prefetch included), the HTML's own bytes, and the
files taken from the cache (Resource Timing, `transferSize` 0). A page's count ends once no
request is pending, so what one page starts is never counted with the next.

With BENCH_BEFORE_APP (and BENCH_BEFORE_TREE, a folder holding that build's Views/, Public/ and
Languages/, e.g. from `git archive`), the same session runs against that build too, each build with
its own server and Chromium, the sessions of the two in turns: the figures compare builds only
within one run.

Writes the table to .build/bench/session.md (every sample in session.json) and into
Benchmarks/README.md between <!-- session-results:start --> and <!-- session-results:end -->
(BENCH_UPDATE_README=0 leaves it alone). Options (environment): lcp.py's BENCH_APP, BENCH_COMMAND;
BENCH_SESSION_RUNS (3), BENCH_BEFORE_APP, BENCH_BEFORE_TREE, BENCH_BUILD_NOTE (what the builds are,
for the table's header).
"""
import datetime
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lcp  # noqa: E402  (the browser benchmark's helpers)

RUNS = int(os.environ.get("BENCH_SESSION_RUNS", "3"))
COMMAND = os.environ.get("BENCH_COMMAND", "make bench-session")
BEFORE_APP = os.environ.get("BENCH_BEFORE_APP")
BEFORE_TREE = os.environ.get("BENCH_BEFORE_TREE")
BUILD_NOTE = os.environ.get("BENCH_BUILD_NOTE", "release builds")

OTHER_MEMBER = "sally"
OTHER_RANKS = [3, 7, 11]
# Issue 58: ten pages took 110.5 KB (each page's HTML gzipped, the stylesheet inline in each); the
# session is to take at most 60% of that, its first page's LCP at most 0.9 s, every other's 0.7 s.
TODAY_BYTES = 110_500
BUDGET_BYTES = TODAY_BYTES * 60 // 100
BUDGET_FIRST_LCP_MS = 900
BUDGET_NEXT_LCP_MS = 700
IDLE_TIMEOUT_S = 60


def log(message):
    print(f"[bench-session] {message}", flush=True)


# MARK: - The household

def make_household(base):
    """Sally (three wants), then lcp.py's `bench`, who reserves one of Sally's books; the session's pages."""
    sally = lcp.new_opener()
    page = lcp.fetch(base, "/signup", opener=sally)[2]
    _, path, _ = lcp.fetch(base, "/signup", {"username": OTHER_MEMBER, "email": "", "password": lcp.PASSWORD,
                                             "password_confirm": lcp.PASSWORD, "csrf_token": lcp.csrf_in(page)}, opener=sally)
    if path == "/signup":
        lcp.die(f"signing {OTHER_MEMBER} up failed")
    # The welcome: she shares her wishlist with the household (an account is private until then).
    page = lcp.fetch(base, "/welcome", opener=sally)[2]
    lcp.fetch(base, "/welcome", {"display_name": "Sally", "birthday_month": "", "birthday_day": "", "sharing": "household",
                                 "csrf_token": lcp.csrf_in(page)}, opener=sally)
    page = lcp.fetch(base, f"/lists/{lcp.LIST}", opener=sally)[2]
    books = dict((int(rank), book) for book, rank in re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page))
    for rank in OTHER_RANKS:
        lcp.fetch(base, "/wishlist", {"book": books[rank], "return_to": "/wishlist", "csrf_token": lcp.csrf_in(page)}, opener=sally)

    lcp.make_member(base)
    page = lcp.fetch(base, f"/people/{OTHER_MEMBER}")[2]
    items = re.findall(r'name="item" value="(\d+)"', page)
    if len(items) != len(OTHER_RANKS):
        lcp.die(f"expected {len(OTHER_RANKS)} books to reserve on /people/{OTHER_MEMBER}, found {len(items)}")
    lcp.fetch(base, "/reservations", {"item": items[0], "return_to": f"/people/{OTHER_MEMBER}", "csrf_token": lcp.csrf_in(page)})
    if 'class="reserved-mark reserved-by-you"' not in lcp.fetch(base, f"/people/{OTHER_MEMBER}")[2]:
        lcp.die(f"reserving a book of {OTHER_MEMBER}'s did not show as reserved")
    return [
        ("the lists page", "/lists"), ("a list", f"/lists/{lcp.LIST}"), ("a book", f"/books/{books[1]}"),
        ("her wishlist", "/wishlist"), ("People", "/people"), ("a member's page", f"/people/{OTHER_MEMBER}"),
        ("Gifts I'm giving", "/reservations"), ("search", "/search?q=the"), ("another book", f"/books/{books[4]}"),
        ("Settings", "/settings"),
    ]


# MARK: - One session

class Network:
    """The Network domain's events from Chromium's performance log, one page at a time."""

    def __init__(self, driver):
        self.driver = driver
        self.requests = {}
        self.pending = set()

    def start_page(self):
        self.read()  # what came before belongs to the page before
        self.requests, self.pending = {}, set()

    def read(self):
        for event in lcp.network_events(self.driver):
            method, params = event["method"], event["params"]
            request_id = params.get("requestId")
            if method == "Network.requestWillBeSent":
                if params["request"]["url"].startswith(("data:", "blob:")):
                    continue
                # A redirect is sent again under the same id: one request.
                self.requests.setdefault(request_id, {"url": params["request"]["url"], "cached": False, "bytes": 0, "type": params.get("type")})
                self.pending.add(request_id)
            elif request_id not in self.requests:
                continue
            elif method == "Network.requestServedFromCache":
                self.requests[request_id]["cached"] = True
            elif method == "Network.responseReceived":
                self.requests[request_id]["type"] = params["type"]
                self.requests[request_id]["status"] = params["response"]["status"]
                if params["response"].get("fromDiskCache"):
                    self.requests[request_id]["cached"] = True
            elif method == "Network.loadingFinished":
                self.requests[request_id]["bytes"] = int(params.get("encodedDataLength", 0))
                self.pending.discard(request_id)
            elif method == "Network.loadingFailed":
                self.requests[request_id]["failed"] = params.get("errorText", "")
                self.pending.discard(request_id)

    def wait_until_idle(self):
        """Until every request the page started has finished: its prefetch too."""
        deadline = time.monotonic() + IDLE_TIMEOUT_S
        while True:
            self.read()
            if not self.pending:
                return
            if time.monotonic() > deadline:
                lcp.die(f"requests still pending {IDLE_TIMEOUT_S} s after the page: {[self.requests[r]['url'] for r in self.pending]}")
            time.sleep(0.1)  # polling Chromium's log, not timing anything


def navigate(driver, base, path, first):
    """The first page from the address bar; the others as a click on the page before would."""
    if first:
        driver.get(base + path)
        return
    mark = secrets.token_hex(8)
    driver.execute_script("window.__sessionPage = arguments[0]; location.assign(arguments[1]);", mark, base + path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if driver.execute_script("return window.__sessionPage !== arguments[0] && document.readyState === 'complete'", mark):
                return
        except Exception:  # the old document went away mid-call
            pass
        time.sleep(0.05)
    lcp.die(f"{path}: the next page did not load within 60 s")


def measure_page(driver, network, base, path, first):
    network.start_page()
    navigate(driver, base, path, first)
    lcp_entry = driver.execute_async_script(lcp.LCP_SCRIPT)
    sheet = driver.execute_script(
        "return document.querySelector('link[rel=stylesheet]') ? 'linked' : document.querySelector('head style') ? 'inline' : 'none'")
    if first and sheet != "inline":
        lcp.die(f"the first page's stylesheet is {sheet}, not inline: the browser is not new to the site")
    network.wait_until_idle()
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => [e.name, e.transferSize])")
    current = urllib.parse.urlsplit(driver.current_url)
    if current.path != urllib.parse.urlsplit(path).path:
        lcp.die(f"{path} led to {driver.current_url}")
    if not lcp_entry:
        lcp.die(f"no largest-contentful-paint entry for {path}")
    listed = list(network.requests.values())
    document = next((r for r in listed if r.get("type") == "Document"), None)
    if not document or document.get("status") != 200:
        lcp.die(f"{path} answered {document and document.get('status')}")
    ours = urllib.parse.urlsplit(base).netloc
    return {
        "lcp_ms": lcp_entry["ms"], "lcp_element": lcp_entry["element"], "sheet": sheet,
        "requests": sum(not r["cached"] for r in listed), "from_cache": sum(size == 0 for _, size in resources),
        "bytes": sum(r["bytes"] for r in listed), "html_bytes": document["bytes"],
        "other_hosts": sorted({r["url"] for r in listed if urllib.parse.urlsplit(r["url"]).netloc != ours}),
        "each_request": listed,
    }


def run_session(build, pages):
    driver, base = build["driver"], build["base"]
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.deleteCookies", {"name": "wishlist_stylesheet", "url": base + "/"})
    network = Network(driver)
    return [measure_page(driver, network, base, path, index == 0) for index, (_, path) in enumerate(pages)]


# MARK: - Report

def summary(sessions, index):
    samples = [session[index] for session in sessions]
    return {
        "lcp_median": statistics.median(s["lcp_ms"] for s in samples), "lcp_worst": max(s["lcp_ms"] for s in samples),
        "requests": statistics.median(s["requests"] for s in samples), "from_cache": statistics.median(s["from_cache"] for s in samples),
        "bytes": statistics.median(s["bytes"] for s in samples), "html_bytes": statistics.median(s["html_bytes"] for s in samples),
        "other_hosts": max(len(s["other_hosts"]) for s in samples), "elements": sorted({s["lcp_element"] for s in samples}),
        "sheets": sorted({s["sheet"] for s in samples}),
    }


def verdict(met):
    return "**met**" if met else "**missed**"


def render_report(results):
    lines = [
        f"Command: `{COMMAND}` · {results['stamp']} · {BUILD_NOTE}: " + ", ".join(f"{b['name']} `{b['app']}`" for b in results["builds"])
        + f" · Chromium {results['chromium']}, headless, {lcp.PHONE['width']} × {lcp.PHONE['height']} at {lcp.PHONE['deviceScaleFactor']}× · "
        f"DevTools \"Slow 4G\" (562.5 ms latency a request, 180,000 B/s down, 84,375 B/s up) and the CPU slowed {lcp.CPU_SLOWDOWN}× · "
        f"{RUNS} sessions of each build, in turns, each from an empty cache · machine shared: {os.cpu_count()} cores, "
        f"{results['builds_before']} swift-build, swift-test, swift-frontend and swiftc processes at the start, {results['builds_after']} at the end, "
        f"Chromium, chromedriver and the server at nice {results['nice']}, load average {results['load_before']} before and {results['load_after']} after",
        "",
        "| build | page | stylesheet | LCP median, ms | LCP worst, ms | requests over the network | files from the cache | bytes over the network (median) | of which the HTML | LCP element |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    budgets = []
    for build in results["builds"]:
        sessions = build["sessions"]
        for index, (name, path) in enumerate(results["pages"]):
            s = summary(sessions, index)
            lines.append(
                f"| {build['name']} | {index + 1}. {name} (`{path}`) | {', '.join(s['sheets'])} | {s['lcp_median']:,.0f} | {s['lcp_worst']:,.0f} | {s['requests']:g} | "
                f"{s['from_cache']:g} | {s['bytes']:,.0f} | {s['html_bytes']:,.0f} | {', '.join(f'`{e}`' for e in s['elements'])} |"
            )
        totals = [sum(page["bytes"] for page in session) for session in sessions]
        requests = [sum(page["requests"] for page in session) for session in sessions]
        html = [sum(page["html_bytes"] for page in session) for session in sessions]
        first_worst = max(session[0]["lcp_ms"] for session in sessions)
        next_worst = max(page["lcp_ms"] for session in sessions for page in session[1:])
        other_hosts = max(len(page["other_hosts"]) for session in sessions for page in session)
        lines.append(
            f"| {build['name']} | **the session** | | | | {statistics.median(requests):g} | | **{statistics.median(totals):,.0f}** "
            f"({min(totals):,}–{max(totals):,}) | {statistics.median(html):,.0f} | |"
        )
        budgets.append(
            f"- {build['name']}: the session's bytes at most {BUDGET_BYTES:,} (60% of {TODAY_BYTES:,}) {verdict(max(totals) <= BUDGET_BYTES)}, "
            f"{statistics.median(totals):,.0f} median, {max(totals):,} most ({statistics.median(totals) / TODAY_BYTES:.0%} of {TODAY_BYTES:,}); "
            f"the first page's LCP at most {BUDGET_FIRST_LCP_MS:,} ms {verdict(first_worst <= BUDGET_FIRST_LCP_MS)}, worst {first_worst:,.0f}; "
            f"every other page's at most {BUDGET_NEXT_LCP_MS:,} ms {verdict(next_worst <= BUDGET_NEXT_LCP_MS)}, worst {next_worst:,.0f}; "
            f"requests to other hosts {other_hosts}."
        )
    return "\n".join(lines + ["", "Budgets (issue 58, every session):", ""] + budgets + [""])


# MARK: - Main

def start_build(name, app, tree, work):
    lcp.APP = app
    if not os.access(app, os.X_OK):
        lcp.die(f"no build at {app}: `make bench-session` builds it, or set BENCH_APP")
    server, base = lcp.start_server(work, tree)
    build = {"name": name, "app": os.path.relpath(app, lcp.ROOT) if app.startswith(lcp.ROOT) else app, "server": server, "base": base,
             "driver": None, "sessions": []}
    pages = make_household(base)
    build["driver"] = lcp.start_chromium()
    lcp.sign_in(build["driver"], base)
    lcp.throttle(build["driver"])
    return build, pages


def main():
    builds_wanted = []
    if BEFORE_APP:
        if not BEFORE_TREE or not os.path.isdir(os.path.join(BEFORE_TREE, "Views")):
            lcp.die("BENCH_BEFORE_APP needs BENCH_BEFORE_TREE, a folder with that build's Views/, Public/ and Languages/")
        builds_wanted.append(("before", BEFORE_APP, BEFORE_TREE))
    builds_wanted.append(("this build" if BEFORE_APP else "today", lcp.APP, lcp.ROOT))
    results = {
        "stamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": subprocess.run(["git", "-C", lcp.ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
        "chromium": lcp.chromium_version(), "nice": os.nice(0), "builds": [],
    }
    builds = []
    with tempfile.TemporaryDirectory() as work:
        try:
            for name, app, tree in builds_wanted:
                os.makedirs(os.path.join(work, name), exist_ok=True)
                build, pages = start_build(name, app, tree, os.path.join(work, name))
                builds.append(build)
            results["pages"] = pages
            results["builds_before"], results["load_before"] = lcp.swift_processes(), lcp.load_average()
            for run in range(RUNS):
                for offset in range(len(builds)):
                    build = builds[(run + offset) % len(builds)]
                    session = run_session(build, pages)
                    build["sessions"].append(session)
                    log(f"run {run + 1}/{RUNS} {build['name']}: {sum(p['bytes'] for p in session):,} bytes, "
                        f"LCP {session[0]['lcp_ms']:.0f} ms first, worst after {max(p['lcp_ms'] for p in session[1:]):.0f} ms; "
                        f"load average {lcp.load_average()}")
            results["builds_after"], results["load_after"] = lcp.swift_processes(), lcp.load_average()
        finally:
            for build in builds:
                if build["driver"]:
                    build["driver"].quit()
                lcp.stop_server(build["server"])
    results["builds"] = [{k: v for k, v in b.items() if k in ("name", "app", "sessions")} for b in builds]
    report = render_report(results)
    print(report)
    os.makedirs(lcp.OUT, exist_ok=True)
    with open(os.path.join(lcp.OUT, "session.md"), "w") as out:
        out.write(report)
    with open(os.path.join(lcp.OUT, "session.json"), "w") as out:
        json.dump(results, out, indent=1)
    if os.environ.get("BENCH_UPDATE_README") != "0":
        lcp.update_readme(report, section="session")
        log(f"updated {lcp.README}")


if __name__ == "__main__":
    main()
