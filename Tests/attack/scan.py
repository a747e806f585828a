#!/usr/bin/python3
"""`make scan`: Debian's wapiti and sqlmap against a signed-in session of `wishlist serve` on loopback.

1. A temporary database with a user made by `wishlist user create`, the bundled sample catalog
   (no NYT key), a few wishlist items (one with a note, one imported from a Goodreads CSV), and a
   household around that user: a second user who shares a wishlist (a high priority and a note on
   one book, a share link), a third who reserved one of its books, and the scanning user as a giver
   with one reservation of its own, one whose book the owner then removed (a notice to dismiss),
   a share link of its own (so Settings shows "Revoke the link"), and a passkey (so Settings lists
   it with its removal form), registered by passkey_probe.py's software authenticator. The server
   runs with scan-config.json: the default configuration with the password and sign-up throttles
   raised, so that the scans of the sign-in, sign-up and Settings password forms get real answers
   rather than 429s.
2. passkey_probe.py sends the four passkey JSON endpoints hostile bodies, one case at a time (wrong
   content type, no or a wrong CSRF header, bodies over the limit, not JSON or the wrong JSON,
   nesting, NUL bytes, SQL and script payloads in every field, a wrong or missing password for
   registration options, foreign `next` values on a real sign-in, ceremonies finished by another
   browser) as its own user; every answer must be the 4xx (or JSON) the case expects, never a
   5xx or a hang, and /healthz must answer afterwards. All of it comes from 127.0.0.1, which the
   server allows 30 live passkey challenges: the probe leaves a few (see passkey_probe.py).
3. wapiti (modules xss, permanentxss, sql, blindsql, csrf, http_headers, cookieflags, csp,
   redirect), signed in through the sign-in form (`--auth-type post`), crawls and attacks every
   page and form under `/` except sign-out (the session must live through the scan) and item
   removal (the crawl would remove the items whose note forms it attacks). Signed in as a giver,
   it reaches People, the sharing member's list with its reserve and cancel forms, Gifts I'm
   giving with its dismiss form, Settings' sharing and share-link forms, and the list behind the
   other user's share link. A second, small run attacks one item's removal form on its own; two
   signed-out runs attack the sign-in and sign-up forms.
4. sqlmap `--forms` over the signed-in pages, with the session cookie (and the stylesheet's, as a
   returning browser has it) and the CSRF field, then over the sign-in and sign-up pages signed
   out; then over the JSON bodies of `POST /passkeys/sign-in`
   (an anonymous visitor's cookie and X-CSRF-Token) and `POST /passkeys/registration` (signed in).
   Steps 2-4 run on two servers seeded alike, in two lanes side by side: the passkey probe, the
   signed-in wapiti crawl and the removal scan on one (server.log); the signed-out wapiti scans,
   then sqlmap on the other (server-sqlmap.log); the servers of steps 6 and 5 follow whichever lane
   ends first. Each server has one scanner at a time, so each scan's log slice, session and data
   are its own, as before.
5. The admin's pages, on a server with its own database and `accounts.signup: "invite"` (an
   invite's sign-up page exists only then): an admin made by `wishlist user create --admin`, throwaway
   accounts (one disabled), two password-reset links and three invites made through /admin. wapiti
   signed out over a reset link's page and an invite's sign-up page, sqlmap signed out over another
   valid reset link and invite; then, last (its crawl submits every Disable, Reset and Delete form,
   which voids those links), wapiti signed in as the admin over /admin and all its forms, and sqlmap
   over /admin's `done` parameter.
6. Every finding of any tool, every 5xx the server logged, every lost session, and every route
   a scan failed to reach (or reached only as CSRF refusals) is a failure, except the findings in
   allowed-findings.json: plain HTTP on loopback has no HSTS and no Secure cookies. For those, a
   server of its own with `WISHLIST_SECURE_COOKIES=true` must show that behind HTTPS every cookie is Secure.

Reports (wapiti JSON and logs, sqlmap CSV and logs, the servers' logs, findings.json, summary.txt)
are kept in .build/attack/scan/. Exit code 0 only when nothing but the allowed findings was found.
Only 127.0.0.1 is ever contacted (run_wapiti.py enforces it for wapiti; sqlmap gets only
loopback targets and --ignore-proxy).
"""

from __future__ import annotations

import argparse
import csv
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import harness as h
import passkey_probe as pk

HERE = Path(__file__).resolve().parent
DEFAULT_REPORTS = h.REPO_ROOT / ".build" / "attack" / "scan"
ALLOWED_FILE = HERE / "allowed-findings.json"
# Raises the password and sign-up throttles, so that the scans of the sign-in, sign-up and Settings
# password forms get real answers rather than 429s; everything else is the default configuration.
SCAN_CONFIG = HERE / "scan-config.json"
DEBIAN_PYTHON = "/usr/bin/python3"  # wapiti's modules live in Debian's Python, not in a venv
SQLMAP = "/usr/bin/sqlmap"

USERNAME = "scanner"
PASSWORD = "scan-password-0123456789"
# The household: SHARER shares a wishlist with everyone on the server; OTHER_GIVER reserved one of
# its books, so the scanner sees "Reserved by ..." beside its own reservations and the open ones.
SHARER = "sharer"
SHARER_PASSWORD = "sharer-password-0123456789"
OTHER_GIVER = "other-giver"
OTHER_GIVER_PASSWORD = "other-giver-password-0123456789"
# The passkey probe's own user (see passkey_probe.py), so its passkeys and sessions touch no one else's.
PROBER = "passkey-prober"
PROBER_PASSWORD = "passkey-prober-password-0123456789"
WAPITI_MODULES = "xss,permanentxss,sql,blindsql,csrf,http_headers,cookieflags,csp,redirect"
# Each tool's user agent, so its session can be found in the `session` table afterwards.
WAPITI_AGENT = "wishlist-scan-wapiti"
WAPITI_DELETE_AGENT = "wishlist-scan-wapiti-removal"
WAPITI_READING_AGENT = "wishlist-scan-wapiti-reading"
SQLMAP_AGENT = "wishlist-scan-sqlmap"
SQLMAP_PASSKEY_AGENT = "wishlist-scan-sqlmap-passkeys"
WAPITI_ADMIN_AGENT = "wishlist-scan-wapiti-admin"

# The admin pages are scanned on a server of their own (its own database, sign-up by invitation):
# the crawl submits every form it finds, so on /admin it disables, resets and deletes every account
# listed there. Only throwaway accounts are listed: VICTIMS (one of them disabled beforehand, so an
# Enable form is there too), RESET_USERS (whose reset links the reset-page scans use) and "alice"
# (see scan_admin). The admin is the only admin, so the forms that would disable or delete the admin
# answer 409, and the session lives.
ADMIN = "scan-admin"
ADMIN_PASSWORD = "scan-admin-password-0123456789"
VICTIMS = ("victim", "victim-disabled")
RESET_USERS = {"wapiti": "reset-wapiti", "sqlmap": "reset-sqlmap"}
VICTIM_PASSWORD = "victim-password-0123456789"

