"""The household's "wanted by" counts (`ReadingStore.Reader.wantedCounts`, issue 34) on a copy of
the scale database, as they were and as migration 23 and the rewritten query read them. Python 3
standard library only; the system's SQLite, as the app's.

    python3 Benchmarks/server/standings.py [.build/bench/mix/pristine.sqlite]

Copies the database (bench-mix's, built by `make bench-mix`; never changed here) to a temporary
file. Before: the query as it was (`JOIN`, SQLite's choice of order) on the schema as it was.
After: on the copy, the index migration 23 adds (and the one it drops), and the query with
`CROSS JOIN`; between them, the `CROSS JOIN` on the old schema, to tell the order's part
from the index's. Each for a list page's 15 books (the first current list's, by rank) and a search's
5 (the best 5 matches of `harbor`), RUNS times; prints the plan and the fastest and median run.
"""
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time

RUNS = 15
SHARING = "user.sharing = 'household' AND user.disabled_at IS NULL"
BEFORE = f"""SELECT book_id, COUNT(*) FROM wishlist_item JOIN user ON user.id = wishlist_item.user_id
WHERE book_id IN (SELECT value FROM json_each(?)) AND {SHARING} GROUP BY book_id"""
AFTER = BEFORE.replace("JOIN user", "CROSS JOIN user")
MIGRATION_23 = [
    "CREATE INDEX wishlist_item_by_book_and_user ON wishlist_item (book_id, user_id)",
    "DROP INDEX wishlist_item_by_book",
]


def books(db):
    listed = [row[0] for row in db.execute(
        "SELECT book_id FROM list_entry WHERE list_name_encoded = "
        "(SELECT name_encoded FROM catalog_list WHERE is_current ORDER BY name_encoded LIMIT 1) ORDER BY rank LIMIT 15")]
    found = [row[0] for row in db.execute("SELECT book_id FROM book_search WHERE book_search MATCH '\"harbor\"*' ORDER BY rank LIMIT 5")]
    return [("a list's %d books" % len(listed), listed), ("a search's %d books (harbor)" % len(found), found)]


def measure(db, label, query):
    plan = " / ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + query, ["[]"]))
    print(f"{label}: {plan}")
    for name, ids in books(db):
        argument = json.dumps(ids)
        times, wishes = [], 0
        for _ in range(RUNS):
            start = time.perf_counter()
            wishes = sum(count for _, count in db.execute(query, [argument]).fetchall())
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"  {name}: fastest {times[0]:.2f} ms, median {times[RUNS // 2]:.2f} ms ({wishes} wishes counted)")


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else ".build/bench/mix/pristine.sqlite"
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "scale.sqlite")
        shutil.copyfile(source, copy)
        db = sqlite3.connect(copy)
        print(f"SQLite {sqlite3.sqlite_version}, {RUNS} runs each")
        measure(db, "before", BEFORE)
        measure(db, "the CROSS JOIN alone, without migration 23", AFTER)
        for statement in MIGRATION_23:
            db.execute(statement)
        db.commit()
        measure(db, "after", AFTER)
        db.close()


if __name__ == "__main__":
    main()
