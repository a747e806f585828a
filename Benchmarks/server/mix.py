#!/usr/bin/env python3
"""Household mix for `make bench-mix`: 200 signed-in members on the scale database, at a fixed rate.

wrk is a closed loop: each connection sends its next request when the last one is answered, so
when the server slows down, fewer requests are sent and the wait they would have had is never
measured. This is an open loop instead: request i is due at start + i / rate, whatever happened
to the earlier ones, and its latency is counted from when it was due, so time spent queueing
(behind a member's previous request, or in a generator that fell behind) counts.

  database   scale.py's big database (10,000 users, 500,000 wishlist items, 104 weeks of 18 lists),
             built once into .build/bench/mix/ and copied fresh for each run, since the run writes
  members    200 users who share with the household, each signed in by a session row written
             straight into SQLite (a sign-in is Argon2, not what this measures), each with one
             keep-alive connection, like a browser tab; a member's requests go one after another
  mix        90% page views: list (a current list), book (a book of a current list), own wishlist,
             another member's page (/people/NAME), one of a member's shared lists
             (/people/NAME/lists/ID), a child's page, reading (/reading), search (a word of the
             titles), an author's page (/authors/NAME), and an API read of one's own wants
             (GET /api/v1/wants with the member's read token, no cookie); 10% writes, each a POST with the member's CSRF token: add a book to the
             wishlist, remove one of the member's items, reserve an item of another member, mark a
             book read (a finished date), rate a book. Redirects are not followed: the page a
             browser would load next is one of the views. Requests are sent as Chromium sends
             them within the site (Accept-Encoding with gzip, Sec-Fetch-Site: same-origin), so
             pages come back gzipped as a browser receives them.
  load       BENCH_MIX_RATE requests a second (default 1000) for BENCH_MIX_WARMUP s (default 10,
             not counted), then BENCH_MIX_SECONDS s (default 60) measured, spread over
             BENCH_MIX_WORKERS processes (default 2) of Python asyncio with raw sockets
  figures    per page kind: count, p50, p99, max (ms from when the request was due), errors (a
             socket error, no answer 10 s after it was due, or a status other than 2xx and 3xx); the read memo's
             and the shared page caches' hit rates from /metrics (deltas over the measured
             window); the generator's own lag (how late a due request was handed to its member's
             connection); server CPU, RSS, load average before and after

and writes the table to .build/bench/mix.md (raw figures in mix.json), and into
Benchmarks/README.md between <!-- mix-results:start --> and <!-- mix-results:end -->.

The app runs with bench.bench_config() plus `metrics.enabled` (loopback only), for the hit rates.
Only 127.0.0.1 is ever contacted. Python 3 standard library only; reuses bench.py and scale.py.
Options (environment): BENCH_MIX_RATE, BENCH_MIX_SECONDS, BENCH_MIX_WARMUP, BENCH_MIX_WORKERS,
BENCH_MIX_MEMBERS (200), BENCH_UPDATE_README=0, and bench.py's BENCH_APP, BENCH_CONFIG, BENCH_APP_ENV
(an experiment's table stays out of the README, except BENCH_APP, which the report names).
BENCH_MIX_HEALTHZ=1 sends `GET /healthz` (one database read, no page) in place of every request,
at the same rate, members and connections: what the server's plumbing and the generator cost a
request without any page; an experiment, its rows only the kinds' shares.
"""
import asyncio
import datetime
import gc
import hashlib
import json
import multiprocessing
import os
import random
import re
import secrets
import shutil
import sqlite3
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import scale  # noqa: E402

ROOT, OUT = bench.ROOT, bench.OUT
RUN = os.path.join(OUT, "mix")
PRISTINE = os.path.join(RUN, "pristine.sqlite")
README = bench.README
RATE = int(os.environ.get("BENCH_MIX_RATE", "1000"))
SECONDS = int(os.environ.get("BENCH_MIX_SECONDS", "60"))
WARMUP = int(os.environ.get("BENCH_MIX_WARMUP", "10"))
WORKERS = int(os.environ.get("BENCH_MIX_WORKERS", "2"))
MEMBERS = int(os.environ.get("BENCH_MIX_MEMBERS", "200"))
HEALTHZ_ONLY = os.environ.get("BENCH_MIX_HEALTHZ") == "1"
TIMEOUT_S = 10
COST_SAMPLES = 40  # requests of each page kind, one at a time, for its CPU cost
BUDGET_P99_MS = 10  # issue 58: round 4's budget (15 before)