# Hard limits per run: about three times what each took on a 2-core machine. sqlmap has grown with
# the forms it is given (Settings in pages of their own): 349 s beside wapiti on 27 November 2026,
# and 360 s ended a CI run on a machine that also ran two fuzzers. The main wapiti crawl grew with
# the round's pages (children, lists, API tokens, the welcome): 427 s on a quiet machine on 29 November
# 2026, and 600 s cut a run on a machine busy with builds.
WAPITI_DEADLINE_S = 900
WAPITI_DELETE_DEADLINE_S = 120
WAPITI_READING_DEADLINE_S = 180
SQLMAP_DEADLINE_S = 1000
SQLMAP_PASSKEY_DEADLINE_S = 120
WAPITI_SIGNED_OUT_DEADLINE_S = 180
WAPITI_ADMIN_DEADLINE_S = 240

# Requests (method and path as the server logs them) each scan must have made: proof that it was
# signed in and reached every kind of page and form. A failed sign-in or an early sign-out shows here.
WAPITI_ROUTES = [
    "GET /lists", r"GET /lists/[a-z0-9-]+", r"GET /books/\d+", "GET /search", "GET /wishlist",
    r"GET /wishlist/\d+", r"GET /wishlist/\d+/remove", r"GET /wishlist\.csv", "GET /settings",
    "POST /wishlist", r"POST /wishlist/\d+", "POST /wishlist/import", r"POST /lists/[a-z0-9-]+/favorite",
    "POST /settings/default-list", "POST /settings/password", "POST /settings/sessions/sign-out-others",
    "POST /settings/delete-account",
    # The household, as a giver: People, a member's list, Gifts I'm giving, and their forms; the
    # sharing and share-link forms of Settings → Sharing; the list behind a share link (logged as /shared/…).
    "GET /people", f"GET /people/{SHARER}", "GET /reservations", r"GET /shared/\S+",
    "POST /reservations", r"POST /reservations/\d+/delete", r"POST /reservations/notices/\d+/dismiss",
    "POST /settings/sharing", "POST /settings/share-link", "POST /settings/share-link/delete",
    # The scanner's passkey (seeded), listed in Settings with its removal form.
    r"POST /settings/passkeys/\d+/remove",
]
WAPITI_DELETE_ROUTES = [r"GET /wishlist/\d+/remove", r"POST /wishlist/\d+/delete"]
WAPITI_READING_ROUTES = [r"GET /books/\d+/reading", r"POST /books/\d+/reading", r"POST /books/\d+/reading/delete",
                         r"POST /books/\d+/rating"]
SQLMAP_ROUTES = [
    "GET /lists", "GET /search", "POST /wishlist", r"POST /wishlist/\d+", r"POST /lists/[a-z0-9-]+/favorite",
    "POST /settings/default-list", "POST /settings/password", "POST /settings/delete-account",
    # Reserve or cancel: wapiti may have reserved every open book by then, leaving only cancel forms.
    r"POST /reservations(/\d+/delete)?", "POST /settings/sharing",
]
NEVER = [r"POST /logout"]
# The admin's pages and forms. A password-reset link's path is logged as /reset/… (the token hidden).
WAPITI_ADMIN_ROUTES = [
    "GET /admin", r"POST /admin/users/\d+/disable", r"POST /admin/users/\d+/enable",
    r"POST /admin/users/\d+/reset-link", r"POST /admin/users/\d+/delete", "POST /admin/invites",
    r"POST /admin/invites/\d+/delete",
]
RESET_ROUTES = [r"GET /reset/\S+", r"POST /reset/\S+"]
INVITE_ROUTES = ["GET /signup", "POST /signup"]
# The passkey JSON endpoints sqlmap attacks (each with a JSON body: see run_sqlmap), and the fields
# it must have tested in each. A 400 is the handler's answer to a field it cannot read: proof that
# the CSRF header and the JSON content type got the requests past CSRFMiddleware (whose refusal is a
# 403, like the handler's refusal of a well-formed but invalid assertion).
SQLMAP_PASSKEY_FIELDS = {
    "sqlmap-passkey-sign-in": ("id", "clientDataJSON", "authenticatorData", "signature", "userHandle", "next"),
    "sqlmap-passkey-registration": ("name", "clientDataJSON", "attestationObject"),
}

_LOG_LINE = re.compile(r"\] (GET|POST|HEAD|PUT|DELETE|PATCH|OPTIONS|TRACE|CONNECT) (\S+) (\d{3}) ")


@dataclass
class Finding:
    tool: str
    category: str
    info: str
    where: str = ""
    allowed_because: str = ""

    def line(self) -> str:
        text = f"[{self.tool}] {self.category}: {' '.join(self.info.split())}"
        return text + (f"  ({self.where})" if self.where else "")


@dataclass
class Outcome:
    findings: list[Finding] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the scan itself went wrong (coverage, session, time)
    notes: list[str] = field(default_factory=list)


# -------------------------------------------------------------------------------------------------
# The server and its data


def seed(server: h.Server) -> dict[str, object]:
    """Signs in once and fills the wishlist; returns the ids the scans start from."""
    client = h.Client(server.port)
    client.sign_in(USERNAME, PASSWORD)
    books = h.book_ids(client)
    for book in books[:4]:
        status, _, _ = client.post("/wishlist", [("book", book), ("return_to", "/wishlist")])
        if status != 303:
            raise h.Failure(f"seeding: adding book {book} answered {status}")
    goodreads = (
        "Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf\n"
        "A Book Not On Any List,Ann Author,,,0,to-read\n"
    ).encode()
    client.get("/wishlist")
    status, _, _ = client.post_file("/wishlist/import", "file", "goodreads_library_export.csv", goodreads)
    if status != 200:
        raise h.Failure(f"seeding: the Goodreads import answered {status}")
    items = dict(query(
        server.database,
        "SELECT book_id, id FROM wishlist_item WHERE book_id IS NOT NULL AND user_id = (SELECT id FROM user WHERE username = ?)",
        USERNAME,
    ))
    first = items[books[0]]
    client.get(f"/wishlist/{first}")
    status, _, _ = client.post(f"/wishlist/{first}", [("note", "Seeded note: for the holidays.")])
    if status != 303:
        raise h.Failure(f"seeding: saving a note answered {status}")
    # A book read, rated and reviewed, so that its reading page has the "forget" form too.
    client.get(f"/books/{books[0]}")
    status, _, _ = client.post(f"/books/{books[0]}/reading", [("rating", "4"), ("review", "Seeded review."), ("finished", "2026-01-02")])
    if status != 303:
        raise h.Failure(f"seeding: marking a book read answered {status}")
    # A passkey (made by passkey_probe's software authenticator), so that Settings lists it with its
    # removal form for wapiti to reach.
    pk.register_passkey(server, USERNAME, PASSWORD, "Scanner's laptop")
    status, _, page = client.get("/settings/sign-in")
    if status != 200 or not re.search(r'action="/settings/passkeys/\d+/remove"', page):
        raise h.Failure("seeding: Settings does not list the scanner's passkey with its removal form")
    count = query(server.database, "SELECT COUNT(*) FROM wishlist_item WHERE user_id = (SELECT id FROM user WHERE username = ?)", USERNAME)[0][0]
    _, _, lists_page = client.get("/lists")
    lists = list(dict.fromkeys(re.findall(r'href="/lists/([a-z0-9-]+)"', lists_page)))
    if "hardcover-fiction" not in lists:
        raise h.Failure("seeding: /lists does not link Hardcover Fiction")
    return {"books": books, "first_item": first, "removal_item": items[books[3]], "items": count,
            "other_lists": [name for name in lists if name != "hardcover-fiction"]}


