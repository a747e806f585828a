#!/usr/bin/env python3
"""Soak test for `make soak`: a server under a steady household load for SOAK_MINUTES.

Starts the app (SOAK_APP, by default the debug build; `make soak CONFIGURATION=release` for the
release one) on a new database with SOAK_MEMBERS members who share with the household, and has
each of them, one request at a time with SOAK_PAUSE seconds between actions, browse (lists, a
book, the wishlist, another member's list, the reading page), add a book to the wishlist and remove
it, reserve another member's item and cancel, record a book as read with a rating and forget it,
upload a profile picture now and then and sign in again now and then.

Every SOAK_SAMPLE_SECONDS it records the server's RSS, its open file descriptors, the database and
WAL file sizes and the latency percentiles of the requests since the last sample. It fails when:
  - any request gets an answer other than the one expected (a 200 page or a 303 redirect), or none;
  - the RSS at the end is over SOAK_RSS_GROWTH (default 10%) above the RSS once warmed up (after
    SOAK_WARMUP_MINUTES; default 3), or the file descriptors ever exceed the warmed-up count by more
    than SOAK_FD_SLACK (default 8; each member has at most one connection open);
  - the WAL file ever grows past SOAK_WAL_MB (default 16): checkpoints must happen.
  - in a run of at least twice SOAK_P99_WINDOW_MINUTES (default 5), the p99 of the requests in the
    last window is over SOAK_P99_RATIO (default 1.5) times the p99 of the first: a server that slows
    down as it runs. Shorter runs report the ratio of their last sample to the first warmed-up one.
The issue's run is `make soak CONFIGURATION=release SOAK_MINUTES=30`. Latency depends on the machine
as much as on the server: run it alone, or give it priority (`nice -n -10`) over other work.

Only 127.0.0.1 is contacted. Python 3 standard library only; uses Benchmarks/server/bench.py's
helpers. The table goes to .build/soak/soak.md (raw samples in soak.json).
"""
import datetime
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "server"))
import bench  # noqa: E402

MINUTES = float(os.environ.get("SOAK_MINUTES", "10"))
WARMUP_MINUTES = float(os.environ.get("SOAK_WARMUP_MINUTES", "3"))
SAMPLE_SECONDS = float(os.environ.get("SOAK_SAMPLE_SECONDS", "30"))
MEMBERS = int(os.environ.get("SOAK_MEMBERS", "4"))
PAUSE = float(os.environ.get("SOAK_PAUSE", "0.05"))
RSS_GROWTH = float(os.environ.get("SOAK_RSS_GROWTH", "0.10"))
FD_SLACK = int(os.environ.get("SOAK_FD_SLACK", "8"))
WAL_MB = float(os.environ.get("SOAK_WAL_MB", "16"))
P99_WINDOW_MINUTES = float(os.environ.get("SOAK_P99_WINDOW_MINUTES", "5"))
P99_RATIO = float(os.environ.get("SOAK_P99_RATIO", "1.5"))
APP = os.environ.get("SOAK_APP") or os.path.join(ROOT, ".build", "debug", "wishlist")
OUT = os.path.join(ROOT, ".build", "soak")
LIST = "hardcover-fiction"
SEED = int(os.environ.get("SOAK_SEED", "33"))


def log(message):
    print(f"[soak] {message}", flush=True)


