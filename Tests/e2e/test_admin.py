"""Running a server in a real browser: the admin page, disabling an account, a password-reset link,
and sign-up by invitation.

The admins are made on the command line (`wishlist user create --admin`) against the database of
a running server, as the person who installs the app does; everyone else signs up through the
form. Each person has a Chromium of their own, so every session is separate, and a link handed
over is opened in a fresh Chromium that has never signed in. The invite story starts a server of
its own with `accounts.signup: "invite"`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from conftest import _public_url
from support import (
    PASSWORD, REPO_ROOT, Browser, fill, follow, http_get, open_me_menu, sign_in, sign_up, signed_in_as, unique_username,
)
from test_backup import free_port
from test_cli import BINARY, environment, run, wait_until_serving
from test_household import another_browser, assert_well_made, flash_text, heading, text_of

GENERIC_FAILURE = "Wrong username or password."
NEW_PASSWORD = "a new passphrase from the reset link 🔒"
REFUSED_SIGN_IN = 422  # the sign-in form re-rendered with the generic message
GONE = 410  # a one-time link that was used (or has expired)


# ---------------------------------------------------------------------------------------------
# Helpers


def make_admin(database: str | Path) -> str:
    """An admin made on the command line against `database`; returns the username (password PASSWORD)."""
    name = unique_username("admin")
    created = run("user", "create", name, "--admin", "--password-stdin", "--database", str(database), stdin=PASSWORD + "\n")
    assert created.returncode == 0, created.stderr
    return name


def open_admin(browser: Browser, shot: str) -> None:
    """Admin in the navigation's Me menu, marked as the current page once there."""
    open_me_menu(browser)
    link = browser.driver.find_element(By.ID, "nav-admin")
    assert text_of(link) == "Admin", text_of(link)
    follow(browser, link, shot)
    assert browser.path == "/admin", browser.driver.current_url
    assert heading(browser) == "Admin", heading(browser)
    assert browser.driver.find_element(By.ID, "nav-admin").get_attribute("aria-current") == "page"


def user_row(browser: Browser, name: str) -> WebElement:
    found = browser.driver.find_elements(By.CSS_SELECTOR, f'#users tr[data-user="{name}"]')
    assert len(found) == 1, f"{name} is listed {len(found)} times in #users on {browser.driver.current_url}"
    return found[0]


def press(browser: Browser, row: WebElement, action: str, shot: str) -> None:
    """Presses the row's button whose form posts to .../`action`."""
    follow(browser, row.find_element(By.CSS_SELECTOR, f'form[action$="/{action}"] button[type="submit"]'), shot)


def tags(row: WebElement) -> list[str]:
    return [text_of(tag) for tag in row.find_elements(By.CSS_SELECTOR, ".tag")]


def new_link(browser: Browser, public_url: str) -> str:
    """The link the admin just made, shown this once in a read-only field, as handed over.

    It leads to the server's public URL (`server.publicURL`), never to the host the admin page was
    opened at (the base URL, 127.0.0.1): the link must not follow the request's Host header."""
    field = browser.driver.find_element(By.ID, "new-link-url")
    assert field.get_attribute("readonly") is not None, "the new link's field is not read-only"
    url = field.get_attribute("value")
    assert url.startswith(public_url + "/"), f"the link does not lead to the server's public URL {public_url}: {url}"
    assert urlsplit(url).netloc == urlsplit(public_url).netloc != urlsplit(browser.driver.current_url).netloc, url
    return url


def audit_log(browser: Browser) -> list[str]:
    """The admin page's log, newest first, each entry without its time."""
    return [text_of(entry).split(": ", 1)[1] for entry in browser.driver.find_elements(By.CSS_SELECTOR, "#audit-log li")]


def error_message(browser: Browser) -> str:
    return text_of(browser.driver.find_element(By.CSS_SELECTOR, ".error-message"))


def refused_sign_in(browser: Browser, username: str, password: str, shot: str) -> None:
    """Signs in and expects the sign-in page back with the one generic sentence."""
    browser.allow_failed_load(browser.url("/login"), REFUSED_SIGN_IN)
    browser.visit("/login", f"{shot}-before")
    fill(browser, "username", username)
    fill(browser, "password", password)
    follow(browser, browser.driver.find_element(By.ID, "login-submit"), shot)
    assert browser.path == "/login", browser.driver.current_url
    assert signed_in_as(browser) is None
    alert = text_of(browser.driver.find_element(By.CSS_SELECTOR, '[role="alert"]'))
    assert GENERIC_FAILURE in alert, alert