def seed_household(server: h.Server, books: list[str]) -> dict[str, object]:
    """SHARER shares five books (one high priority with a note) and has a share link; OTHER_GIVER
    reserved one; the scanner reserved two, and SHARER then removed one of those (a notice for the
    scanner to dismiss); the scanner has a share link of its own. Returns the shared list's token."""

    def expect(what: str, answer: tuple[int, dict[str, str], str], status: int) -> str:
        if answer[0] != status:
            raise h.Failure(f"seeding the household: {what} answered {answer[0]}, not {status}")
        return answer[2]

    sharer = h.Client(server.port)
    sharer.sign_in(SHARER, SHARER_PASSWORD)
    chosen = books[4:9]
    for book in chosen:
        expect(f"{SHARER} adding book {book}", sharer.post("/wishlist", [("book", book), ("return_to", "/wishlist")]), 303)
    owned = query(
        server.database,
        "SELECT id FROM wishlist_item WHERE user_id = (SELECT id FROM user WHERE username = ?) ORDER BY id", SHARER,
    )
    items = [row[0] for row in owned]
    if len(items) != len(chosen):
        raise h.Failure(f"seeding the household: {SHARER} has {len(items)} items, not {len(chosen)}")
    sharer.get(f"/wishlist/{items[0]}")
    expect("saving a priority and note", sharer.post(
        f"/wishlist/{items[0]}", [("priority", "high"), ("note", "Hardback, please: a seeded note.")]), 303)
    expect("sharing with the household", sharer.post("/settings/sharing", [("sharing", "household")]), 303)
    page = expect("making a share link", sharer.post("/settings/share-link", []), 200)
    found = re.search(r'id="share-link-url"[^>]*value="[^"]*/shared/([A-Za-z0-9_-]+)"', page)
    if not found:
        raise h.Failure("seeding the household: the share link is not on the page that made it")
    token = found.group(1)

    member = f"/people/{SHARER}"
    other = h.Client(server.port)
    other.sign_in(OTHER_GIVER, OTHER_GIVER_PASSWORD)
    other.get(member)
    expect(f"{OTHER_GIVER} reserving", other.post("/reservations", [("item", str(items[1])), ("return_to", member)]), 303)

    giver = h.Client(server.port)
    giver.sign_in(USERNAME, PASSWORD)
    giver.get(member)
    for item in (items[2], items[3]):
        expect(f"{USERNAME} reserving", giver.post("/reservations", [("item", str(item)), ("return_to", member)]), 303)
    sharer.get(f"/wishlist/{items[3]}/remove")
    expect(f"{SHARER} removing a reserved book", sharer.post(f"/wishlist/{items[3]}/delete", []), 303)
    giver.get("/settings")
    expect(f"{USERNAME} making a share link", giver.post("/settings/share-link", []), 200)

    # What the scan must find: every state of a row, a notice, and Settings' share-link forms.
    pages = {member: ("reserve-form", "reserved-by-you", "cancel-reservation-form", "reserved-by-other"),
             "/reservations": ("gift-notice", "/dismiss", "cancel-reservation-form"),
             "/settings/sharing": ("sharing-form", "share-link-create", "share-link-revoke")}
    for path, marks in pages.items():
        text = expect(f"{USERNAME} opening {path}", giver.get(path), 200)
        missing = [mark for mark in marks if mark not in text]
        if missing:
            raise h.Failure(f"seeding the household: {path} lacks {missing}")
    return {"member": member, "shared": f"/shared/{token}"}


def seed_admin(server: h.Server) -> dict[str, str]:
    """As ADMIN, through /admin: disables one victim, makes a reset link for each of RESET_USERS and
    three invites (one for each scan of the invite page, one more to revoke). Returns the links'
    paths: reset-wapiti, reset-sqlmap, invite-wapiti, invite-sqlmap."""

    def expect(what: str, answer: tuple[int, dict[str, str], str], status: int) -> str:
        if answer[0] != status:
            raise h.Failure(f"seeding the admin's server: {what} answered {answer[0]}, not {status}")
        return answer[2]

    def new_link(what: str, path: str) -> str:
        page = expect(what, admin.post(path, []), 200)
        found = re.search(r'id="new-link-url"[^>]*value="([^"]+)"', page)
        if not found:
            raise h.Failure(f"seeding the admin's server: {what} did not show the new link")
        url = urllib.parse.urlsplit(html.unescape(found.group(1)))
        return url.path + (f"?{url.query}" if url.query else "")

    admin = h.Client(server.port)
    admin.sign_in(ADMIN, ADMIN_PASSWORD)
    ids = dict(query(server.database, "SELECT username, id FROM user"))
    expect("opening /admin", admin.get("/admin"), 200)
    expect(f"disabling {VICTIMS[-1]}", admin.post(f"/admin/users/{ids[VICTIMS[-1]]}/disable", []), 303)
    links = {}
    for tool, username in RESET_USERS.items():
        admin.get("/admin")
        links[f"reset-{tool}"] = new_link(f"a reset link for {username}", f"/admin/users/{ids[username]}/reset-link")
    for name in ("invite-wapiti", "invite-sqlmap", "invite-to-revoke"):
        admin.get("/admin")
        links[name] = new_link("making an invite", "/admin/invites")

    page = expect("opening /admin", admin.get("/admin"), 200)
    marks = [f'data-user="{name}"' for name in ids] + [
        f"/admin/users/{ids[VICTIMS[-1]]}/enable", f"/admin/users/{ids[VICTIMS[0]]}/disable", "/reset-link", "/delete",
        'id="invite-create"', 'id="invite-list"', "/admin/invites/", 'id="audit-log"', 'id="version"',
        'id="api-requests"', 'id="database-size"',
    ]
    missing = [mark for mark in marks if mark not in page]
    if missing:
        raise h.Failure(f"seeding the admin's server: /admin lacks {missing}")
    visitor = h.Client(server.port)
    for name, path in links.items():
        if not name.endswith("to-revoke"):
            expect(f"opening the {name} link signed out", visitor.get(path), 200)
    return links


def query(database: Path, sql: str, *arguments) -> list[tuple]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return connection.execute(sql, arguments).fetchall()
    finally:
        connection.close()


def session_alive(database: Path, agent: str) -> bool:
    return query(database, "SELECT COUNT(*) FROM session WHERE user_agent = ?", agent)[0][0] > 0


def logged_requests(log_text: str) -> list[tuple[str, str, int]]:
    return [(m[1], m[2], int(m[3])) for m in _LOG_LINE.finditer(log_text)]


def check_log(tool: str, log_text: str, routes: list[str], outcome: Outcome) -> int:
    """5xx answers are findings; a required route never requested, or a forbidden one requested, is
    a problem. Returns how many requests the server logged for this tool."""
    requests = logged_requests(log_text)
    seen = {f"{method} {path}" for method, path, _ in requests}
    # Answers that show the request got past the session and CSRF checks to the handler: a page
    # (200), a redirect after a POST (303), or the handler's own refusal (400, 404, 422).
    handled = {f"{method} {path}" for method, path, status in requests if status != 403 and not (method == "GET" and status == 303)}
    for method, path, status in requests:
        if status >= 500:
            outcome.findings.append(Finding(tool, "Server error", f"{method} {path} answered {status}"))
    for route in routes:
        readable = route.replace(chr(92), "")
        if not any(re.fullmatch(route, request) for request in seen):
            outcome.problems.append(f"{tool} never requested {readable}: it did not reach that page or form")
        elif not any(re.fullmatch(route, request) for request in handled):
            outcome.problems.append(
                f"{tool} never got {readable} past the session and CSRF checks (only 403s or redirects to sign-in)"
            )
    for route in NEVER:
        if any(re.fullmatch(route, request) for request in seen):
            outcome.problems.append(f"{tool} requested {route}: the scan signed itself out")
    return len(requests)