# Shares of all requests: 90% views, 10% writes.
VIEWS = [("list", 23), ("book", 19), ("wishlist", 12), ("people", 7), ("memberlist", 6), ("child", 4), ("reading", 7),
         ("search", 6), ("author", 4), ("api", 2)]
WRITES = [("add", 3), ("remove", 2), ("reserve", 2), ("read", 1.5), ("rate", 1.5)]
KINDS = [kind for kind, _ in VIEWS + WRITES]
WEIGHTS = [weight for _, weight in VIEWS + WRITES]
SEARCH_WORDS = sorted({w.lower() for w in scale.WORDS_A + scale.WORDS_N})


def log(message):
    print(f"[mix] {message}", flush=True)


# MARK: - The database and the members

def pristine_database():
    """scale.py's big database, built once (about a minute) and kept for later runs."""
    if os.path.exists(PRISTINE) and has_children(PRISTINE):
        log(f"reusing {os.path.relpath(PRISTINE, ROOT)}")
        return
    os.makedirs(RUN, exist_ok=True)
    base, small = os.path.join(RUN, "base.sqlite"), os.path.join(RUN, "small.sqlite")
    building = PRISTINE + ".building"
    now = datetime.datetime.now(datetime.timezone.utc)
    scale.RUN = RUN  # scale.make_base's server log goes here
    password_hash, _ = scale.make_base(base)
    scale.copy_database(base, small)
    scale.copy_database(base, building)
    scale.remove_database(base)
    star = scale.fill_small(small, now)["book"]  # the book with two years on three lists, as bench-scale has it
    scale.remove_database(small)
    log(f"building the big database: {scale.USERS:,} users, {scale.ITEMS:,} items")
    started = time.perf_counter()
    scale.fill_big(building, password_hash, star, now)
    os.replace(building, PRISTINE)
    log(f"built in {time.perf_counter() - started:.0f} s")