@contextmanager
def invite_only_server(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """`wishlist serve` with sign-up by invitation, on its own database; yields (base URL, public
    URL, database). Its config sets no `server.publicURL`, so the links it hands out are on the
    default, http://localhost:{port}, which `_public_url` names as the fixture's server does."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"accounts": {"signup": "invite", "signupsPerAddress": 500}}), encoding="utf-8")
    database = tmp_path / "db.sqlite"
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen(
            [str(BINARY), "serve", "--config", str(config), "--host", "127.0.0.1", "--port", str(port), "--database", str(database)],
            cwd=REPO_ROOT, env=environment({}), stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(server, base, log)
        yield base, _public_url(port), database
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert server.returncode == 0, f"the invite-only server exited with {server.returncode}:\n{log.read_text()[-4000:]}"


# ---------------------------------------------------------------------------------------------
# The stories


def test_an_admin_disables_and_enables_an_account_and_hands_over_a_reset_link(
    browser: Browser, server: str, public_url: str,
) -> None:
    database = os.environ.get("WISHLIST_E2E_DATABASE")
    assert database, "the server fixture exports WISHLIST_E2E_DATABASE"
    admin = make_admin(database)
    member = unique_username("member")
    with ExitStack() as stack:
        member_browser = stack.enter_context(another_browser(server, f"{browser.test_name}-member"))
        fresh = stack.enter_context(another_browser(server, f"{browser.test_name}-fresh"))

        # Someone signed up the ordinary way: no Admin in their navigation, and /admin is a 404.
        sign_up(member_browser, member)
        assert not member_browser.driver.find_elements(By.ID, "nav-admin"), "an ordinary user is offered Admin"
        member_browser.visit("/admin", "admin-as-member", expect_status=404)
        assert "404" in heading(member_browser), heading(member_browser)
        assert member not in member_browser.driver.find_element(By.TAG_NAME, "main").text

        # The admin made on the command line signs in and finds Admin in the navigation.
        sign_in(browser, admin)
        assert signed_in_as(browser) == admin
        open_admin(browser, "admin")
        for fact in ("version", "api-requests", "database-size"):
            assert text_of(browser.driver.find_element(By.ID, fact)), f"#{fact} is empty"
        own = user_row(browser, admin)
        assert {"admin", "you"} <= set(tags(own)), tags(own)
        assert not own.find_elements(By.CSS_SELECTOR, 'form[action$="/disable"]'), "an admin is offered to disable themself"
        row = user_row(browser, member)
        assert tags(row) == [], tags(row)
        assert text_of(row.find_element(By.CSS_SELECTOR, "td:nth-of-type(3)")) == "0"  # books: a count, never titles
        assert_well_made(browser, "/admin")

        # Disable: the member, signed in in another Chromium, is signed out at once...
        press(browser, row, "disable", "disabled")
        assert browser.path == "/admin" and parse_qs(urlsplit(browser.driver.current_url).query) == {"done": ["disabled"]}
        assert flash_text(browser) == "The account is disabled and signed out everywhere.", flash_text(browser)
        row = user_row(browser, member)
        assert tags(row) == ["disabled"], tags(row)
        assert row.find_elements(By.CSS_SELECTOR, 'form[action$="/enable"]') and not row.find_elements(By.CSS_SELECTOR, 'form[action$="/disable"]')
        member_browser.visit("/wishlist", "member-after-disable")
        assert member_browser.path == "/login", f"a disabled member still sees {member_browser.driver.current_url}"
        assert signed_in_as(member_browser) is None
        # ...and cannot sign in again, told only what a wrong password is told.
        refused_sign_in(member_browser, member, PASSWORD, "member-sign-in-disabled")

        # Enable: the member signs in again.
        press(browser, user_row(browser, member), "enable", "enabled")
        assert flash_text(browser) == "The account can sign in again.", flash_text(browser)
        assert tags(user_row(browser, member)) == []
        sign_in(member_browser, member)
        assert signed_in_as(member_browser) == member, member_browser.driver.current_url

        # A reset link, shown once on the admin page, for the admin to hand over.
        press(browser, user_row(browser, member), "reset-link", "reset-link")
        assert browser.path.startswith("/admin/users/"), browser.driver.current_url
        label = text_of(browser.driver.find_element(By.CSS_SELECTOR, 'label[for="new-link-url"]'))
        assert label == f"Password-reset link for {member}", label
        link = new_link(browser, public_url)
        assert re.fullmatch(r"/reset/[A-Za-z0-9_-]{20,}", urlsplit(link).path) and not urlsplit(link).query, link
        browser.visit("/admin", "admin-after-reset-link")
        assert not browser.driver.find_elements(By.ID, "new-link-url"), "the reset link is shown again"
        status, headers, _ = http_get(link)
        assert status == 200 and headers.get("referrer-policy") == "no-referrer", (status, headers)

        # The member opens it, as handed over, in a fresh Chromium and sets a new password. That
        # browser stays on the public URL's host (localhost) from here on: it signs in there, and
        # needs no cookie of the base URL.
        fresh.visit(link, "reset-form")
        assert heading(fresh) == "Set a new password", heading(fresh)
        assert member in text_of(fresh.driver.find_element(By.TAG_NAME, "main"))
        assert_well_made(fresh, "the reset page")
        fill(fresh, "new_password", NEW_PASSWORD)
        fill(fresh, "new_password_confirm", NEW_PASSWORD)
        follow(fresh, fresh.driver.find_element(By.ID, "reset-submit"), "reset-done")
        assert fresh.path == "/login", f"setting the password led to {fresh.driver.current_url}: {heading(fresh)}"
        assert parse_qs(urlsplit(fresh.driver.current_url).query) == {"done": ["password-reset"]}
        assert flash_text(fresh) == "Your new password is set. Sign in with it.", flash_text(fresh)
        sign_in(fresh, member, NEW_PASSWORD)
        assert fresh.path == "/lists" and signed_in_as(fresh) == member, fresh.driver.current_url

        # Setting it signed the member's other browser out; the old password no longer works.
        member_browser.visit("/wishlist", "member-after-reset")
        assert member_browser.path == "/login" and signed_in_as(member_browser) is None, member_browser.driver.current_url
        refused_sign_in(member_browser, member, PASSWORD, "member-old-password")

        # The link works once: opened again, it says so.
        fresh.visit(link, "reset-link-used", expect_status=GONE)
        assert str(GONE) in heading(fresh), heading(fresh)
        assert error_message(fresh).startswith("A password-reset link works once, and this one already set a password."), error_message(fresh)
        assert not fresh.driver.find_elements(By.ID, "new_password")

        # Everything is in the admin's log, newest first.
        browser.visit("/admin", "admin-log")
        log = audit_log(browser)
        expected = [
            f"{member} set a new password through a reset link",
            f"{admin} made a password-reset link for {member}",
            f"{admin} enabled {member}",
            f"{admin} disabled {member}",
        ]
        ours = [entry for entry in log if member in entry]
        assert ours == expected, log

        # Delete asks first: the row's "Delete" opens a confirmation whose button names the account.
        row = user_row(browser, member)
        confirm = row.find_element(By.CSS_SELECTOR, 'form[action$="/delete"] button[type="submit"]')
        assert not confirm.is_displayed(), "the account would go at the first press"
        summary = row.find_element(By.CSS_SELECTOR, "details.confirm-delete > summary")
        # The row's actions wrap (the reset's tick is long), which can leave "Delete" under the fold.
        browser.js("arguments[0].scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});", summary)
        summary.click()
        assert confirm.is_displayed() and text_of(confirm) == f"Yes, delete {member}", text_of(confirm)
        follow(browser, confirm, "admin-deleted")
        assert not browser.driver.find_elements(By.CSS_SELECTOR, f'#users tr[data-user="{member}"]'), "the account is still listed"

        for session in (browser, member_browser, fresh):
            session.assert_no_console_errors()


def test_sign_up_by_invitation_only(tmp_path: Path) -> None:
    with invite_only_server(tmp_path) as (base, public_url, database):
        admin = make_admin(database)
        newcomer = unique_username("invited")
        with ExitStack() as stack:
            admin_browser = stack.enter_context(another_browser(base, "invite-admin"))
            visitor = stack.enter_context(another_browser(base, "invite-visitor"))
            latecomer = stack.enter_context(another_browser(base, "invite-latecomer"))

            # Without an invite there is no sign-up: not in the navigation, and /signup says why.
            visitor.visit("/login", "sign-in-no-sign-up")
            assert not visitor.driver.find_elements(By.CSS_SELECTOR, '#site-nav a[href="/signup"]'), "sign-up is offered"
            visitor.visit("/signup", "signup-without-invite", expect_status=404)
            assert "404" in heading(visitor), heading(visitor)
            assert error_message(visitor).startswith("On this server accounts are made by invitation."), error_message(visitor)
            assert not visitor.driver.find_elements(By.ID, "signup-form")

            # The admin makes an invite, shown once, and listed as open with a Revoke button.
            sign_in(admin_browser, admin)
            open_admin(admin_browser, "admin")
            assert "Sign-up is by invitation" in text_of(admin_browser.driver.find_element(By.ID, "invites"))
            follow(admin_browser, admin_browser.driver.find_element(By.ID, "invite-create"), "invite-made")
            label = text_of(admin_browser.driver.find_element(By.CSS_SELECTOR, 'label[for="new-link-url"]'))
            assert label == "Invite link", label
            link = new_link(admin_browser, public_url)
            assert urlsplit(link).path == "/signup" and list(parse_qs(urlsplit(link).query)) == ["invite"], link
            invites = admin_browser.driver.find_elements(By.CSS_SELECTOR, "#invite-list tr[data-invite]")
            assert len(invites) == 1, len(invites)
            invite_id = invites[0].get_attribute("data-invite")
            assert text_of(invites[0].find_element(By.CSS_SELECTOR, "td:nth-of-type(4)")) == "open"
            assert invites[0].find_elements(By.CSS_SELECTOR, f'form[action="/admin/invites/{invite_id}/delete"]')

            # A fresh Chromium signs up through it, as handed over (on the public URL's host,
            # localhost, where it then stays signed in): the form carries the invite along.
            visitor.visit(link, "signup-with-invite")
            assert visitor.path == "/signup" and visitor.driver.find_elements(By.ID, "signup-form")
            hidden = visitor.driver.find_element(By.CSS_SELECTOR, '#signup-form input[type="hidden"][name="invite"]')
            assert hidden.get_attribute("value") == parse_qs(urlsplit(link).query)["invite"][0]
            fill(visitor, "username", newcomer)
            fill(visitor, "password", PASSWORD)
            fill(visitor, "password_confirm", PASSWORD)
            follow(visitor, visitor.driver.find_element(By.ID, "signup-submit"), "signed-up")
            assert visitor.path == "/welcome" and signed_in_as(visitor) == newcomer, visitor.driver.current_url  # every sign-up ends in the welcome (issue 57)

            # The same link again, in another fresh Chromium: used, and it says so.
            latecomer.visit(link, "invite-used", expect_status=GONE)
            assert str(GONE) in heading(latecomer) and "used" in heading(latecomer), heading(latecomer)
            assert "this one already did" in error_message(latecomer), error_message(latecomer)
            assert not latecomer.driver.find_elements(By.ID, "signup-form")

            # The admin sees it used by the newcomer, with nothing left to revoke; a second invite,
            # revoked, no longer works.
            admin_browser.visit("/admin", "admin-invite-used")
            row = admin_browser.driver.find_element(By.CSS_SELECTOR, f'#invite-list tr[data-invite="{invite_id}"]')
            assert text_of(row.find_element(By.CSS_SELECTOR, "td:nth-of-type(4)")) == f"used by {newcomer}"
            assert not row.find_elements(By.CSS_SELECTOR, "form")
            user_row(admin_browser, newcomer)
            follow(admin_browser, admin_browser.driver.find_element(By.ID, "invite-create"), "second-invite")
            second = new_link(admin_browser, public_url)
            second_id = max(int(r.get_attribute("data-invite")) for r in admin_browser.driver.find_elements(By.CSS_SELECTOR, "#invite-list tr[data-invite]"))
            revoke = admin_browser.driver.find_element(By.CSS_SELECTOR, f'form[action="/admin/invites/{second_id}/delete"] button')
            follow(admin_browser, revoke, "invite-revoked")
            assert flash_text(admin_browser) == "The invite was revoked; its link no longer works.", flash_text(admin_browser)
            latecomer.visit(second, "invite-revoked", expect_status=404)
            assert "404" in heading(latecomer), heading(latecomer)
            assert error_message(latecomer).startswith("There is no such invite, or it was revoked."), error_message(latecomer)

            log = audit_log(admin_browser)
            assert log[:3] == [f"{admin} revoked invite #{second_id}", f"{admin} made invite #{second_id}", f"{admin} made invite #{invite_id}"], log

            for session in (admin_browser, visitor, latecomer):
                session.assert_no_console_errors()
