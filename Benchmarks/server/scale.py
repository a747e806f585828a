#!/usr/bin/env python3
"""Scale benchmark for `make bench-scale`: the same pages on a near-empty database and on a big one.

Runs, in one go and each bounded in time:
  databases   the release app creates and migrates a new database and loads the sample catalog;
              `wishlist user create` makes the bench user. Two copies of it are then filled
              straight through SQLite, each in one transaction:
              small  the sample catalog, the bench user with 200 wishlist items, and the book with
                     two years on three lists that `make bench` gives (bench.seed_history); once the
                     big one is filled, its people around that book: the members and children who
                     share a want of it, those wants and their reservations, so that the book's
                     page names the same people on both
              big    10,000 users, 500,000 wishlist items (the bench user's exactly the same 200),
                     104 weekly editions of 18 lists (and two years of the two monthly ones) drawn
                     from a pool of synthetic books that stay on a list for runs of weeks, the same
                     book on three lists for two years, 5,000 gift reservations, favourite lists,
                     sessions, share and feed links, passkeys
              then PRAGMA foreign_key_check and integrity_check on both, and their sizes.
  migration   a copy of the big database with the newest migration undone by hand (what it
              created dropped, its row deleted from grdb_migrations), and an up-to-date copy:
              the app's start (exec to the first 200 on /healthz) on each, alternately, five
              times; the migration time is the difference of the medians.
  pages       both databases served at once by the release app (same binary, bench.bench_config());
              for each page, wrk on the small database, then on the big one, signed in as bench:
              GET /lists/hardcover-fiction, GET /wishlist (200 items), GET /books/<id> (104 weeks on
              3 lists), GET /search?q=static (the same 3 current books on both), and POST /login
              at 4 connections (Argon2-bound), each BENCH_SECONDS. Each GET is at an address of
              its own (distinct.lua adds `visit=…`), so every request reads the database.

and writes the table to .build/bench/scale.md (raw figures, query plans included, in scale.json),
and into Benchmarks/README.md between <!-- scale-results:start --> and <!-- scale-results:end -->.

Only 127.0.0.1 is ever contacted. Python 3 standard library only; reuses bench.py.
Options (environment): BENCH_SECONDS (default 10) per page and database, BENCH_CONNECTIONS
(default 32), BENCH_UPDATE_README=0 to leave the README alone, BENCH_SCALE_REUSE=1 to measure the
databases a previous run left in .build/bench/scale/ instead of building them again (the report
says so), and bench.py's BENCH_APP, BENCH_CONFIG, BENCH_APP_ENV (experiments: the README is left alone).
"""
import datetime
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (Benchmarks/server/bench.py: servers, wrk, sign-in, config)

ROOT, OUT, HERE = bench.ROOT, bench.OUT, bench.HERE
RUN = os.path.join(OUT, "scale")
README = bench.README
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
SIGNIN_CONNECTIONS = 4
REUSE = os.environ.get("BENCH_SCALE_REUSE") == "1"
BUDGET_RATIO = 1.5

USERS = 10_000
ITEMS = 500_000
CHILDREN = 1_000
BENCH_ITEMS = 200
WISHLIST_PAGE_ROWS = 100  # the wishlist shows a long list 100 wants a page (issue 51)
BENCH_CATALOG_ITEMS = 60  # of the 200: books of the sample catalog (on both databases); the rest imported
WEEKS = 104
WEEKLY_LISTS = 18
RESERVATIONS = 5_000
MIGRATION_ROUNDS = 5
LIST = bench.LIST
STAR_LISTS = bench.HISTORY_LISTS  # the three lists the measured book has two years on
SEARCH = "static"  # matches three current books of the sample catalog
SEED = 2026

# What each migration created, to undo the newest by hand (Sources/WishlistCore/Storage/Migrations.swift).
# A newer migration must be added here, or the migration figure cannot be measured; after the app has
# applied it again, the run checks that the schema is exactly the up-to-date copy's.
UNDO = {
    "10-passkeys": [
        "DROP TABLE passkey_challenge",  # its index passkey_challenge_on_expires_at goes with it
        "DROP TABLE passkey",            # and passkey_on_user_id
        "DROP TABLE passkey_user",
        "DELETE FROM sqlite_sequence WHERE name = 'passkey'",
    ],
    "11-catalog-generation": [
        f"DROP TRIGGER {table}_{event}_generation"
        for table in ("catalog_list", "list_entry", "book", "edition", "edition_entry") for event in ("insert", "update", "delete")
    ] + ["DROP TABLE catalog_generation"],
    # Back to a search index of every book stored, as before migration 13.
    "13-search-current-books": [
        "DROP TRIGGER list_entry_insert_search",
        "DROP TRIGGER list_entry_delete_search",
        "DROP TRIGGER book_update_search",
        "DROP INDEX list_entry_by_book",
        "DELETE FROM book_search",
        "INSERT INTO book_search (book_id, title, author) SELECT id, title, author FROM book",
    ],
    "33-api-tokens": [
        "DROP TABLE api_token",  # its indexes (user_id, token_hash) go with it
        "DELETE FROM sqlite_sequence WHERE name = 'api_token'",
    ],
    # Back to one link per member, on her default list, as migrations 6 and 30 left it, and no guests.
    "34-list-share-links": [
        "DROP TABLE guest_reservation",  # its triggers go with it
        "DELETE FROM sqlite_sequence WHERE name = 'guest_reservation'",
        "ALTER TABLE share_link RENAME TO share_link_by_list",
        "CREATE TABLE share_link (user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE, token_hash BLOB NOT NULL UNIQUE, "
        "created_at DATETIME NOT NULL, list_id INTEGER REFERENCES wish_list(id) ON DELETE CASCADE)",
        "INSERT INTO share_link (user_id, token_hash, created_at, list_id) SELECT wish_list.user_id, token_hash, share_link_by_list.created_at, list_id "
        "FROM share_link_by_list JOIN wish_list ON wish_list.id = list_id WHERE wish_list.is_default",
        "DROP TABLE share_link_by_list",
        "CREATE TRIGGER share_link_insert_default_list AFTER INSERT ON share_link WHEN NEW.list_id IS NULL BEGIN "
        "UPDATE share_link SET list_id = (SELECT id FROM wish_list WHERE user_id = NEW.user_id AND is_default) WHERE user_id = NEW.user_id; END",
    ],
    "35-language": ["ALTER TABLE user DROP COLUMN language"],
    "36-reading-goal": ["DROP TABLE reading_now", "DROP TABLE reading_goal"],  # the triggers go with their table
    # Back to migration 23's index of the wants by book and member.
    "37-wishlist-by-book-shared": [
        'CREATE INDEX "wishlist_item_by_book_and_user" ON "wishlist_item"("book_id", "user_id")',
        "DROP INDEX wishlist_item_by_book_user_and_shared",
    ],
    # Back to the insert triggers of wishlist_item that count every row, an import's too, as migrations 12, 25 and 30 left them.
    "38-imported-wishes-counted-by-statement": [
        "DROP TRIGGER wishlist_item_insert_wishlist_generation",
        "DROP TRIGGER wishlist_item_insert_owner_generation",
        "DROP TRIGGER wishlist_item_insert_default_list",
        "DROP TRIGGER wishlist_item_insert_household",
        "CREATE TRIGGER wishlist_item_insert_wishlist_generation AFTER INSERT ON wishlist_item "
        "BEGIN UPDATE wishlist_generation SET value = value + 1; END",
        "CREATE TRIGGER wishlist_item_insert_owner_generation AFTER INSERT ON wishlist_item BEGIN INSERT INTO owner_generation (user_id, wishes) "
        "SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; END",
        "CREATE TRIGGER wishlist_item_insert_default_list AFTER INSERT ON wishlist_item BEGIN "
        "INSERT INTO wish_list_item (list_id, item_id) SELECT id, NEW.id FROM wish_list WHERE user_id = NEW.user_id AND is_default; END",
        "CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item WHEN NEW.book_id IS NOT NULL AND NEW.shared AND "
        "(SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL) BEGIN "
        "INSERT INTO book_household (book_id, wanted) VALUES (NEW.book_id, 1) ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted; END",
    ],
}
CREATES = {
    "10-passkeys": "three empty tables", "11-catalog-generation": "a one-row table and 15 triggers",
    "13-search-current-books": "an index and 3 triggers, and refills the search index with the current books only",
    "33-api-tokens": "an empty table",
    "34-list-share-links": "the share links' table made again, keyed by list, and an empty table with 2 triggers",
    "35-language": "a column on the user table, NULL for every member",
    "36-reading-goal": "two empty tables and 2 triggers",
    "37-wishlist-by-book-shared": "an index of every wishlist item, in place of another",
    "38-imported-wishes-counted-by-statement": "4 triggers made again",
}