def expect_answer(tool: str, log_text: str, route: str, statuses: set[int], why: str, outcome: Outcome) -> None:
    """A problem unless `route` got one of `statuses` at least once: proof that a one-time link was
    still valid when the scan reached its form (a used or unknown one answers 410 or 404)."""
    if not any(re.fullmatch(route, f"{method} {path}") and status in statuses
               for method, path, status in logged_requests(log_text)):
        outcome.problems.append(f"{tool} never got {sorted(statuses)} from {route.replace(chr(92), '')}: {why}")


# -------------------------------------------------------------------------------------------------
# wapiti


def run_wapiti(
    name: str, server: h.Server, base: str, starts: list[str], excludes: list[str], agent: str,
    reports: Path, deadline: int, signed_in: bool = True, scope: str = "folder", skip: tuple[str, ...] = (),
    credentials: tuple[str, str] = (USERNAME, PASSWORD),
) -> tuple[dict, str]:
    url = server.base_url
    state = reports / f"{name}-state"
    shutil.rmtree(state, ignore_errors=True)
    report = reports / f"{name}.json"
    report.unlink(missing_ok=True)
    # With --auth-type post the first start URL is the sign-in page.
    sign_in = ["--start", url + "/login", "--auth-cred", "%".join(credentials), "--auth-type", "post"]
    command = [
        DEBIAN_PYTHON, str(HERE / "run_wapiti.py"),
        "--url", url + base, "--scope", scope,
        *(sign_in if signed_in else []),
        *[arg for start in starts for arg in ("--start", url + start)],
        *[arg for exclude in excludes for arg in ("--exclude", url + exclude)],
        *[arg for parameter in skip for arg in ("--skip", parameter)],
        "--module", WAPITI_MODULES,
        # One representative of each form (a form is the same route, fields and handler on every
        # book's row); every page is still crawled. See README "Attack and crash tests".
        "--scan-force", "paranoid",
        "--user-agent", agent, "--timeout", "10", "--verbose", "1", "--no-bugreport",
        "--flush-session", "--store-session", str(state), "--store-config", str(state),
        "--format", "json", "--output", str(report),
    ]
    log_path = reports / f"{name}.log"
    started = time.monotonic()
    with open(log_path, "w") as log:
        try:
            subprocess.run(command, cwd=h.REPO_ROOT, env=h.server_env(), stdin=subprocess.DEVNULL,
                           stdout=log, stderr=subprocess.STDOUT, timeout=deadline, check=False)
        except subprocess.TimeoutExpired:
            raise h.Failure(f"{name} ran longer than {deadline} s; its log is {log_path}")
    output = log_path.read_text(errors="replace")
    print(f"  {name}: {time.monotonic() - started:.0f} s, log {log_path}")
    if signed_in and "Login success" not in output:
        raise h.Failure(f"{name} could not sign in through /login; its log is {log_path}")
    if "Traceback" in output:
        raise h.Failure(f"{name} crashed; its log is {log_path}")
    if not report.exists():
        raise h.Failure(f"{name} wrote no report; its log is {log_path}")
    return json.loads(report.read_text()), output


def wapiti_findings(name: str, report: dict) -> list[Finding]:
    findings = []
    for section in ("vulnerabilities", "anomalies", "additionals"):
        for category, entries in (report.get(section) or {}).items():
            for entry in entries:
                where = f"{entry.get('method', '')} {entry.get('path', '')}".strip()
                if entry.get("parameter"):
                    where += f" parameter {entry['parameter']}"
                findings.append(Finding(name, category, entry.get("info", ""), where))
    return findings


# -------------------------------------------------------------------------------------------------
# sqlmap


def sqlmap_session(server: h.Server, username: str = USERNAME, password: str = PASSWORD, agent: str = SQLMAP_AGENT) -> str:
    """A session of its own for sqlmap, signed in through the form, marked by its user agent."""
    client = h.Client(server.port)
    client.request("GET", "/login", headers={"User-Agent": agent})
    status, _, _ = client.request(
        "POST", "/login",
        body=urllib.parse.urlencode(
            {"username": username, "password": password, "next": "", "csrf_token": client.csrf}).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded", "User-Agent": agent},
    )
    if status != 303 or not client.session:
        raise h.Failure(f"sqlmap: signing in answered {status}")
    return client.session


def held_stylesheet(server: h.Server) -> str:
    """`name=value` of the cookie a browser holds once it has fetched the pages' stylesheet, from
    the file's own answer as a browser gets it (the prefetch link of a first page). With it a page
    links the sheet instead of carrying its 8 KB inline, as it does on every visit after a browser's
    first. sqlmap compares every answer with the original page's, and the inline sheet made each
    comparison about three times the work: three signed-in forms took 33 s of sqlmap's CPU without
    the cookie and 11 s with it, the same requests and findings (2026-11-30)."""
    client = h.Client(server.port)
    _, _, page = client.get("/login")
    link = re.search(r'<link rel="prefetch" href="(/static/[^"]+)"', page)
    if not link:
        raise h.Failure("the sign-in page has no prefetch link to the stylesheet")
    status, _, _ = client.get(html.unescape(link.group(1)))
    held = [header.partition(";")[0].strip() for header in client.set_cookies if "stylesheet" in header.partition("=")[0]]
    if status != 200 or not held:
        raise h.Failure(f"the stylesheet answered {status} without its cookie")
    return held[-1]


def csrf_token(server: h.Server, session: str | None, page: str = "/settings") -> tuple[str, str]:
    """The session cookie (an anonymous one when `session` is None) and the CSRF token its pages
    carry: what passkeys.js sends in X-CSRF-Token."""
    client = h.Client(server.port)
    if session:
        client.cookies[h.COOKIE] = session
    status, _, _ = client.get(page)
    if status != 200 or not client.session or not client.csrf:
        raise h.Failure(f"sqlmap: {page} answered {status} without a session cookie or CSRF token")
    return client.session, client.csrf


# What sqlmap leaves alone by default: sign-out (the session must live), and an item's and a passkey's
# removal (their only field is the CSRF token, which sqlmap does not inject into; the items must stay
# for the note forms).
SQLMAP_EXCLUDE = r"logout\b|wishlist/\d+/delete\b|settings/passkeys/\d+/remove\b"