def has_children(path):
    """Whether a kept database is as scale.py builds it now (children's profiles since issue 51)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM user WHERE kind = 'child'").fetchone()[0] > 0
    except sqlite3.OperationalError:  # from before the column
        return False
    finally:
        db.close()


def run_database():
    """A copy of the pristine database to run against, its covers already fetched.

    The scale database's books have cover addresses on the NYT's image host, as real ones do. A
    server that had run for a while would hold every cover; one started on the copy as it is
    would try to fetch 2,800 of them from the internet, which nothing here may reach (and this
    machine cannot: each try waits for a name lookup that fails), and tries again every half
    minute for those due. Each cover is marked fetched instead, with two files of a few bytes
    in the cache beside the database: the mix asks for pages, never for a cover's bytes, and a
    page's markup is the same whatever a cover's state."""
    database = os.path.join(RUN, "run.sqlite")
    scale.remove_database(database)
    shutil.copyfile(PRISTINE, database)
    covers = os.path.join(RUN, "covers")  # CoverCache.directory(besideDatabase:)
    shutil.rmtree(covers, ignore_errors=True)
    os.makedirs(covers, mode=0o700)
    db = sqlite3.connect(database, isolation_level=None)
    try:
        urls = [row[0] for row in db.execute("SELECT url FROM cover")]
        keys = [(hashlib.sha256(url.encode()).hexdigest()[:24], url) for url in urls]  # CoverKey.of
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.000")
        db.execute("BEGIN")
        db.executemany("UPDATE cover SET key = ?, status = 'ready', failures = 0, retry_at = NULL, large_height = 576, "
                       f"fetched_at = '{now}' WHERE url = ?", keys)
        db.execute("COMMIT")
    finally:
        db.close()
    for key, _ in keys:
        for width in (128, 384):  # CoverSize
            with open(os.path.join(covers, f"{key}-{width}.jpg"), "wb") as out:
                out.write(b"\xff\xd8 stand-in \xff\xd9")
    return database


def prepare_members(path, rng):
    """Signs in MEMBERS household members (session rows, as SessionStore.create writes them) and
    reads what their requests need: the books of the current lists, each member's items, other
    members' unreserved items to reserve."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        lists = [row[0] for row in db.execute("SELECT name_encoded FROM catalog_list WHERE is_current ORDER BY name_encoded")]
        books = [row[0] for row in db.execute(
            "SELECT DISTINCT book_id FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded "
            "WHERE catalog_list.is_current ORDER BY book_id")]
        sharers = [row for row in db.execute(
            "SELECT id, username FROM user WHERE sharing = 'household' AND kind = 'member' AND disabled_at IS NULL AND id > 2 ORDER BY id")]
        chosen = rng.sample(sharers, MEMBERS)
        chosen_ids = {user_id for user_id, _ in chosen}
        now = scale.grdb_date(datetime.datetime.now(datetime.timezone.utc))
        members = []
        db.execute("BEGIN")
        for user_id, username in chosen:
            token = secrets.token_urlsafe(32)
            db.execute("INSERT INTO session (user_id, token_hash, created_at, last_seen_at, user_agent) VALUES (?, ?, ?, ?, ?)",
                       (user_id, hashlib.sha256(token.encode()).digest(), now, now, scale.AGENTS[2]))
            api_token = "bw_" + secrets.token_urlsafe(32)  # APITokenStore's form: a prefix and 43 characters
            db.execute("INSERT INTO api_token (user_id, name, scope, token_hash, created_at) VALUES (?, 'mix', 'read', ?, ?)",
                       (user_id, hashlib.sha256(api_token.encode()).digest(), now))
            items = [row[0] for row in db.execute("SELECT id FROM wishlist_item WHERE user_id = ? ORDER BY id", (user_id,))]
            members.append({"id": user_id, "username": username, "token": token, "api_token": api_token, "items": items})
        db.execute("COMMIT")
        shared_lists = db.execute(
            "SELECT user.username, wish_list.id FROM wish_list JOIN user ON user.id = wish_list.user_id "
            "WHERE user.sharing = 'household' AND user.disabled_at IS NULL AND user.kind = 'member' AND wish_list.visibility = 'household' "
            "AND NOT wish_list.is_default ORDER BY wish_list.id LIMIT 2000").fetchall()
        children = [row[0] for row in db.execute("SELECT username FROM user WHERE kind = 'child' ORDER BY id")]
        authors = [row[0] for row in db.execute(
            "SELECT DISTINCT book.author FROM book JOIN list_entry ON list_entry.book_id = book.id "
            "JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded "
            "WHERE catalog_list.is_current AND book.author != '' ORDER BY book.author")]
        # Items of sharers who are not members (so no member removes one while another reserves it),
        # on a list the household sees (issue 51: the scale database moves some to private lists).
        reservable = [row for row in db.execute(
            "SELECT wishlist_item.id, user.username FROM wishlist_item JOIN user ON user.id = wishlist_item.user_id "
            "WHERE user.sharing = 'household' AND user.disabled_at IS NULL AND user.id > 2 AND wishlist_item.shared "
            "AND wishlist_item.id NOT IN (SELECT item_id FROM reservation WHERE item_id IS NOT NULL) "
            "ORDER BY wishlist_item.id")]
        reservable = [(item, owner) for item, owner in reservable if owner not in {m["username"] for m in members}]
        others = [username for user_id, username in sharers if user_id not in chosen_ids]
    finally:
        db.close()
    rng.shuffle(reservable)
    return {"lists": lists, "books": books, "members": members, "reservable": reservable[:20_000],
            "people": [m["username"] for m in members] + others[:200], "shared_lists": shared_lists, "children": children,
            "authors": authors}


def fetch_csrf_tokens(port, members):
    """Each member's CSRF token, from a page they see (the token is the session's)."""
    for member in members:
        status, _, page, _ = bench.http_request(port, "GET", "/reading", {"Cookie": f"wishlist_session={member['token']}"})
        if status != 200:
            bench.die(f"/reading answered {status} for member {member['username']}: the session rows are not accepted")
        member["csrf"] = bench.csrf_in(page)


# MARK: - The load generator (one process)

class Connection:
    """One keep-alive HTTP/1.1 connection, raw: a request written whole, a response read by its
    Content-Length (or chunks). As a browser does, a request on a reused connection that the server
    closed before answering (its idle timeout) is sent again once on a new connection."""

    def __init__(self, port):
        self.port, self.reader, self.writer = port, None, None

    async def request(self, raw):
        reused = self.writer is not None
        if not reused:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(raw)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionResetError) as closed:
            if not reused or getattr(closed, "partial", b""):
                raise
            self.close()
            return await self.request(raw)
        status = int(head[9:12])
        headers = head.decode("latin-1").lower()
        match = re.search(r"\r\ncontent-length: *(\d+)", headers)
        if match:
            body = await self.reader.readexactly(int(match.group(1)))
        elif "transfer-encoding: chunked" in headers:
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                body += await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            body = b""
        if "\r\nconnection: close" in headers:
            self.close()
        return status, headers, body

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = self.reader = None


