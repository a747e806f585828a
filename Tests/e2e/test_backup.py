"""Backups, as the README tells an admin to take and restore them.

A backup is taken with `wishlist backup` while sign-ups keep writing to the running server; a new
server then runs on the restored copy, and every sign-up the first server acknowledged before
the backup began is there and can sign in.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from support import REPO_ROOT, unique_username
from test_cli import BINARY, environment, free_port, run, wait_until_serving

PASSWORD = "backed up and restored"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # the 303 itself is the acknowledgement
        return None


def post_form(base_url: str, path: str, fields: dict[str, str]) -> int:
    """Loads `path` for its CSRF token in a fresh cookie jar, posts `fields`, returns the status."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect)
    page = opener.open(base_url + path, timeout=10).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({**fields, "csrf_token": token}).encode()
    try:
        return opener.open(base_url + path, data=body, timeout=30).status
    except urllib.error.HTTPError as answer:
        return answer.code


def sign_up(base_url: str, name: str) -> int:
    return post_form(base_url, "/signup", {"username": name, "email": "", "password": PASSWORD, "password_confirm": PASSWORD})


def test_a_backup_under_write_load_restores_every_acknowledged_write(server: str, tmp_path: Path) -> None:
    live = os.environ["WISHLIST_E2E_DATABASE"]
    acknowledged: list[tuple[float, str]] = []
    stop = threading.Event()

    def write_load() -> None:
        while not stop.is_set():
            name = unique_username("bk")
            if sign_up(server, name) == 303:
                acknowledged.append((time.monotonic(), name))

    writers = [threading.Thread(target=write_load) for _ in range(2)]
    for writer in writers:
        writer.start()
    try:
        # The load is under way once five sign-ups were acknowledged; a writer that died (a server
        # that stopped answering) must fail the test within a minute, not hang it.
        deadline = time.monotonic() + 60
        while len(acknowledged) < 5:
            assert time.monotonic() < deadline, f"only {len(acknowledged)} sign-ups acknowledged in 60 s"
            assert any(writer.is_alive() for writer in writers), "every writer stopped before five sign-ups"
            writers[0].join(timeout=0.05)
        started = time.monotonic()
        backup = tmp_path / "backup.sqlite"
        result = run("backup", str(backup), "--database", live)
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert result.returncode == 0, result.stderr
    assert "integrity check: ok" in result.stdout
    before = [name for when, name in acknowledged if when < started]
    assert before

    # Restore as the README says: the backup becomes the database of a server that is stopped.
    restored = tmp_path / "restored" / "wishlist.sqlite"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    with sqlite3.connect(restored) as db:
        names = {row[0] for row in db.execute("SELECT username FROM user")}
    missing = [name for name in before if name not in names]
    assert not missing, f"acknowledged before the backup began, missing after restoring: {missing}"

    log = tmp_path / "restored.log"
    port = free_port()
    with open(log, "wb") as output:
        restored_server = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--database", str(restored)],
            cwd=REPO_ROOT, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(restored_server, base, log)
        assert post_form(base, "/login", {"username": before[-1], "password": PASSWORD, "next": ""}) == 303
    finally:
        restored_server.terminate()
        restored_server.wait(timeout=10)


def test_backup_refuses_a_missing_folder_and_a_bad_keep(tmp_path: Path) -> None:
    database = str(tmp_path / "db.sqlite")
    assert run("migrate", "--database", database).returncode == 0
    missing = run("backup", str(tmp_path / "nowhere" / "copy.sqlite"), "--database", database)
    assert missing.returncode == 1
    assert "does not exist" in missing.stderr
    assert run("backup", str(tmp_path), "--keep", "0", "--database", database).returncode == 2
    rotated = run("backup", str(tmp_path), "--keep", "2", "--database", database)
    assert rotated.returncode == 0, rotated.stderr
    (written,) = tmp_path.glob("wishlist-*.sqlite")
    assert str(written) in rotated.stdout
