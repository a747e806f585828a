#!/usr/bin/env python3
"""What a phone's browser waits for (`make bench-browser`): Largest Contentful Paint, requests and bytes
of the list page, a book page and the wishlist in headless Chromium, on DevTools' "Slow 4G" network
with the CPU slowed 4x, against the app's release build.

    nice -n -10 .venv/bin/python Benchmarks/browser/lcp.py

Starts `wishlist serve` (BENCH_APP, default .build-bench/release/wishlist) on a free loopback port with
a new database (the sample catalog) and Open Library off, so nothing leaves the machine. A member,
`bench`, is signed up over HTTP and puts the books at ranks 2, 5 and 9 of the Hardcover Fiction list
on the wishlist (as `make bench` and the template benchmark do); Chromium is given that session's
cookie, and the throttling starts.

Each round measures every page twice, the pages in a rotating order so that load from elsewhere on
the machine falls on all of them alike:
  first visit   the browser cache cleared and disabled (`Network.setCacheDisabled`): everything is
                fetched, as on a phone that never saw the site
  repeat visit  the cache enabled; one unmeasured load fills it, then the page is loaded again, as
                when a member comes back: the versioned static files (`?v=<hash>`, immutable) should
                come from the cache and only the HTML over the network
Each measured load starts from about:blank. LCP is the last `largest-contentful-paint` entry a buffered PerformanceObserver sees once no new one
has come for a second after the load; requests and bytes come from the Network domain's events
(Chromium's performance log): the requests that went over the network, the bytes on the wire
(`encodedDataLength`: headers and the compressed body) and any request to a host other than the
server's (the budget is 0); the files taken from the cache are counted from Resource Timing
(`transferSize` 0), since a memory-cache hit raises no Network event. `Performance.getMetrics`'
`TaskDuration` gives the main thread's busy time during the load.

Writes the table to .build/bench/browser.md (every sample in browser.json) and into
Benchmarks/README.md between <!-- browser-results:start --> and <!-- browser-results:end -->
(BENCH_UPDATE_README=0 leaves it alone). Options (environment): BENCH_APP, BENCH_BROWSER_RUNS (5),
BENCH_COMMAND (the command named in the table).

Needs the project's test venv (selenium) and Debian's chromium and chromedriver, as the browser tests
(Tests/e2e/support.py, whose Chromium options are used here).
"""
import datetime
import http.cookiejar
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
from selenium import webdriver  # noqa: E402  (the venv's; the path above is for support.py)
from selenium.webdriver.chrome.service import Service  # noqa: E402

from support import CHROMEDRIVER, CHROMIUM, chromium_options  # noqa: E402

APP = os.environ.get("BENCH_APP") or os.path.join(ROOT, ".build-bench", "release", "wishlist")
OUT = os.path.join(ROOT, ".build", "bench")
README = os.path.join(ROOT, "Benchmarks", "README.md")
RUNS = int(os.environ.get("BENCH_BROWSER_RUNS", "5"))
COMMAND = os.environ.get("BENCH_COMMAND", "make bench-browser")

USERNAME = "bench"
PASSWORD = "bench-password-2026"
LIST = "hardcover-fiction"
WISHLIST_RANKS = [2, 5, 9]  # as Benchmarks/server/bench.py and the template benchmark
BUDGET_LCP_MS = 1500
BUDGET_OTHER_HOSTS = 0

# DevTools' "Slow 4G" preset, as its network panel applies it: Chrome DevTools' front end,
# front_end/core/sdk/NetworkManager.ts, `Slow4GConditions` (the preset called "Fast 3G" until May
# 2024, renamed to match Lighthouse, crbug.com/342406608): 1.6 Mbit/s down and 750 kbit/s up, each
# times 0.9, and a target round trip of 150 ms (`targetLatency`) applied as 150 x 3.75 ms of latency
# a request. In bytes a second and milliseconds:
SLOW_4G = {"offline": False, "latency": 562.5, "downloadThroughput": 180_000, "uploadThroughput": 84_375}
CPU_SLOWDOWN = 4
# A phone's screen: Lighthouse's mobile default (a Moto G Power), 412 x 823 CSS pixels at 1.75.
PHONE = {"width": 412, "height": 823, "deviceScaleFactor": 1.75, "mobile": True}
QUIET_MS = 1000  # LCP is read once no new candidate has come for this long after the load