def build_request(kind, member, world, rng):
    """The raw request for one action of `member`, and any bookkeeping to do with its answer."""
    cookie = f"wishlist_session={member['token']}"
    chromium = (f"Host: 127.0.0.1\r\nCookie: {cookie}\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n"
                "Sec-Fetch-Site: same-origin\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36\r\n")

    def get(path):
        return f"GET {path} HTTP/1.1\r\n{chromium}\r\n".encode()

    if HEALTHZ_ONLY:
        return get("/healthz")

    def post(path, fields):
        body = urllib.parse.urlencode({**fields, "csrf_token": member["csrf"]})
        return (f"POST {path} HTTP/1.1\r\n{chromium}Content-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(body)}\r\n\r\n{body}").encode()

    if kind == "list":
        return get(f"/lists/{rng.choice(world['lists'])}")
    if kind == "book":
        return get(f"/books/{rng.choice(world['books'])}")
    if kind == "wishlist":
        return get("/wishlist")
    if kind == "people":
        other = rng.choice(world["people"])
        return get(f"/people/{urllib.parse.quote(other if other != member['username'] else world['people'][-1])}")
    if kind == "memberlist":
        owner, list_id = rng.choice(world["shared_lists"])
        return get(f"/people/{urllib.parse.quote(owner)}/lists/{list_id}")
    if kind == "child":
        return get(f"/people/{urllib.parse.quote(rng.choice(world['children']))}")
    if kind == "author":
        return get(f"/authors/{urllib.parse.quote(rng.choice(world['authors']).replace(' ', '-'))}")
    if kind == "api":
        return (f"GET /api/v1/wants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {member['api_token']}\r\n"
                "Accept: application/json\r\nAccept-Encoding: gzip\r\n\r\n").encode()
    if kind == "reading":
        return get("/reading")
    if kind == "search":
        return get(f"/search?q={rng.choice(SEARCH_WORDS)}")
    if kind == "add":
        return post("/wishlist", {"book": rng.choice(world["books"]), "return_to": "/wishlist"})
    if kind == "remove":
        if not member["items"]:
            return get("/wishlist")  # nothing left to remove (does not happen at the default sizes)
        item = member["items"].pop(rng.randrange(len(member["items"])))
        return post(f"/wishlist/{item}/delete", {"return_to": "/wishlist"})
    if kind == "reserve":
        item, owner = world["reservable"].pop()
        return post("/reservations", {"item": str(item), "return_to": f"/people/{owner}"})
    if kind == "read":
        return post(f"/books/{rng.choice(world['books'])}/reading",
                    {"rating": "", "review": "", "finished": datetime.date.today().isoformat(), "return_to": "/reading"})
    if kind == "rate":
        return post(f"/books/{rng.choice(world['books'])}/reading",
                    {"rating": str(rng.randint(1, 5)), "review": "", "finished": "", "return_to": "/reading"})
    raise ValueError(kind)


async def member_loop(member, queue, port, results, measured_from):
    connection = Connection(port)
    while True:
        job = await queue.get()
        if job is None:
            connection.close()
            return
        due, kind, raw = job
        status, error = 0, None
        if time.time() - due > TIMEOUT_S:
            # Queued behind this member's earlier requests for longer than the timeout: a failure
            # as much as one sent and not answered, and sending it now would only add to the queue.
            if due >= measured_from:
                results.append((kind, int((time.time() - due) * 1e6), 0, "TimeoutError (queued)", due - measured_from))
            continue
        try:
            status, headers, _ = await asyncio.wait_for(connection.request(raw), TIMEOUT_S)
            if kind == "add" and status == 303:
                added = re.search(r"wishlist_flash=added-(\d+)", headers)
                if added:
                    member["items"].append(int(added.group(1)))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ValueError) as failure:
            error = type(failure).__name__
            connection.close()
        done = time.time()
        if due >= measured_from:
            results.append((kind, int((done - due) * 1e6), status, error, due - measured_from))