class Record:
    """Latencies and failures from every member, shared with the sampler."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []  # seconds, since the last sample
        self.requests = 0
        self.errors = []  # (method, path, status or exception text)

    def add(self, seconds):
        with self.lock:
            self.latencies.append(seconds)
            self.requests += 1

    def fail(self, method, path, what):
        with self.lock:
            self.errors.append((method, path, str(what)))

    def take_latencies(self):
        with self.lock:
            taken, self.latencies = self.latencies, []
            return taken


class Member:
    """One signed-in person: a session cookie, the CSRF token of the last page, and the actions."""

    def __init__(self, port, username, neighbour, books, record, rng):
        self.port, self.username, self.neighbour, self.books = port, username, neighbour, books
        self.record, self.rng = record, rng
        self.cookie, self.csrf = None, ""
        # The items that stay on this member's wishlist: the only ones the previous member
        # reserves, since the ones this member adds come and go.
        self.lasting_items = []
        self.neighbours_items = []

    def request(self, method, path, fields=None, expect=(200,), body=None, content_type=None):
        headers = {"Cookie": f"wishlist_session={self.cookie}"} if self.cookie else {}
        if fields is not None:
            body = bench.form({**dict(fields), "csrf_token": self.csrf})
            content_type = "application/x-www-form-urlencoded"
        if content_type:
            headers["Content-Type"] = content_type
        started = time.perf_counter()
        try:
            status, _, page, cookies = bench.http_request(self.port, method, path, headers, body)
        except OSError as error:
            self.record.fail(method, path, error)
            return None
        self.record.add(time.perf_counter() - started)
        if status not in expect:
            self.record.fail(method, path, status)
            return None
        if "wishlist_session" in cookies:
            self.cookie = cookies["wishlist_session"]
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        if token:
            self.csrf = bench.html.unescape(token.group(1))
        return page

    def sign_in(self):
        self.cookie = None
        self.request("GET", "/login")
        self.request("POST", "/login", [("username", self.username), ("password", bench.PASSWORD), ("next", "/")], expect=(303,))
        self.request("GET", "/wishlist")

    def browse(self):
        path = self.rng.choice([f"/lists/{LIST}", "/lists", "/wishlist", f"/people/{self.neighbour}", "/reading",
                                f"/books/{self.rng.choice(self.books)}"])
        self.request("GET", path)

    def add_and_remove(self):
        before = set(re.findall(r'href="/wishlist/(\d+)"', self.request("GET", "/wishlist") or ""))
        self.request("POST", "/wishlist", [("book", self.rng.choice(self.books)), ("return_to", "/wishlist")], expect=(303,))
        after = set(re.findall(r'href="/wishlist/(\d+)"', self.request("GET", "/wishlist") or ""))
        for item in after - before:
            self.request("POST", f"/wishlist/{item}/delete", [], expect=(303,))

    def reserve_and_cancel(self):
        """Only this member reserves the neighbour's lasting items, so no two members race for one
        and none is removed meanwhile."""
        self.request("GET", f"/people/{self.neighbour}")
        items = self.neighbours_items
        item = self.rng.choice(items)
        back = f"/people/{self.neighbour}"
        self.request("POST", "/reservations", [("item", item), ("return_to", back)], expect=(303,))
        self.request("POST", f"/reservations/{item}/delete", [("return_to", back)], expect=(303,))

    def read_and_forget(self):
        book = self.rng.choice(self.books)
        back = f"/books/{book}"
        self.request("POST", f"/books/{book}/reading", [("rating", str(self.rng.randint(1, 5))), ("review", "Soak reading."),
                                                        ("finished", ""), ("return_to", back)], expect=(303,))
        self.request("POST", f"/books/{book}/reading/delete", [("return_to", back)], expect=(303,))

    def upload_picture(self):
        boundary = "----SoakPicture"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{self.csrf}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"me.png\"\r\n"
                "Content-Type: image/png\r\n\r\n").encode() + png(self.rng) + f"\r\n--{boundary}--\r\n".encode()
        self.request("POST", "/settings/profile/picture", expect=(303,), body=body,
                     content_type=f"multipart/form-data; boundary={boundary}")
        self.request("GET", "/settings/profile")

    def act(self):
        roll = self.rng.random()
        if roll < 0.50:
            self.browse()
        elif roll < 0.65:
            self.add_and_remove()
        elif roll < 0.80:
            self.reserve_and_cancel()
        elif roll < 0.95:
            self.read_and_forget()
        elif roll < 0.98:
            self.upload_picture()
        else:
            self.sign_in()


def png(rng, side=96):
    """A picture of one random colour, as a browser would upload a small photo."""
    colour = bytes(rng.randrange(256) for _ in range(3))
    rows = b"".join(b"\x00" + colour * side for _ in range(side))

    def chunk(name, data):
        return struct.pack(">I", len(data)) + name + data + struct.pack(">I", zlib.crc32(name + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def sample(server, database, record, started):
    pid = server.process.pid
    latencies = record.take_latencies()
    wal = database + "-wal"
    with record.lock:
        requests, errors = record.requests, len(record.errors)
    return {
        "minute": (time.perf_counter() - started) / 60,
        "requests": requests,
        "interval_requests": len(latencies),
        "errors": errors,
        "rss_mb": server.status_kb("VmRSS") / 1024,
        "fds": len(os.listdir(f"/proc/{pid}/fd")),
        "db_mb": os.path.getsize(database) / 2**20,
        "wal_mb": (os.path.getsize(wal) if os.path.exists(wal) else 0) / 2**20,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p90_ms": percentile(latencies, 0.90) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "latencies": latencies,  # for the windows' p99; left out of soak.json
    }


def create_members(database):
    names = [f"member{n}" for n in range(1, MEMBERS + 1)]
    for name in names:
        made = subprocess.run([APP, "user", "create", name, "--password-stdin", "--database", database, "--config", bench.bench_config()],
                              cwd=ROOT, env=bench.clean_environment(), input=bench.PASSWORD + "\n", capture_output=True, text=True)
        if made.returncode != 0:
            bench.die(f"wishlist user create {name} failed: {made.stderr}")
    return names


def prepare(port, names, record):
    """Everyone signs in, shares with the household and keeps three books on the wishlist, so that
    the neighbour always has something to reserve."""
    rng = random.Random(SEED)
    probe = Member(port, names[0], names[1 % len(names)], [], record, rng)
    probe.sign_in()
    books = re.findall(r'<li class="book"[^>]*? data-book="([^"]+)"', probe.request("GET", f"/lists/{LIST}") or "")
    if len(books) < 5:
        bench.die(f"the {LIST} page lists {len(books)} books")
    members = []
    for index, name in enumerate(names):
        member = Member(port, name, names[(index + 1) % len(names)], books, record, random.Random(SEED + index))
        member.sign_in()
        member.request("POST", "/settings/sharing", [("sharing", "household")], expect=(303,))
        for book in books[:3]:
            member.request("POST", "/wishlist", [("book", book), ("return_to", "/wishlist")], expect=(303,))
        member.lasting_items = re.findall(r'href="/wishlist/(\d+)"', member.request("GET", "/wishlist") or "")
        members.append(member)
    for index, member in enumerate(members):
        member.neighbours_items = members[(index + 1) % len(members)].lasting_items
        if not member.neighbours_items:
            bench.die(f"{member.neighbour} has no wishlist items to reserve")
    if record.errors:
        bench.die(f"setting up failed: {record.errors[:5]}")
    return members


def run_load(members, record, server, database):
    stop = threading.Event()

    def loop(member):
        while not stop.is_set():
            member.act()
            stop.wait(PAUSE)
    threads = [threading.Thread(target=loop, args=(member,), daemon=True) for member in members]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    samples = []
    deadline = started + MINUTES * 60
    while time.perf_counter() < deadline:
        time.sleep(min(SAMPLE_SECONDS, max(0.0, deadline - time.perf_counter())))
        if server.process.poll() is not None:
            record.fail("-", "-", f"the server exited with {server.process.returncode}")
            break
        samples.append(sample(server, database, record, started))
        last = samples[-1]
        log(f"{last['minute']:5.1f} min: {last['requests']} requests, {last['errors']} errors, RSS {last['rss_mb']:.1f} MB, "
            f"{last['fds']} fds, WAL {last['wal_mb']:.1f} MB, p50/p99 {last['p50_ms']:.0f}/{last['p99_ms']:.0f} ms")
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return samples


def window_p99_ms(samples, first, last):
    """The p99 of every request answered in the samples from minute `first` (exclusive) to `last`."""
    latencies = [seconds for s in samples if first < s["minute"] <= last + 1e-6 for seconds in s["latencies"]]
    return percentile(latencies, 0.99) * 1000


def p99_verdict(samples, base, last):
    """The issue's rule where the run is long enough for two windows that do not overlap."""
    end = samples[-1]["minute"]
    if end < 2 * P99_WINDOW_MINUTES:
        ratio = last["p99_ms"] / base["p99_ms"] if base["p99_ms"] else 0
        return ("p99, last sample vs first warmed-up one", f"{last['p99_ms']:.0f} ms vs {base['p99_ms']:.0f} ms ({ratio:.2f}×)",
                f"reported (judged in runs of {2 * P99_WINDOW_MINUTES:g} minutes or more)", True)
    first_ms = window_p99_ms(samples, 0, P99_WINDOW_MINUTES)
    last_ms = window_p99_ms(samples, end - P99_WINDOW_MINUTES, end)
    bound = first_ms * P99_RATIO
    return (f"p99, last {P99_WINDOW_MINUTES:g} minutes vs first {P99_WINDOW_MINUTES:g}",
            f"{last_ms:.1f} ms vs {first_ms:.1f} ms ({last_ms / first_ms if first_ms else 0:.2f}×)",
            f"≤ {bound:.1f} ms ({P99_RATIO:g}×)", last_ms <= bound)


