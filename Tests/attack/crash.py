#!/usr/bin/python3
"""`make crash`: concurrent wishlist writes while `wishlist serve` is killed with kill -9.

Every round starts the server on the same database (a temporary one), lets several clients, each
signed in as its own user, add and remove wishlist items through HTTP as fast as they can, and kills
the server with SIGKILL at a random moment. Then, with the server dead, the SQLite file is read
directly:

- `PRAGMA integrity_check` must answer `ok`;
- every acknowledged add (a 303 whose confirmation cookie names the new item, `added-<id>`) must
  still be there, for the right user and book, unless a later removal of it was attempted;
- every acknowledged removal (a 303 to `POST /wishlist/<id>/delete`) must be gone.

A request the kill interrupted was not acknowledged: either outcome is allowed, and the clients
learn the truth from the file before the next round. After the last round the server starts once
more and each user's wishlist page must list exactly the items in the file.

The randomness (kill moments, books, adds or removals) comes from one seed, printed at the start;
`--seed` repeats a run's choices (thread timing still varies). Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import random
import re
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import harness as h

CLIENTS = 4
PASSWORD = "crash-test-password-0123"
KILL_AFTER_S = (0.2, 2.5)  # the kill comes this long after the server answered /healthz
REQUEST_TIMEOUT_S = 5.0
ROUND_DEADLINE_S = 30.0  # clients stop trying this long after a round starts, whatever happens

_FLASH = re.compile(r"wishlist_flash=(added|already)-(\d+)")


@dataclass
class Write:
    kind: str  # "add" or "remove"
    user: int
    book: str
    item: int
    round: int


@dataclass
class ClientState:
    """What one client knows of its own user's wishlist: book -> item id, for items it believes present."""
    index: int
    username: str
    client: h.Client
    user_id: int = 0
    present: dict[str, int] = field(default_factory=dict)
    acknowledged: list[Write] = field(default_factory=list)
    # Item ids a removal was attempted for, acknowledged or not: an earlier add of them can't be checked.
    removal_attempted: set[int] = field(default_factory=set)
    attempts: int = 0
    failures: int = 0
    errors: list[str] = field(default_factory=list)  # answers no write should get


def read_database(database: Path) -> tuple[str, dict[int, tuple[int, str | None]]]:
    """(integrity_check's answer, {item id: (user id, book id)}) straight from the file."""
    connection = sqlite3.connect(database, timeout=10)
    try:
        integrity = "; ".join(row[0] for row in connection.execute("PRAGMA integrity_check").fetchall())
        items = {row[0]: (row[1], row[2]) for row in connection.execute("SELECT id, user_id, book_id FROM wishlist_item")}
        return integrity, items
    finally:
        connection.close()


def catalog_books(client: h.Client) -> list[str]:
    status, _, text = client.get("/lists")
    if status != 200:
        raise h.Failure(f"/lists answered {status}")
    books: list[str] = []
    for name in sorted(set(re.findall(r'href="/lists/([a-z0-9-]+)"', text))):
        books += h.book_ids(client, name)
    return sorted(set(books))


