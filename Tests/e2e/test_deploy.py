"""The deployment files and `make install`, as the README's "Install on a server" uses them."""

from __future__ import annotations

import json
import shutil
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from reverse_proxies import PROXIES, Visitor, authelia_fake, header_echo, reverse_proxy
from support import REPO_ROOT, http_get, unique_username
from test_backup import free_port
from test_cli import BINARY, environment, wait_until_serving

DEPLOY = REPO_ROOT / "deploy"
UNITS = ["wishlist.service", "wishlist-backup.service", "wishlist-backup.timer"]


def unit_settings(name: str) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / name).read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    # The units name the installed binary; verify them against the one built here.
    for name in UNITS:
        text = (DEPLOY / name).read_text().replace("/usr/local/bin/wishlist", str(BINARY))
        (tmp_path / name).write_text(text)
    verified = subprocess.run(
        ["systemd-analyze", "verify", *[str(tmp_path / name) for name in UNITS]],
        capture_output=True, text=True, timeout=60,
    )
    assert verified.returncode == 0 and not verified.stderr.strip(), verified.stderr


def test_the_service_is_confined() -> None:
    service = unit_settings("wishlist.service")
    for key, value in {
        "User": "wishlist", "ProtectSystem": "strict", "NoNewPrivileges": "yes", "StateDirectory": "bestseller-wishlist",
        "Restart": "on-failure", "PrivateTmp": "yes", "ProtectHome": "yes", "CapabilityBoundingSet": "",
    }.items():
        assert service.get(key) == [value], f"wishlist.service: {key}={service.get(key)}"
    assert service["ExecStart"] == ["/usr/local/bin/wishlist serve"]
    assert "WISHLIST_HOST=127.0.0.1" in service["Environment"], "only the reverse proxy faces the network"
    assert "WISHLIST_SECURE_COOKIES=true" in service["Environment"], "behind HTTPS, cookies are HTTPS-only and HSTS is sent"
    assert "WISHLIST_TRUSTED_PROXIES=127.0.0.1,::1" in service["Environment"], "the proxy on this machine is believed, nobody else"
    backup = unit_settings("wishlist-backup.service")
    assert backup["ExecStart"] == ["/usr/local/bin/wishlist backup /var/lib/bestseller-wishlist/backups --keep 14"]
    assert backup["User"] == ["wishlist"] and backup["ProtectSystem"] == ["strict"]


