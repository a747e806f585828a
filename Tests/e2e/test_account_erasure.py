"""A deleted account's words are nowhere in the database's files, even in a server killed the moment
after (issue 50): a small account's note and e-mail address used to stay in the write-ahead log.

The real binary serves a new database; two members write words found nowhere else, one deletes
her account in Settings and the other is deleted with `wishlist user delete` while the server
runs; then the server is killed with SIGKILL, and the bytes of the database, its `-wal` and its
`-shm` are searched.
"""

from __future__ import annotations

import http.cookiejar
import re
import signal
import sqlite3
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from support import REPO_ROOT, unique_username
from test_backup import NoRedirect
from test_cli import BINARY, environment, free_port, run, wait_until_serving

PASSWORD = "erased for good"


class Visitor:
    """A browser without a browser: its cookies, and the CSRF token of the last page it loaded."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect)
        self.token = ""

    def get(self, path: str) -> str:
        page = self.opener.open(self.base_url + path, timeout=30).read().decode()
        if found := re.search(r'name="csrf_token" value="([^"]+)"', page):
            self.token = found.group(1)
        return page

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        """The answer's status and where it redirects."""
        body = urllib.parse.urlencode({**fields, "csrf_token": self.token}).encode()
        try:
            answer = self.opener.open(self.base_url + path, data=body, timeout=30)
            return answer.status, answer.headers.get("Location", "")
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers.get("Location", "")


def member_with_words(base_url: str) -> tuple[Visitor, str, list[str]]:
    """A new member with an e-mail address and a wishlist note, each unlike anything else."""
    name = unique_username("erased")
    words = [f"Quokka marmalade note {name} zv3", f"{name}.kx7@example.com"]
    visitor = Visitor(base_url)
    visitor.get("/signup")
    signed_up = visitor.post("/signup", {"username": name, "email": words[1], "password": PASSWORD, "password_confirm": PASSWORD})
    assert signed_up[0] == 303, signed_up
    book = re.search(r'data-book="([^"]+)"', visitor.get("/lists/hardcover-fiction")).group(1)
    assert visitor.post("/wishlist", {"book": book, "return_to": "/wishlist"})[0] == 303
    item = re.search(r'data-item="(\d+)"', visitor.get("/wishlist")).group(1)
    assert visitor.post(f"/wishlist/{item}", {"note": words[0], "priority": "normal"})[0] == 303
    return visitor, name, words


def files_holding(database: Path, words: list[str]) -> dict[str, list[str]]:
    """Each word, with the files among the database, its -wal and -shm whose bytes hold it."""
    files = [database, Path(f"{database}-wal"), Path(f"{database}-shm")]
    contents = {path.name: path.read_bytes() for path in files if path.exists()}
    return {word: [name for name, data in contents.items() if word.encode() in data] for word in words}


def test_a_deleted_accounts_words_are_in_no_file_after_a_kill(tmp_path: Path) -> None:
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    database = tmp_path / "wishlist.sqlite"
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--database", str(database)],
            cwd=REPO_ROOT, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(server, base_url, log)
        in_settings, settings_name, settings_words = member_with_words(base_url)
        _, command_line_name, command_line_words = member_with_words(base_url)
        words = settings_words + command_line_words
        assert all(files_holding(database, words).values()), "the search finds their words before"

        in_settings.get("/settings/data")
        assert in_settings.post("/settings/delete-account", {"password": PASSWORD}) == (303, "/login")
        deleted = run("user", "delete", command_line_name, "--database", str(database))
        assert deleted.returncode == 0, deleted.stderr
        # The moment after: nothing the server would do at a clean exit gets its turn.
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    left = {word: files for word, files in files_holding(database, words).items() if files}
    assert not left, f"after deleting and SIGKILL, their words are still in: {left}\n{log.read_text()}"
    with sqlite3.connect(database) as db:
        names = {row[0] for row in db.execute("SELECT username FROM user")}
    assert not {settings_name, command_line_name} & names, "the accounts were not deleted"