def run_sqlmap(
    name: str, server: h.Server, targets: list[str], reports: Path, outcome: Outcome, session: str | None,
    exclude: str = SQLMAP_EXCLUDE, csrf_page: str | None = None, json_body: dict[str, str] | None = None,
    csrf_header: str = "", deadline: int = SQLMAP_DEADLINE_S, held: str | None = None,
) -> str:
    """sqlmap over the forms of `targets`; or, with `json_body`, over that JSON body POSTed to each
    target as passkeys.js posts it (`csrf_header` in X-CSRF-Token, `session` the cookie it belongs to).
    `held` is a cookie sent beside the session's (held_stylesheet)."""
    directory = reports / name
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    bulk = directory / "targets.txt"
    bulk.write_text("".join(server.base_url + target + "\n" for target in targets))
    results = reports / f"{name}-results.csv"
    results.unlink(missing_ok=True)
    port = server.port
    if json_body is not None:
        # sqlmap finds the JSON in --data and injects into each of its string values in turn.
        signed_in = [
            "--data", json.dumps(json_body, separators=(",", ":")), "--headers", f"X-CSRF-Token: {csrf_header}",
            "--cookie", f"{h.COOKIE}={session}",
        ]
    elif session:
        signed_in = [
            "--cookie", f"{h.COOKIE}={session}" + (f"; {held}" if held else ""),
            # The token is bound to the session, so any signed-in page carries the right one.
            "--csrf-token", "csrf_token", "--csrf-url", f"{server.base_url}/settings",
        ]
    else:
        # The server's anonymous cookie (sqlmap keeps it) anchors the token of the form's own page,
        # or of `csrf_page` when the form's target shows no form when fetched (an invite's sign-up).
        signed_in = ["--csrf-token", "csrf_token", *(["--csrf-url", server.base_url + csrf_page] if csrf_page else [])]
    command = [
        SQLMAP, "-m", str(bulk), *(["--forms"] if json_body is None else []), "--batch", "--user-agent", SQLMAP_AGENT, *signed_in,
        # Forms of every page, except those `exclude` names (by default SQLMAP_EXCLUDE).
        "--scope", rf"^http://127\.0\.0\.1:{port}/(?!{exclude})",
        "--dbms", "SQLite", "--level", "2", "--risk", "1",
        "--timeout", "10", "--retries", "1", "--ignore-proxy", "--disable-coloring",
        "--flush-session", "--output-dir", str(directory), "--results-file", str(results),
        # Answers to the questions --batch would otherwise answer with defaults that stop a target.
        "--answers", "follow=Y,redirect=Y,merge=N,quit=N,other forms=Y,sitemap=N",
    ]
    log_path = reports / f"{name}.log"
    started = time.monotonic()
    with open(log_path, "w") as log:
        try:
            subprocess.run(command, cwd=directory, env=h.server_env(), stdin=subprocess.DEVNULL,
                           stdout=log, stderr=subprocess.STDOUT, timeout=deadline, check=False)
        except subprocess.TimeoutExpired:
            raise h.Failure(f"{name} ran longer than {deadline} s; its log is {log_path}")
    output = log_path.read_text(errors="replace")
    print(f"  {name}: {time.monotonic() - started:.0f} s, log {log_path}")

    if results.exists():
        with open(results, newline="") as file:
            for row in csv.DictReader(file):
                if any((value or "").strip() for key, value in row.items() if key and key.lower() != "target url"):
                    outcome.findings.append(Finding(
                        name, "SQL injection",
                        f"parameter {row.get('Parameter', '?')} ({row.get('Place', '?')}), technique {row.get('Technique(s)', '?')}",
                        row.get("Target URL", ""),
                    ))
    for line in output.splitlines():
        if re.search(r"(?i)\bis vulnerable\b|appears to be .* injectable|identified the following injection point", line):
            outcome.findings.append(Finding(name, "SQL injection", line.strip()))
        if re.search(r"\[CRITICAL\]", line):
            outcome.notes.append(f"{name}: " + line.strip())
    tested = len(re.findall(r"(?i)testing if (?:\(custom\) )?(?:GET|POST|Cookie|User-Agent|Referer|URI)? ?parameter '", output))
    heuristics = len(re.findall(r"heuristic \(basic\) test shows that", output))
    outcome.notes.append(f"{name}: {tested} parameter tests started, {heuristics} heuristic checks")
    if tested == 0:
        outcome.problems.append(f"{name} tested no parameter at all; its log is {log_path}")
    for key in json_body or {}:
        if not re.search(rf"testing if \(custom\) POST parameter 'JSON {re.escape(key)}'", output):
            outcome.problems.append(f"{name} never tested the JSON field {key}; its log is {log_path}")
    return output


def run_sqlmap_passkeys(server: h.Server, database: Path, reports: Path, outcome: Outcome) -> None:
    """sqlmap over the two passkey endpoints that read fields: sign-in as an anonymous visitor (its
    cookie and the token of its sign-in page), and registration signed in as the scanner. Each body is
    well-formed base64url and JSON but never valid (its challenge was never issued), so each answer
    is the same refusal unless an injected value changes it."""
    origin = f"http://localhost:{server.port}"  # server.publicURL's default: the only origin accepted
    anonymous, token = csrf_token(server, None, "/login")
    signed_in = sqlmap_session(server, agent=SQLMAP_PASSKEY_AGENT)
    _, signed_in_token = csrf_token(server, signed_in)
    runs = [
        ("sqlmap-passkey-sign-in", pk.SIGN_IN, anonymous, token, pk.fake_assertion("localhost", origin)),
        ("sqlmap-passkey-registration", pk.REGISTRATION, signed_in, signed_in_token, pk.fake_registration("localhost", origin)),
    ]
    for name, path, session, header, body in runs:
        if set(body) != set(SQLMAP_PASSKEY_FIELDS[name]):
            raise h.Failure(f"{name}: the body has {sorted(body)}, SQLMAP_PASSKEY_FIELDS names {sorted(SQLMAP_PASSKEY_FIELDS[name])}")
        mark = len(server.settled_log())
        run_sqlmap(name, server, [path], reports, outcome, session=session, json_body=body, csrf_header=header,
                   deadline=SQLMAP_PASSKEY_DEADLINE_S)
        text = server.settled_log()[mark:]
        count = check_log(name, text, [f"POST {path}"], outcome)
        expect_answer(name, text, f"POST {path}", {400}, "its requests never got past the CSRF check to the handler", outcome)
        outcome.notes.append(f"{name}: the server logged {count} requests")
    if not session_alive(database, SQLMAP_PASSKEY_AGENT):
        outcome.problems.append("sqlmap-passkey-registration's session did not survive its scan")


# -------------------------------------------------------------------------------------------------
# Allowed findings, and the proof that they come from plain HTTP only


def load_allowed() -> list[dict]:
    entries = json.loads(ALLOWED_FILE.read_text())
    for entry in entries:
        missing = {"tool", "category", "info", "reason"} - set(entry)
        if missing:
            raise h.Failure(f"{ALLOWED_FILE.name}: an entry lacks {sorted(missing)}: {entry}")
    return entries


def apply_allowed(outcome: Outcome, allowed: list[dict]) -> None:
    for finding in outcome.findings:
        for entry in allowed:
            # An entry with "where" allows the finding at those requests only (a regular expression).
            if (re.fullmatch(entry["tool"], finding.tool) and entry["category"] == finding.category
                    and entry["info"] == finding.info and re.fullmatch(entry.get("where", ".*"), finding.where)):
                finding.allowed_because = entry["reason"]
                break