def make_install(tmp_path: Path) -> tuple[Path, Path]:
    """`make install` of the debug build into `tmp_path`: returns the prefix and the folder that
    stands for /etc, so this machine's own /etc is never touched."""
    prefix, etc = tmp_path / "prefix", tmp_path / "etc"
    installed = subprocess.run(
        ["make", "install", f"PREFIX={prefix}", f"SYSCONFDIR={etc}", "INSTALL_CONFIGURATION=debug"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=900,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return prefix, etc


def test_make_install_gives_a_binary_that_finds_its_views_and_catalog(tmp_path: Path) -> None:
    prefix, _ = make_install(tmp_path)
    app = prefix / "lib" / "bestseller-wishlist"
    assert (prefix / "bin" / "wishlist").resolve() == (app / "wishlist").resolve()
    for part in ["Views/layout.html", "Public/style.css", "deploy/wishlist.service"]:
        assert (app / part).is_file(), part

    # Run as the unit does: from the app's folder, with the repository out of reach.
    port = free_port()
    log = tmp_path / "installed.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(prefix / "bin" / "wishlist"), "serve", "--port", str(port), "--database", str(tmp_path / "state" / "db.sqlite")],
            cwd=app, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(server, base, log)
        assert http_get(base + "/static/style.css")[0] == 200
        status, _, body = http_get(base + "/login")
        assert status == 200 and b"Sign in" in body
        with sqlite3.connect(tmp_path / "state" / "db.sqlite") as db:
            (lists,) = db.execute("SELECT COUNT(*) FROM catalog_list WHERE is_current").fetchone()
        assert lists > 0, "the installed binary found the sample catalog beside it"
    finally:
        server.terminate()
        server.wait(timeout=10)
    shutil.rmtree(prefix)


def mode(path: Path) -> str:
    return oct(stat.S_IMODE(path.stat().st_mode))


def test_make_install_leaves_the_key_file_readable_by_root_only(tmp_path: Path) -> None:
    # The file the unit reads the NYT key from, which README step 3 has the admin fill in.
    assert unit_settings("wishlist.service")["EnvironmentFile"] == ["-/etc/bestseller-wishlist/env"]
    _, etc = make_install(tmp_path)
    folder, env_file = etc / "bestseller-wishlist", etc / "bestseller-wishlist" / "env"
    assert mode(folder) == "0o755"
    assert mode(env_file) == "0o600", "the key's file is made readable by its owner only"
    assert env_file.read_text() == ""

    # A key in a file that became readable by others: the next install (an upgrade) keeps the key
    # and takes the others' access away.
    env_file.write_text("NYT_API_KEY=kept-across-installs\n")
    env_file.chmod(0o644)
    make_install(tmp_path)
    assert mode(env_file) == "0o600", "an install takes group and others' access to the key away"
    assert env_file.read_text() == "NYT_API_KEY=kept-across-installs\n"


# ---------------------------------------------------------------------------------------------
# The reverse proxies (Debian's nginx and Caddy) with the files in deploy/ (issue 50)


@pytest.mark.parametrize("authelia", [False, True], ids=["plain", "authelia"])
@pytest.mark.parametrize("kind", PROXIES)
def test_the_proxies_name_the_visitor_and_drop_a_forwarded_header_they_wrote(kind: str, authelia: bool, tmp_path: Path) -> None:
    with header_echo() as upstream, authelia_fake("alice") as authz, \
            reverse_proxy(kind, tmp_path / kind, upstream, authz if authelia else None) as (scheme, port):
        visitor = Visitor(scheme, port, source="127.0.0.9")
        forged = {"Forwarded": "for=198.51.100.7", "X-Forwarded-For": "198.51.100.8", "Remote-User": "mallory"}
        status, body = visitor.request("GET", "/wishlist", headers=forged)
        assert status == 200, body
        arrived = json.loads(body)
    assert arrived.get("x-forwarded-for") == "127.0.0.9", "the proxy names the visitor, whatever they wrote"
    assert "forwarded" not in arrived, f"the visitor's own Forwarded reached the app: {arrived.get('forwarded')}"
    if authelia:
        assert arrived.get("remote-user") == "alice", "the name Authelia vouched for, not the visitor's"


@contextmanager
def app_as_the_unit_runs_it(tmp_path: Path) -> Iterator[int]:
    """`wishlist serve` with deploy/wishlist.service's environment (trusted proxies, secure cookies,
    the default limits), on a free port and a database of the test's: yields the port."""
    settings = dict(line.split("=", 1) for line in unit_settings("wishlist.service")["Environment"])
    port = free_port()
    settings.update({"WISHLIST_PORT": str(port), "WISHLIST_DATABASE": str(tmp_path / "state" / "wishlist.sqlite")})
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(BINARY), "serve"], cwd=REPO_ROOT, env=environment(settings),
            stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(server, f"http://127.0.0.1:{port}", log)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def forged(number: int) -> dict[str, str]:
    """Both forwarding headers, naming a new address on each request, as a script would write them."""
    return {"Forwarded": f"for=198.51.100.{number}", "X-Forwarded-For": f"203.0.113.{number}"}


def sign_up(visitor: Visitor, headers: dict[str, str] | None = None) -> int:
    password = "a long enough passphrase"
    fields = {"username": unique_username("fw"), "email": "", "password": password, "password_confirm": password}
    return visitor.post_form("/signup", fields, headers)


@pytest.mark.parametrize("kind", PROXIES)
def test_through_the_proxies_a_visitor_cannot_name_an_address_to_escape_the_limits(kind: str, tmp_path: Path) -> None:
    """The review's finding: with Forwarded preferred and passed on by both proxies, 40 wrong
    passwords never met the limit of 20 and 14 sign-ups passed the limit of 10."""
    with app_as_the_unit_runs_it(tmp_path) as app_port, reverse_proxy(kind, tmp_path / kind, app_port) as (scheme, port):
        guesser = Visitor(scheme, port, source="127.0.0.2")
        guesses = [
            guesser.post_form("/login", {"username": f"nobody{number}", "password": "wrong guess", "next": ""}, forged(number))
            for number in range(40)
        ]
        assert guesses == [422] * 20 + [429] * 20, f"the per-address limit of 20 wrong passwords: {guesses}"

        # Each sign-up from a fresh browser (a new account is signed in), all from one address.
        signups = [sign_up(Visitor(scheme, port, source="127.0.0.3"), forged(number)) for number in range(11)]
        assert signups == [303] * 10 + [429], f"the per-address limit of 10 sign-ups: {signups}"

        # Visitors are still told apart: the proxy's X-Forwarded-For is believed, and another
        # visitor is neither of the two above.
        assert sign_up(Visitor(scheme, port, source="127.0.0.4")) == 303


def export_of_many_megabytes(rows: int) -> bytes:
    """A Goodreads export of `rows` to-read books the catalog lacks, each with a 4 KB review (a column
    the import reads past), so that a few hundred rows make megabytes."""
    header = "Book Id,Title,Author,ISBN,ISBN13,Exclusive Shelf,My Review"
    review = "A long review. " * 270
    lines = [header] + [f'{900 + row},"Proxy Test Book {row}",Ada Finchley,,,to-read,"{review}"' for row in range(rows)]
    return ("\r\n".join(lines) + "\r\n").encode()


@pytest.mark.parametrize("kind", PROXIES)
def test_through_the_proxies_a_large_export_imports_and_a_larger_upload_is_refused_with_413(kind: str, tmp_path: Path) -> None:
    """nginx's deploy file took 3 MB at most, from when imports were 2 MiB; they are 20 MiB now."""
    with app_as_the_unit_runs_it(tmp_path) as app_port, reverse_proxy(kind, tmp_path / kind, app_port) as (scheme, port):
        member = Visitor(scheme, port, source="127.0.0.5")
        assert sign_up(member) == 303
        member.request("GET", "/wishlist")
        export = export_of_many_megabytes(1_000)
        assert len(export) > 4_000_000
        status, page = member.post_file("/wishlist/import", "file", "goodreads_library_export.csv", export)
        assert status == 200 and b'id="import-summary"' in page, f"the import through {kind} answered {status}"
        assert b'<li id="import-added"><strong>1000</strong> added</li>' in page, "every row of the export was imported"
        # Over the app's largest (20 MiB), the proxy says so before a byte of the body is sent: a 413, not a 502.
        assert member.status_of_a_declared_body("/wishlist/import", 30_000_000) == 413
