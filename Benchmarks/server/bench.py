#!/usr/bin/env python3
"""Server benchmark for `make bench`: wrk on loopback against the release build of the app.

Runs, in one go and each bounded in time:
  ceiling     the minimal Hummingbird server of Benchmarks/ (one route, fixed short body)
  bytes ceilings  the same server answering each measured page with the bytes the app served for it,
              from memory (saved to .build/bench/pages/ during the run): a page's share of its own
              bytes ceiling is what the app costs beyond moving those bytes
  cold start  exec to the first 200 on /healthz: first start on a new database (loads the
              sample catalog), then a restart on the same database
  list page   GET /lists/hardcover-fiction signed in (session lookup, queries, render), in rounds
              taken in turns with its bytes ceiling (the old edition's page too)
  sign-in     GET /login signed out (a new anonymous cookie and CSRF token per request)
  storm       the list page measured while 50 other connections sign in at once (Argon2)
  stalled     the list page measured while 300 other connections each sent half a request and stalled,
              at 32 connections and for one normal client (with its baseline, one client alone)
  history     a book page with two years of weekly history on three lists (its rank chart), and the
              list page of an edition two years old: the database gets 104 editions of three lists
  wishlist    the own wishlist of a user with 200 items (87 from the catalog, 113 imported), and the
              same wishlist seen by another member of the household at /people/household
  api wants   the same member's wants through the API (GET /api/v1/wants: the first 100 of the
              200 as JSON), with a read token made in Settings, beside the page's figure
  add/remove  POST /wishlist then POST /wishlist/<id>/delete, signed in, with CSRF
  soak        a minute of the list page, for the memory figure

and writes the table to .build/bench/server.md (raw figures in server.json), and into
Benchmarks/README.md between <!-- server-results:start --> and <!-- server-results:end -->.

Only 127.0.0.1 is ever contacted. Python 3 standard library only.
Options (environment): BENCH_SECONDS (default 15) per scenario, BENCH_SOAK_SECONDS (default 60),
BENCH_CONNECTIONS (default 32), BENCH_ROUNDS (default 3) rounds of the list pages (current and old
edition) in turns with their bytes ceilings, BENCH_UPDATE_README=0 to leave the README alone,
BENCH_APP=PATH to measure another build of the app, BENCH_CONFIG=FILE to run it with that
configuration file, BENCH_APP_ENV="NAME=VALUE ..." for extra environment of the app (experiments),
BENCH_RENICE_HASHERS=N to give the app's Argon2 threads (NIOThreadPool, named "TP-#…") nice N,
BENCH_PERF=1 to record a CPU profile of the server during each app scenario with `perf record`
(software clock; .build/bench/perf-NAME.data and a top-40 summary in perf-NAME.txt).

The app (.build-bench) and the ceiling server (Benchmarks/.build) are two SwiftPM resolutions, each
with its own `from: "2.28.1"` Hummingbird: before measuring, the version each build resolved is read
(its scratch path's workspace-state.json, else the package's Package.resolved) and printed in the
table's header; the run stops if they differ, since the ceiling would then not be the app's stack.
"""
import datetime
import html
import sqlite3
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "Benchmarks", "server")
OUT = os.path.join(ROOT, ".build", "bench")
RUN = os.path.join(OUT, "run")
APP = os.environ.get("BENCH_APP") or os.path.join(ROOT, ".build-bench", "release", "wishlist")
APP_CONFIG = os.environ.get("BENCH_CONFIG", "")  # a config file for the app instead of ./config.json
APP_ENV = dict(pair.split("=", 1) for pair in os.environ.get("BENCH_APP_ENV", "").split() if "=" in pair)
CEILING = os.path.join(ROOT, "Benchmarks", ".build", "release", "ceiling-server")
README = os.path.join(ROOT, "Benchmarks", "README.md")

# Anything that makes this run not the app as committed and configured: its results stay out of the README.
EXPERIMENT = " ".join(f"{k}={os.environ[k]}" for k in ("BENCH_APP", "BENCH_CONFIG", "BENCH_APP_ENV", "BENCH_RENICE_HASHERS")
                      if os.environ.get(k))