LCP_SCRIPT = """
const done = arguments[arguments.length - 1];
let last = null;
let timer = null;
const finish = () => {
  observer.disconnect();
  if (!last) { done(null); return; }
  const element = last.element;
  const name = element ? element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
    + (element.className && typeof element.className === "string" ? "." + element.className.split(" ")[0] : "") : "";
  done({ms: last.startTime, size: last.size, element: name, url: last.url || ""});
};
const observer = new PerformanceObserver((list) => {
  const entries = list.getEntries();
  last = entries[entries.length - 1];
  clearTimeout(timer);
  timer = setTimeout(finish, %d);
});
observer.observe({type: "largest-contentful-paint", buffered: true});
timer = setTimeout(finish, %d);
""" % (QUIET_MS, QUIET_MS)


def log(message):
    print(f"[bench-browser] {message}", flush=True)


def die(message):
    print(f"bench-browser: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def load_average():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])


SWIFT_PROCESSES = ("swift-build", "swift-test", "swift-frontend", "swiftc")


def swift_processes():
    """How many Swift build and test processes run on the machine now (other people's work)."""
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as comm:
                count += comm.read().strip() in SWIFT_PROCESSES
        except OSError:
            pass
    return count


# MARK: - The server and the member's set-up requests

_cookies = http.cookiejar.CookieJar()
_http = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(_cookies))


def new_opener():
    """A client of its own, with its own cookies: another member (the session driver's)."""
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def fetch(base, path, fields=None, opener=None):
    """GET, or POST `fields` as a form; follows redirects. Returns (status, final path, body).
    `opener` is another member's client (``new_opener``); by default, the bench member's."""
    body = urllib.parse.urlencode(fields).encode() if fields is not None else None
    with (opener or _http).open(urllib.request.Request(base + path, data=body), timeout=30) as response:
        return response.status, urllib.parse.urlsplit(response.url).path, response.read().decode()


def csrf_in(page):
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if not match:
        die("no csrf_token in the page")
    return match.group(1)


def start_server(work, tree=ROOT):
    """The app on a free loopback port, reading Views/, Public/ and Languages/ in `tree` (another
    commit's, for a build of that commit: the session driver's BENCH_TREE)."""
    port = free_port()
    config = os.path.join(work, "config.json")
    with open(config, "w") as out:
        json.dump({"openLibrary": {"baseURL": ""}}, out)  # no Open Library look-ups from the server either
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("WISHLIST_", "NYT_"))}
    server = subprocess.Popen(
        [APP, "serve", "--config", config, "--host", "127.0.0.1", "--port", str(port), "--database", os.path.join(work, "browser.sqlite")],
        cwd=tree, env=environment, stdin=subprocess.DEVNULL, stdout=open(os.path.join(work, "server.log"), "wb"), stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            die(f"the server exited with {server.returncode}; see {work}/server.log")
        try:
            if fetch(base, "/healthz")[0] == 200:
                return server, base
        except OSError:
            pass
        time.sleep(0.05)
    server.kill()
    die("the server did not answer /healthz within 30 s")


def stop_server(server):
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def make_member(base):
    """Signs up `bench` and puts three books on the wishlist; returns the paths to measure."""
    page = fetch(base, "/signup")[2]
    status, path, page = fetch(base, "/signup", {"username": USERNAME, "email": "", "password": PASSWORD,
                                                "password_confirm": PASSWORD, "csrf_token": csrf_in(page)})
    if path == "/signup":
        die("signing up failed")
    page = fetch(base, f"/lists/{LIST}")[2]
    books = dict((int(rank), book) for book, rank in re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page))
    if len(books) != 15:
        die(f"expected 15 books on /lists/{LIST}, found {len(books)}")
    for rank in WISHLIST_RANKS:
        fetch(base, "/wishlist", {"book": books[rank], "return_to": "/wishlist", "csrf_token": csrf_in(page)})
    wishlist = fetch(base, "/wishlist")[2]  # also takes the confirmation, shown once
    if wishlist.count('class="book wishlist-item"') != len(WISHLIST_RANKS):
        die("the wishlist does not show the books just added")
    return [("list page", f"/lists/{LIST}"), ("book page", f"/books/{books[1]}"), ("wishlist", "/wishlist")]


# MARK: - Chromium

def start_chromium():
    options = chromium_options(PHONE["width"], PHONE["height"])
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(60)
    return driver


def sign_in(driver, base):
    """Gives Chromium the member's session: the cookie the sign-up set."""
    session = next((c.value for c in _cookies if c.name == "wishlist_session"), None)
    if not session:
        die("no session cookie after signing up")
    driver.get(base + "/healthz")
    driver.add_cookie({"name": "wishlist_session", "value": session, "path": "/", "httpOnly": True})
    driver.get(base + "/wishlist")
    if urllib.parse.urlsplit(driver.current_url).path != "/wishlist":
        die(f"Chromium is not signed in: /wishlist led to {driver.current_url}")