# Synthetic weekly lists beside the sample's four weekly ones: 18 weekly lists in all.
EXTRA_LISTS = [
    ("combined-print-and-e-book-fiction", "Combined Print & E-Book Fiction"),
    ("combined-print-and-e-book-nonfiction", "Combined Print & E-Book Nonfiction"),
    ("trade-fiction-paperback", "Paperback Trade Fiction"),
    ("paperback-nonfiction", "Paperback Nonfiction"),
    ("advice-how-to-and-miscellaneous", "Advice, How-To & Miscellaneous"),
    ("childrens-middle-grade-hardcover", "Children’s Middle Grade Hardcover"),
    ("picture-books", "Children’s Picture Books"),
    ("series-books", "Children’s Series"),
    ("young-adult-paperback", "Young Adult Paperback"),
    ("e-book-fiction", "E-Book Fiction"),
    ("e-book-nonfiction", "E-Book Nonfiction"),
    ("mass-market-paperback", "Mass Market Paperback"),
    ("business-books", "Business"),
    ("science", "Science"),
]
LIST_LENGTH = 15


def log(message):
    print(f"[scale] {message}", flush=True)


def die(message):
    bench.die(message)


def grdb_date(moment):
    """How GRDB stores a Date: UTC, `yyyy-MM-dd HH:mm:ss.SSS`."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def remove_database(path):
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def copy_database(source, destination):
    """The main file only: every writer has closed, so there is no WAL to carry."""
    if os.path.exists(source + "-wal") and os.path.getsize(source + "-wal") > 0:
        die(f"{source} still has a WAL; close its writers first")
    remove_database(destination)
    shutil.copyfile(source, destination)


def start_app(database, name):
    port = bench.free_port()
    server = bench.Server(name, bench.app_argv("serve", "--port", str(port), "--database", database), port,
                          os.path.join(RUN, f"{name}.log"), bench.APP_ENV)
    try:
        seconds = server.wait_ready(server.start(), "/healthz", timeout=120)
    except BaseException:
        server.stop()
        raise
    return server, seconds


# MARK: - Synthetic text

WORDS_A = ("Quiet Silver Hollow Last Borrowed Winter Paper Hidden Burning Salt Midnight Lantern Northern Glass Iron "
           "Golden Static Wild Broken Second Small Distant Secret Crooked Bitter Velvet Painted Drowned Scarlet Lost "
           "Sleeping Restless Invisible Electric Frozen Silent Wandering Gentle Marble Copper").split()
WORDS_N = ("Harbor Orchard Ledger River Keeper House Garden Lighthouse Daughter Sister Island Kingdom Station Signal "
           "Archive Witness Circus Mapmaker Atlas Tide Season Promise Library Engine Alibi Clockmaker Bridge Meadow "
           "Ferry Almanac Tenant Orchestra Forest Courier Compass Chapel Winter Letters Widow Static Summer Night "
           "Country Inheritance Gambit Reckoning Confession Parade Census").split()
PATTERNS = ("The {a} {n}", "{a} {n}", "The {n} of {p}", "A {n} for {p}", "{n} and {n2}", "The {n}’s {n2}",
            "When the {n} Was {a}", "{a} {n}s", "The Last {n}", "Notes from the {a} {n}")
PLACES = ("Brightwater Halcyon Oss Larkspur Duluth Budapest Kestrel Marrow Eastmere Calder Wren Vale Tarrow "
          "Lisbon Odessa Galway Kyoto Tangier Quito Harrowgate").split()
FIRST = ("Ada Beatrix Cyrus Delphine Edmund Farah Gideon Hollis Ines Jonah Kasimir Leonie Mateo Nadia Oskar "
         "Priya Quentin Rosalind Soren Tamsin Ulric Vera Wendell Ximena Yusra Zane Amara Bram Celia Dario Elif "
         "Finn Greta Hugo Isla Jasper Kira Lucian Maren Nico Odile Pavel Rhea Silas Thea Uma Viggo Wilhelmina").split()
LAST = ("Achterberg Brannigan Castellanos Delahunt Engelhart Fennimore Galloway Halvorsen Ingleby Jankowski Kowalczyk "
        "Lindqvist Marwood Nakashima Okafor Pemberton Quarrie Rasmussen Solheim Tarrant Underhill Varga Whitcombe "
        "Yamamoto Zeller Abernathy Blackwood Carrow Dunmore Ellery Fairweather Greaves Holloway Ivers Kettleworth "
        "Lockhart Mbeki Oyelaran Pryce Quaye Rourke Sandoval Thackeray Vance Winslow").split()
PUBLISHERS = ("Bellwether House", "Quillon Press", "Harrow & Finch", "Copperleaf", "Saltmarsh Books", "Ninefold",
              "Drumlin & Vane", "Owlgate", "Greyhaven", "Marrowbone Press", "Foxglove Editions", "Kestrel Comics",
              "Tidewater Young Readers", "Lanternfish Audio")
DESCRIPTIONS = (
    "A {o} {r} returns to {p} to settle an old debt, and finds the town has been waiting for {x}.",
    "In a {o} season on {p}, two strangers trade letters that change what each believes about {x}.",
    "The {r} of a failing {n} uncovers a ledger that records {x} no one remembers.",
    "An account of how a {o} {n} in {p} shaped a century of {x}, told through the people who kept it.",
    "A {r} and her estranged brother cross {p} in one winter, chasing the truth about {x}.",
)
ROLES = "keeper widow cartographer detective archivist surgeon teacher pilot clockmaker ferryman".split()
OBJECTS = ("their father", "the missing ship", "the flood", "the last election", "the orchard", "the war", "a stolen score")
NOTES = ("For the book club in March", "Maya recommended this", "Paperback is fine", "Signed copy if possible",
         "After I finish the series", "Gift idea for Dad", "Heard the author on the radio", "Audiobook instead?")
BUY_SITES = (("Amazon", "https://www.amazon.com/s?k={}"), ("Apple Books", "https://books.apple.com/us/search?term={}"),
             ("Barnes and Noble", "https://www.barnesandnoble.com/w/?ean={}"),
             ("Books-A-Million", "https://www.booksamillion.com/search?query={}"),
             ("Bookshop", "https://bookshop.org/search?keywords={}"), ("IndieBound", "https://www.indiebound.org/search/book?keys={}"))
AGENTS = ("Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15")


def title(rng):
    return rng.choice(PATTERNS).format(a=rng.choice(WORDS_A), n=rng.choice(WORDS_N), n2=rng.choice(WORDS_N),
                                       p=rng.choice(PLACES))


def author_key(name):
    """AuthorKey.of for the ASCII names made here: lower case, anything else a space, spaces single."""
    return " ".join(re.sub(r"[^0-9a-z]", " ", name.lower()).split())


def author(rng):
    last = rng.choice(LAST) if rng.random() < 0.7 else f"{rng.choice(LAST)}-{rng.choice(LAST)}"
    return f"{rng.choice(FIRST)} {last}"


def description(rng):
    return rng.choice(DESCRIPTIONS).format(o=rng.choice(WORDS_A).lower(), r=rng.choice(ROLES), p=rng.choice(PLACES),
                                           n=rng.choice(WORDS_N).lower(), x=rng.choice(OBJECTS))


def links_json(isbn):
    """A wishlist item's copy of the buy links, as the app's JSONEncoder writes them (slashes escaped)."""
    return json.dumps([[name, url.format(isbn)] for name, url in BUY_SITES], separators=(",", ":"),
                      ensure_ascii=False).replace("/", "\\/")


def digits(rng, count):
    return "".join(rng.choice("0123456789") for _ in range(count))


# MARK: - Building the databases

def make_base(path):
    """The app's own schema and sample catalog, and the bench user made by the app's command line."""
    remove_database(path)
    server, seconds = start_app(path, "base")
    server.stop()
    made = subprocess.run(bench.app_argv("user", "create", bench.USERNAME, "--password-stdin", "--database", path), cwd=ROOT,
                          env=bench.clean_environment(), input=bench.PASSWORD + "\n", capture_output=True, text=True)
    if made.returncode != 0:
        die(f"wishlist user create failed: {made.stderr}")
    db = sqlite3.connect(path)
    try:
        (user_id, password_hash), = db.execute("SELECT id, password_hash FROM user WHERE username = ?", (bench.USERNAME,))
        (migration,) = max(db.execute("SELECT identifier FROM grdb_migrations"), key=lambda row: int(row[0].split("-")[0]))
    finally:
        db.close()
    if user_id != 1:
        die(f"the bench user has id {user_id}, expected 1 on a new database")
    log(f"base database: migrated to {migration} and sample catalog loaded in {seconds * 1000:.0f} ms; user {bench.USERNAME} created")
    return password_hash, migration


def open_for_filling(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = DELETE")  # one big transaction: no WAL copy of every page
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")  # 256 MB
    db.execute("PRAGMA foreign_keys = ON")
    return db


def close_filled(db):
    db.execute("PRAGMA journal_mode = WAL")  # as the app keeps it
    db.close()


def sample_books(db):
    columns = "id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height"
    return [dict(zip(columns.split(", "), row)) for row in db.execute(f"SELECT {columns} FROM book ORDER BY id")]


def bench_items(db, now):
    """The bench user's 200 items, the same rows on both databases (ids 1–200): 60 books of the
    sample catalog, 140 imported ones (no catalog id), added over two years, a few with notes."""
    rng = random.Random(SEED + 1)
    catalog = sample_books(db)[:BENCH_CATALOG_ITEMS]
    rows = []
    for index in range(BENCH_ITEMS):
        added = grdb_date(now - datetime.timedelta(minutes=rng.randrange(2 * 365 * 24 * 60)))
        note = rng.choice(NOTES) if rng.random() < 0.15 else ""
        priority = rng.choice((1, -1)) if rng.random() < 0.2 else 0
        if index < len(catalog):
            book = catalog[index]
            rows.append((index + 1, 1, book["id"], book["title"], book["author"], book["publisher"], book["description"],
                         book["isbn10"], book["isbn13"], book["image_url"], book["image_width"], book["image_height"],
                         links_json(book["isbn13"]), "[]", note, added, priority))
        else:
            rows.append((index + 1, 1, None, title(rng), author(rng), rng.choice(PUBLISHERS), "", "", "978" + digits(rng, 10),
                         None, 0, 0, "[]", "[]", note, added, priority))
    return rows


ITEM_INSERT = ("INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, "
               "image_width, image_height, buy_links, reading_links, note, added_at, priority) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def fill_small(path, now):
    """The near-empty database: what `make bench` measures (its two years of one book on three
    lists), plus the bench user's 200 items so that the wishlist page is the big one's."""
    star = bench.seed_history(path)
    db = open_for_filling(path)
    try:
        db.execute("BEGIN")
        db.executemany(ITEM_INSERT, bench_items(db, now))
        db.execute("COMMIT")
    finally:
        close_filled(db)
    return star


# Whom the measured book's page names on the big database: the sharing members and children with a
# shared want of it (the bench user's own wants are the same rows on both databases already).
STAR_WANTS = ("SELECT wishlist_item.id FROM big.wishlist_item JOIN big.user ON user.id = wishlist_item.user_id "
              "WHERE wishlist_item.book_id = ? AND wishlist_item.shared AND user.sharing = 'household' AND user.disabled_at IS NULL "
              "AND user.id != 1")


def give_small_the_stars_household(small, big, star):
    """The near-empty database gets the people around the measured book that the big one has: the
    members and children who share a want of it, their wants of it (the same rows) and the
    reservations on them, with their givers. So the book's page says the same on both (its "who
    here wants it" names the same twelve, with the same forms), and the two figures differ by what
    the big database's size costs, not by a section only one of them shows
    (docs/decisions/bench-scale-book-page-same-household.md). Returns how many people and wants."""
    db = open_for_filling(small)
    try:
        db.execute("ATTACH DATABASE ? AS big", (big,))
        db.execute("BEGIN")
        wants = [row[0] for row in db.execute(STAR_WANTS, (star,))]
        if not wants:
            die(f"nobody on the big database shares a want of book {star}: its page would not name anyone")
        marks = ",".join("?" * len(wants))
        people = sorted({row[0] for row in db.execute(
            f"SELECT user_id FROM big.wishlist_item WHERE id IN ({marks}) UNION "
            f"SELECT giver_id FROM big.reservation WHERE item_id IN ({marks}) UNION "
            f"SELECT owner_id FROM big.reservation WHERE item_id IN ({marks}) AND owner_id IS NOT NULL", wants * 3)} - {1})
        # Each insert runs the app's triggers: a member's default list, a want's place on it, the household's count.
        db.execute(f"INSERT INTO main.user SELECT * FROM big.user WHERE id IN ({','.join('?' * len(people))})", people)
        db.execute(f"INSERT INTO main.wishlist_item SELECT * FROM big.wishlist_item WHERE id IN ({marks})", wants)
        db.execute(f"INSERT INTO main.reservation SELECT * FROM big.reservation WHERE item_id IN ({marks})", wants)
        db.execute("COMMIT")
        db.execute("DETACH DATABASE big")
    finally:
        close_filled(db)
    return len(people), len(wants)


class History:
    """Two years of editions of one list, written backwards from its current edition: a book on it
    stays for a run of weeks (its weeks on the list say how long for the current books), leaves,
    and is replaced by a new book from the pool, by a book of another list, or by one returning."""

    def __init__(self, rng, new_book, borrow):
        self.rng, self.new_book, self.borrow = rng, new_book, borrow

    def run_length(self):
        if self.rng.random() < 0.06:
            return self.rng.randint(20, 80)
        return 1 + int(self.rng.expovariate(1 / 5))

    def editions(self, current, count, pinned=None, avoid=()):
        """current: [(book, rank_last_week, weeks_on_list)] by rank. Returns `count` earlier
        editions, newest first, each a list of books by rank. The edition before the current one
        has each book whose rank_last_week says so at exactly that rank."""
        rng = self.rng
        size = len(current)
        remaining = {}
        for book, rank_last_week, weeks in current:
            remaining[book] = max(1, min(weeks - 1, count)) if rank_last_week > 0 else 0
        if pinned:
            remaining[pinned] = count + 1
        last_week_rank = {book: rank for book, rank, _ in current if rank > 0}
        previous = [book for book, _, _ in current]
        seen, seen_set = list(previous), set(previous)
        result = []
        for week in range(1, count + 1):
            kept = [book for book in previous if remaining.get(book, 0) > 0]
            if pinned and pinned not in kept:
                kept.append(pinned)
            for book in kept:
                remaining[book] -= 1
            chosen, chosen_set, previous_set = list(kept), set(kept), set(previous)
            while len(chosen) < size:
                roll, book = rng.random(), None
                if roll < 0.12:  # back on the list after weeks off it
                    returning = [b for b in seen if b not in chosen_set and b not in previous_set and b not in avoid and b != pinned]
                    book = rng.choice(returning) if returning else None
                elif roll < 0.2:  # a book of another list
                    book = self.borrow(rng)
                if book is None or book in chosen_set or book in avoid or book == pinned:
                    book = self.new_book()
                chosen.append(book)
                chosen_set.add(book)
                remaining[book] = self.run_length() - 1
            if week == 1:
                slots = [None] * size
                for book in kept:
                    rank = last_week_rank.get(book)
                    if rank and rank <= size and slots[rank - 1] is None:
                        slots[rank - 1] = book
                placed = set(b for b in slots if b)
                rest = [book for book in chosen if book not in placed]
                rng.shuffle(rest)
                ordered = [slot if slot else rest.pop() for slot in slots]
            else:
                rank_of = {book: rank for rank, book in enumerate(previous, start=1)}
                key = {book: rank_of[book] + rng.gauss(0, 1.5) if book in rank_of else rng.uniform(size * 0.4, size + 3)
                       for book in chosen}
                ordered = sorted(chosen, key=lambda b: (key[b], b))
            result.append(ordered)
            for book in ordered:
                if book not in seen_set:
                    seen.append(book)
                    seen_set.add(book)
            previous = ordered
        return result


def fill_big(path, password_hash, star_book, now):
    rng = random.Random(SEED)
    db = open_for_filling(path)
    counts = {}
    try:
        db.execute("BEGIN")
        db.execute("PRAGMA defer_foreign_keys = ON")  # checked at COMMIT: entries go in before their books
        sample = sample_books(db)
        sample_ids = {book["id"] for book in sample}

        # The bench user's items first, so that their ids are 1–200 as on the small database.
        db.executemany(ITEM_INSERT, bench_items(db, now))

        # The book pool: created on demand by the histories, then used by the wishlists.
        pool = []  # dicts like sample_books'
        taken_ids = set(sample_ids)

        def new_book():
            while True:
                book_id = "979" + digits(rng, 10)
                if book_id not in taken_ids:
                    break
            taken_ids.add(book_id)
            book = {"id": book_id, "title": title(rng), "author": author(rng), "publisher": rng.choice(PUBLISHERS),
                    "description": description(rng), "isbn10": digits(rng, 10), "isbn13": book_id,
                    "image_url": f"https://storage.googleapis.com/du-prd/books/images/{book_id}.jpg",
                    "image_width": 330, "image_height": 500}
            pool.append(book)
            return book_id

        matches_search = re.compile(SEARCH, re.IGNORECASE)
        list_books = {}  # list -> books seen on it, for cross-listing

        def borrow(r):
            lists = [books for books in list_books.values() if books]
            return r.choice(r.choice(lists)) if lists else None

        # Lists: the sample's six current ones and fourteen more weekly ones.
        current_date = db.execute("SELECT published_date FROM catalog_list WHERE name_encoded = ?", (LIST,)).fetchone()[0]
        fetched = grdb_date(now)
        for name, display in EXTRA_LISTS:
            db.execute("INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current, "
                       "published_date, fetched_at) VALUES (?, ?, 'WEEKLY', ?, 1, ?, ?)", (name, display, current_date, current_date, fetched))
        lists = db.execute("SELECT name_encoded, frequency, published_date FROM catalog_list WHERE is_current ORDER BY name_encoded").fetchall()
        weekly = [row for row in lists if row[1] == "WEEKLY"]
        if len(weekly) != WEEKLY_LISTS:
            die(f"expected {WEEKLY_LISTS} weekly lists, found {len(weekly)}")
        history = History(rng, new_book, borrow)
        editions, entries = [], []
        for name, frequency, published in lists:
            step, count = (7, WEEKS) if frequency == "WEEKLY" else (28, 26)  # two years either way
            newest = datetime.date.fromisoformat(published)
            current = db.execute("SELECT book_id, rank_last_week, weeks_on_list FROM list_entry WHERE list_name_encoded = ? "
                                 "ORDER BY rank", (name,)).fetchall()
            if not current:  # one of ours: its current edition too, without a book that the measured search finds
                picks = []
                while len(picks) < LIST_LENGTH:
                    book = new_book()
                    if not matches_search.search(pool[-1]["title"] + " " + pool[-1]["author"]):
                        picks.append(book)
                # About three new books a week; the others moved a little (the history then sets the figures exactly).
                current = [(book, 0, 1) if rng.random() < 0.2 else (book, max(1, rank + rng.randint(-2, 3)), rng.randint(2, 40))
                           for rank, book in enumerate(picks, 1)]
                current_rows = [(rank, book) for rank, (book, _, _) in enumerate(current, 1)]
                db.execute("INSERT INTO edition (list_name_encoded, published_date, previous_published_date, fetched_at) "
                           "VALUES (?, ?, ?, ?)", (name, published, (newest - datetime.timedelta(days=step)).isoformat(), fetched))
            else:
                current_rows = None
            # Earlier editions: the sample's few are replaced by ours, so that the runs hold together.
            db.execute("DELETE FROM edition WHERE list_name_encoded = ? AND published_date < ?", (name, published))
            earlier = history.editions(current, count, pinned=star_book if name in STAR_LISTS else None,
                                       avoid=() if name in STAR_LISTS else (star_book,))
            sequence = list(reversed(earlier))  # oldest first
            ranks_before, weeks_before = {}, {}
            for index, books in enumerate(sequence):
                date = (newest - datetime.timedelta(days=step * (count - index))).isoformat()
                before = (newest - datetime.timedelta(days=step * (count - index + 1))).isoformat()
                editions.append((name, date, before, fetched))
                ranks, weeks = {}, {}
                for rank, book in enumerate(books, start=1):
                    weeks[book] = weeks_before.get(book, 0) + 1
                    ranks[book] = rank
                    entries.append((name, date, rank, book, ranks_before.get(book, 0), weeks[book]))
                ranks_before, weeks_before = ranks, weeks
            if current_rows is not None:  # ours: the current edition's movement follows from the last week
                for rank, book in current_rows:
                    row = (name, rank, book, ranks_before.get(book, 0), weeks_before.get(book, 0) + 1)
                    db.execute("INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) "
                               "VALUES (?, ?, ?, ?, ?)", row)
                    entries.append((name, published, rank, book, row[3], row[4]))
            list_books[name] = sorted(set(book for books in earlier for book in books))

        # Books first (entries refer to them), then editions, then entries.
        db.executemany("INSERT INTO book (id, title, author, contributor, publisher, description, price, isbn10, isbn13, other_isbns, "
                       "image_url, image_width, image_height) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, '', ?, ?, ?)",
                       [(b["id"], b["title"], b["author"], "by " + b["author"], b["publisher"], b["description"], b["isbn10"],
                         b["isbn13"], b["image_url"], b["image_width"], b["image_height"]) for b in pool])
        db.executemany("INSERT INTO book_link (book_id, kind, position, name, url) VALUES (?, 'buy', ?, ?, ?)",
                       [(b["id"], position, site, url.format(b["id"])) for b in pool for position, (site, url) in enumerate(BUY_SITES)])
        # The search index holds the current editions' books only, as migration 13's triggers keep
        # it: ours went into list_entry before their books existed, so the triggers indexed none.
        listed = {row[0] for row in db.execute("SELECT book_id FROM list_entry")}
        db.executemany("INSERT INTO book_search (book_id, title, author) VALUES (?, ?, ?)",
                       [(b["id"], b["title"], b["author"]) for b in pool if b["id"] in listed])
        # Each book's credit, as AuthorStore.writeCredits makes it of a one-name byline: the authors' pages read these.
        db.executemany("INSERT INTO book_credit (book_id, position, author_key, name, role) VALUES (?, 0, ?, ?, 'author')",
                       [(b["id"], author_key(b["author"]), b["author"]) for b in pool])
        db.executemany("INSERT INTO book_isbn (book_id, isbn) VALUES (?, ?)",
                       [(b["id"], isbn) for b in pool for isbn in (b["isbn13"], b["isbn10"])])
        db.executemany("INSERT INTO edition (list_name_encoded, published_date, previous_published_date, fetched_at) VALUES (?, ?, ?, ?)", editions)
        db.executemany("INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list) "
                       "VALUES (?, ?, ?, ?, ?, ?)", entries)
        current_lists = [row[0] for row in db.execute("SELECT name_encoded FROM catalog_list WHERE is_current")]
        counts["pool_books"] = len(pool)

        # Users 2–10,000: every one with a copy of the bench user's real Argon2id hash.
        users, sharing_ids = [(1, bench.USERNAME)], []
        names = set([bench.USERNAME])
        rows = []
        for user_id in range(2, USERS + 1):
            while True:
                username = f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}{rng.randint(1, 999)}"
                if username not in names:
                    break
            names.add(username)
            users.append((user_id, username))
            sharing = "household" if rng.random() < 0.3 else "private"
            if sharing == "household":
                sharing_ids.append(user_id)
            created = now - datetime.timedelta(minutes=rng.randrange(3 * 365 * 24 * 60))
            email = f"{username}@example.org" if rng.random() < 0.7 else None
            rows.append((user_id, username, username, email, email, password_hash, grdb_date(created),
                         rng.choice(current_lists) if rng.random() < 0.2 else None, sharing, 1 if user_id == 2 else 0,
                         grdb_date(now - datetime.timedelta(days=rng.randint(1, 300))) if rng.random() < 0.005 else None))
        db.executemany("INSERT INTO user (id, username, username_key, email, email_key, password_hash, created_at, default_list, "
                       "sharing, is_admin, disabled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        usernames = dict(users)

        # 500,000 items: 200 are the bench user's; the rest spread over the others, many with a few,
        # some with hundreds (log-normal), three quarters from the catalog and the rest imported.
        others = USERS - 1
        weights = [rng.lognormvariate(0, 1.1) for _ in range(others)]
        scale = (ITEMS - BENCH_ITEMS) / sum(weights)
        sizes = [min(2000, int(w * scale)) for w in weights]
        while sum(sizes) < ITEMS - BENCH_ITEMS:
            index = rng.randrange(others)
            if sizes[index] < 2000:
                sizes[index] += 1
        while sum(sizes) > ITEMS - BENCH_ITEMS:
            index = rng.randrange(others)
            if sizes[index] > 0:
                sizes[index] -= 1
        catalog = sample + pool
        sharing = set(sharing_ids)
        catalog_rows = [(b["id"], b["title"], b["author"], b["publisher"], b["description"], b["isbn10"], b["isbn13"], b["image_url"],
                         b["image_width"], b["image_height"], links_json(b["isbn13"])) for b in catalog]
        imported = [(title(rng), author(rng), rng.choice(PUBLISHERS), "978" + digits(rng, 10)) for _ in range(30_000)]
        item_id = BENCH_ITEMS
        owner_items = {}  # user -> [(item id, title, author, added)] for the reservations
        day_minutes = 2 * 365 * 24 * 60
        batch = []
        for offset, size in enumerate(sizes):
            user_id = offset + 2
            from_catalog = min(len(catalog_rows), round(size * 0.75))
            picks = [catalog_rows[i] for i in rng.sample(range(len(catalog_rows)), from_catalog)]
            own = [imported[i] for i in rng.sample(range(len(imported)), size - from_catalog)]
            keep = user_id in sharing
            mine = []
            for book in picks:
                item_id += 1
                added = grdb_date(now - datetime.timedelta(minutes=rng.randrange(day_minutes)))
                note = rng.choice(NOTES) if rng.random() < 0.1 else ""
                priority = 0 if rng.random() < 0.8 else rng.choice((1, -1))
                batch.append((item_id, user_id, book[0], book[1], book[2], book[3], book[4], book[5], book[6], book[7], book[8], book[9],
                              book[10], "[]", note, added, priority))
                if keep:
                    mine.append((item_id, book[1], book[2], added))
            for book_title, book_author, publisher, isbn in own:
                item_id += 1
                added = grdb_date(now - datetime.timedelta(minutes=rng.randrange(day_minutes)))
                batch.append((item_id, user_id, None, book_title, book_author, publisher, "", "", isbn, None, 0, 0, "[]", "[]", "", added, 0))
                if keep:
                    mine.append((item_id, book_title, book_author, added))
            if mine:
                owner_items[user_id] = mine
            if len(batch) >= 50_000:
                db.executemany(ITEM_INSERT, batch)
                batch = []
        db.executemany(ITEM_INSERT, batch)
        item_id = fill_children(db, rng, now, catalog_rows, sharing_ids, owner_items, usernames, item_id)

        # 5,000 reservations by givers on the lists shared with the household; a few outlived
        # their item (removed: item NULL) or the owner's account (deleted: owner NULL).
        owners = sorted(owner_items)
        reserved, rows = set(), []
        while len(rows) < RESERVATIONS:
            owner = rng.choice(owners)
            item, item_title, item_author, added = rng.choice(owner_items[owner])
            giver = rng.randint(1, USERS)
            if giver == owner or item in reserved:
                continue
            reserved.add(item)
            state = rng.random()  # under 0.03 the item was removed since; under 0.01 the owner's whole account
            rows.append((len(rows) + 1, None if state < 0.03 else item, giver, None if state < 0.01 else owner,
                         usernames[owner], item_title, item_author, max(added, grdb_date(now - datetime.timedelta(days=rng.randint(0, 300))))))
        db.executemany("INSERT INTO reservation (id, item_id, giver_id, owner_id, owner_name, title, author, reserved_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

        # Issue 51: five lists a member. The app's triggers made each member's default list and put
        # every item on it; four more each (a birthday list, Christmas, a dated one, a private
        # "Someday"), a tenth of her items copied onto one of the shared ones and a twentieth moved
        # to Someday, so that the household's pages filter what is shared out of a real mix.
        rows, list_id = [], db.execute("SELECT MAX(id) FROM wish_list").fetchone()[0]
        extra_lists = {}  # user -> (shared list ids, the private one)
        # The bench user (1) keeps her one list, so that her pages are the near-empty database's.
        for user_id in range(2, USERS + 1):
            created = grdb_date(now - datetime.timedelta(days=rng.randint(1, 700)))
            kinds = [("Birthday", "birthday", None, "household"), ("Christmas", "christmas", None, "household"),
                     ("Trip", "date", (now + datetime.timedelta(days=rng.randint(1, 300))).strftime("%Y-%m-%d"), "household"),
                     ("Someday", "none", None, "private")]
            ids = []
            for position, (name, occasion, day, visibility) in enumerate(kinds, start=1):
                list_id += 1
                ids.append(list_id)
                rows.append((list_id, user_id, name, occasion, day, visibility, position, created))
            extra_lists[user_id] = (ids[:3], ids[3])
        db.executemany("INSERT INTO wish_list (id, user_id, name, occasion, occasion_date, visibility, is_default, position, created_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)", rows)
        copied, moved = [], []
        for user_id, item in db.execute("SELECT user_id, id FROM wishlist_item WHERE user_id BETWEEN 2 AND ?", (USERS,)).fetchall():
            roll = rng.random()
            if roll < 0.1:
                copied.append((rng.choice(extra_lists[user_id][0]), item))
            elif roll < 0.15:
                moved.append((extra_lists[user_id][1], item))
        db.executemany("INSERT INTO wish_list_item (list_id, item_id) VALUES (?, ?)", copied + moved)
        db.executemany("DELETE FROM wish_list_item WHERE item_id = ? AND list_id != ?", [(item, private) for private, item in moved])
        counts["wish_list"] = len(rows) + USERS + CHILDREN  # and each member's and child's default one

        # Favourite lists, sessions (all live: idle under 14 days, younger than 30), links, passkeys.
        rows = []
        for user_id in range(2, USERS + 1):
            for name in rng.sample(current_lists, rng.choice((0, 0, 1, 2, 3, 4))):
                rows.append((user_id, name, grdb_date(now - datetime.timedelta(days=rng.randint(1, 700)))))
        db.executemany("INSERT INTO favorite_list (user_id, list_name_encoded, created_at) VALUES (?, ?, ?)", rows)
        rows = []
        for user_id in range(2, USERS + 1):
            for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 3))):
                created = now - datetime.timedelta(minutes=rng.randrange(25 * 24 * 60))
                seen = max(created, now - datetime.timedelta(minutes=rng.randrange(12 * 24 * 60)))
                rows.append((user_id, rng.randbytes(32), grdb_date(created), grdb_date(seen), rng.choice(AGENTS)))
        db.executemany("INSERT INTO session (user_id, token_hash, created_at, last_seen_at, user_agent) VALUES (?, ?, ?, ?, ?)", rows)
        counts["session"] = len(rows)
        linked = rng.sample(range(2, USERS + 1), 1_500)
        # Share links open a list (migration 34): these members' default ones.
        db.executemany("INSERT INTO share_link (list_id, token_hash, created_at) SELECT id, ?, ? FROM wish_list WHERE user_id = ? AND is_default",
                       [(rng.randbytes(32), grdb_date(now - datetime.timedelta(days=rng.randint(1, 400))), u) for u in linked[:1_000]])
        db.executemany("INSERT INTO feed_link (user_id, token_hash, created_at) VALUES (?, ?, ?)",
                       [(u, rng.randbytes(32), grdb_date(now - datetime.timedelta(days=rng.randint(1, 400)))) for u in linked[500:]])
        keyed = rng.sample(range(2, USERS + 1), 300)
        db.executemany("INSERT INTO passkey_user (user_id, handle) VALUES (?, ?)", [(u, rng.randbytes(32)) for u in keyed])
        db.executemany("INSERT INTO passkey (user_id, credential_id, public_key, sign_count, name, created_at, last_used_at) "
                       "VALUES (?, ?, ?, 0, ?, ?, ?)",
                       [(u, rng.randbytes(32), rng.randbytes(77), rng.choice(("iPhone", "YubiKey", "Pixel", "MacBook")),
                         grdb_date(now - datetime.timedelta(days=rng.randint(30, 300))),
                         grdb_date(now - datetime.timedelta(days=rng.randint(0, 29)))) for u in keyed])
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    finally:
        close_filled(db)
    return counts


def fill_children(db, rng, now, catalog_rows, sharing_ids, owner_items, usernames, item_id):
    """Issue 51: 1,000 children's profiles after the members, each managed by one or two members who
    share (never the bench user, whose pages stay the near-empty database's), with 5 to 40 books from
    the catalog on her default list, which the app's triggers make; her wants can be reserved."""
    rows, managers, items = [], [], []
    for child_id in range(USERS + 1, USERS + CHILDREN + 1):
        name = rng.choice(FIRST)
        username = f"{name.lower()}~{child_id}"
        birthday = f"{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" if rng.random() < 0.8 else None
        created = grdb_date(now - datetime.timedelta(days=rng.randint(1, 700)))
        rows.append((child_id, username, username, "", created, name, name.lower(), birthday))
        for manager in rng.sample(sharing_ids, rng.choice((1, 2, 2))):
            managers.append((child_id, manager, created))
        mine = []
        for book in rng.sample(catalog_rows, rng.randint(5, 40)):
            item_id += 1
            added = grdb_date(now - datetime.timedelta(days=rng.randint(0, 700)))
            items.append((item_id, child_id, *book[:11], "[]", "", added, 0))
            mine.append((item_id, book[1], book[2], added))
        owner_items[child_id] = mine
        usernames[child_id] = username
    db.executemany("INSERT INTO user (id, username, username_key, password_hash, created_at, kind, sharing, display_name, "
                   "display_name_key, birthday) VALUES (?, ?, ?, ?, ?, 'child', 'household', ?, ?, ?)", rows)
    db.executemany("INSERT INTO child_manager (child_id, manager_id, added_at) VALUES (?, ?, ?)", managers)
    db.executemany(ITEM_INSERT, items)
    return item_id


def table_counts(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = ["user", "session", "wishlist_item", "reservation", "favorite_list", "book", "catalog_list", "edition",
                 "edition_entry", "list_entry", "share_link", "feed_link", "passkey", "wish_list", "wish_list_item"]
        counts = {name: db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names}
        counts["current_lists"] = db.execute("SELECT COUNT(*) FROM catalog_list WHERE is_current").fetchone()[0]
        counts["bench_items"] = db.execute("SELECT COUNT(*) FROM wishlist_item WHERE user_id = 1").fetchone()[0]
        counts["children"] = db.execute("SELECT COUNT(*) FROM user WHERE kind = 'child'").fetchone()[0]
        return counts
    finally:
        db.close()


def check_database(path):
    """PRAGMA foreign_key_check and integrity_check; the size of the file and of its biggest tables."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        started = time.perf_counter()
        violations = db.execute("PRAGMA foreign_key_check").fetchall()
        fk_seconds = time.perf_counter() - started
        started = time.perf_counter()
        integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
        integrity_seconds = time.perf_counter() - started
        try:
            tables = db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8").fetchall()
        except sqlite3.Error:
            tables = []
    finally:
        db.close()
    if violations:
        die(f"{path}: PRAGMA foreign_key_check found {len(violations)} violations, e.g. {violations[:5]}")
    if integrity != ["ok"]:
        die(f"{path}: PRAGMA integrity_check: {integrity[:5]}")
    return {"bytes": os.path.getsize(path), "foreign_key_check_s": fk_seconds, "integrity_check_s": integrity_seconds,
            "largest": [[name, size] for name, size in tables]}


# MARK: - Migration from the previous schema

def undo_newest_migration(path):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        (newest,) = max(db.execute("SELECT identifier FROM grdb_migrations"), key=lambda row: int(row[0].split("-")[0]))
        if newest not in UNDO:
            die(f"scale.py does not know how to undo migration {newest}: add what it creates to UNDO")
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("BEGIN")
        for statement in UNDO[newest]:
            db.execute(statement)
        db.execute("DELETE FROM grdb_migrations WHERE identifier = ?", (newest,))
        db.execute("COMMIT")
    finally:
        db.close()
    return newest


def time_migration(big):
    """Median start (exec to the first 200 on /healthz) on the previous schema minus the median on an
    up-to-date copy, alternately, MIGRATION_ROUNDS times. The old copy is set back before each round."""
    old, current = os.path.join(RUN, "migrate-old.sqlite"), os.path.join(RUN, "migrate-current.sqlite")
    copy_database(big, old)
    copy_database(big, current)
    old_starts, current_starts, migration = [], [], None
    try:
        for round_number in range(MIGRATION_ROUNDS):
            migration = undo_newest_migration(old)
            server, seconds = start_app(old, f"migrate-old-{round_number}")
            server.stop()
            old_starts.append(seconds)
            server, seconds = start_app(current, f"migrate-current-{round_number}")
            server.stop()
            current_starts.append(seconds)
            log(f"start on the previous schema {old_starts[-1] * 1000:.0f} ms, up to date {current_starts[-1] * 1000:.0f} ms")
        schemas = []
        for path in (old, current):
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                schemas.append((sorted(row[0] for row in db.execute("SELECT identifier FROM grdb_migrations")),
                                db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()))
            finally:
                db.close()
        if schemas[0] != schemas[1]:
            die(f"after migrating the copy with {migration} undone, its schema differs from the up-to-date copy's: "
                f"UNDO[{migration!r}] does not undo exactly what the migration does")
    finally:
        remove_database(old)
        remove_database(current)
    return {"migration": migration, "old_starts_s": old_starts, "current_starts_s": current_starts,
            "seconds": statistics.median(old_starts) - statistics.median(current_starts)}


# MARK: - Query plans of the measured pages (SQL as in Sources/WishlistCore; EXPLAIN QUERY PLAN only)

def query_plans(path, star):
    ids = ", ".join("?" * 20)
    queries = [
        ("session lookup (every page)", "SELECT session.*, user.username, user.is_admin FROM session JOIN user ON user.id = session.user_id "
         "WHERE session.token_hash = ? AND user.disabled_at IS NULL", (b"x" * 32,)),
        ("wishlist count (every page)", "SELECT COUNT(*) FROM wishlist_item WHERE user_id = ?", (1,)),
        ("list page: books", "SELECT list_entry.rank, list_entry.rank_last_week, list_entry.weeks_on_list, book.* FROM list_entry "
         "JOIN book ON book.id = list_entry.book_id WHERE list_entry.list_name_encoded = ? ORDER BY list_entry.rank", (LIST,)),
        ("list page: previous edition", "SELECT MAX(edition.published_date) FROM edition JOIN catalog_list ON catalog_list.name_encoded = "
         "edition.list_name_encoded WHERE edition.list_name_encoded = ? AND edition.published_date < catalog_list.published_date", (LIST,)),
        ("list page: wishlist marks", "SELECT id, book_id FROM wishlist_item WHERE user_id = ? AND book_id IS NOT NULL", (1,)),
        ("list page: favourites", "SELECT list_name_encoded FROM favorite_list WHERE user_id = ?", (1,)),
        ("list page: earlier appearances", f"SELECT book_id, MAX(published_date) AS published_date, rank FROM edition_entry WHERE book_id IN "
         f"({', '.join('?' * 3)}) AND list_name_encoded = ? AND published_date < ? GROUP BY book_id", ("a", "b", "c", LIST, "2026-11-15")),
        ("list page: new on favourite lists (start page)", NEW_ENTRIES_SQL, (1, "-0 days", True, 200)),
        ("wishlist page: items", "SELECT * FROM wishlist_item WHERE user_id = ? ORDER BY added_at DESC, id DESC", (1,)),
        ("wishlist page: placements", "SELECT list_entry.book_id, list_entry.rank, catalog_list.name_encoded, catalog_list.display_name "
         "FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded WHERE catalog_list.is_current "
         f"AND list_entry.book_id IN ({ids}) ORDER BY list_entry.rank, catalog_list.display_name", tuple(str(i) for i in range(20))),
        ("book page: rank history", RANK_HISTORY_SQL, (star,)),
        ("book page: book and links", "SELECT kind, name, url FROM book_link WHERE book_id = ? ORDER BY kind, position", (star,)),
        # As HouseholdStore.Reader.wantsOfABook finds who here wants the book (the shown names left out), and the named ones whole.
        ("book page: who here wants it", "SELECT wishlist_item.id, owner.username, reservation.giver_id FROM wishlist_item "
         "JOIN user AS owner ON owner.id = wishlist_item.user_id LEFT JOIN reservation ON reservation.item_id = wishlist_item.id "
         "WHERE wishlist_item.book_id = ? AND wishlist_item.shared AND owner.id != ? AND owner.sharing = 'household' AND owner.disabled_at IS NULL",
         (star, 1)),
        ("book page: the wants it names, whole", "SELECT * FROM wishlist_item WHERE id IN (SELECT value FROM json_each(?))", ("[1, 2, 3]",)),
        ("search", SEARCH_SQL, (f'"{SEARCH}"*', 50)),
        ("search for a common word (the)", SEARCH_SQL, ('"the"*', 50)),
        ("sign-in: user", "SELECT * FROM user WHERE username_key = ?", ("bench",)),
        ("sign-in: throttle", "SELECT happened_at FROM throttle_event WHERE scope = ? AND happened_at > ? ORDER BY happened_at DESC LIMIT ?",
         ("login-account:bench", "2026-01-01", 5)),
        # As HouseholdStore.members(excluding:containing:page:) reads the 20th page of 100, and counts.
        ("people page: members, page 20", "SELECT user.id, user.username, (SELECT COUNT(*) FROM wishlist_item WHERE user_id = user.id) AS item_count "
         "FROM user WHERE sharing = 'household' AND id != ?1 AND (?2 = '' OR instr(username_key, ?2) > 0) "
         "ORDER BY username_key LIMIT ?3 OFFSET ?4", (1, "", 100, 1900)),
        ("people page: members counted", "SELECT COUNT(*) FROM user WHERE sharing = 'household' AND id != ?1 "
         "AND (?2 = '' OR instr(username_key, ?2) > 0)", (1, "")),
        ("shared list `/people/{username}`", "SELECT wishlist_item.*, reservation.giver_id AS giver_id, giver.username AS giver_name "
         "FROM wishlist_item LEFT JOIN reservation ON reservation.item_id = wishlist_item.id "
         "LEFT JOIN user AS giver ON giver.id = reservation.giver_id WHERE wishlist_item.user_id = ? AND ? != wishlist_item.user_id "
         "ORDER BY added_at DESC, id DESC", (2, 1)),
        # As Administration.accounts(containing:page:) reads the 50th page of 100, and a search.
        ("admin page: users, page 50", "SELECT user.id, user.username, user.created_at, user.is_admin, user.disabled_at, "
         "(SELECT MAX(last_seen_at) FROM session WHERE session.user_id = user.id) AS last_seen_at, "
         "(SELECT COUNT(*) FROM wishlist_item WHERE wishlist_item.user_id = user.id) AS item_count FROM user "
         "WHERE ?1 = '' OR instr(username_key, ?1) > 0 ORDER BY username_key LIMIT ?2 OFFSET ?3", ("", 100, 4900)),
        ("admin page: accounts counted", "SELECT COUNT(*) FROM user WHERE ?1 = '' OR instr(username_key, ?1) > 0", ("",)),
        ("admin page: names containing a search", "SELECT COUNT(*) FROM user WHERE ?1 = '' OR instr(username_key, ?1) > 0", ("user12",)),
        ("expired sessions purge (periodic)", "SELECT COUNT(*) FROM session WHERE created_at < ? OR last_seen_at < ?",
         ("2026-10-01", "2026-10-15")),
        ("gifts page", "SELECT reservation.id FROM reservation LEFT JOIN user AS owner ON owner.id = reservation.owner_id "
         "LEFT JOIN wishlist_item ON wishlist_item.id = reservation.item_id WHERE reservation.giver_id = ? "
         "ORDER BY reservation.owner_name COLLATE NOCASE, reservation.reserved_at DESC, reservation.id DESC", (1,)),
    ]
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    plans = []
    try:
        for name, sql, arguments in queries:
            started = time.perf_counter()
            for _ in range(5):
                db.execute(sql, arguments).fetchall()
            elapsed = (time.perf_counter() - started) / 5
            steps = [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, arguments)]
            plans.append({"query": name, "plan": steps, "python_sqlite_ms": elapsed * 1000})
    finally:
        db.close()
    return plans


SEARCH_SQL = ("SELECT book.* FROM book_search JOIN book ON book.id = book_search.book_id WHERE book_search MATCH ? "
              "AND EXISTS (SELECT 1 FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded "
              "WHERE list_entry.book_id = book.id AND catalog_list.is_current) "
              "ORDER BY (SELECT MIN(rank) FROM list_entry WHERE list_entry.book_id = book.id), book.title LIMIT ?")

NEW_ENTRIES_SQL = """
    WITH followed AS (
        SELECT edition.list_name_encoded, edition.published_date, catalog_list.display_name, catalog_list.frequency,
            (SELECT MAX(before.published_date) FROM edition AS before
             WHERE before.list_name_encoded = edition.list_name_encoded AND before.published_date < edition.published_date) AS previous_date
        FROM favorite_list
        JOIN catalog_list ON catalog_list.name_encoded = favorite_list.list_name_encoded AND catalog_list.is_current
        JOIN edition ON edition.list_name_encoded = catalog_list.name_encoded
        WHERE favorite_list.user_id = ?1 AND edition.published_date >= date(catalog_list.published_date, ?2)
            AND (NOT ?3 OR edition.published_date = catalog_list.published_date)
    )
    SELECT followed.*, entry.rank, book.*,
        entry.weeks_on_list > 1 OR EXISTS (
            SELECT 1 FROM edition_entry AS earlier
            WHERE earlier.book_id = entry.book_id AND earlier.list_name_encoded = entry.list_name_encoded
                AND earlier.published_date < followed.published_date
        ) AS is_returning
    FROM followed
    JOIN edition_entry AS entry
        ON entry.list_name_encoded = followed.list_name_encoded AND entry.published_date = followed.published_date
    JOIN book ON book.id = entry.book_id
    WHERE CASE WHEN followed.previous_date IS NULL THEN entry.rank_last_week = 0
        ELSE NOT EXISTS (
            SELECT 1 FROM edition_entry AS before
            WHERE before.book_id = entry.book_id AND before.list_name_encoded = entry.list_name_encoded
                AND before.published_date = followed.previous_date
        ) END
    ORDER BY followed.published_date DESC, followed.display_name, entry.rank
    LIMIT ?4
"""

RANK_HISTORY_SQL = """
    SELECT edition.list_name_encoded, catalog_list.display_name, catalog_list.frequency,
        edition.published_date, mine.rank
    FROM edition
    JOIN catalog_list ON catalog_list.name_encoded = edition.list_name_encoded
    LEFT JOIN edition_entry AS mine ON mine.book_id = ?1
        AND mine.list_name_encoded = edition.list_name_encoded AND mine.published_date = edition.published_date
    WHERE edition.list_name_encoded IN (SELECT DISTINCT list_name_encoded FROM edition_entry WHERE book_id = ?1)
        AND edition.published_date >= (
        SELECT MIN(first.published_date) FROM edition_entry AS first
        WHERE first.book_id = ?1 AND first.list_name_encoded = edition.list_name_encoded
    )
    ORDER BY catalog_list.display_name, edition.list_name_encoded, edition.published_date
"""

SLOW_QUERY_MS = 5
BIG_TABLES = ("wishlist_item", "edition_entry", "edition", "user", "session", "reservation", "favorite_list", "book", "book_link")


def full_scans(plans):
    """Plan steps that read a big table whole (no index to narrow it)."""
    found = []
    for plan in plans:
        for step in plan["plan"]:
            match = re.match(r"SCAN (\w+)(?: AS (\w+))?(.*)", step)
            if match and match.group(1) in BIG_TABLES:
                found.append(f"{plan['query']}: {step}")
    return found


# MARK: - Pages

PAGES = [
    ("list", "list page `GET /lists/hardcover-fiction`"),
    ("wishlist", "wishlist page, first 100 of 200 items `GET /wishlist`"),
    ("book", "book page, 104 weeks on 3 lists `GET /books/{id}`"),
    ("search", f"search `GET /search?q={SEARCH}`"),
    ("signin", f"sign-in `POST /login` (Argon2id; {SIGNIN_CONNECTIONS} conn.)"),
]


class Site:
    """One running app on one database, signed in as bench, with what its pages look like."""

    def __init__(self, label, database, star):
        self.label, self.database, self.star = label, database, star

    def start(self):
        self.server, self.start_seconds = start_app(self.database, f"serve-{self.label}")
        port = self.port = self.server.port
        self.cookie = f"wishlist_session={bench.sign_in(port)}"
        self.paths = {"list": f"/lists/{LIST}", "wishlist": "/wishlist", "book": f"/books/{self.star}",
                      "search": f"/search?q={urllib.parse.quote(SEARCH)}"}
        self.bytes = {}
        expectations = {
            "list": lambda page: len(re.findall(r'<li class="book"[^>]* data-book=', page)) == len(self.list_books()),
            "wishlist": lambda page: page.count('class="book wishlist-item"') == min(BENCH_ITEMS, WISHLIST_PAGE_ROWS),
            "book": lambda page: page.count('<svg class="rank-chart-svg"') == len(STAR_LISTS),
            "search": lambda page: len(re.findall(r'<li class="book"[^>]* data-book=', page)) == 3,
        }
        for name, path in self.paths.items():
            status, _, page, _ = bench.http_request(port, "GET", path, {"Cookie": self.cookie})
            if status != 200 or not expectations[name](page):
                with open(os.path.join(RUN, f"{self.label}-{name}.html"), "w") as saved:
                    saved.write(page)
                die(f"{self.label}: GET {path} answered {status} without what it should show; saved in {RUN}")
            self.bytes[name] = len(page.encode())
        # A few sequential requests of each page first: SQLite's and the app's caches, warmed alike.
        for path in self.paths.values():
            for _ in range(20):
                bench.http_request(port, "GET", path, {"Cookie": self.cookie})

    def list_books(self):
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            return db.execute("SELECT book_id FROM list_entry WHERE list_name_encoded = ?", (LIST,)).fetchall()
        finally:
            db.close()

    def measure(self, name):
        url = f"http://127.0.0.1:{self.port}"
        script_name = f"scale-{name}-{self.label}"
        if name == "signin":
            visitors = [bench.anonymous_visitor(self.port) for _ in range(SIGNIN_CONNECTIONS)]
            script = (f"username = {bench.lua_string(bench.USERNAME)}\npassword = {bench.lua_string(urllib.parse.quote(bench.PASSWORD))}\n"
                      "visitors = {\n" + ",\n".join(f"  {{ cookie = {bench.lua_string(c)}, csrf = {bench.lua_string(urllib.parse.quote(t, safe=''))} }}"
                                                    for c, t in visitors)
                      + "\n}\n" + open(os.path.join(HERE, "signin.lua")).read())
            argv = bench.wrk(script_name, url + "/login", 2, SIGNIN_CONNECTIONS, SECONDS, script, timeout="30s")
        else:
            # Each request at an address of its own, so each reads the database: a repeated request
            # would reuse the first one's read (PageReadMemo) and measure no query at all.
            script = f"path = {bench.lua_string(self.paths[name])}\n" + open(os.path.join(HERE, "distinct.lua")).read()
            argv = bench.wrk(script_name, url + self.paths[name], 2, CONNECTIONS, SECONDS, script,
                             extra=("-H", f"Cookie: {self.cookie}"))
        cpu = self.server.cpu_seconds()
        figures = bench.run_wrk(argv)
        figures["cpu_us_per_request"] = (self.server.cpu_seconds() - cpu) * 1e6 / max(1, figures["requests"])
        figures["bytes_per_page"] = self.bytes.get(name)
        return figures

    def stop(self):
        self.server.stop()


def measure_pages(small, big, results):
    rows = results["pages"] = {}
    sites = [Site("small", small, results["star"]), Site("big", big, results["star"])]
    try:
        for site in sites:
            site.start()
            results[f"{site.label}_start_s"] = site.start_seconds
        for name, label in PAGES:
            rows[name] = {}
            for site in sites:
                connections = SIGNIN_CONNECTIONS if name == "signin" else CONNECTIONS
                log(f"{label}: {site.label} database, {SECONDS} s, {connections} connections")
                figures = rows[name][site.label] = site.measure(name)
                log(f"  {figures['rps']:,.1f} req/s, p50 {figures['p50_us'] / 1000:.2f} ms, p99 {figures['p99_us'] / 1000:.2f} ms, "
                    f"{figures['errors']} errors, {figures['cpu_us_per_request']:.0f} µs server CPU a request")
    finally:
        for site in sites:
            if getattr(site, "server", None):
                site.stop()


# MARK: - Report

def render_report(results):
    def ms(us):
        return f"{us / 1000:.2f}" if us < 10_000 else f"{us / 1000:.0f}"

    lines = ["| page | small: req/s | p50 ms | p99 ms | big: req/s | p50 ms | p99 ms | big / small p50 | p99 | req/s | "
             "server CPU µs a request, small / big | bytes small / big | errors | within 1.5× |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    verdicts = []
    for name, label in PAGES:
        small, big = results["pages"][name]["small"], results["pages"][name]["big"]
        p50, p99 = big["p50_us"] / small["p50_us"], big["p99_us"] / small["p99_us"]
        ok = p50 <= BUDGET_RATIO and p99 <= BUDGET_RATIO and big["errors"] == 0 and small["errors"] == 0
        verdicts.append((label, ok, p50, p99))
        size = f"{small['bytes_per_page']:,} / {big['bytes_per_page']:,}" if small.get("bytes_per_page") else "—"
        lines.append(f"| {label} | {small['rps']:,.0f} | {ms(small['p50_us'])} | {ms(small['p99_us'])} | {big['rps']:,.0f} | "
                     f"{ms(big['p50_us'])} | {ms(big['p99_us'])} | {p50:.2f}× | {p99:.2f}× | {big['rps'] / small['rps']:.2f}× | "
                     f"{small['cpu_us_per_request']:,.0f} / {big['cpu_us_per_request']:,.0f} | {size} | "
                     f"{small['errors']} / {big['errors']} | {'**met**' if ok else '**missed**'} |")
    table = "\n".join(lines)

    counts, big_check, small_check = results["big_counts"], results["big_check"], results["small_check"]
    household = results.get("star_household")
    migration = results["migration"]
    mb = 1e6
    met = sum(1 for _, ok, _, _ in verdicts if ok)
    notes = [
        f"- Budget, each page's p50 and p99 on the big database within {BUDGET_RATIO}× of the near-empty one's (and no errors): "
        f"**{met} of {len(verdicts)} met**"
        + ("" if met == len(verdicts) else " — missed: " + ", ".join(f"{label.split(' `')[0]} ({p50:.2f}× / {p99:.2f}×)"
                                                                   for label, ok, p50, p99 in verdicts if not ok)) + ".",
        f"- Big database: {counts['user']:,} users ({counts['children']:,} of them children's profiles), {counts['wishlist_item']:,} wishlist items (bench: {counts['bench_items']}), "
        f"{counts['edition']:,} editions of {counts['current_lists']} current lists ({WEEKLY_LISTS} weekly, {WEEKS} weeks back; "
        f"the 2 monthly ones 2 years) with {counts['edition_entry']:,} entries of {counts['book']:,} books, "
        f"{counts['reservation']:,} reservations, {counts['favorite_list']:,} favourite lists, {counts['session']:,} sessions, "
        f"{counts['wish_list']:,} members' lists holding {counts['wish_list_item']:,} wants: "
        f"**{big_check['bytes'] / mb:,.0f} MB**"
        + (f", built in {results['generation_s']:.0f} s" if results.get("generation_s") else "")
        + f"; foreign_key_check and integrity_check clean ({big_check['foreign_key_check_s']:.1f} s and "
        f"{big_check['integrity_check_s']:.1f} s from Python). Near-empty database: the sample catalog, the bench user with the same "
        f"200 items, {results['small_counts']['edition']:,} editions (the book's two years on three lists, as `make bench`), "
        + (f"and the big database's {household['wants']} shared wants of that book with their {household['people']} owners and "
           "givers, so that its page names the same people on both: " if household else "")
        + f"{small_check['bytes'] / mb:.1f} MB.",
        f"- Migration from the previous schema (`{migration['migration']}` undone by hand on a copy of the big database): "
        f"**{migration['seconds'] * 1000:.0f} ms** — the median start, exec to the first 200 on `/healthz`, on that copy "
        f"({statistics.median(migration['old_starts_s']) * 1000:.0f} ms) minus the median on an up-to-date copy "
        f"({statistics.median(migration['current_starts_s']) * 1000:.0f} ms), {len(migration['old_starts_s'])} alternate starts each. "
        f"It creates {CREATES.get(migration['migration'], 'its tables')}; GRDB then checks every foreign key of the database "
        "(PRAGMA foreign_key_check) before it commits. "
        f"Start before the measurements: {results['small_start_s'] * 1000:.0f} ms on the near-empty database, "
        f"{results['big_start_s'] * 1000:.0f} ms on the big one.",
    ]
    scans = full_scans(results["query_plans"])
    slow = [plan for plan in results["query_plans"] if plan["python_sqlite_ms"] >= SLOW_QUERY_MS]
    notes.append("- Queries of these pages (and of the people, shared-list, gifts and admin pages) on the big database, `EXPLAIN QUERY PLAN` in "
                 "scale.json: " + ("no full scan of a big table" if not scans else "full scans: " + "; ".join(f"`{s}`" for s in scans))
                 + "; " + ("none takes " if not slow else "taking ")
                 + f"{SLOW_QUERY_MS} ms or more in Python's sqlite3"
                 + ("." if not slow else ": " + "; ".join(f"{plan['query']} {plan['python_sqlite_ms']:.0f} ms" for plan in slow) + "."))
    header = (f"Command: `{os.environ.get('BENCH_COMMAND', 'make bench-scale')}` · {results['started']} · {results['cores']} cores "
              f"shared by wrk and the server, load average before the run {results['load_before']} · {results['seconds']} s per page "
              f"and database, {CONNECTIONS} connections (sign-in {SIGNIN_CONNECTIONS}), both databases served at once by the same "
              "release build, each page measured on the small database then on the big one")
    if results.get("reused"):
        header += " · **databases reused from an earlier run (BENCH_SCALE_REUSE=1)**"
    if results.get("experiment"):
        header += f" · **experiment: {results['experiment']}**"
    return header + "\n\n" + table + "\n\n" + "\n".join(notes) + "\n"


def update_readme(report):
    start, end = "<!-- scale-results:start -->", "<!-- scale-results:end -->"
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


# MARK: - The run

def main():
    for tool, path in [("wrk", shutil.which("wrk")), ("the app's release build", bench.APP)]:
        if not path or not os.path.exists(path):
            die(f"{tool} is missing; run `make bench-scale`, which builds and installs everything")
    os.makedirs(RUN, exist_ok=True)
    began = time.perf_counter()
    load_before = open("/proc/loadavg").read().split()[:3]
    results = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "load_before": " ".join(load_before), "cores": os.cpu_count(), "seconds": SECONDS, "connections": CONNECTIONS,
               "reused": REUSE, "experiment": bench.EXPERIMENT}
    base, small, big = (os.path.join(RUN, f"{name}.sqlite") for name in ("base", "small", "big"))
    facts = os.path.join(RUN, "databases.json")
    if REUSE:
        if not (os.path.exists(small) and os.path.exists(big) and os.path.exists(facts)):
            die(f"BENCH_SCALE_REUSE=1 but {RUN} has no databases from an earlier run")
        with open(facts) as saved:
            results.update(json.load(saved))
        log("reusing the databases of an earlier run")
        results["query_plans"] = query_plans(big, results["star"])
    else:
        now = datetime.datetime.now(datetime.timezone.utc)
        password_hash, _ = make_base(base)
        copy_database(base, small)
        copy_database(base, big)
        remove_database(base)
        star = fill_small(small, now)["book"]
        log(f"small database: {BENCH_ITEMS} items for {bench.USERNAME}; book {star} on {len(STAR_LISTS)} lists for {WEEKS} weeks")
        log(f"big database: generating {USERS:,} users, {ITEMS:,} items, {WEEKS} weeks of {WEEKLY_LISTS} weekly lists, "
            f"{RESERVATIONS:,} reservations")
        started = time.perf_counter()
        generated = fill_big(big, password_hash, star, now)
        results["generation_s"] = time.perf_counter() - started
        log(f"big database generated in {results['generation_s']:.1f} s ({generated['pool_books']:,} synthetic books)")
        people, wants = give_small_the_stars_household(small, big, star)
        results["star_household"] = {"people": people, "wants": wants}
        log(f"small database: the {people} people around book {star} on the big one, with its {wants} shared wants; checking both")
        results["star"] = star
        results["small_check"], results["big_check"] = check_database(small), check_database(big)
        results["small_counts"], results["big_counts"] = table_counts(small), table_counts(big)
        log(f"checks clean; small {results['small_check']['bytes'] / 1e6:.1f} MB, big {results['big_check']['bytes'] / 1e6:.0f} MB "
            f"(foreign_key_check {results['big_check']['foreign_key_check_s']:.1f} s, integrity_check "
            f"{results['big_check']['integrity_check_s']:.1f} s)")
        log("migration from the previous schema: starts on a copy with the newest migration undone and on an up-to-date copy")
        results["migration"] = time_migration(big)
        log(f"migration {results['migration']['migration']}: {results['migration']['seconds'] * 1000:.0f} ms")
        results["query_plans"] = query_plans(big, star)
        with open(facts, "w") as saved:
            json.dump({key: results[key] for key in ("star", "star_household", "small_check", "big_check", "small_counts", "big_counts", "migration",
                                                     "query_plans", "generation_s")}, saved, indent=2)
    for scan in full_scans(results["query_plans"]):
        log(f"full scan on the big database: {scan}")

    measure_pages(small, big, results)
    results["total_s"] = time.perf_counter() - began
    name = "scale-experiment" if bench.EXPERIMENT else "scale"
    with open(os.path.join(OUT, f"{name}.json"), "w") as raw:
        json.dump(results, raw, indent=2)
    report = render_report(results)
    with open(os.path.join(OUT, f"{name}.md"), "w") as out:
        out.write(report)
    print()
    print(report)
    log(f"written to {os.path.relpath(os.path.join(OUT, name + '.md'), ROOT)} in {results['total_s']:.0f} s")
    if os.environ.get("BENCH_UPDATE_README", "1") != "0" and not bench.EXPERIMENT and not REUSE:
        update_readme(report)


if __name__ == "__main__":
    main()