def secure_cookies_check(workdir: Path, log_path: Path, outcome: Outcome) -> None:
    """Behind HTTPS (`WISHLIST_SECURE_COOKIES=true`) every cookie the app sets must be Secure: so
    the Secure-flag findings on plain HTTP are a fact of the loopback setup, not of the app."""
    database = workdir / "secure.sqlite"
    h.create_user(database, USERNAME, PASSWORD)
    port = h.free_port()
    server = h.Server(database, port, log_path, env={"WISHLIST_SECURE_COOKIES": "true"})
    server.start()
    try:
        client = h.Client(port)
        client.sign_in(USERNAME, PASSWORD)
        book = h.book_ids(client)[0]
        client.get("/lists/hardcover-fiction?sort=weeks")
        client.post("/wishlist", [("book", book), ("return_to", "/wishlist")])
        client.get("/wishlist")
        names = set()
        for header in client.set_cookies:
            name = header.split("=", 1)[0].strip()
            names.add(name)
            attributes = [part.strip().lower() for part in header.split(";")[1:]]
            if "secure" not in attributes:
                outcome.findings.append(Finding("secure-mode", "Secure flag cookie", f"with WISHLIST_SECURE_COOKIES=true, {name} is set without Secure"))
        expected = {"__Host-wishlist_session", "wishlist_sort_weeks", "wishlist_flash"}
        if not expected <= names:
            outcome.problems.append(f"secure-mode check saw cookies {sorted(names)}, expected at least {sorted(expected)}")
        else:
            outcome.notes.append(f"behind HTTPS every cookie is Secure: {', '.join(sorted(names))}")
    finally:
        server.stop()


# -------------------------------------------------------------------------------------------------
# The admin's pages, a password-reset link's page, and an invite's sign-up page


def scan_admin(workdir: Path, reports: Path, args: argparse.Namespace, outcome: Outcome) -> None:
    """A second server with its own database and `accounts.signup: "invite"` (the invite page exists
    only then): the reset and invite pages first, signed out, as the people they are for see them;
    then /admin signed in as ADMIN, which disables, resets and deletes every account (see ADMIN)."""
    started = time.monotonic()
    database = workdir / "admin.sqlite"
    config = workdir / "admin-config.json"
    settings = json.loads(SCAN_CONFIG.read_text())
    settings.setdefault("accounts", {})["signup"] = "invite"
    config.write_text(json.dumps(settings))
    server_log = reports / "server-admin.log"
    server_log.unlink(missing_ok=True)
    h.create_user(database, ADMIN, ADMIN_PASSWORD, admin=True)
    # "alice": wapiti's sign-up through the invite must fail, or it would use the invite up (and the
    # new session would void the CSRF token of every later request), as on the main server.
    for name in (*VICTIMS, *RESET_USERS.values(), "alice"):
        h.create_user(database, name, VICTIM_PASSWORD)
    server = h.Server(database, h.free_port(), server_log, config=config)
    server.start()
    try:
        links = seed_admin(server)
        print(f"scan: the admin's server on {server.base_url} (sign-up by invitation), admin {ADMIN}")

        if not args.skip_wapiti:
            # The reset page. The crawl's own submission (wapiti types "Letm3in_" into both password
            # fields, a valid password) sets the password, so the attacks that follow meet the used
            # link: the form is still read, then refused with 410. sqlmap below attacks a valid one.
            mark = len(server.settled_log())
            report, _ = run_wapiti(
                "wapiti-reset", server, links["reset-wapiti"], starts=[], excludes=[], agent="wapiti-reset",
                reports=reports, deadline=WAPITI_SIGNED_OUT_DEADLINE_S, signed_in=False, scope="page",
            )
            outcome.findings += wapiti_findings("wapiti-reset", report)
            text = server.settled_log()[mark:]
            count = check_log("wapiti-reset", text, RESET_ROUTES, outcome)
            expect_answer("wapiti-reset", text, r"POST /reset/\S+", {303, 422}, "the link did not work when the crawl reached it", outcome)
            outcome.notes.append(f"wapiti-reset: the server logged {count} requests")

            # An invite's sign-up page: username is not attacked, as on the main server's /signup.
            mark = len(server.settled_log())
            report, _ = run_wapiti(
                "wapiti-invite", server, links["invite-wapiti"], starts=[], excludes=[], agent="wapiti-invite",
                reports=reports, deadline=WAPITI_SIGNED_OUT_DEADLINE_S, signed_in=False, scope="page",
                skip=("username",),
            )
            outcome.findings += wapiti_findings("wapiti-invite", report)
            text = server.settled_log()[mark:]
            count = check_log("wapiti-invite", text, INVITE_ROUTES, outcome)
            expect_answer("wapiti-invite", text, "POST /signup", {422}, "the invite did not let the form through", outcome)
            if re.search(r"\] POST /signup 303 ", text):
                outcome.problems.append("wapiti-invite signed up through the invite: the rest of its requests met a used one")
            outcome.notes.append(f"wapiti-invite: the server logged {count} requests")

        if not args.skip_sqlmap:
            # Valid links: sqlmap fills the blank fields with different random values, so neither
            # form succeeds (the passwords differ, the e-mail address is not one) and both links last.
            mark = len(server.settled_log())
            run_sqlmap("sqlmap-links", server, [links["reset-sqlmap"], links["invite-sqlmap"]], reports, outcome,
                       session=None, csrf_page="/login")
            text = server.settled_log()[mark:]
            count = check_log("sqlmap-links", text, [r"POST /reset/\S+", "POST /signup"], outcome)
            expect_answer("sqlmap-links", text, r"POST /reset/\S+", {422}, "the reset link did not work", outcome)
            expect_answer("sqlmap-links", text, "POST /signup", {422}, "the invite did not let the form through", outcome)
            outcome.notes.append(f"sqlmap-links: the server logged {count} requests")

        if not args.skip_wapiti:
            # Last: the crawl submits every form on /admin (see ADMIN), which voids the links above.
            mark = len(server.settled_log())
            report, _ = run_wapiti(
                "wapiti-admin", server, "/admin", starts=["/admin?done=disabled"], excludes=[],
                agent=WAPITI_ADMIN_AGENT, reports=reports, deadline=WAPITI_ADMIN_DEADLINE_S,
                credentials=(ADMIN, ADMIN_PASSWORD),
            )
            outcome.findings += wapiti_findings("wapiti-admin", report)
            text = server.settled_log()[mark:]
            count = check_log("wapiti-admin", text, WAPITI_ADMIN_ROUTES, outcome)
            outcome.notes.append(f"wapiti-admin: the server logged {count} requests")
            if not session_alive(database, WAPITI_ADMIN_AGENT):
                outcome.problems.append("wapiti-admin's session did not survive its scan")

        if not args.skip_sqlmap:
            # /admin's one parameter (`done`); its forms carry nothing but the CSRF token.
            mark = len(server.settled_log())
            run_sqlmap("sqlmap-admin", server, ["/admin?done=disabled"], reports, outcome,
                       session=sqlmap_session(server, ADMIN, ADMIN_PASSWORD), exclude=r"logout\b|admin/")
            count = check_log("sqlmap-admin", server.settled_log()[mark:], ["GET /admin"], outcome)
            outcome.notes.append(f"sqlmap-admin: the server logged {count} requests")
            if not session_alive(database, SQLMAP_AGENT):
                outcome.problems.append("sqlmap-admin's session did not survive its scan")
    finally:
        if not server.alive():
            outcome.problems.append(f"the admin's server died during the scan (exit code {server.proc.returncode}); see server-admin.log")
        else:
            code = server.stop()
            if code != 0:
                outcome.problems.append(f"the admin's server did not stop cleanly on SIGTERM (exit code {code})")
    outcome.notes.append(f"the admin, reset and invite scans took {time.monotonic() - started:.0f} s")


# -------------------------------------------------------------------------------------------------