def throttle(driver):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Performance.enable", {})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_4G)
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def task_seconds(driver):
    metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return next((m["value"] for m in metrics if m["name"] == "TaskDuration"), 0.0)


def network_events(driver):
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"].startswith("Network."):
            events.append(message)
    return events


def load(driver, base, path):
    """Loads `path` as a navigation and returns what it cost."""
    # From an empty page, as from another site or a new tab: the previous page's unload, which
    # a same-site navigation waits for, is not counted.
    driver.get("about:blank")
    network_events(driver)  # drops what came before
    busy_before = task_seconds(driver)
    driver.get(base + path)
    lcp = driver.execute_async_script(LCP_SCRIPT)
    html_ms = driver.execute_script("return performance.getEntriesByType('navigation')[0].responseEnd")
    busy_after = task_seconds(driver)
    # A navigation may move the page to a new renderer, whose count starts again.
    busy = busy_after - busy_before if busy_after >= busy_before else busy_after
    # Resource Timing lists what the page used from the memory cache too, which the Network domain does not report.
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => [e.name, e.transferSize])")
    if urllib.parse.urlsplit(driver.current_url).path != urllib.parse.urlsplit(path).path:
        die(f"{path} led to {driver.current_url}")
    if not lcp:
        die(f"no largest-contentful-paint entry for {path}")
    ours = urllib.parse.urlsplit(base).netloc
    requests, status = {}, None
    for event in network_events(driver):
        method, params = event["method"], event["params"]
        if method == "Network.requestWillBeSent" and not params["request"]["url"].startswith(("data:", "blob:")):
            requests[params["requestId"]] = {"url": params["request"]["url"], "cached": False, "bytes": 0}
        elif params.get("requestId") not in requests:
            continue
        elif method == "Network.requestServedFromCache":
            requests[params["requestId"]]["cached"] = True
        elif method == "Network.responseReceived":
            if params["response"].get("fromDiskCache"):
                requests[params["requestId"]]["cached"] = True
            if params["type"] == "Document":
                status = params["response"]["status"]
        elif method == "Network.loadingFinished":
            requests[params["requestId"]]["bytes"] = int(params.get("encodedDataLength", 0))
    if status != 200:
        die(f"{path} answered {status}")
    listed = list(requests.values())
    urls = [r["url"] for r in listed] + [name for name, _ in resources]
    return {
        "lcp_ms": lcp["ms"], "lcp_element": lcp["element"], "lcp_url": lcp["url"], "html_ms": html_ms,
        "requests": sum(not r["cached"] for r in listed), "from_cache": sum(size == 0 for _, size in resources),
        "bytes": sum(r["bytes"] for r in listed),
        "other_hosts": sorted({url for url in urls if urllib.parse.urlsplit(url).netloc != ours and not url.startswith(("data:", "blob:"))}),
        "main_thread_ms": busy * 1000, "load_average": load_average(), "each_request": listed, "resources": resources,
    }


def first_visit(driver, base, path):
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return load(driver, base, path)


def repeat_visit(driver, base, path):
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    driver.get(base + path)  # fills the cache; not measured
    return load(driver, base, path)


# MARK: - Report

def summary(samples):
    lcps = [s["lcp_ms"] for s in samples]
    elements = sorted({s["lcp_element"] for s in samples})
    return {
        "lcp_median": statistics.median(lcps), "lcp_worst": max(lcps),
        "html_median": statistics.median(s["html_ms"] for s in samples),
        "requests": statistics.median(s["requests"] for s in samples),
        "from_cache": statistics.median(s["from_cache"] for s in samples),
        "bytes": statistics.median(s["bytes"] for s in samples),
        "other_hosts": max(len(s["other_hosts"]) for s in samples),
        "main_thread_ms": statistics.median(s["main_thread_ms"] for s in samples),
        "elements": elements,
    }


