"""E-mail in a real browser (issue 31), against a real SMTP server: aiosmtpd on loopback with
STARTTLS and AUTH required (mail_server.py), and the app's own server (`configured_server`).

- Sign-up with an address sends a confirmation link; opening it from the received message
  confirms the address in Settings.
- "Forgot your password?" end to end: the link in the message sets a new password.
- An admin's invite goes by mail, and its link makes an account.
- The weekly digest: news from the favourite lists, with a one-click unsubscribe (RFC 8058) that
  works without signing in.
- Faults: the SMTP server down (the message waits on /admin, and goes once the server is back,
  across a restart of the app), a 550 (final, shown on /admin with the server's words) and a wrong
  SMTP password (a clear line on /admin and in the log, the password in neither).
- At rest (issue 50): no byte of the database, its -wal or a backup taken while a message waited
  holds the token of a link that was delivered, and the link works.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import urllib.request
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By

from mail_server import PASSWORD as SMTP_PASSWORD, MailServer, body_text, link_in
from support import (
    PASSWORD, REPO_ROOT, Browser, accessibility_problems, at_public_url, chromium, fill, follow, sign_in, sign_out, signed_in_as, unique_username,
)

BINARY = Path(os.environ.get("WISHLIST_BIN", REPO_ROOT / ".build" / "debug" / "wishlist"))


def sign_up_with_address(browser: Browser, username: str, address: str) -> None:
    browser.visit("/signup", "sign-up-form")
    fill(browser, "username", username)
    fill(browser, "email", address)
    fill(browser, "password", PASSWORD)
    fill(browser, "password_confirm", PASSWORD)
    follow(browser, browser.driver.find_element(By.ID, "signup-submit"))
    assert browser.path != "/signup", "sign-up failed"


def confirm_address(browser: Browser, smtp: MailServer, address: str) -> None:
    message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Confirm your e-mail address")
    browser.visit(link_in(message, "/verify-email/"), "address-confirmed")
    assert "your e-mail address is confirmed" in browser.driver.find_element(By.ID, "verified-message").text


def promote(workdir: Path, username: str) -> None:
    subprocess.run([str(BINARY), "user", "promote", username, "--database", str(workdir / "e2e.sqlite")], check=True, capture_output=True)


@pytest.fixture(scope="module")
def smtp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServer]:
    with MailServer(tmp_path_factory.mktemp("smtp")) as server:
        yield server


@pytest.fixture(scope="module")
def mail_app(configured_server, smtp: MailServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    workdir = tmp_path_factory.mktemp("mail-app")
    with configured_server("mail-app", {"mail": smtp.settings()}, workdir=workdir) as base_url:
        yield base_url, workdir


def test_a_new_address_is_confirmed_from_the_message(mail_app, smtp: MailServer, request: pytest.FixtureRequest) -> None:
    base_url, _ = mail_app
    name, address = unique_username("ann"), f"{unique_username('ann')}@example.com"
    with chromium(at_public_url(base_url), request.node.name) as browser:
        sign_up_with_address(browser, name, address)
        browser.visit("/settings/email", "settings-unconfirmed")
        assert browser.driver.find_elements(By.ID, "email-unverified"), "the address is not confirmed yet"
        message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address)
        assert message["From"].addresses[0].addr_spec == "wishlist@example.com"
        assert message["Message-ID"] and message["Date"]
        assert message.get_body(preferencelist=("html",)) is not None, "text and HTML alternatives"
        assert "<img" not in message.get_body(preferencelist=("html",)).get_content(), "no tracking pictures"
        confirm_address(browser, smtp, address)
        browser.visit("/settings/email", "settings-confirmed")
        assert browser.driver.find_elements(By.ID, "email-verified")


def test_forgot_password_end_to_end(mail_app, smtp: MailServer, request: pytest.FixtureRequest) -> None:
    base_url, _ = mail_app
    name, address = unique_username("bo"), f"{unique_username('bo')}@example.com"
    with chromium(at_public_url(base_url), request.node.name) as browser:
        sign_up_with_address(browser, name, address)
        confirm_address(browser, smtp, address)
        sign_out(browser)
        browser.visit("/login", "sign-in")
        follow(browser, browser.driver.find_element(By.ID, "forgot-link"), "forgot-form")
        fill(browser, "name_or_email", address)
        follow(browser, browser.driver.find_element(By.ID, "forgot-submit"), "forgot-sent")
        answer = browser.driver.find_element(By.ID, "forgot-answer").text
        message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Set a new password")
        browser.visit(link_in(message, "/reset/"), "reset-form")
        fill(browser, "new_password", "a whole new passphrase")
        fill(browser, "new_password_confirm", "a whole new passphrase")
        follow(browser, browser.driver.find_element(By.ID, "reset-submit"), "reset-done")
        sign_in(browser, name, "a whole new passphrase")
        assert signed_in_as(browser) == name
        # Someone who asks for a name that does not exist reads the same words.
        sign_out(browser)
        browser.visit("/forgot")
        fill(browser, "name_or_email", "nobody-" + name)
        follow(browser, browser.driver.find_element(By.ID, "forgot-submit"))
        assert browser.driver.find_element(By.ID, "forgot-answer").text == answer


def test_an_invite_goes_by_mail_and_makes_an_account(mail_app, smtp: MailServer, request: pytest.FixtureRequest) -> None:
    base_url, workdir = mail_app
    admin, friend = unique_username("admin"), f"{unique_username('friend')}@example.com"
    with chromium(at_public_url(base_url), request.node.name) as browser:
        sign_up_with_address(browser, admin, f"{admin}@example.com")
        promote(workdir, admin)
        browser.visit("/admin#invites", "admin")
        fill(browser, "invite-email", friend)
        follow(browser, browser.driver.find_element(By.ID, "invite-create"), "invite-mailed")
        assert f"on its way to {friend}" in browser.driver.find_element(By.ID, "new-link-once").text
        message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == friend)
        assert admin in message["Subject"]
        sign_out(browser)
        browser.visit(link_in(message, "/signup?invite="), "invited-sign-up")
        newcomer = unique_username("newcomer")
        fill(browser, "username", newcomer)
        fill(browser, "password", PASSWORD)
        fill(browser, "password_confirm", PASSWORD)
        follow(browser, browser.driver.find_element(By.ID, "signup-submit"))
        assert signed_in_as(browser) == newcomer


def test_the_digest_brings_news_and_unsubscribes_in_one_click(configured_server, smtp: MailServer, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The digest is queued when the server starts and every hour after: the test turns it on,
    then restarts the server in the same folder, as an upgrade or a reboot would."""
    name, address = unique_username("reader"), f"{unique_username('reader')}@example.com"
    with configured_server("digest", {"mail": smtp.settings()}, workdir=tmp_path) as base_url:
        with chromium(at_public_url(base_url), request.node.name) as browser:
            sign_up_with_address(browser, name, address)
            confirm_address(browser, smtp, address)
            browser.visit("/lists", "catalog")
            follow(browser, browser.driver.find_element(By.CSS_SELECTOR, ".favorite-form button[type='submit']"), "favourite-added")
            browser.visit("/settings/email")
            browser.driver.find_element(By.ID, "digest-weekly").click()
            follow(browser, browser.driver.find_element(By.ID, "digest-submit"), "digest-on")
            assert browser.driver.find_element(By.ID, "digest-weekly").is_selected()
    with configured_server("digest", {"mail": smtp.settings()}, workdir=tmp_path) as base_url:
        digest = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Your week in books")
        text = body_text(digest)
        assert "New on your favourite lists" in text
        unsubscribe = digest["List-Unsubscribe"].strip("<>")
        assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert unsubscribe in text, "the link is in the message too"
        # The mail provider's one-click POST: no cookie, no CSRF token.
        one_click = urllib.request.Request(unsubscribe, data=b"List-Unsubscribe=One-Click", method="POST",
                                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(one_click, timeout=5) as response:
            assert response.status == 200
        with chromium(at_public_url(base_url), request.node.name + "-after") as browser:
            sign_in(browser, name)
            browser.visit("/settings/email", "digest-off")
            assert not browser.driver.find_element(By.ID, "digest-weekly").is_selected()


def outbox_rows(browser: Browser) -> list[tuple[str, str]]:
    """(state, server's answer) of each row of /admin's mail table."""
    browser.visit("/admin#mail", "admin-mail")
    return [(row.get_attribute("data-state"), row.find_element(By.CSS_SELECTOR, ".mail-reply").text)
            for row in browser.driver.find_elements(By.CSS_SELECTOR, "#mail-outbox tbody tr")]


def test_mail_waits_while_the_server_is_down_and_goes_after_a_restart(configured_server, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    smtp = MailServer(tmp_path)  # not started: down
    name, address = unique_username("patient"), f"{unique_username('patient')}@example.com"
    with configured_server("mail-down", {"mail": smtp.settings()}, workdir=tmp_path) as base_url:
        with chromium(at_public_url(base_url), request.node.name) as browser:
            sign_up_with_address(browser, name, address)
            promote(tmp_path, name)
            rows = outbox_rows(browser)
            assert [state for state, _ in rows] == ["waiting"], rows
    with smtp, configured_server("mail-down", {"mail": smtp.settings()}, workdir=tmp_path):
        message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address)
        assert message["Subject"] == "Confirm your e-mail address"


def holds(token: str, data: bytes) -> bool:
    """Whether `token` is in `data` as itself or inside base64: a message's parts are base64 in
    lines of 76, so line ends are left out and each of the three alignments is tried."""
    raw = token.encode()
    if raw in data:
        return True
    unwrapped = data.replace(b"\r", b"").replace(b"\n", b"")
    for skipped in range(3):
        aligned = raw[skipped:]
        if base64.b64encode(aligned[: len(aligned) // 3 * 3]) in unwrapped:
            return True
    return False


def database_bytes(path: Path) -> bytes:
    """The database file and its write-ahead log: what copying the folder would take."""
    wal = path.with_name(path.name + "-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def test_no_copy_of_the_database_holds_a_mailed_link(configured_server, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """A confirmation waits while the SMTP server is down and a backup is taken; once the server is
    back the link is delivered, then a password-reset link: neither token is in the backup, nor in
    the database or its -wal while the link is still unused, and both links work."""
    smtp = MailServer(tmp_path)  # not started: down
    name, address = unique_username("sealed"), f"{unique_username('sealed')}@example.com"
    database, backup = tmp_path / "e2e.sqlite", tmp_path / "while-waiting.sqlite"
    with configured_server("sealed", {"mail": smtp.settings()}, workdir=tmp_path) as base_url:
        with chromium(at_public_url(base_url), request.node.name) as browser:
            sign_up_with_address(browser, name, address)
        subprocess.run([str(BINARY), "backup", str(backup), "--database", str(database)], check=True, capture_output=True)
    with smtp, configured_server("sealed", {"mail": smtp.settings()}, workdir=tmp_path) as base_url:
        confirmation = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Confirm your e-mail address")
        link = link_in(confirmation, "/verify-email/")
        token = urlsplit(link).path.rsplit("/", 1)[1]
        assert holds(token, confirmation.as_bytes()), "the check finds a token in a message"
        assert not holds(token, backup.read_bytes()), "the backup taken while the message waited"
        assert not holds(token, database_bytes(database)), "the database after delivery"
        with chromium(at_public_url(base_url), request.node.name + "-back") as browser:
            # The link names the port of the run that made it; this run listens on another.
            browser.visit(urlsplit(link).path, "address-confirmed")
            assert "your e-mail address is confirmed" in browser.driver.find_element(By.ID, "verified-message").text
            browser.visit("/forgot", "forgot-form")
            fill(browser, "name_or_email", address)
            follow(browser, browser.driver.find_element(By.ID, "forgot-submit"), "forgot-sent")
            reset = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Set a new password")
            reset_link = link_in(reset, "/reset/")
            assert not holds(urlsplit(reset_link).path.rsplit("/", 1)[1], database_bytes(database)), "the database after delivery"
            browser.visit(reset_link, "reset-form")
            assert browser.driver.find_elements(By.ID, "reset-submit"), "the link still works"


def test_a_refused_message_fails_for_good_and_a_wrong_password_is_named(configured_server, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    with MailServer(tmp_path) as smtp:
        smtp.answer = "550 5.1.1 No such mailbox here"
        name = unique_username("refused")
        refusing = tmp_path / "550"
        refusing.mkdir()
        with configured_server("mail-550", {"mail": smtp.settings()}, workdir=refusing) as base_url:
            with chromium(at_public_url(base_url), request.node.name) as browser:
                sign_up_with_address(browser, name, f"{name}@example.com")
                promote(refusing, name)
                for _ in range(50):
                    rows = outbox_rows(browser)
                    if rows and rows[0][0] == "failed":
                        break
                assert rows == [("failed", "550 5.1.1 No such mailbox here")], rows
        smtp.answer = None
        wrong = "wrong-Pa55word-for-smtp"
        workdir = tmp_path / "auth"
        workdir.mkdir()
        with configured_server("mail-auth", {"mail": smtp.settings(password=wrong)}, workdir=workdir) as base_url:
            with chromium(at_public_url(base_url), request.node.name + "-auth") as browser:
                sign_up_with_address(browser, name, f"{name}@example.com")
                promote(workdir, name)
                for _ in range(50):
                    rows = outbox_rows(browser)
                    if rows and rows[0][1]:
                        break
                assert rows[0][0] == "waiting" and "refused the user name and password" in rows[0][1], rows
                assert wrong not in browser.driver.page_source
        log = (workdir / "server.log").read_text(errors="replace")
        assert "refused the user name and password" in log
        assert wrong not in log and SMTP_PASSWORD not in log


def test_the_pages_mail_adds_are_accessible(mail_app, smtp: MailServer, request: pytest.FixtureRequest) -> None:
    """The sign-in page with its "Forgot your password?", the forgot form and its answer, Settings'
    e-mail section before and after confirming, the confirmation page, /admin's mail section and the
    unsubscribe page: axe-core's WCAG A and AA rules at both widths and in both colour schemes, and
    reflow at 320 px, as test_accessibility.py checks every other page."""
    base_url, workdir = mail_app
    name, address = unique_username("a11y"), f"{unique_username('a11y')}@example.com"
    with chromium(at_public_url(base_url), request.node.name) as browser:
        browser.visit("/login", "mail-login")
        found = accessibility_problems(browser, "sign-in")
        browser.visit("/forgot", "forgot")
        found += accessibility_problems(browser, "forgot")
        fill(browser, "name_or_email", "nobody-" + name)
        follow(browser, browser.driver.find_element(By.ID, "forgot-submit"))
        found += accessibility_problems(browser, "forgot, answered")
        sign_up_with_address(browser, name, address)
        promote(workdir, name)
        browser.visit("/settings/email", "settings-email-unconfirmed")
        found += accessibility_problems(browser, "settings, unconfirmed")
        message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address)
        browser.visit(link_in(message, "/verify-email/"))
        found += accessibility_problems(browser, "address confirmed")
        browser.visit("/admin#mail", "admin-mail")
        found += accessibility_problems(browser, "admin")
        browser.visit("/unsubscribe/" + "u" * 43, expect_status=404)
        found += accessibility_problems(browser, "unsubscribe, unknown link")
    assert not found, "\n".join(found)


def test_wishlist_mail_test_reports_the_servers_answer(tmp_path: Path) -> None:
    """`wishlist mail test ADDRESS` against the real server: accepted, deferred (451 and 421 are
    retried by the outbox), refused (550, final), a stall mid-DATA (the timeout ends the try) and a
    wrong password, each named in the server's words, the password never printed."""
    def mail_test(settings: dict) -> subprocess.CompletedProcess:
        config = tmp_path / "config.json"
        config.write_text(json.dumps({"mail": settings}), encoding="utf-8")
        return subprocess.run(
            [str(BINARY), "mail", "test", "ann@example.com", "--config", str(config), "--database", str(tmp_path / "db.sqlite")],
            capture_output=True, text=True, timeout=60,
        )

    with MailServer(tmp_path) as smtp:
        sent = mail_test(smtp.settings())
        assert sent.returncode == 0 and "the server answered 250" in sent.stdout, sent
        assert smtp.wait_for(lambda m: m["Subject"] == "Bestseller Wishlist: a test message")
        for answer in ("451 4.3.0 Try again later", "421 4.7.0 Too busy", "550 5.1.1 No such mailbox"):
            smtp.answer = answer
            refused = mail_test(smtp.settings())
            assert refused.returncode == 1 and f"not sent: {answer}" in refused.stderr, refused
        smtp.answer, smtp.stall = None, True
        stalled = mail_test(smtp.settings())
        assert stalled.returncode == 1 and "no answer in time" in stalled.stderr, stalled
        smtp.stall = False
        wrong = mail_test(smtp.settings(password="not-the-Pa55word"))
        assert wrong.returncode == 1 and "refused the user name and password" in wrong.stderr, wrong
        assert "not-the-Pa55word" not in wrong.stderr + wrong.stdout
    down = mail_test(smtp.settings())
    assert down.returncode == 1 and "not sent" in down.stderr, down