SECONDS = int(os.environ.get("BENCH_SECONDS", "15"))
SOAK_SECONDS = int(os.environ.get("BENCH_SOAK_SECONDS", "60"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
STORM_CLIENTS = 50
STALLED_CLIENTS = 300
ADD_REMOVE_LOOPS = 8
USERNAME = "bench"
# The storm signs in to an account of its own: each sign-in makes a session, and past the
# per-account cap the oldest go, which would sign the measured member out in the middle of the run.
STORM_USERNAME = "bench-storm"
PASSWORD = "bench-password-2026"
LIST = "hardcover-fiction"
WISHLIST_RANKS = [2, 5, 9]  # as Benchmarks/Sources/TemplateBench/ListPageData.swift

BUDGET_LIST_SHARE = 0.50        # of the list page's own bytes ceiling
BUDGET_PAGE_SHARE = 0.25        # other pages, each of its own bytes ceiling
BUDGET_LIST_P99_MS = 10
BUDGET_LIST_CPU_US = 150
BUDGET_STORM_P99_MS = 50
BUDGET_STALLED_P99_MS = 50
BUDGET_MEMORY_MB = 80
BUDGET_COLD_START_S = 0.5
HISTORY_WEEKS = 104
HISTORY_LISTS = ["hardcover-fiction", "hardcover-nonfiction", "paperback-mysteries"]
HOUSEHOLD_USER = "household"
HOUSEHOLD_ITEMS = 200
WANTS_A_PAGE = 100  # a list's page and the API show 100 wants at a time (issues 51, 54)
PAGES = os.path.join(OUT, "pages")
# Saved pages and the app rows whose bytes they are.
PAGE_ROWS = {"list": "list", "book": "book_history", "old_edition": "old_edition", "wishlist": "wishlist", "people": "people"}


def log(message):
    print(f"[bench] {message}", flush=True)


def die(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)
    sys.exit(1)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def clean_environment(extra=None):
    """The app's defaults: no setting may leak in from the caller's environment."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("WISHLIST_", "NYT_"))}
    environment.update(extra or {})
    return environment


def app_argv(*arguments):
    return [APP, *arguments, "--config", APP_CONFIG or bench_config()]


def bench_config():
    """./config.json with the sign-in limits raised: the storm is fifty connections signing in to
    one account of its own from 127.0.0.1, meant to measure fifty sign-ins hashing at once, not the throttle
    refusing them (attempts count before the hash, so fifty in flight exceed the per-account 5
    and the per-address 20)."""
    path = os.path.join(OUT, "bench-config.json")
    with open(os.path.join(ROOT, "config.json")) as shipped:
        config = json.load(shipped)
    config["accounts"]["failedLoginsPerAddress"] = 10000
    config["accounts"]["failedLoginsPerAccount"] = 10000
    # wrk asks far more than a script would: the API's per-token limit must not answer 429s.
    config["api"]["requestsPerMinute"] = 100000
    os.makedirs(OUT, exist_ok=True)
    with open(path, "w") as out:
        json.dump(config, out)
    return path


# MARK: - Processes and memory

class Server:
    def __init__(self, name, argv, port, log_path, environment=None):
        self.name, self.argv, self.port, self.log_path = name, argv, port, log_path
        self.environment = environment
        self.process = None
        self.peaks = []  # kB, one per measured stretch

    def start(self):
        """Starts the process; returns seconds from exec to the first 200 on `path`."""
        self.log = open(self.log_path, "ab")
        started = time.perf_counter()
        self.process = subprocess.Popen(self.argv, cwd=ROOT, env=clean_environment(self.environment), stdout=self.log, stderr=self.log,
                                        stdin=subprocess.DEVNULL)
        return started

    def wait_ready(self, started, path, timeout=20.0):
        while time.perf_counter() - started < timeout:
            if self.process.poll() is not None:
                die(f"{self.name} exited with {self.process.returncode}; see {self.log_path}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", path)
                status = connection.getresponse().status
                connection.close()
                if status == 200:
                    return time.perf_counter() - started
            except OSError:
                pass
            time.sleep(0.002)
        die(f"{self.name} did not answer 200 on {path} within {timeout} s; see {self.log_path}")

    def status_kb(self, field):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        return 0

    def mapped_kb(self, library):
        """Resident kB of the process's mappings of files whose name contains `library`."""
        total, counting = 0, False
        with open(f"/proc/{self.process.pid}/smaps") as smaps:
            for line in smaps:
                fields = line.split()
                if re.match(r"[0-9a-f]+-[0-9a-f]+$", fields[0]):
                    counting = len(fields) > 5 and library in fields[5]
                elif counting and fields[0] == "Rss:":
                    total += int(fields[1])
        return total

    def cpu_seconds(self):
        """User + system CPU time of the process so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def reset_peak(self):
        """Records the peak so far, then makes VmHWM start again from the current RSS."""
        self.peaks.append(self.status_kb("VmHWM"))
        try:
            with open(f"/proc/{self.process.pid}/clear_refs", "w") as refs:
                refs.write("5")
        except OSError:
            pass  # kernel without it: peaks are then cumulative, which only overstates them

    def peak_mb(self):
        return self.status_kb("VmHWM") / 1024

    def lifetime_peak_mb(self):
        return max(self.peaks + [self.status_kb("VmHWM")]) / 1024

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if getattr(self, "log", None):
            self.log.close()


# MARK: - HTTP helpers (the benchmark's own set-up requests)

def http_request(port, method, path, headers=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read().decode("utf-8", "replace")
    cookies = {}
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            pair = value.split(";", 1)[0]
            if "=" in pair:
                key, val = pair.split("=", 1)
                cookies[key.strip()] = val.strip()
    connection.close()
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), data, cookies


def csrf_in(page):
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if not match:
        die("no csrf_token in the page")
    return html.unescape(match.group(1))


def form(fields):
    return urllib.parse.urlencode(fields)


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def anonymous_visitor(port):
    status, _, page, cookies = http_request(port, "GET", "/login")
    if status != 200 or "wishlist_session" not in cookies:
        die(f"GET /login answered {status} without a session cookie")
    return cookies["wishlist_session"], csrf_in(page)


def sign_in(port, username=USERNAME):
    cookie, csrf = anonymous_visitor(port)
    status, headers, _, cookies = http_request(
        port, "POST", "/login", {**FORM, "Cookie": f"wishlist_session={cookie}"},
        form({"username": username, "password": PASSWORD, "next": "/", "csrf_token": csrf}))
    if status != 303 or "wishlist_session" not in cookies:
        die(f"sign-in answered {status}")
    return cookies["wishlist_session"]


# MARK: - wrk

def wrk(name, url, threads, connections, seconds, script_body="", extra=(), timeout="5s"):
    scripts = os.path.join(OUT, "scripts")
    os.makedirs(scripts, exist_ok=True)
    script = os.path.join(scripts, f"{name}.lua")
    with open(os.path.join(HERE, "report.lua")) as report:
        with open(script, "w") as out:
            out.write(script_body + "\n" + report.read())
    argv = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--timeout", timeout,
            "-s", script, *extra, url]
    return argv


def machine_jiffies():
    """(busy, total) jiffies of all cores, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def children_cpu_seconds():
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_wrk(argv):
    busy, total = machine_jiffies()
    wrk_cpu = children_cpu_seconds()
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    figures = parse_wrk(result)
    busy_after, total_after = machine_jiffies()
    seconds = figures["duration_us"] / 1e6
    figures["machine_cores"] = (busy_after - busy) / max(1, total_after - total) * (os.cpu_count() or 1)
    figures["wrk_cores"] = (children_cpu_seconds() - wrk_cpu) / seconds
    return figures


def parse_wrk(result):
    for line in result.stdout.splitlines():
        if line.startswith("BENCHJSON "):
            figures = json.loads(line[len("BENCHJSON "):])
            figures["rps"] = figures["requests"] / (figures["duration_us"] / 1e6)
            figures["socket_errors"] = figures["connect"] + figures["read"] + figures["write"] + figures["timeout"]
            figures["errors"] = figures["socket_errors"] + figures["status"]
            return figures
    die(f"wrk printed no result:\n{result.stdout}\n{result.stderr}")


def start_perf(server, name):
    if os.environ.get("BENCH_PERF") != "1" or not shutil.which("perf"):
        return None
    data = os.path.join(OUT, f"perf-{name}.data")
    return subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-p", str(server.process.pid),
                             "-o", data], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_perf(profiler, name):
    if not profiler:
        return
    profiler.send_signal(signal.SIGINT)
    profiler.wait(timeout=60)
    data = os.path.join(OUT, f"perf-{name}.data")
    summary = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol", "--stdio", "-g", "none"],
                             capture_output=True, text=True)
    lines = [line for line in summary.stdout.splitlines() if "%" in line and not line.startswith("#")]
    with open(os.path.join(OUT, f"perf-{name}.txt"), "w") as out:
        out.write("\n".join(lines[:40]) + "\n")