def render_report(results):
    lines = [
        f"Command: `{COMMAND}` · {results['stamp']} · app: release build (`{results['app']}`), Views/ and Public/ of "
        f"{results['commit']} · Chromium {results['chromium']}, headless, {PHONE['width']} × {PHONE['height']} at "
        f"{PHONE['deviceScaleFactor']}× · DevTools \"Slow 4G\" (562.5 ms latency a request, 180,000 B/s down, 84,375 B/s up) "
        f"and the CPU slowed {CPU_SLOWDOWN}× · {RUNS} runs of each page and visit, interleaved · "
        f"machine shared: {os.cpu_count()} cores, other people's Swift builds and tests running ({results['builds_before']} "
        f"swift-build, swift-test, swift-frontend and swiftc processes at the start, {results['builds_after']} at the end), "
        f"Chromium, chromedriver and the server at nice {results['nice']}, "
        f"load average {results['load_before']} before the run and {results['load_after']} after",
        "",
        "| page | visit | LCP median, ms | LCP worst, ms | budget 1,500 ms | HTML received, ms (median) | requests over the network | "
        "files from the cache | bytes over the network | requests to other hosts | main thread busy, ms | LCP element |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    verdicts = []
    for row in results["rows"]:
        s = summary(row["samples"])
        met = s["lcp_worst"] <= BUDGET_LCP_MS and s["other_hosts"] <= BUDGET_OTHER_HOSTS
        verdicts.append(met)
        lines.append(
            f"| {row['page']} (`{row['path']}`) | {row['visit']} | {s['lcp_median']:,.0f} | {s['lcp_worst']:,.0f} | "
            f"{'**met**' if s['lcp_worst'] <= BUDGET_LCP_MS else '**missed**'} | {s['html_median']:,.0f} | {s['requests']:g} | {s['from_cache']:g} | "
            f"{s['bytes']:,.0f} | {s['other_hosts']} | {s['main_thread_ms']:,.0f} | {', '.join(f'`{e}`' for e in s['elements'])} |"
        )
    lines += [
        "",
        f"Budgets (every run, first and repeat visits): LCP at most {BUDGET_LCP_MS:,} ms "
        f"{'**met**' if all(verdicts) else '**missed**'}, worst {max(summary(r['samples'])['lcp_worst'] for r in results['rows']):,.0f} ms; "
        f"requests to hosts other than ours {'**met**' if all(summary(r['samples'])['other_hosts'] == 0 for r in results['rows']) else '**missed**'} "
        f"({max(summary(r['samples'])['other_hosts'] for r in results['rows'])}).",
        "",
    ]
    return "\n".join(lines)


def update_readme(report, section="browser"):
    start, end = f"<!-- {section}-results:start -->", f"<!-- {section}-results:end -->"
    with open(README) as readme:
        text = readme.read()
    if start not in text or end not in text:
        die(f"{README} has no {start} … {end} section")
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    with open(README, "w") as readme:
        readme.write(before + start + "\n" + report + end + after)


def chromium_version():
    output = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"Chromium ([0-9.]+)", output)
    return match.group(1) if match else "?"


def main():
    if not os.access(APP, os.X_OK):
        die(f"no release build at {APP}: `make bench-browser` builds it, or set BENCH_APP")
    results = {
        "stamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "app": os.path.relpath(APP, ROOT)
        if APP.startswith(ROOT) else APP, "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                                                   text=True).stdout.strip(),
        "chromium": chromium_version(), "nice": os.nice(0), "rows": [],
    }
    with tempfile.TemporaryDirectory() as work:
        server, base = start_server(work)
        driver = None
        try:
            pages = make_member(base)
            driver = start_chromium()
            sign_in(driver, base)
            throttle(driver)
            rows = {(name, visit): {"page": name, "path": path, "visit": visit, "samples": []}
                    for name, path in pages for visit in ("first", "repeat")}
            results["builds_before"], results["load_before"] = swift_processes(), load_average()
            for run in range(RUNS):
                for offset in range(len(pages)):
                    name, path = pages[(run + offset) % len(pages)]
                    rows[(name, "first")]["samples"].append(first_visit(driver, base, path))
                    rows[(name, "repeat")]["samples"].append(repeat_visit(driver, base, path))
                    log(f"run {run + 1}/{RUNS} {name}: LCP {rows[(name, 'first')]['samples'][-1]['lcp_ms']:.0f} ms first, "
                        f"{rows[(name, 'repeat')]['samples'][-1]['lcp_ms']:.0f} ms repeat; load average {load_average()}")
            results["builds_after"], results["load_after"] = swift_processes(), load_average()
            results["rows"] = list(rows.values())
        finally:
            if driver:
                driver.quit()
            stop_server(server)
    report = render_report(results)
    print(report)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "browser.md"), "w") as out:
        out.write(report)
    with open(os.path.join(OUT, "browser.json"), "w") as out:
        json.dump(results, out, indent=1)
    if os.environ.get("BENCH_UPDATE_README") != "0":
        update_readme(report)
        log(f"updated {README}")


if __name__ == "__main__":
    main()