async def generate(worker, port, world, members, start, rate, seconds, warmup):
    rng = random.Random(1000 + worker)
    queues = {m["id"]: asyncio.Queue() for m in members}
    results, lags = [], []
    measured_from = start + warmup
    loops = [asyncio.create_task(member_loop(m, queues[m["id"]], port, results, measured_from)) for m in members]
    total = int(rate * (warmup + seconds))
    interval = 1.0 / rate
    for index in range(total):
        due = start + index * interval
        wait = due - time.time()
        if wait > 0:
            await asyncio.sleep(wait)
        member = rng.choice(members)
        kind = rng.choices(KINDS, WEIGHTS)[0]
        if due >= measured_from:
            lags.append(int((time.time() - due) * 1e6))
        queues[member["id"]].put_nowait((due, kind, build_request(kind, member, world, rng)))
    for queue in queues.values():
        queue.put_nowait(None)
    # Every request due is counted: each is answered, fails, or times out (sent or queued) within TIMEOUT_S.
    await asyncio.gather(*loops)
    return results, lags


def worker_main(worker, port, world, members, start, rate, seconds, warmup, pipe):
    world = dict(world, reservable=world["reservable"][worker::WORKERS])
    # Python's cycle collector walks every object the generator holds (the world, the results so
    # far) a few times a minute, and the requests due meanwhile wait: tens of milliseconds that
    # counted as the server's. The generator makes next to no cycles in 70 s.
    gc.freeze()
    gc.disable()
    results, lags = event_loop_runner()(generate(worker, port, world, members, start, rate, seconds, warmup))
    pipe.send((results, lags))
    pipe.close()