def lua_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# MARK: - Resolved versions

# Each build's scratch path and package path: (label, scratch, package).
APP_BUILD = ("the app (.build-bench)", os.path.join(ROOT, ".build-bench"), ROOT)
BENCHMARKS_BUILD = ("Benchmarks/ (Benchmarks/.build)", os.path.join(ROOT, "Benchmarks", ".build"), os.path.join(ROOT, "Benchmarks"))


def resolved_versions(scratch, package):
    """{package identity: version} of what a build resolved, and where that was read: the scratch
    path's workspace-state.json (the checkouts the build compiled), else the package's
    Package.resolved. ({}, None) when neither exists (not built)."""
    def version(state):
        state = state or {}
        return state.get("version") or state.get("branch") or (state.get("revision") or "?")[:12]
    state_file = os.path.join(scratch, "workspace-state.json")
    if os.path.exists(state_file):
        with open(state_file) as state:
            dependencies = json.load(state)["object"]["dependencies"]
        return ({d["packageRef"]["identity"]: version(d["state"].get("checkoutState")) for d in dependencies
                 if d["state"].get("name") == "sourceControlCheckout"}, os.path.relpath(state_file, ROOT))
    resolved_file = os.path.join(package, "Package.resolved")
    if os.path.exists(resolved_file):
        with open(resolved_file) as resolved:
            pins = json.load(resolved).get("pins", [])
        return {pin["identity"]: version(pin.get("state")) for pin in pins}, os.path.relpath(resolved_file, ROOT)
    return {}, None


def hummingbird_versions(builds, require=()):
    """The Hummingbird version each build resolved, as a line for a table's header. Stops the run
    when two builds resolved different versions (the ceiling or a comparison would not be the
    app's HTTP stack), or when a build in `require` has no resolution to read."""
    found = {}
    for label, scratch, package in builds:
        versions, source = resolved_versions(scratch, package)
        if "hummingbird" in versions:
            found[label] = (versions["hummingbird"], source)
            log(f"Hummingbird {versions['hummingbird']} in {label}, read from {source}")
        elif label in require:
            die(f"no resolved Hummingbird version for {label} ({source or 'not built'}); build it first")
        else:
            log(f"{label}: not built, its Hummingbird version not read")
    if len({version for version, _ in found.values()}) > 1:
        die("the builds resolved different Hummingbird versions: "
            + "; ".join(f"{label} {version} ({source})" for label, (version, source) in found.items())
            + ". Update them to the same version (swift package update hummingbird, in each) and build again.")
    return "Hummingbird " + " = ".join(f"{version} in {label}" for label, (version, _) in found.items())


# MARK: - The run