def start_main_server(workdir: Path, name: str, log_path: Path) -> tuple[h.Server, Path, dict[str, object], dict[str, object]]:
    """A server with its own database, the scan's users and the seeded wishlist and household;
    returns (server, database, what seed() returned, what seed_household() returned)."""
    database = workdir / f"{name}.sqlite"
    log_path.unlink(missing_ok=True)
    h.create_user(database, USERNAME, PASSWORD)
    # wapiti fills forms with "alice" / "Letm3in_". Were that sign-up to succeed during the crawl,
    # the new session would void the CSRF token every later request of that scan carries.
    h.create_user(database, "alice", "another-password-" + os.urandom(8).hex())
    h.create_user(database, SHARER, SHARER_PASSWORD)
    h.create_user(database, OTHER_GIVER, OTHER_GIVER_PASSWORD)
    h.create_user(database, PROBER, PROBER_PASSWORD)
    server = h.Server(database, h.free_port(), log_path, config=SCAN_CONFIG)
    server.start()
    try:
        seeded = seed(server)
        household = seed_household(server, seeded["books"])
    except BaseException:
        server.stop()
        raise
    print(f"scan: {name}: wishlist serve on {server.base_url}, user {USERNAME}, {seeded['items']} wishlist items, "
          f"giving to {SHARER}")
    return server, database, seeded, household


def stop_server(server: h.Server, name: str, log_name: str, outcome: Outcome) -> None:
    if not server.alive():
        outcome.problems.append(f"the {name} server died during the scan (exit code {server.proc.returncode}); see {log_name}")
    else:
        code = server.stop()
        if code != 0:
            outcome.problems.append(f"the {name} server did not stop cleanly on SIGTERM (exit code {code})")


class LastScans:
    """The scans on servers of their own (the secure-cookie check, then the admin's server), run
    once by whichever lane finishes its own first: the crawl and sqlmap each take five to eight
    minutes, and which is longer changes with the machine's load and the pages' size."""

    def __init__(self, workdir: Path, reports: Path, args: argparse.Namespace) -> None:
        self.workdir, self.reports, self.args = workdir, reports, args
        self._taken = threading.Lock()

    def run_unless_taken(self, outcome: Outcome) -> None:
        if not self._taken.acquire(blocking=False):
            return
        secure_cookies_check(self.workdir, self.reports / "server-secure-cookies.log", outcome)
        scan_admin(self.workdir, self.reports, self.args, outcome)


def wapiti_lane(server: h.Server, database: Path, seeded: dict, household: dict, reports: Path,
                args: argparse.Namespace, last: LastScans, outcome: Outcome) -> None:
    """The first server's scans, then the last scans if the other lane has not taken them."""
    wapiti_scans(server, database, seeded, household, reports, args, outcome)
    last.run_unless_taken(outcome)


def wapiti_scans(server: h.Server, database: Path, seeded: dict, household: dict, reports: Path,
                 args: argparse.Namespace, outcome: Outcome) -> None:
    """On the first server: the passkey probe, then wapiti signed in, on an item's removal form and
    on a book's reading page."""
    try:
        # The passkey endpoints under hostile bodies (passkey_probe.py): quick, and first, so
        # that a server it brings down fails the scan here, not somewhere in wapiti's log.
        started_probe = time.monotonic()
        probed = pk.probe(server, PROBER, PROBER_PASSWORD)
        (reports / "passkey-probe.log").write_text("\n".join(probed.log) + "\n")
        outcome.findings += [Finding(pk.TOOL, category, info, where) for category, info, where in probed.findings]
        outcome.problems += probed.problems
        outcome.notes += probed.notes
        print(f"  {pk.TOOL}: {time.monotonic() - started_probe:.0f} s, {len(probed.findings)} findings")
        if not server.alive():
            first = "; ".join(f"{category}: {info}" for category, info, _ in probed.findings[:3])
            raise h.Failure(f"the server died during {pk.TOOL} (exit code {server.proc.returncode}; "
                            f"see server.log); its first findings: {first}")
        if args.skip_wapiti:
            return
        item, removal = seeded["first_item"], seeded["removal_item"]
        mark = len(server.settled_log())
        report, _ = run_wapiti(
            "wapiti", server, "/",
            starts=["/lists", "/wishlist", "/settings", "/settings/lists", "/settings/sharing", "/settings/password",
                    "/settings/sign-in", "/settings/data", "/search?q=the", f"/wishlist/{item}",
                    "/people", household["member"], "/reservations", household["shared"]],
            # Every book page carries the reading form, its "Reading now" button and the one-tap stars,
            # each with its own address, so wapiti would attack them once a book (the button alone took
            # 770 of 4,800 requests and four minutes; the stars 40,000 of 125,000 requests, three
            # minutes): one book's are attacked below.
            # The removal scan's book keeps off "I got it" here too: received, it would have no
            # removal page left for that scan to attack.
            # The catalog's lists are one page and one favourite form each, so the crawl keeps to
            # Hardcover Fiction: the five others cost 10,500 requests and two minutes, and
            # attacked the same handler with the same fields.
            excludes=[*(f"/lists/{name}*" for name in seeded["other_lists"]), "/logout", "/wishlist/*/delete", f"/wishlist/{removal}/received", "/books/*/reading", "/books/*/reading/delete",
                      "/books/*/reading-now", "/books/*/reading-now/delete", "/books/*/rating"],
            agent=WAPITI_AGENT,
            reports=reports, deadline=WAPITI_DEADLINE_S,
        )
        outcome.findings += wapiti_findings("wapiti", report)
        count = check_log("wapiti", server.settled_log()[mark:], WAPITI_ROUTES, outcome)
        outcome.notes.append(f"wapiti: the server logged {count} requests")
        if not session_alive(database, WAPITI_AGENT):
            outcome.problems.append("wapiti's session did not survive its scan")

        mark = len(server.settled_log())
        report, _ = run_wapiti(
            "wapiti-removal", server, f"/wishlist/{removal}/", starts=[f"/wishlist/{removal}/remove"],
            # The item page's "I got it" form moves the book off the wishlist, after which its
            # removal page is a 404: crawled before the removal page (the crawl's order varies),
            # it left no removal form to attack.
            excludes=["/wishlist/*/received"], agent=WAPITI_DELETE_AGENT, reports=reports, deadline=WAPITI_DELETE_DEADLINE_S,
        )
        outcome.findings += wapiti_findings("wapiti-removal", report)
        count = check_log("wapiti-removal", server.settled_log()[mark:], WAPITI_DELETE_ROUTES, outcome)
        outcome.notes.append(f"wapiti-removal: the server logged {count} requests")
        if not session_alive(database, WAPITI_DELETE_AGENT):
            outcome.problems.append("wapiti-removal's session did not survive its scan")

        # One book's reading form (rating, review, date, taking it off the wishlist), its one-tap
        # stars and its "forget" form, on the book's reading page: the crawl keeps to the book's
        # folder, where the stars post (`/books/{id}/rating`).
        reading = f"/books/{seeded['books'][0]}/reading"
        mark = len(server.settled_log())
        report, _ = run_wapiti(
            "wapiti-reading", server, f"/books/{seeded['books'][0]}/", starts=[reading], excludes=[], agent=WAPITI_READING_AGENT,
            reports=reports, deadline=WAPITI_READING_DEADLINE_S,
        )
        outcome.findings += wapiti_findings("wapiti-reading", report)
        count = check_log("wapiti-reading", server.settled_log()[mark:], WAPITI_READING_ROUTES, outcome)
        outcome.notes.append(f"wapiti-reading: the server logged {count} requests")
    finally:
        stop_server(server, "wapiti", "server.log", outcome)