def event_loop_runner():
    """uvloop's event loop where it is installed (`make bench-mix` runs the mix in the benchmarks'
    venv, which has it), else asyncio's own: the generator shares this machine's two cores with
    the server, and each of its requests costs it less CPU on uvloop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def event_loop_name():
    return "uvloop" if event_loop_runner() is not asyncio.run else "asyncio"


# MARK: - Cost of each page, one at a time

def page_costs(port, server, world, members, rng):
    """Server CPU of each kind of page view, asked for one at a time by members in turn, each at an
    address of its own (`visit=N`, which pages ignore) so no request reuses an earlier one's read:
    what a page costs the server on this database, whatever share of the machine it gets."""
    costs = {}
    for kind, _ in VIEWS:
        cpu, count = 0.0, COST_SAMPLES
        for index in range(count):
            member = members[index % len(members)]
            raw = build_request(kind, member, world, rng).decode()
            path = raw.split(" ", 2)[1]
            path += ("&" if "?" in path else "?") + f"visit={index}"
            # The request's own headers (a cookie for pages, a bearer token for the API), Host aside.
            lines = raw.split("\r\n\r\n", 1)[0].split("\r\n")[1:]
            headers = dict(line.split(": ", 1) for line in lines if not line.startswith("Host:"))
            before = server.cpu_seconds()
            status, _, _, _ = bench.http_request(port, "GET", path, headers)
            cpu += server.cpu_seconds() - before
            if status != 200:
                bench.die(f"{path} answered {status}")
        costs[kind] = cpu / count
        log(f"{kind}: {costs[kind] * 1e6:,.0f} µs of server CPU a request, one at a time")
    return costs


# MARK: - Metrics

def scrape(port):
    status, _, text, _ = bench.http_request(port, "GET", "/metrics")
    if status != 200:
        bench.die(f"/metrics answered {status}; the mix's config enables it")
    counters = {}
    for line in text.splitlines():
        match = re.match(r'(wishlist_page_read_memo_lookups_total|wishlist_page_cache_lookups_total)\{([^}]*)\} ([0-9.e+]+)$', line)
        if match:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', match.group(2)))
            key = (match.group(1), labels.get("page", ""), labels.get("result", ""))
            counters[key] = float(match.group(3))
        elif line.startswith("wishlist_page_cache_bytes "):
            counters["cache_bytes"] = float(line.split()[1])
    return counters


def hit_rates(before, after):
    delta = {key: after.get(key, 0) - before.get(key, 0) for key in set(before) | set(after)}
    rates = {}
    groups = {("memo", ""): "wishlist_page_read_memo_lookups_total"}
    for key in delta:
        if isinstance(key, tuple) and key[1]:
            page = key[1]
            groups[("cache", page)] = "wishlist_page_cache_lookups_total"
    for (what, page), metric in sorted(groups.items()):
        hits, misses = delta.get((metric, page, "hit"), 0), delta.get((metric, page, "miss"), 0)
        if hits + misses:
            rates[f"{what}:{page}" if page else what] = {"hits": int(hits), "misses": int(misses), "rate": hits / (hits + misses)}
    return rates


# MARK: - The run

def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0


def summarize(results):
    rows = {}
    for kind in KINDS:
        mine = [r for r in results if r[0] == kind]
        latencies = [r[1] for r in mine]
        errors = [r for r in mine if r[3] or not 200 <= r[2] < 400]
        rows[kind] = {"count": len(mine), "p50_us": percentile(latencies, 0.50), "p99_us": percentile(latencies, 0.99),
                      "max_us": max(latencies, default=0), "errors": len(errors),
                      "error_kinds": sorted({r[3] or str(r[2]) for r in errors})}
    return rows


def slow_seconds(results):
    """When the page views over the budget were due: how many there were in each second of the
    window that had any, worst first. Spread evenly they say the server is short of CPU; a few
    seconds holding most of them say something stalled it (or the machine) for a moment."""
    views = {kind for kind, _ in VIEWS}
    slow = [r for r in results if r[0] in views and r[1] >= BUDGET_P99_MS * 1000]
    per_second = {}
    for r in slow:
        per_second[int(r[4])] = per_second.get(int(r[4]), 0) + 1
    return {"count": len(slow), "views": sum(1 for r in results if r[0] in views),
            "seconds": sorted(per_second.items(), key=lambda item: (-item[1], item[0]))}


def main():
    if not os.path.exists(bench.APP):
        bench.die(f"no release build at {bench.APP}; run `make bench-mix`, which builds it")
    os.makedirs(RUN, exist_ok=True)
    pristine_database()
    database = run_database()
    rng = random.Random(scale.SEED)
    world = prepare_members(database, rng)
    members = world.pop("members")
    log(f"{len(members)} members signed in; {len(world['lists'])} current lists, {len(world['books'])} books on them, "
        f"{len(world['reservable']):,} items to reserve")

    config_path = os.path.join(RUN, "mix-config.json")
    with open(bench.APP_CONFIG or bench.bench_config()) as source:
        config = json.load(source)
    config.setdefault("metrics", {})["enabled"] = True
    with open(config_path, "w") as out:
        json.dump(config, out)
    port = bench.free_port()
    server = bench.Server("wishlist", [bench.APP, "serve", "--port", str(port), "--database", database, "--config", config_path],
                          port, os.path.join(RUN, "server.log"), bench.APP_ENV)
    try:
        server.wait_ready(server.start(), "/healthz", timeout=120)
        fetch_csrf_tokens(port, members)
        costs = page_costs(port, server, world, members, random.Random(scale.SEED + 2))
        load_before = open("/proc/loadavg").read().split()[:3]
        started_at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        log(f"{RATE} req/s for {WARMUP} s (warm-up) + {SECONDS} s, {WORKERS} generator processes; load average {' '.join(load_before)}")
        start = time.time() + 1.0
        pipes, processes = [], []
        context = multiprocessing.get_context("fork")
        for worker in range(WORKERS):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=worker_main, args=(worker, port, world, members[worker::WORKERS], start,
                                                                RATE / WORKERS, SECONDS, WARMUP, sender))
            process.start()
            pipes.append(receiver)
            processes.append(process)
        time.sleep(max(0, start + WARMUP - time.time()))
        before, cpu_before, machine_before = scrape(port), server.cpu_seconds(), machine_ticks()
        generator_before = sum(process_cpu_seconds(p.pid) for p in processes)
        server.reset_peak()
        time.sleep(max(0, start + WARMUP + SECONDS - time.time()))
        after, cpu_after, machine_after = scrape(port), server.cpu_seconds(), machine_ticks()
        generator_after = sum(process_cpu_seconds(p.pid) for p in processes)
        peak_mb, rss_mb = server.peak_mb(), server.status_kb("VmRSS") / 1024
        results, lags = [], []
        for pipe, process in zip(pipes, processes):
            worker_results, worker_lags = pipe.recv()
            results += worker_results
            lags += worker_lags
            process.join()
        load_after = open("/proc/loadavg").read().split()[:3]
    finally:
        server.stop()

    figures = {"started": started_at, "cores": os.cpu_count(), "load_before": " ".join(load_before),
               "load_after": " ".join(load_after), "rate": RATE, "seconds": SECONDS, "warmup": WARMUP, "workers": WORKERS,
               "members": len(members), "requests": len(results), "costs": costs, "rows": summarize(results), "hit_rates": hit_rates(before, after),
               "slow": slow_seconds(results),
               "cache_mb": after.get("cache_bytes", 0) / 1e6,
               "generator_lag_p99_us": percentile(lags, 0.99), "generator_lag_max_us": max(lags, default=0),
               "answered": sum(1 for r in results if r[2]),
               "server_cores": (cpu_after - cpu_before) / SECONDS,
               "server_cpu_us_per_answer": (cpu_after - cpu_before) * 1e6 / max(1, sum(1 for r in results if r[2])),
               "peak_mb": peak_mb, "rss_mb": rss_mb, "app": bench.APP if os.environ.get("BENCH_APP") else "",
               "nice": os.nice(0), "machine": machine_shares(machine_before, machine_after),
               "generator_cores": (generator_after - generator_before) / SECONDS, "event_loop": event_loop_name()}
    name = "mix-experiment" if experiment() else "mix"
    with open(os.path.join(OUT, f"{name}.json"), "w") as raw:
        json.dump(figures, raw, indent=2)
    report = render_report(figures)
    with open(os.path.join(OUT, f"{name}.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    if os.environ.get("BENCH_UPDATE_README", "1") != "0" and not experiment():
        update_readme(report)


def process_cpu_seconds(pid):
    """User + system CPU time of a process so far (`/proc/PID/stat`)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_ticks():
    """The whole machine's CPU time so far, by state (`/proc/stat`'s first line, in ticks)."""
    with open("/proc/stat") as stat:
        fields = stat.readline().split()[1:9]
    return dict(zip(["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"], map(int, fields)))