def client_loop(state: ClientState, port: int, books: list[str], rng: random.Random, round_number: int,
                stop: threading.Event, deadline: float) -> None:
    """Adds and removes items until the server stops answering (it was killed) or `stop` is set."""
    state.client.port = port
    while not stop.is_set() and time.monotonic() < deadline:
        state.attempts += 1
        remove = state.present and (len(state.present) >= 12 or rng.random() < 0.45)
        try:
            if remove:
                book = rng.choice(sorted(state.present))
                item = state.present[book]
                state.removal_attempted.add(item)
                del state.present[book]  # unknown until acknowledged; the file says after the round
                status, _, _ = state.client.post(f"/wishlist/{item}/delete", [], timeout=REQUEST_TIMEOUT_S)
                if status == 303:
                    state.acknowledged.append(Write("remove", state.user_id, book, item, round_number))
                elif status != 404:  # 404: an unacknowledged earlier removal had gone through
                    raise h.Failure(f"removing item {item} answered {status}")
            else:
                book = rng.choice([b for b in books if b not in state.present])
                state.client.set_cookies.clear()
                status, _, _ = state.client.post("/wishlist", [("book", book), ("return_to", "/wishlist")], timeout=REQUEST_TIMEOUT_S)
                if status != 303:
                    raise h.Failure(f"adding book {book} answered {status}")
                found = next((m for m in map(_FLASH.search, state.client.set_cookies) if m), None)
                if found is None:
                    raise h.Failure(f"adding book {book} answered 303 without naming the item: {state.client.set_cookies}")
                item = int(found.group(2))
                state.present[book] = item
                state.acknowledged.append(Write("add", state.user_id, book, item, round_number))
        except OSError:
            # Refused, reset or cut short: the server is gone. This request is not acknowledged.
            state.failures += 1
            stop.set()
            return
        except h.Failure as failure:
            state.errors.append(f"round {round_number}, {state.username}: {failure}")
            stop.set()
            return


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None, help="repeat an earlier run's random choices")
    parser.add_argument("--clients", type=int, default=CLIENTS)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    print(f"crash: seed {seed} (repeat with --seed {seed}), {args.rounds} rounds, {args.clients} clients", flush=True)
    rng = random.Random(seed)
    started = time.monotonic()
    log_path = h.REPO_ROOT / ".build" / "attack" / "crash-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.unlink(missing_ok=True)
    problems: list[str] = []

    with tempfile.TemporaryDirectory(prefix="wishlist-crash-") as temporary:
        database = Path(temporary) / "crash.sqlite"
        states = []
        for index in range(args.clients):
            username = f"crash{index}"
            h.create_user(database, username, PASSWORD)
            states.append(ClientState(index, username, h.Client(0)))
        server: h.Server | None = None
        try:
            checked = lost = 0
            books: list[str] = []
            for round_number in range(1, args.rounds + 1):
                server = h.Server(database, h.free_port(), log_path)
                server.start()
                if round_number == 1:
                    for state in states:
                        state.client.port = server.port
                        state.client.sign_in(state.username, PASSWORD)  # the session outlives every restart
                        state.user_id = read_user_id(database, state.username)
                    books = catalog_books(states[0].client)
                round_checked, round_lost = crash_round(server, database, states, books, rng, round_number, problems)
                checked += round_checked
                lost += round_lost

            # The server reads the recovered file: every user's wishlist page shows exactly its items.
            server = h.Server(database, h.free_port(), log_path)
            server.start()
            _, items = read_database(database)
            for state in states:
                state.client.port = server.port
                status, _, text = state.client.get("/wishlist")
                shown = {int(i) for i in re.findall(r'href="/wishlist/(\d+)"', text)}
                expected = {item for item, (user, _) in items.items() if user == state.user_id}
                if status != 200 or shown != expected:
                    problems.append(f"after restart, {state.username}'s wishlist page ({status}) shows {sorted(shown)}, the file has {sorted(expected)}")
            code = server.stop()
            if code != 0:
                problems.append(f"the server did not stop cleanly on SIGTERM after the last round (exit code {code})")
        finally:
            if server is not None:
                server.kill()  # whatever went wrong, no server outlives the test

    writes = sum(len(s.acknowledged) for s in states)
    attempts = sum(s.attempts for s in states)
    print(f"crash: {args.rounds} rounds in {time.monotonic() - started:.0f} s, seed {seed}")
    print(f"crash: {attempts} write requests, {writes} acknowledged; acknowledged writes checked: {checked}, lost: {lost}")
    for problem in problems:
        print(f"  {problem}")
    if lost or problems or checked == 0:
        print("crash: FAILED")
        return 1
    print("crash: passed")
    return 0


def crash_round(
    server: h.Server, database: Path, states: list[ClientState], books: list[str], rng: random.Random,
    round_number: int, problems: list[str],
) -> tuple[int, int]:
    """Writes from every client until kill -9 at a random moment, then checks the file."""
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=client_loop,
            args=(state, server.port, books, random.Random(rng.random()), round_number, stop,
                  time.monotonic() + ROUND_DEADLINE_S),
            daemon=True,
        )
        for state in states
    ]
    acknowledged_before = sum(len(s.acknowledged) for s in states)
    for thread in threads:
        thread.start()
    kill_after = rng.uniform(*KILL_AFTER_S)
    time.sleep(kill_after)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT_S + 5)
        if thread.is_alive():
            raise h.Failure(f"round {round_number}: a client did not stop after the kill")

    integrity, items = read_database(database)
    if integrity != "ok":
        problems.append(f"round {round_number}: PRAGMA integrity_check said {integrity!r}")
    for state in states:
        problems += state.errors
        state.errors.clear()
    checked, lost = verify(states, items, problems, round_number)
    for state in states:  # learn the truth about unacknowledged requests
        state.present = {book: item for item, (user, book) in items.items() if user == state.user_id and book}
    acknowledged = sum(len(s.acknowledged) for s in states) - acknowledged_before
    print(f"  round {round_number:2}: killed after {kill_after:.2f} s, {acknowledged} acknowledged writes, "
          f"{len(items)} items in the file, integrity {integrity}", flush=True)
    return checked, lost


def read_user_id(database: Path, username: str) -> int:
    connection = sqlite3.connect(database, timeout=10)
    try:
        return connection.execute("SELECT id FROM user WHERE username = ?", (username,)).fetchone()[0]
    finally:
        connection.close()


def verify(states: list[ClientState], items: dict[int, tuple[int, str | None]], problems: list[str],
           round_number: int) -> tuple[int, int]:
    """Checks this round's acknowledged writes against the file; returns (checked, lost)."""
    checked = lost = 0
    for state in states:
        for write in state.acknowledged:
            if write.round != round_number:
                continue
            if write.kind == "add":
                if write.item in state.removal_attempted:
                    continue  # removed later, or maybe: this add can't be checked on its own
                checked += 1
                if items.get(write.item) != (write.user, write.book):
                    lost += 1
                    problems.append(f"round {round_number}: acknowledged add of item {write.item} (book {write.book}, "
                                    f"{state.username}) is {'missing' if write.item not in items else items[write.item]}")
            else:
                checked += 1
                if write.item in items:
                    lost += 1
                    problems.append(f"round {round_number}: acknowledged removal of item {write.item} ({state.username}) is undone")
    return checked, lost


if __name__ == "__main__":
    try:
        sys.exit(main())
    except h.Failure as failure:
        print(f"crash: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