def main():
    for tool, path in [("wrk", shutil.which("wrk")), ("the app's release build", APP), ("the ceiling server", CEILING)]:
        if not path or not os.path.exists(path):
            die(f"{tool} is missing; run `make bench`, which builds and installs everything")
    # A BENCH_APP build is another app: its resolution is not .build-bench's, so only the ceiling's is read then.
    builds = [BENCHMARKS_BUILD] if os.environ.get("BENCH_APP") else [APP_BUILD, BENCHMARKS_BUILD]
    hummingbird = hummingbird_versions(builds, require=[label for label, _, _ in builds])
    shutil.rmtree(RUN, ignore_errors=True)
    os.makedirs(RUN, exist_ok=True)
    load_before = open("/proc/loadavg").read().split()[:3]
    results = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "load_before": " ".join(load_before), "cores": os.cpu_count(), "seconds": SECONDS,
               "soak_seconds": SOAK_SECONDS, "connections": CONNECTIONS, "rows": {}, "hummingbird": hummingbird}
    rows = results["rows"]
    url_threads = 2

    # Ceiling.
    port = free_port()
    ceiling = Server("ceiling-server", [CEILING, str(port)], port, os.path.join(RUN, "ceiling.log"))
    try:
        ceiling.wait_ready(ceiling.start(), "/")
        log(f"ceiling: {SECONDS} s, {CONNECTIONS} connections")
        ceiling.reset_peak()
        cpu = ceiling.cpu_seconds()
        rows["ceiling"] = figures = run_wrk(wrk("ceiling", f"http://127.0.0.1:{port}/", url_threads, CONNECTIONS, SECONDS))
        figures["cpu_us_per_request"] = (ceiling.cpu_seconds() - cpu) * 1e6 / max(1, figures["requests"])
        figures["cpu_cores"] = (ceiling.cpu_seconds() - cpu) / (figures["duration_us"] / 1e6)
        figures["peak_mb"] = ceiling.peak_mb()
        log(f"ceiling: {figures['rps']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, "
            f"server CPU {figures['cpu_cores']:.2f} cores, {figures['cpu_us_per_request']:.0f} µs a request")
    finally:
        ceiling.stop()

    # The app's database: the member measured and the storm's account, made by the command line as an
    # administrator would.
    database = os.path.join(RUN, "wishlist.sqlite")
    for username in (USERNAME, STORM_USERNAME):
        made = subprocess.run(app_argv("user", "create", username, "--password-stdin", "--database", database), cwd=ROOT,
                              env=clean_environment(), input=PASSWORD + "\n", capture_output=True, text=True)
        if made.returncode != 0:
            die(f"wishlist user create {username} failed: {made.stderr}")

    # Cold start: first start on the new database (it loads the sample catalog), then a restart.
    port = free_port()
    argv = app_argv("serve", "--port", str(port), "--database", database)
    app = Server("wishlist", argv, port, os.path.join(RUN, "server-first.log"), APP_ENV)
    try:
        first_start = app.wait_ready(app.start(), "/healthz")
    finally:
        app.stop()
    results["history"] = seed_history(database)
    seed_household(database)
    app = Server("wishlist", argv, port, os.path.join(RUN, "server.log"), APP_ENV)
    try:
        restart = app.wait_ready(app.start(), "/healthz")
    except BaseException:
        app.stop()
        raise
    results["cold_start_first_s"], results["cold_start_restart_s"] = first_start, restart
    if os.environ.get("BENCH_RENICE_HASHERS"):
        for task in os.listdir(f"/proc/{app.process.pid}/task"):
            with open(f"/proc/{app.process.pid}/task/{task}/comm") as comm:
                if comm.read().startswith("TP-#"):
                    os.setpriority(os.PRIO_PROCESS, int(task), int(os.environ["BENCH_RENICE_HASHERS"]))
    log(f"cold start: {first_start * 1000:.0f} ms on a new database, {restart * 1000:.0f} ms on restart")

    try:
        run_app_scenarios(app, port, rows, results, url_threads)
    finally:
        app.stop()

    measure_bytes_ceilings(rows, url_threads)
    results["peak_mb"] = max(app.lifetime_peak_mb_value, 0)
    results["experiment"] = EXPERIMENT
    name = "server-experiment" if EXPERIMENT else "server"
    with open(os.path.join(OUT, f"{name}.json"), "w") as raw:
        json.dump(results, raw, indent=2)
    report = render_report(results)
    with open(os.path.join(OUT, f"{name}.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    log(f"written to {os.path.relpath(os.path.join(OUT, name + '.md'), ROOT)}")
    if os.environ.get("BENCH_UPDATE_README", "1") != "0" and not EXPERIMENT:
        update_readme(report)


def measure_bytes_ceilings(rows, url_threads):
    """Each saved page served from memory by the ceiling server, as the app was measured."""
    port = free_port()
    ceiling = Server("ceiling-server", [CEILING, str(port), PAGES], port, os.path.join(RUN, "ceiling-pages.log"))
    try:
        ceiling.wait_ready(ceiling.start(), "/")
        # The list pages' were measured in turns with the pages themselves (measure_in_turns).
        for name in (name for name in PAGE_ROWS if f"ceiling_{name}" not in rows):
            log(f"bytes ceiling of the {name} page: {SECONDS} s, {CONNECTIONS} connections")
            rows[f"ceiling_{name}"] = measure_ceiling_page(ceiling, port, name, url_threads)
    finally:
        ceiling.stop()


def measure_ceiling_page(ceiling, port, name, url_threads):
    cpu = ceiling.cpu_seconds()
    figures = run_wrk(wrk(f"ceiling_{name}", f"http://127.0.0.1:{port}/pages/{name}", url_threads, CONNECTIONS, SECONDS))
    figures["cpu_us_per_request"] = (ceiling.cpu_seconds() - cpu) * 1e6 / max(1, figures["requests"])
    figures["cpu_cores"] = (ceiling.cpu_seconds() - cpu) / (figures["duration_us"] / 1e6)
    figures["peak_mb"] = ceiling.peak_mb()
    figures["bytes"] = os.path.getsize(os.path.join(PAGES, f"{name}.html"))
    log(f"bytes ceiling of the {name} page: {figures['rps']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, "
        f"{figures['cpu_us_per_request']:.0f} µs a request")
    return figures


def measure_in_turns(measure, rows, results, page, row, url, url_threads, cookie_header, label):
    """A page held to the list page's budget and its bytes ceiling, in turns: ROUNDS rounds of the
    app's page then the ceiling server's copy of it. How fast this machine runs the same work
    drifts by a quarter within minutes, the ceiling as much as the app; a share of two figures
    measured seconds apart is the app's, not the drift's. The rows `row` and `ceiling_<page>` are
    the round whose share is the median; every round is kept in results["rounds"][row]."""
    port = free_port()
    ceiling = Server("ceiling-server", [CEILING, str(port), PAGES], port, os.path.join(RUN, f"ceiling-{page}.log"))
    rounds = []
    try:
        ceiling.wait_ready(ceiling.start(), "/")
        for number in range(1, ROUNDS + 1):
            log(f"{label}, round {number} of {ROUNDS}: {SECONDS} s, {CONNECTIONS} connections")
            measure(row, wrk(row, url, url_threads, CONNECTIONS, SECONDS, extra=cookie_header))
            log(f"bytes ceiling of the {page} page, round {number} of {ROUNDS}: {SECONDS} s, {CONNECTIONS} connections")
            own = measure_ceiling_page(ceiling, port, page, url_threads)
            rounds.append({"app": rows[row], "ceiling": own, "share": rows[row]["rps"] / max(1, own["rps"])})
    finally:
        ceiling.stop()
    middle = sorted(rounds, key=lambda r: r["share"])[len(rounds) // 2]
    rows[row], rows[f"ceiling_{page}"] = middle["app"], middle["ceiling"]
    results.setdefault("rounds", {})[row] = rounds


def run_app_scenarios(app, port, rows, results, url_threads):
    session = sign_in(port)
    cookie = f"wishlist_session={session}"
    status, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
    if status != 200:
        die(f"the list page answered {status}")
    csrf = csrf_in(page)
    books = re.findall(r'<li class="book"[^>]* data-book="([^"]+)" data-rank="(\d+)"', page)
    if len(books) != 15:
        die(f"expected 15 books on /lists/{LIST}, found {len(books)}")
    by_rank = {int(rank): book for book, rank in books}
    for rank in WISHLIST_RANKS:
        status, _, _, _ = http_request(port, "POST", "/wishlist", {**FORM, "Cookie": cookie},
                                       form({"book": by_rank[rank], "return_to": "/wishlist", "csrf_token": csrf}))
        if status != 303:
            die(f"adding a book answered {status}")
    status, _, page, _ = http_request(port, "GET", f"/lists/{LIST}", {"Cookie": cookie})
    save_page("list", page)
    if page.count('class="on-wishlist"') != len(WISHLIST_RANKS):
        die("the list page does not show the books just added")
    results["list_page_bytes"] = len(page.encode())
    list_url = f"http://127.0.0.1:{port}/lists/{LIST}"
    cookie_header = ("-H", f"Cookie: {cookie}")

    def measure(name, argv):
        app.reset_peak()
        profiler = start_perf(app, name)
        cpu = app.cpu_seconds()
        figures = run_wrk(argv)
        figures["cpu_us_per_request"] = (app.cpu_seconds() - cpu) * 1e6 / max(1, figures["requests"])
        figures["cpu_cores"] = (app.cpu_seconds() - cpu) / (figures["duration_us"] / 1e6)
        stop_perf(profiler, name)
        figures["peak_mb"] = app.peak_mb()
        rows[name] = figures
        log(f"{name}: {figures['rps']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, {figures['errors']} errors, "
            f"server CPU {figures['cpu_cores']:.2f} cores, {figures['cpu_us_per_request']:.0f} µs a request")

    measure_in_turns(measure, rows, results, "list", "list", list_url, url_threads, cookie_header, "list page")

    log(f"list page, each request at an address of its own: {SECONDS} s, {CONNECTIONS} connections")
    distinct_script = f"path = {lua_string('/lists/' + LIST)}\n" + open(os.path.join(HERE, "distinct.lua")).read()
    measure("list_reads", wrk("list_reads", list_url, url_threads, CONNECTIONS, SECONDS, distinct_script, extra=cookie_header))

    log(f"sign-in page, signed out: {SECONDS} s, {CONNECTIONS} connections")
    measure("login_page", wrk("login_page", f"http://127.0.0.1:{port}/login", url_threads, CONNECTIONS, SECONDS))

    # Storm: 50 connections sign in (right password) while the list page is measured.
    visitors = [anonymous_visitor(port) for _ in range(STORM_CLIENTS)]
    storm_script = (f"username = {lua_string(STORM_USERNAME)}\npassword = {lua_string(urllib.parse.quote(PASSWORD))}\n"
                    "visitors = {\n" + ",\n".join(f"  {{ cookie = {lua_string(c)}, csrf = {lua_string(t)} }}" for c, t in visitors)
                    + "\n}\n" + open(os.path.join(HERE, "signin.lua")).read())
    storm_argv = wrk("storm_signin", f"http://127.0.0.1:{port}/login", 1, STORM_CLIENTS, SECONDS + 2, storm_script,
                     timeout="30s")
    log(f"sign-in storm: {STORM_CLIENTS} connections signing in; list page measured {SECONDS} s inside it")
    app.reset_peak()
    storm = subprocess.Popen(storm_argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)
        profiler = start_perf(app, "storm")
        cpu = app.cpu_seconds()
        during = run_wrk(wrk("storm_list", list_url, url_threads, CONNECTIONS, SECONDS, extra=cookie_header))
        during["cpu_cores"] = (app.cpu_seconds() - cpu) / (during["duration_us"] / 1e6)
        stop_perf(profiler, "storm")
        out, err = storm.communicate(timeout=120)
    finally:
        if storm.poll() is None:
            storm.kill()
            storm.wait()
    signins = parse_wrk(subprocess.CompletedProcess(storm_argv, storm.returncode, out, err))
    during["peak_mb"] = signins["peak_mb"] = app.peak_mb()
    rows["storm_list"], rows["storm_signin"] = during, signins
    log(f"storm: list page p99 {during['p99_us'] / 1000:.1f} ms, {during['errors']} errors; "
        f"{signins['rps']:.1f} sign-ins/s, p99 {signins['p99_us'] / 1000:.0f} ms, {signins['errors']} errors")

    log(f"one client alone: the list page for {SECONDS} s on one connection")
    measure("one_client", wrk("one_client", list_url, 1, 1, SECONDS, extra=cookie_header))

    # Stalled clients: half a request head each, then nothing, while the list page is measured.
    log(f"stalled clients: {STALLED_CLIENTS} connections sent half a request; list page measured {SECONDS} s beside them")
    stalled = []
    try:
        for _ in range(STALLED_CLIENTS):
            connection = socket.create_connection(("127.0.0.1", port), timeout=5)
            connection.sendall(b"GET /lists HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: stall")
            stalled.append(connection)
        measure("stalled_list", wrk("stalled_list", list_url, url_threads, CONNECTIONS, SECONDS, extra=cookie_header))
        measure("stalled_one", wrk("stalled_one", list_url, 1, 1, SECONDS, extra=cookie_header))
    finally:
        for connection in stalled:
            connection.close()

    # History: the book with two years on three lists, and the oldest stored edition of the list.
    history = results["history"]
    status, _, page, _ = http_request(port, "GET", f"/books/{history['book']}", {"Cookie": cookie})
    charts = page.count('<svg class="rank-chart-svg"')
    if status != 200 or charts != len(HISTORY_LISTS):
        die(f"the book page answered {status} with {charts} rank charts, not {len(HISTORY_LISTS)}")
    results["book_page_bytes"] = len(page.encode())
    save_page("book", page)
    log(f"book page with {HISTORY_WEEKS} weeks on {len(HISTORY_LISTS)} lists: {SECONDS} s, {CONNECTIONS} connections")
    measure("book_history", wrk("book_history", f"http://127.0.0.1:{port}/books/{history['book']}", url_threads,
                                CONNECTIONS, SECONDS, extra=cookie_header))
    old_url = f"http://127.0.0.1:{port}/lists/{LIST}?date={history['oldest']}"
    status, _, page, _ = http_request(port, "GET", f"/lists/{LIST}?date={history['oldest']}", {"Cookie": cookie})
    if status != 200 or "edition-note" not in page:
        die(f"the edition of {history['oldest']} answered {status}")
    save_page("old_edition", page)
    measure_in_turns(measure, rows, results, "old_edition", "old_edition", old_url, url_threads, cookie_header,
                     f"the list's edition of {history['oldest']}")

    # The household's 200-item wishlist: its owner's own page, and the same list seen by bench.
    owner_cookie = f"wishlist_session={sign_in(port, HOUSEHOLD_USER)}"
    for name, path, visitor in [("wishlist", "/wishlist", owner_cookie), ("people", f"/people/{HOUSEHOLD_USER}", cookie)]:
        status, _, page, _ = http_request(port, "GET", path, {"Cookie": visitor})
        rows_shown = page.count('<li class="book wishlist-item"')
        if status != 200 or rows_shown != min(HOUSEHOLD_ITEMS, WANTS_A_PAGE):
            die(f"{path} answered {status} showing {rows_shown} items, not the first {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS}")
        save_page(name, page)
        log(f"{path}, the first {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS} items ({len(page.encode()):,} bytes): {SECONDS} s, {CONNECTIONS} connections")
        measure(name, wrk(name, f"http://127.0.0.1:{port}{path}", url_threads, CONNECTIONS, SECONDS, extra=("-H", f"Cookie: {visitor}")))

    # The same wants through the API (issue 54), beside the page's figure: her read token, the first page.
    bearer = f"Authorization: Bearer {api_token(port, owner_cookie)}"
    status, _, body, _ = http_request(port, "GET", "/api/v1/wants", {"Authorization": bearer.split(": ", 1)[1]})
    answer = json.loads(body) if status == 200 else {}
    if answer.get("total") != HOUSEHOLD_ITEMS or len(answer.get("wants", [])) != WANTS_A_PAGE:
        die(f"/api/v1/wants answered {status} with {answer.get('total')} wants")
    results["api_wants_bytes"] = len(body.encode())
    log(f"/api/v1/wants, {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS} wants ({len(body.encode()):,} bytes): {SECONDS} s, {CONNECTIONS} connections")
    measure("api_wants", wrk("api_wants", f"http://127.0.0.1:{port}/api/v1/wants", url_threads, CONNECTIONS, SECONDS, extra=("-H", bearer)))

    # Add-then-remove, with books not already on the wishlist, one per loop.
    free = [by_rank[rank] for rank in sorted(by_rank) if rank not in WISHLIST_RANKS][:ADD_REMOVE_LOOPS]
    add_script = (f"cookie = {lua_string(cookie)}\ncsrf = {lua_string(urllib.parse.quote(csrf))}\n"
                  "books = { " + ", ".join(lua_string(b) for b in free) + " }\n"
                  + open(os.path.join(HERE, "addremove.lua")).read())
    log(f"add-then-remove: {SECONDS} s, {ADD_REMOVE_LOOPS} loops")
    measure("add_remove", wrk("add_remove", f"http://127.0.0.1:{port}/wishlist", ADD_REMOVE_LOOPS, ADD_REMOVE_LOOPS,
                              SECONDS, add_script))

    log(f"soak: the list page for {SOAK_SECONDS} s, {CONNECTIONS} connections")
    measure("soak", wrk("soak", list_url, url_threads, CONNECTIONS, SOAK_SECONDS, extra=cookie_header))
    results["rss_after_soak_mb"] = app.status_kb("VmRSS") / 1024
    # What ICU would add when something loads it: 5.6 MB, against 1 MB mapped and untouched.
    results["icu_resident_mb"] = app.mapped_kb("lib_FoundationICU") / 1024
    app.lifetime_peak_mb_value = app.lifetime_peak_mb()


def api_token(port, cookie):
    """A read token made through Settings → API tokens, as a member makes one."""
    status, _, page, _ = http_request(port, "GET", "/settings/api-tokens", {"Cookie": cookie})
    if status != 200:
        die(f"/settings/api-tokens answered {status}")
    status, _, page, _ = http_request(port, "POST", "/settings/api-tokens", {**FORM, "Cookie": cookie},
                                      form({"name": "bench", "scope": "read", "expiry": "30", "csrf_token": csrf_in(page)}))
    match = re.search(r'id="api-token-secret"[^>]* value="(bw_[A-Za-z0-9_-]+)"', page)
    if status != 200 or not match:
        die(f"making an API token answered {status}")
    return match.group(1)


def seed_history(database):
    """Gives three lists two years of weekly editions before their current one (the sample's
    fifteen books in a rotating order), with one book on all of them, as `wishlist sync --history
    104` would leave a real database. Written with the server stopped, in one transaction."""
    db = sqlite3.connect(database)
    try:
        with db:
            books = [row[0] for row in db.execute(
                "SELECT book_id FROM list_entry WHERE list_name_encoded = ? ORDER BY rank", (LIST,))]
            book = books[0]
            for list_name in HISTORY_LISTS:
                (current,) = db.execute("SELECT published_date FROM catalog_list WHERE name_encoded = ?", (list_name,)).fetchone()
                newest = datetime.date.fromisoformat(current)
                for week in range(1, HISTORY_WEEKS + 1):
                    date = (newest - datetime.timedelta(weeks=week)).isoformat()
                    previous = (newest - datetime.timedelta(weeks=week + 1)).isoformat()
                    db.execute("INSERT OR IGNORE INTO edition (list_name_encoded, published_date, previous_published_date, fetched_at) "
                               "VALUES (?, ?, ?, CURRENT_TIMESTAMP)", (list_name, date, previous))
                    db.execute("DELETE FROM edition_entry WHERE list_name_encoded = ? AND published_date = ?", (list_name, date))
                    order = books[week % len(books):] + books[:week % len(books)]
                    if book not in order[:12]:
                        order = [book] + [b for b in order if b != book]
                    for rank, book_id in enumerate(order, start=1):
                        db.execute("INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list) "
                                   "VALUES (?, ?, ?, ?, 0, 1)", (list_name, date, rank, book_id))
        (editions,) = db.execute("SELECT COUNT(*) FROM edition").fetchone()
        oldest = (datetime.date.fromisoformat(db.execute(
            "SELECT published_date FROM catalog_list WHERE name_encoded = ?", (LIST,)).fetchone()[0])
            - datetime.timedelta(weeks=HISTORY_WEEKS)).isoformat()
    finally:
        db.close()
    log(f"history: {editions} editions stored; book {book} on {len(HISTORY_LISTS)} lists for {HISTORY_WEEKS} weeks")
    return {"book": book, "oldest": oldest, "editions": editions}


def save_page(name, page):
    """Keeps the bytes the app served for a measured page, for its bytes ceiling."""
    os.makedirs(PAGES, exist_ok=True)
    with open(os.path.join(PAGES, f"{name}.html"), "w") as saved:
        saved.write(page)


def seed_household(database):
    """A second user who shares with the household and has 200 wishlist items: every catalog book,
    then imported books (no catalog id) as a Goodreads import leaves them. Written with the server
    stopped, in one transaction."""
    made = subprocess.run(app_argv("user", "create", HOUSEHOLD_USER, "--password-stdin", "--database", database), cwd=ROOT,
                          env=clean_environment(), input=PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0:
        die(f"wishlist user create {HOUSEHOLD_USER} failed: {made.stderr}")
    db = sqlite3.connect(database)
    try:
        with db:
            (owner,) = db.execute("SELECT id FROM user WHERE username = ?", (HOUSEHOLD_USER,)).fetchone()
            db.execute("UPDATE user SET sharing = 'household' WHERE id = ?", (owner,))
            books = db.execute("SELECT id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height "
                               "FROM book ORDER BY id LIMIT ?", (HOUSEHOLD_ITEMS,)).fetchall()
            imported = [(None, f"An Imported Book {n}", f"Author {n % 37}", "", "", "", f"97800000{n:05d}", None, 0, 0)
                        for n in range(HOUSEHOLD_ITEMS - len(books))]
            for index, (book_id, title, author, publisher, description, isbn10, isbn13, image, width, height) in enumerate(books + imported):
                db.execute("INSERT INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13, "
                           "image_url, image_width, image_height, buy_links, reading_links, note, added_at, priority) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', '[]', ?, ?, ?)",
                           (owner, book_id, title, author, publisher, description, isbn10, isbn13, image, width, height,
                            "A note about this one." if index % 3 == 0 else "",
                            f"2026-{1 + index % 11:02d}-{1 + index % 28:02d} 12:00:00.000", index % 3 - 1))
    finally:
        db.close()
    log(f"household: {HOUSEHOLD_USER} has {HOUSEHOLD_ITEMS} wishlist items ({len(books)} from the catalog)")


# MARK: - Report

def render_report(results):
    rows = results["rows"]
    ceiling = rows["ceiling"]
    labels = [
        ("ceiling", f"ceiling: minimal Hummingbird route, fixed 3-byte body ({CONNECTIONS} conn.)"),
        ("list", f"list page, signed in: session, queries, render ({CONNECTIONS} conn.)"),
        ("list_reads", f"… each request at an address of its own, so each reads the database ({CONNECTIONS} conn.)"),
        ("login_page", f"sign-in page, signed out ({CONNECTIONS} conn.)"),
        ("add_remove", f"add-then-remove wishlist item, CSRF ({ADD_REMOVE_LOOPS} conn.; 2 requests a loop)"),
        ("storm_list", f"list page during the sign-in storm ({CONNECTIONS} conn.)"),
        ("storm_signin", f"… the storm itself: POST /login, right password ({STORM_CLIENTS} conn.)"),
        ("one_client", "list page, one normal client alone (1 conn.)"),
        ("stalled_list", f"list page beside {STALLED_CLIENTS} stalled half-requests ({CONNECTIONS} conn.)"),
        ("stalled_one", f"… one normal client beside the {STALLED_CLIENTS} stalled half-requests (1 conn.)"),
        ("book_history", f"book page, {HISTORY_WEEKS} weeks on {len(HISTORY_LISTS)} lists: 3 rank charts ({CONNECTIONS} conn.)"),
        ("old_edition", f"list page of an edition {HISTORY_WEEKS} weeks old ({CONNECTIONS} conn.)"),
        ("wishlist", f"own wishlist, the first {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS} items ({CONNECTIONS} conn.)"),
        ("people", f"/people/{HOUSEHOLD_USER}: another member's first {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS} items ({CONNECTIONS} conn.)"),
        ("api_wants", f"API: the same own wants, GET /api/v1/wants, {WANTS_A_PAGE} of {HOUSEHOLD_ITEMS} as JSON ({CONNECTIONS} conn.)"),
        ("soak", f"list page, {results['soak_seconds']} s soak ({CONNECTIONS} conn.)"),
    ] + [(f"ceiling_{page}", f"bytes ceiling: the {page.replace('_', ' ')} page's {rows[f'ceiling_{page}']['bytes']:,} bytes "
                             f"from memory ({CONNECTIONS} conn.)")
         for page in PAGE_ROWS if f"ceiling_{page}" in rows]
    # The app's rows whose page was saved, and the row of its bytes ceiling.
    bytes_ceiling = {row: rows.get(f"ceiling_{page}") for page, row in PAGE_ROWS.items()}
    bytes_ceiling.update({key: bytes_ceiling["list"] for key in ("list_reads", "one_client", "stalled_list", "stalled_one", "storm_list", "soak")})

    def ms(us):
        return f"{us / 1000:.2f}" if us < 10_000 else f"{us / 1000:.0f}"

    def cpu(row):
        if "cpu_cores" not in row:
            return "—"
        per_request = f"{row['cpu_us_per_request']:.0f}" if "cpu_us_per_request" in row else "— (Argon2 too)"
        cores = f"{row['cpu_cores']:.2f}"
        if "machine_cores" in row:
            rest = max(0.0, row["machine_cores"] - row["cpu_cores"] - row.get("wrk_cores", 0))
            cores += f" / {row.get('wrk_cores', 0):.2f} / {rest:.2f}"
        return f"{per_request} | {cores}"

    def times(value, base):
        return f"{value / base:.1f}×" if base else "—"

    lines = [
        "| scenario | req/s | of ceiling | of its bytes ceiling | p50 ms | p99 ms | p50 / p99 vs ceiling | errors | server peak MB | memory vs ceiling "
        "| server CPU µs a request | cores busy: server / wrk / rest of machine |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for key, label in labels:
        row = rows.get(key)
        if not row:
            continue
        errors = f"{row['errors']}" + (f" ({row['status']} non-2xx/3xx, {row['socket_errors']} socket)" if row["errors"] else "")
        share = "100%" if key == "ceiling" else f"{row['rps'] / ceiling['rps'] * 100:.1f}%"
        own = bytes_ceiling.get(key)
        own_share = f"{row['rps'] / own['rps'] * 100:.1f}%" if own else ("100%" if key.startswith("ceiling_") else "—")
        lines.append(
            f"| {label} | {row['rps']:,.0f} | {share} | {own_share} | {ms(row['p50_us'])} | {ms(row['p99_us'])} | "
            f"{times(row['p50_us'], ceiling['p50_us'])} / {times(row['p99_us'], ceiling['p99_us'])} | {errors} | "
            f"{row['peak_mb']:.1f} | {times(row['peak_mb'], ceiling['peak_mb'])} | {cpu(row)} |")
    table = "\n".join(lines)

    listed, storm = rows["list"], rows["storm_list"]

    def own_share(key):
        return rows[key]["rps"] / bytes_ceiling[key]["rps"] if bytes_ceiling.get(key) else 0.0

    share = own_share("list")
    page_shares = [(label, own_share(key)) for key, label in
                   [("book_history", f"book page ({HISTORY_WEEKS} weeks on {len(HISTORY_LISTS)} lists)"),
                    ("wishlist", f"own wishlist ({HOUSEHOLD_ITEMS} items)"),
                    ("people", f"/people/{{username}} ({HOUSEHOLD_ITEMS} items)")]]
    old = rows["old_edition"]

    def verdict(ok):
        return "**met**" if ok else "**missed**"

    budgets = [
        f"- List page at least {BUDGET_LIST_SHARE:.0%} of its bytes ceiling's requests/s: {verdict(share >= BUDGET_LIST_SHARE)} "
        f"({share:.1%}); p99 under {BUDGET_LIST_P99_MS} ms at {CONNECTIONS} connections: "
        f"{verdict(listed['p99_us'] < BUDGET_LIST_P99_MS * 1000)} ({listed['p99_us'] / 1000:.1f} ms); server CPU at most "
        f"{BUDGET_LIST_CPU_US} µs a request: {verdict(listed['cpu_us_per_request'] <= BUDGET_LIST_CPU_US)} "
        f"({listed['cpu_us_per_request']:.0f} µs).",
        f"- The list page of an edition {HISTORY_WEEKS} weeks old, held to the list page's budgets: "
        f"{verdict(own_share('old_edition') >= BUDGET_LIST_SHARE)} ({own_share('old_edition'):.1%} of its bytes ceiling); "
        f"{verdict(old['p99_us'] < BUDGET_LIST_P99_MS * 1000)} ({old['p99_us'] / 1000:.1f} ms p99); "
        f"{verdict(old['cpu_us_per_request'] <= BUDGET_LIST_CPU_US)} ({old['cpu_us_per_request']:.0f} µs a request).",
        "- Other pages at least " + f"{BUDGET_PAGE_SHARE:.0%} of their own bytes ceilings: "
        + "; ".join(f"{label} {verdict(value >= BUDGET_PAGE_SHARE)} ({value:.1%})" for label, value in page_shares) + ".",
        f"- During the sign-in storm, list-page p99 under {BUDGET_STORM_P99_MS} ms and no errors: "
        f"{verdict(storm['p99_us'] < BUDGET_STORM_P99_MS * 1000 and storm['errors'] == 0)} "
        f"({storm['p99_us'] / 1000:.1f} ms, {storm['errors']} errors).",
        f"- Beside {STALLED_CLIENTS} stalled half-requests, list-page p99 under {BUDGET_STALLED_P99_MS} ms and no errors "
        f"for a normal client: {verdict(rows['stalled_one']['p99_us'] < BUDGET_STALLED_P99_MS * 1000 and rows['stalled_one']['errors'] == 0)} "
        f"({rows['stalled_one']['p99_us'] / 1000:.1f} ms, {rows['stalled_one']['errors']} errors; "
        f"{rows['one_client']['p99_us'] / 1000:.1f} ms alone); at {CONNECTIONS} connections "
        f"{verdict(rows['stalled_list']['p99_us'] < BUDGET_STALLED_P99_MS * 1000 and rows['stalled_list']['errors'] == 0)} "
        f"({rows['stalled_list']['p99_us'] / 1000:.1f} ms, {rows['stalled_list']['errors']} errors).",
        f"- The book page at the list page's p99 budget, under {BUDGET_LIST_P99_MS} ms: book page with "
        f"{HISTORY_WEEKS} weeks on {len(HISTORY_LISTS)} lists {verdict(rows['book_history']['p99_us'] < BUDGET_LIST_P99_MS * 1000)} "
        f"({rows['book_history']['p99_us'] / 1000:.1f} ms, {results['book_page_bytes']:,} bytes).",
        f"- Peak memory under {BUDGET_MEMORY_MB} MB after a minute of load: {verdict(results['peak_mb'] < BUDGET_MEMORY_MB)} "
        f"(server's VmHWM over the whole run {results['peak_mb']:.1f} MB, RSS after the {results['soak_seconds']} s soak "
        f"{results['rss_after_soak_mb']:.1f} MB, of which ICU's library {results['icu_resident_mb']:.1f} MB: "
        f"docs/memory.md).",
        f"- Cold start to first 200 under {BUDGET_COLD_START_S} s: {verdict(results['cold_start_first_s'] < BUDGET_COLD_START_S)} "
        f"({results['cold_start_first_s'] * 1000:.0f} ms on a new database, loading the sample catalog; "
        f"{results['cold_start_restart_s'] * 1000:.0f} ms on restart).",
    ]
    for key, label in [("list", "the list page"), ("old_edition", f"the list page of an edition {HISTORY_WEEKS} weeks old")]:
        rounds = results.get("rounds", {}).get(key, [])
        if not rounds:
            continue
        middle = next(number for number, r in enumerate(rounds, 1) if r["app"] is rows[key])
        lines = [f"{label[0].upper()}{label[1:]} and its bytes ceiling were measured in turns, {len(rounds)} rounds of "
                 f"{results['seconds']} s each; the table's rows for them are round {middle}, the median share:", "",
                 "| round | page req/s | CPU µs a request | p99 ms | bytes ceiling req/s | its CPU µs a request | share |",
                 "|---:|---:|---:|---:|---:|---:|---:|"]
        for number, r in enumerate(rounds, 1):
            lines.append(f"| {number} | {r['app']['rps']:,.0f} | {r['app']['cpu_us_per_request']:.0f} | {ms(r['app']['p99_us'])} | "
                         f"{r['ceiling']['rps']:,.0f} | {r['ceiling']['cpu_us_per_request']:.0f} | {r['share']:.1%} |")
        table += "\n\n" + "\n".join(lines)
    header = (f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench')}` · {results['started']} · {results['cores']} cores "
              f"shared by wrk and the server, load average before the run {results['load_before']} · "
              f"{results['seconds']} s per scenario · list page {results['list_page_bytes']:,} bytes")
    if results.get("hummingbird"):
        header += f" · {results['hummingbird']}"
    if results.get("experiment"):
        header += f" · **experiment: {results['experiment']}**"
    return header + "\n\n" + table + "\n\n" + "\n".join(budgets) + "\n"


def update_readme(report):
    start, end = "<!-- server-results:start -->", "<!-- server-results:end -->"
    try:
        text = open(README).read()
    except OSError:
        return
    if start not in text or end not in text:
        log(f"{os.path.relpath(README, ROOT)} has no {start} section; left alone")
        return
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    with open(README, "w") as out:
        out.write(before + start + "\n" + report + end + after)
    log(f"updated {os.path.relpath(README, ROOT)}")


if __name__ == "__main__":
    main()