def machine_shares(before, after):
    """How the machine's CPU went over a window: busy (user, nice, system, interrupts) and
    stolen (the time a virtual machine's cores waited while the host ran something else), as
    shares of all its cores' time. Steal is what makes the same build's runs differ by several
    times in p99 on this machine (Benchmarks/history.md, twentieth session)."""
    delta = {key: after[key] - before[key] for key in before}
    total = max(1, sum(delta.values()))
    busy = delta["user"] + delta["nice"] + delta["system"] + delta["irq"] + delta["softirq"]
    return {"busy": busy / total, "steal": delta["steal"] / total}


def experiment():
    """Another configuration or environment: not the app as committed. Another binary of the same
    code (BENCH_APP) is allowed, and the report names it."""
    return " ".join(f"{k}={os.environ[k]}" for k in ("BENCH_CONFIG", "BENCH_APP_ENV", "BENCH_MIX_HEALTHZ") if os.environ.get(k))


LABELS = {"list": "list page `/lists/{name}`", "book": "book page `/books/{id}`", "wishlist": "own wishlist `/wishlist`",
          "people": "a member's page `/people/{name}`", "memberlist": "a member's shared list `/people/{name}/lists/{id}`",
          "child": "a child's page `/people/{child}`", "reading": "reading `/reading`", "search": "search `/search?q={word}`",
          "author": "an author's page `/authors/{name}`", "api": "API read of own wants `GET /api/v1/wants`",
          "add": "add to wishlist `POST /wishlist`", "remove": "remove `POST /wishlist/{id}/delete`",
          "reserve": "reserve `POST /reservations`", "read": "mark read `POST /books/{id}/reading`",
          "rate": "rate `POST /books/{id}/reading`"}


def slow_note(slow, seconds):
    if not slow["count"]:
        return f"- Page views over {BUDGET_P99_MS} ms: none of {slow['views']:,}."
    worst = slow["seconds"][:5]
    in_worst = sum(count for _, count in worst)
    return (f"- Page views over {BUDGET_P99_MS} ms: {slow['count']:,} of {slow['views']:,}, due in {len(slow['seconds'])} of the "
            f"{seconds} seconds; the worst {len(worst)} seconds held {in_worst * 100 // slow['count']}% of them ("
            + ", ".join(f"second {second}: {count}" for second, count in worst) + ").")