def verdicts(samples, errors):
    """(check, figure, bound, passed) for each rule in the docstring."""
    warmed = [s for s in samples if s["minute"] >= WARMUP_MINUTES] or samples[-1:]
    base, last = warmed[0], samples[-1]
    rss_bound = base["rss_mb"] * (1 + RSS_GROWTH)
    fd_bound = base["fds"] + FD_SLACK
    wal_max = max(s["wal_mb"] for s in samples)
    fds_max = max(s["fds"] for s in warmed)
    return [
        ("error responses", f"{len(errors)}", "0", not errors),
        ("RSS at the end vs once warmed up", f"{last['rss_mb']:.1f} MB vs {base['rss_mb']:.1f} MB", f"≤ {rss_bound:.1f} MB", last["rss_mb"] <= rss_bound),
        ("open file descriptors after warm-up, most", f"{fds_max} (warmed up: {base['fds']})", f"≤ {fd_bound}", fds_max <= fd_bound),
        ("WAL file, largest", f"{wal_max:.1f} MB", f"≤ {WAL_MB:.0f} MB", wal_max <= WAL_MB),
        p99_verdict(samples, base, last),
    ]


def render(results):
    lines = [f"Soak: {results['minutes']:g} minutes, {results['members']} members, {results['app']} "
             f"(started {results['started']}; load average before {' '.join(results['load_before'])}, "
             f"after {' '.join(results['load_after'])})", "",
             "| minute | requests | errors | RSS MB | fds | DB MB | WAL MB | p50 ms | p90 ms | p99 ms |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in results["samples"]:
        lines.append(f"| {s['minute']:.1f} | {s['requests']} | {s['errors']} | {s['rss_mb']:.1f} | {s['fds']} | {s['db_mb']:.1f} | "
                     f"{s['wal_mb']:.1f} | {s['p50_ms']:.0f} | {s['p90_ms']:.0f} | {s['p99_ms']:.0f} |")
    lines += ["", "| check | measured | bound | |", "|---|---|---|---|"]
    for check, figure, bound, passed in results["verdicts"]:
        lines.append(f"| {check} | {figure} | {bound} | {'pass' if passed else 'FAIL'} |")
    if results["errors"]:
        lines += ["", "First errors: " + "; ".join(f"{m} {p}: {w}" for m, p, w in results["errors"][:10])]
    return "\n".join(lines) + "\n"


def main():
    if not os.path.exists(APP):
        bench.die(f"{APP} is missing; `make soak` builds it")
    bench.APP = APP
    # A stopped soak stops its server too (through the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    run = os.path.join(OUT, "run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run, exist_ok=True)
    database = os.path.join(run, "wishlist.sqlite")
    names = create_members(database)
    port = bench.free_port()
    server = bench.Server("wishlist", bench.app_argv("serve", "--port", str(port), "--database", database), port,
                          os.path.join(run, "server.log"))
    record = Record()
    load_before = open("/proc/loadavg").read().split()[:3]
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        server.wait_ready(server.start(), "/healthz", timeout=120)
        members = prepare(port, names, record)
        log(f"{len(members)} members signed in; load for {MINUTES:g} minutes, a sample every {SAMPLE_SECONDS:g} s")
        samples = run_load(members, record, server, database)
    finally:
        server.stop()
    if not samples:
        bench.die("no sample was taken")
    load_after = open("/proc/loadavg").read().split()[:3]
    results = {
        "started": started, "load_after": load_after,
        "minutes": MINUTES, "members": MEMBERS, "app": os.path.relpath(APP, ROOT), "load_before": load_before,
        "samples": samples, "errors": record.errors, "verdicts": verdicts(samples, record.errors),
    }
    with open(os.path.join(OUT, "soak.json"), "w") as raw:
        json.dump({**results, "samples": [{k: v for k, v in s.items() if k != "latencies"} for s in samples]}, raw, indent=2)
    report = render(results)
    with open(os.path.join(OUT, "soak.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    if not all(passed for _, _, _, passed in results["verdicts"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