def sqlmap_lane(server: h.Server, database: Path, seeded: dict, household: dict, reports: Path,
                args: argparse.Namespace, last: LastScans, outcome: Outcome) -> None:
    """On the second server (seeded as the first): wapiti on the signed-out forms, then sqlmap; then
    the last scans if the other lane has not taken them."""
    try:
        if not args.skip_wapiti:
            # Signed out: the two forms anyone can reach. Neither scan may succeed in signing in or
            # up, since the new session would void the CSRF token all its later requests carry:
            # "alice" exists with another password, and sign-up's username is not attacked (the
            # random marker the xss module types in is a valid, free username). Its reflection is
            # checked by BadInputTests, and sqlmap below does attack it.
            for page, skip in (("/login", ()), ("/signup", ("username",))):
                name = "wapiti-signed-out" + page.replace("/", "-")
                mark = len(server.settled_log())
                report, _ = run_wapiti(
                    name, server, page, starts=[], excludes=[], agent=name, reports=reports,
                    deadline=WAPITI_SIGNED_OUT_DEADLINE_S, signed_in=False, scope="page", skip=skip,
                )
                outcome.findings += wapiti_findings(name, report)
                count = check_log(name, server.settled_log()[mark:], [f"GET {page}", f"POST {page}"], outcome)
                outcome.notes.append(f"{name}: the server logged {count} requests")

        if not args.skip_sqlmap:
            item = seeded["first_item"]
            mark = len(server.settled_log())
            book = seeded["books"][0]
            run_sqlmap("sqlmap", server, [
                "/lists", "/lists?q=fiction", "/lists/hardcover-fiction", "/lists/hardcover-fiction?sort=weeks",
                f"/books/{book}", "/search?q=the", "/wishlist", "/wishlist?sort=title", f"/wishlist/{item}",
                f"/wishlist/{item}/remove", "/settings", "/settings/lists", "/settings/sharing", "/settings/password", "/settings/sign-in",
                "/settings/data", "/people", household["member"], "/reservations",
            ], reports, outcome, session=sqlmap_session(server), held=held_stylesheet(server))
            count = check_log("sqlmap", server.settled_log()[mark:], SQLMAP_ROUTES, outcome)
            outcome.notes.append(f"sqlmap: the server logged {count} requests")
            if not session_alive(database, SQLMAP_AGENT):
                outcome.problems.append("sqlmap's session did not survive its scan")

            mark = len(server.settled_log())
            run_sqlmap("sqlmap-signed-out", server, ["/login", "/signup"], reports, outcome, session=None)
            count = check_log("sqlmap-signed-out", server.settled_log()[mark:], ["POST /login", "POST /signup"], outcome)
            outcome.notes.append(f"sqlmap-signed-out: the server logged {count} requests")

            run_sqlmap_passkeys(server, database, reports, outcome)
    finally:
        stop_server(server, "sqlmap", "server-sqlmap.log", outcome)
    last.run_unless_taken(outcome)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=Path, default=DEFAULT_REPORTS, help="where reports go (default .build/attack/scan)")
    parser.add_argument("--skip-sqlmap", action="store_true", help="wapiti only (for working on the scan)")
    parser.add_argument("--skip-wapiti", action="store_true", help="sqlmap only (for working on the scan)")
    parser.add_argument("--admin-only", action="store_true", help="only the admin, reset and invite scans (for working on the scan)")
    args = parser.parse_args()

    for tool in (SQLMAP, DEBIAN_PYTHON):
        if not Path(tool).exists():
            raise h.Failure(f"{tool} is missing: `make scan` installs Debian's wapiti and sqlmap")
    allowed = load_allowed()
    reports = args.reports.resolve()
    reports.mkdir(parents=True, exist_ok=True)
    outcome = Outcome()
    started = time.monotonic()

    with tempfile.TemporaryDirectory(prefix="wishlist-scan-") as temporary:
        workdir = Path(temporary)
        if args.admin_only:
            scan_admin(workdir, reports, args, outcome)
        else:
            # Two servers seeded alike, so the two lanes run side by side (each scanner is mostly
            # waiting on its server, one request at a time, so two cores serve two lanes): the big
            # signed-in wapiti crawl on one, the signed-out scans and sqlmap on the other; the last
            # scans (LastScans) follow whichever lane ends first. Each server still has one scanner at a time, so
            # its log slices and sessions are that scan's.
            first = start_main_server(workdir, "wapiti", reports / "server.log")
            try:
                second = start_main_server(workdir, "sqlmap", reports / "server-sqlmap.log")
            except BaseException:
                first[0].stop()
                raise
            lanes = (Outcome(), Outcome())
            last = LastScans(workdir, reports, args)
            with ThreadPoolExecutor(max_workers=2) as pool:
                running = [
                    pool.submit(wapiti_lane, *first, reports, args, last, lanes[0]),
                    pool.submit(sqlmap_lane, *second, reports, args, last, lanes[1]),
                ]
                wait(running)
            for lane in lanes:
                outcome.findings += lane.findings
                outcome.problems += lane.problems
                outcome.notes += lane.notes
            for future in running:
                future.result()  # a lane's Failure ends the scan as before

    apply_allowed(outcome, allowed)
    return summarize(outcome, reports, time.monotonic() - started)


def summarize(outcome: Outcome, reports: Path, seconds: float) -> int:
    unexpected = [f for f in outcome.findings if not f.allowed_because]
    allowed = [f for f in outcome.findings if f.allowed_because]
    lines = [f"scan finished in {seconds:.0f} s"]
    lines += [f"  note: {note}" for note in outcome.notes]
    lines.append(f"allowed findings ({len(allowed)}), see {ALLOWED_FILE.relative_to(h.REPO_ROOT)}:")
    lines += [f"  {f.line()}" for f in allowed]
    lines.append(f"findings ({len(unexpected)}; all of them in findings.json):")
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in unexpected:
        groups.setdefault((finding.tool, finding.category), []).append(finding)
    for (tool, category), members in groups.items():
        lines.append(f"  [{tool}] {category}: {len(members)}")
        shown = list(dict.fromkeys(f.line().split("] ", 1)[1].split(": ", 1)[1] for f in members))
        lines += [f"      {text}" for text in shown[:6]]
        if len(shown) > 6:
            lines.append(f"      ... and {len(shown) - 6} more")
    if not unexpected:
        lines.append("  none")
    if outcome.problems:
        lines.append(f"problems with the scan itself ({len(outcome.problems)}):")
        lines += [f"  {p}" for p in outcome.problems]
    lines.append(f"reports: {reports.relative_to(h.REPO_ROOT) if reports.is_relative_to(h.REPO_ROOT) else reports}")
    text = "\n".join(lines)
    print(text)
    (reports / "summary.txt").write_text(text + "\n")
    (reports / "findings.json").write_text(json.dumps([f.__dict__ for f in outcome.findings], indent=2) + "\n")
    if unexpected or outcome.problems:
        print(f"scan: FAILED ({len(unexpected)} findings, {len(outcome.problems)} problems)")
        return 1
    print("scan: passed (no findings beyond the documented loopback ones)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except h.Failure as failure:
        print(f"scan: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