def render_report(figures):
    def ms(us):
        return f"{us / 1000:.2f}" if us < 10_000 else f"{us / 1000:,.0f}"

    rows, total, costs = figures["rows"], figures["requests"], figures["costs"]
    lines = [f"| request | share | requests | p50 ms | p99 ms | max ms | errors | p99 < {BUDGET_P99_MS} ms | server CPU µs, one at a time |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    views = {kind for kind, _ in VIEWS}
    for kind in KINDS:
        row = rows[kind]
        verdict = ("**met**" if row["p99_us"] < BUDGET_P99_MS * 1000 else "**missed**") if kind in views else "—"
        lines.append(f"| {LABELS[kind]} | {row['count'] * 100 / max(1, total):.1f}% | {row['count']:,} | {ms(row['p50_us'])} | "
                     f"{ms(row['p99_us'])} | {ms(row['max_us'])} | {row['errors']}"
                     + (f" ({', '.join(row['error_kinds'])})" if row["errors"] else "") + f" | {verdict} | "
                     + (f"{costs[kind] * 1e6:,.0f}" if kind in costs else "—") + " |")
    errors = sum(row["errors"] for row in rows.values())
    missed = [LABELS[k].split(" `")[0] for k in views if rows[k]["p99_us"] >= BUDGET_P99_MS * 1000]
    worst = max((rows[k]["p99_us"], k) for k in views)
    rates = figures["hit_rates"]

    def rate(key):
        r = rates.get(key)
        return f"{r['rate'] * 100:.1f}% ({r['hits']:,} of {r['hits'] + r['misses']:,})" if r else "no lookups"

    view_share = sum(weight for _, weight in VIEWS)
    needed = sum(costs[kind] * weight / 100 for kind, weight in VIEWS) * figures["rate"]
    caches = ", ".join(f"{key.split(':', 1)[1]} {rate(key)}" for key in sorted(rates) if key.startswith("cache:"))
    header = (f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-mix')}` · {figures['started']} · {figures['cores']} cores "
              f"({os.environ.get('BENCH_MACHINE_NOTE', 'what else ran: see the notes below')}; the server and the generator at nice {figures['nice']}); "
              f"load average {figures['load_before']} before, {figures['load_after']} after · {figures['rate']:,} req/s for "
              f"{figures['seconds']} s after {figures['warmup']} s of warm-up, {figures['members']} members, "
              f"{figures['workers']} generator processes"
              + (" · **every request `GET /healthz`** (BENCH_MIX_HEALTHZ=1): the rows are the kinds' shares" if HEALTHZ_ONLY else "")
              + " · release build"
              + (f" `{figures['app']}`" if figures["app"] else ""))
    notes = [
        f"- Budget, p99 of every page under {BUDGET_P99_MS} ms at {figures['rate']:,} req/s with 0 errors: "
        + ("**met**" if not missed and errors == 0 else "**missed**")
        + f" (slowest page p99 {ms(worst[0])} ms, {LABELS[worst[1]].split(' `')[0]}; {errors} errors in {total:,} requests"
        + (f"; over budget: {', '.join(missed)}" if missed else "") + ").",
        slow_note(figures["slow"], figures["seconds"]),
        f"- Read memo (`PageReadMemo`, a signed-in request answered from the same request's earlier read while nothing was "
        f"committed): {rate('memo')} hits. Shared page caches: {caches}. From /metrics, over the measured {figures['seconds']} s.",
        f"- Page views' cost, one at a time (last column: {COST_SAMPLES} of each, members in turn, each at an address of "
        f"its own so none reuses another's read): the mix's page views ({view_share}% of {figures['rate']:,} req/s) would take "
        f"**{needed:.1f} cores** of server CPU at these costs, writes left out, on a machine of {figures['cores']}.",
        f"- Server: {figures['answered']:,} of the {total:,} requests due in the window answered "
        f"({figures['answered'] / figures['seconds']:,.0f} a second), {figures['server_cores']:.2f} cores busy, "
        f"{figures['server_cpu_us_per_answer']:,.0f} µs of CPU an answered request; "
        f"VmHWM over the measured window {figures['peak_mb']:.1f} MB, RSS at its end {figures['rss_mb']:.1f} MB, "
        f"of which the shared pages' text {figures['cache_mb']:.1f} MB (`wishlist_page_cache_bytes`). "
        f"The generator handed requests to their connections at most {ms(figures['generator_lag_max_us'])} ms late "
        f"(p99 {ms(figures['generator_lag_p99_us'])} ms); that lag is inside the latencies above.",
        f"- The machine over the measured window (`/proc/stat`): {figures['machine']['busy'] * 100:.0f}% of its cores' time busy "
        f"(the server, the generator's {figures['generator_cores']:.2f} cores on {figures['event_loop']} and anything else), {figures['machine']['steal'] * 100:.1f}% stolen by the host (steal: "
        f"time this virtual machine was ready to run and was not).",
    ]
    return header + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"


def update_readme(report):
    start, end = "<!-- mix-results:start -->", "<!-- mix-results:end -->"
    text = open(README).read()
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
