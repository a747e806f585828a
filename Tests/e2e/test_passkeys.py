"""Passkeys in a real browser: add one in Settings, sign out, sign in with it; the refusals.

Chromium's virtual authenticator stands in for the phone or laptop (CTAP2, a platform
authenticator that keeps discoverable credentials and verifies its user), so the real ceremonies
run: `Public/passkeys.js` asks the server for options, the browser asks the authenticator, the
server checks the answer. Browsers refuse an IP address as a passkey's relying party, so every
test here browses the server at its public URL, http://localhost:{port} (`public_url`), and stays
there: cookies are host-only. Each story signs up its own account through the form.
"""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from support import (
    DEFAULT_WINDOW, PASSWORD, Browser, fill, follow, http_get, inline_styles_and_scripts, new_chromium,
    page_structure_problems, sign_in, sign_out, signed_in_as, visible_text,
)

MONTH_D_YEAR = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}"
# A session's times carry the hour too (issue 57: "the sessions table shows no times").
MONTH_D_YEAR_TIME = MONTH_D_YEAR + r" at \d{2}:\d{2} UTC"
# What the pages say, word for word (SettingsController.confirmations, PasskeyRefusal.sentence(in:),
# PasskeyController.wrongPassword, passkeys.js).
ADDED = "Your passkey was added. Next time, sign in with it instead of your password."
REMOVED = "The passkey was removed. It can no longer sign you in here."
NO_PASSKEYS = "You have no passkeys yet."
CANCELLED = "Your browser cancelled the passkey request, or it timed out. Try again when you are ready."
NOT_VERIFIED = (
    "Your passkey did not confirm it was you (with a fingerprint, face or PIN). Try again and confirm when asked."
)
NOT_REGISTERED = "This passkey is not registered here: it may have been removed. Sign in with your password."
SPENT = "The passkey request expired or was already used. Try again."
NO_PASSWORD = "Enter your password first: adding a passkey asks for it."
WRONG_PASSWORD = "That is not your password. Enter the password you sign in with, then add the passkey."
REGISTRATION_OPTIONS = "/passkeys/registration/options"
SIGN_IN_ANSWER = "/passkeys/sign-in"
RECORDED = "e2e-posts"  # the sessionStorage key `record_posts` keeps the script's POSTs under


@pytest.fixture
def browser(browser: Browser, public_url: str) -> Browser:
    """The test's Chromium at the server's public URL (localhost), with a virtual platform
    authenticator: a device with a fingerprint reader or face unlock that keeps its passkeys."""
    browser.base_url = public_url
    browser.driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL,
        has_resident_key=True, has_user_verification=True, is_user_verified=True,
    ))
    return browser


# ---------------------------------------------------------------------------------------------
# Helpers


def by_id(browser: Browser, element_id: str) -> WebElement:
    return browser.driver.find_element(By.ID, element_id)


def assert_panel_shown(browser: Browser, panel_id: str) -> None:
    """The script ran and revealed the passkey panel (it is `hidden` in the HTML)."""
    panel = by_id(browser, panel_id)
    assert panel.get_attribute("hidden") is None, f"#{panel_id} is still hidden on {browser.driver.current_url}"
    assert panel.is_displayed(), f"#{panel_id} is not displayed on {browser.driver.current_url}"


def assert_panel_not_shown(browser: Browser, panel_id: str, button_id: str) -> None:
    panel = by_id(browser, panel_id)
    assert panel.get_attribute("hidden") is not None, f"#{panel_id} lost its `hidden` on {browser.driver.current_url}"
    assert not panel.is_displayed(), f"#{panel_id} is displayed on {browser.driver.current_url}"
    assert not by_id(browser, button_id).is_displayed(), f"#{button_id} is offered on {browser.driver.current_url}"


def flash_text(browser: Browser) -> str:
    found = browser.driver.find_elements(By.CSS_SELECTOR, "#flash .flash-message")
    assert found, f"no confirmation on {browser.driver.current_url}"
    return visible_text(browser, found[0])


def table_rows(browser: Browser, table_id: str, columns: int) -> list[tuple[str, ...]]:
    """The text of the first `columns` cells of every body row of the table, top to bottom."""
    return [
        tuple(visible_text(browser, cell) for cell in row.find_elements(By.CSS_SELECTOR, "td")[:columns])
        for row in browser.driver.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")
    ]


def passkey_rows(browser: Browser) -> list[tuple[str, ...]]:
    """(name, added, last used) of every passkey Settings lists."""
    return table_rows(browser, "passkey-list", 3)


def session_rows(browser: Browser) -> list[tuple[str, ...]]:
    """(browser, signed in, last seen) of every row of "Where you are signed in"."""
    return table_rows(browser, "sessions", 3)


def session_cookie(browser: Browser) -> str | None:
    cookie = browser.driver.get_cookie("wishlist_session")
    return cookie["value"] if cookie else None


def add_passkey(browser: Browser, name: str, password: str = PASSWORD) -> None:
    """Names a passkey in Settings, types the account's password (which adding one asks for) and
    presses "Add a passkey"; the script brings Settings back."""
    browser.visit("/settings/sign-in", "settings-before-adding")
    assert_panel_shown(browser, "passkey-add-panel")
    fill(browser, "passkey-name", name)
    fill(browser, "passkey-password", password)
    follow(browser, by_id(browser, "passkey-add"), "passkey-added")
    assert browser.path == "/settings/sign-in", f"adding a passkey led to {browser.driver.current_url}"
    assert parse_qs(urlsplit(browser.driver.current_url).query).get("done") == ["passkey-added"], browser.driver.current_url


def failed_ceremony(browser: Browser, button_id: str, status_id: str, shot: str) -> str:
    """Presses a passkey button, waits for the sentence its panel shows when the ceremony fails
    (the button usable again) and returns it; the page must not have changed."""
    button = by_id(browser, button_id)
    browser.js("window.__e2eStay = true;"
               "arguments[0].scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});", button)
    button.click()
    status = by_id(browser, status_id)
    WebDriverWait(browser.driver, 10).until(
        lambda _: status.text.strip() and button.is_enabled(), f"#{button_id} neither failed nor went anywhere"
    )
    browser.screenshot(shot)
    assert browser.js("return window.__e2eStay === true;"), f"the page changed to {browser.driver.current_url}"
    return status.text.strip()


def refused_sign_in(browser: Browser, shot: str) -> str:
    """Presses "Sign in with a passkey" and returns the sentence shown when that fails."""
    said = failed_ceremony(browser, "passkey-sign-in", "passkey-sign-in-status", shot)
    assert browser.path == "/login", browser.driver.current_url
    return said


def assert_signed_out(browser: Browser, shot: str) -> None:
    """Nobody is signed in in this browser: the navigation names no one and Settings needs sign-in."""
    assert signed_in_as(browser) is None, f"the page shows {signed_in_as(browser)!r} signed in"
    browser.visit("/settings/sign-in", shot)
    assert browser.path == "/login", f"/settings opened for a signed-out browser: {browser.driver.current_url}"


_RECORD_POSTS = """
const key = arguments[0];
sessionStorage.setItem(key, '[]');
const original = window.fetch;
window.fetch = function (resource, init) {
  if (init && String(init.method).toUpperCase() === 'POST') {
    const posts = JSON.parse(sessionStorage.getItem(key));
    posts.push({path: new URL(String(resource), location.href).pathname, body: String(init.body)});
    sessionStorage.setItem(key, JSON.stringify(posts));
  }
  return original.apply(this, arguments);
};
"""


def record_posts(browser: Browser) -> None:
    """From now on in this page, every POST the page's scripts make with `fetch` is kept (path and
    body) in sessionStorage, which outlives the page when the script moves on to the next one."""
    browser.js(_RECORD_POSTS, RECORDED)


def recorded_posts(browser: Browser) -> list[dict[str, str]]:
    return json.loads(browser.js("return sessionStorage.getItem(arguments[0]) || '[]';", RECORDED))


_CLEAR_USER_VERIFIED = """
const path = arguments[0];
const original = window.fetch;
window.fetch = function (resource, init) {
  if (String(resource) === path && init && init.body) {
    const body = JSON.parse(init.body);
    const b64 = body.authenticatorData.replace(/-/g, '+').replace(/_/g, '/');
    const data = Uint8Array.from(atob(b64 + '==='.slice((b64.length + 3) % 4)), c => c.charCodeAt(0));
    data[32] &= ~0x04;  // the flags byte after the rp id hash; 0x04 is "user verified"
    body.authenticatorData = btoa(String.fromCharCode(...data)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    init = {...init, body: JSON.stringify(body)};
  }
  return original.call(this, resource, init);
};
"""


def clear_user_verified_flag(browser: Browser) -> None:
    """In this page, the script's sign-in answer goes out with its "user verified" flag cleared,
    as a client that skipped verification (or someone editing the answer) would send it."""
    browser.js(_CLEAR_USER_VERIFIED, SIGN_IN_ANSWER)


def post_json_from_page(browser: Browser, path: str, body: str) -> tuple[int, dict]:
    """POSTs `body` as JSON from the open page, the way passkeys.js does (its cookies, the page's
    CSRF token in X-CSRF-Token); returns the status and the JSON answer."""
    browser.driver.set_script_timeout(10)
    status, text = browser.driver.execute_async_script(
        """
        const [path, body, done] = arguments;
        const token = document.querySelector('input[name="csrf_token"]').value;
        fetch(path, {method: 'POST', credentials: 'same-origin',
                     headers: {'Content-Type': 'application/json', 'X-CSRF-Token': token}, body})
          .then(async r => done([r.status, await r.text()]), e => done([0, String(e)]));
        """,
        path, body,
    )
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        pytest.fail(f"POST {path} answered {status} with something other than JSON: {text[:300]!r}")


# ---------------------------------------------------------------------------------------------
# Stories


def test_add_a_passkey_sign_out_and_sign_in_with_it(browser: Browser, new_account: str) -> None:
    """A new user opens Settings, names a passkey "Phone" and adds it; Settings confirms it and lists
    it, never used. Signed out, they press "Sign in with a passkey" without typing a username and
    are signed in: a new session for this browser, and the passkey now has a "Last used" date."""
    driver = browser.driver
    assert browser.driver.current_url.startswith(browser.base_url), driver.current_url

    browser.visit("/settings/sign-in", "settings-no-passkeys")
    assert visible_text(browser, by_id(browser, "no-passkeys")) == NO_PASSKEYS
    assert not driver.find_elements(By.ID, "passkey-list")
    before = session_rows(browser)
    assert len(before) == 1 and "this browser" in before[0][0], f"sessions after sign-up: {before}"
    first_session = session_cookie(browser)
    assert first_session, "no session cookie after sign-up"

    add_passkey(browser, "Phone")
    assert flash_text(browser) == ADDED
    assert by_id(browser, "passkey-add-status").text == ""
    assert not driver.find_elements(By.ID, "no-passkeys"), "Settings still says there are no passkeys"
    rows = passkey_rows(browser)
    assert len(rows) == 1, f"Settings lists {rows}"
    name, added, last_used = rows[0]
    assert name == "Phone"
    assert re.fullmatch(MONTH_D_YEAR, added), f"the passkey's added date reads {added!r}"
    assert last_used == "Never"
    remove = driver.find_element(By.CSS_SELECTOR, "#passkey-list tbody tr button[type='submit']")
    assert remove.accessible_name == "Remove the passkey Phone", remove.accessible_name

    # The authenticator keeps one discoverable passkey for localhost, under a handle that is 32
    # random bytes: neither the user's id nor their name.
    credentials = driver.get_credentials()
    assert len(credentials) == 1, f"the authenticator holds {len(credentials)} credentials"
    credential = credentials[0]
    assert credential.is_resident_credential and credential.rp_id == "localhost", str(credential)
    handle = base64.urlsafe_b64decode(credential.user_handle or "")
    assert len(handle) == 32, f"the user handle is {len(handle)} bytes"
    assert new_account.encode() not in handle

    sign_out(browser)
    browser.screenshot("signed-out")
    assert browser.path == "/login", driver.current_url
    assert signed_in_as(browser) is None
    assert_panel_shown(browser, "passkey-sign-in-panel")
    assert by_id(browser, "username").get_attribute("value") == ""
    follow(browser, by_id(browser, "passkey-sign-in"), "signed-in-with-passkey")
    assert browser.path in ("/", "/lists"), f"signing in with a passkey led to {driver.current_url}"
    assert driver.find_element(By.TAG_NAME, "h1").text == "Best-seller lists"
    assert signed_in_as(browser) == new_account

    # A session of its own: a new token, listed for this browser.
    assert session_cookie(browser) not in (None, first_session), "the passkey sign-in did not start a new session"
    browser.visit("/settings/sign-in", "settings-after-passkey-sign-in")
    after = session_rows(browser)
    assert len(after) == 1, f"sessions after signing out and in again: {after}"
    where, signed_in_on, _ = after[0]
    assert where == "Chrome on Linux this browser", where
    assert re.fullmatch(MONTH_D_YEAR_TIME, signed_in_on), signed_in_on
    rows = passkey_rows(browser)
    assert len(rows) == 1, f"Settings lists {rows}"
    name, added_again, last_used = rows[0]
    assert (name, added_again) == ("Phone", added)
    assert re.fullmatch(MONTH_D_YEAR, last_used), f"the passkey's last use reads {last_used!r}"
    browser.assert_no_console_errors()


def test_sign_in_is_refused_when_user_verification_fails(browser: Browser, new_account: str) -> None:
    """The device cannot confirm it is its owner (no fingerprint, face or PIN): the browser stops
    the ceremony, the sign-in page says so, no answer reaches the server and nobody is signed in.
    An answer that claims no verification, as only a bent client would send, the server refuses
    with its own sentence. With verification back, the same passkey signs in."""
    driver = browser.driver
    add_passkey(browser, "Laptop")
    sign_out(browser)

    driver.set_user_verified(False)
    record_posts(browser)
    assert refused_sign_in(browser, "verification-failed") == CANCELLED
    assert [post["path"] for post in recorded_posts(browser)] == ["/passkeys/sign-in/options"], recorded_posts(browser)
    assert_signed_out(browser, "signed-out-after-failed-verification")

    driver.set_user_verified(True)
    browser.visit("/login", "sign-in-unverified-answer")
    browser.allow_failed_load(browser.url(SIGN_IN_ANSWER), 403)
    clear_user_verified_flag(browser)
    assert refused_sign_in(browser, "unverified-answer-refused") == NOT_VERIFIED
    assert_signed_out(browser, "signed-out-after-unverified-answer")

    browser.visit("/login", "sign-in-verified")
    follow(browser, by_id(browser, "passkey-sign-in"), "signed-in-verified")
    assert signed_in_as(browser) == new_account, f"the passkey did not sign in once verified: {driver.current_url}"
    browser.assert_no_console_errors()


def test_a_removed_passkey_no_longer_signs_in(browser: Browser, new_account: str) -> None:
    """A passkey removed in Settings is gone from the list; the device still offers it, but the
    server refuses it with a sentence that says it is not registered and points to the password,
    which still works."""
    driver = browser.driver
    add_passkey(browser, "Old phone")
    assert [row[0] for row in passkey_rows(browser)] == ["Old phone"]

    remove = driver.find_element(By.CSS_SELECTOR, "#passkey-list tbody tr button[type='submit']")
    form_action = remove.find_element(By.XPATH, "./ancestor::form").get_attribute("action")
    assert re.fullmatch(re.escape(browser.url("/settings/passkeys/")) + r"\d+/remove", form_action), form_action
    follow(browser, remove, "passkey-removed")
    assert browser.path == "/settings/sign-in", driver.current_url
    assert flash_text(browser) == REMOVED
    assert passkey_rows(browser) == []
    assert visible_text(browser, by_id(browser, "no-passkeys")) == NO_PASSKEYS
    assert len(driver.get_credentials()) == 1, "the authenticator should still hold the passkey"

    sign_out(browser)
    browser.allow_failed_load(browser.url(SIGN_IN_ANSWER), 403)
    assert refused_sign_in(browser, "removed-passkey-refused") == NOT_REGISTERED
    assert_signed_out(browser, "signed-out-after-removed-passkey")

    sign_in(browser, new_account)
    assert signed_in_as(browser) == new_account, f"the password no longer signs in: {driver.current_url}"
    browser.assert_no_console_errors()


def test_a_replayed_sign_in_answer_is_refused(browser: Browser, new_account: str) -> None:
    """Someone who copied a passkey's sign-in answer off the wire cannot use it again: the first
    use signs in (and goes where the visitor was heading); the same answer sent again after signing
    out is refused, 403 with the sentence about a used request, and signs nobody in."""
    driver = browser.driver
    add_passkey(browser, "Phone")
    sign_out(browser)

    browser.visit("/wishlist", "wishlist-signed-out")
    assert browser.path == "/login" and parse_qs(urlsplit(driver.current_url).query).get("next") == ["/wishlist"]
    record_posts(browser)
    follow(browser, by_id(browser, "passkey-sign-in"), "signed-in-to-wishlist")
    assert browser.path == "/wishlist", f"the passkey sign-in did not go back to /wishlist: {driver.current_url}"
    assert signed_in_as(browser) == new_account
    answers = [post["body"] for post in recorded_posts(browser) if post["path"] == SIGN_IN_ANSWER]
    assert len(answers) == 1, f"the script posted {recorded_posts(browser)}"
    answer = json.loads(answers[0])
    assert {"id", "clientDataJSON", "authenticatorData", "signature", "userHandle"} <= answer.keys(), answer.keys()

    sign_out(browser)
    assert browser.path == "/login", driver.current_url
    browser.allow_failed_load(browser.url(SIGN_IN_ANSWER), 403)
    status, reply = post_json_from_page(browser, SIGN_IN_ANSWER, answers[0])
    assert (status, reply) == (403, {"error": SPENT}), f"the replayed answer got {status} {reply}"
    assert_signed_out(browser, "signed-out-after-replay")
    browser.assert_no_console_errors()


def test_adding_a_passkey_asks_for_the_password(browser: Browser, new_account: str) -> None:
    """Adding a passkey asks for the account's password, so that someone with a stolen session
    cannot add one (it would outlive a password reset). With the password left empty, the panel
    says so and the server is asked nothing; with a wrong one the server refuses it (its sentence
    in the panel), the authenticator makes nothing and no passkey is listed. With the right
    password, the same panel adds it."""
    driver = browser.driver
    browser.visit("/settings/sign-in", "settings-password-field")
    assert_panel_shown(browser, "passkey-add-panel")
    field = by_id(browser, "passkey-password")
    assert field.get_attribute("type") == "password", field.get_attribute("type")
    assert field.get_attribute("autocomplete") == "current-password", field.get_attribute("autocomplete")
    assert field.accessible_name == "Your password", field.accessible_name

    fill(browser, "passkey-name", "Phone")
    record_posts(browser)
    assert failed_ceremony(browser, "passkey-add", "passkey-add-status", "add-without-password") == NO_PASSWORD
    assert recorded_posts(browser) == [], f"the script asked the server without a password: {recorded_posts(browser)}"

    fill(browser, "passkey-password", "not the password at all")
    browser.allow_failed_load(browser.url(REGISTRATION_OPTIONS), 403)
    assert failed_ceremony(browser, "passkey-add", "passkey-add-status", "add-with-wrong-password") == WRONG_PASSWORD
    posts = recorded_posts(browser)
    assert [post["path"] for post in posts] == [REGISTRATION_OPTIONS], posts
    assert json.loads(posts[0]["body"]) == {"password": "not the password at all"}, posts[0]["body"]
    assert driver.get_credentials() == [], "the authenticator made a passkey after a wrong password"
    browser.visit("/settings/sign-in", "settings-after-wrong-password")
    assert visible_text(browser, by_id(browser, "no-passkeys")) == NO_PASSKEYS
    assert not driver.find_elements(By.ID, "passkey-list"), f"Settings lists {passkey_rows(browser)}"

    add_passkey(browser, "Phone")
    assert flash_text(browser) == ADDED
    assert [row[0] for row in passkey_rows(browser)] == ["Phone"]
    assert len(driver.get_credentials()) == 1, f"the authenticator holds {len(driver.get_credentials())} credentials"
    browser.assert_no_console_errors()


def test_a_german_member_reads_the_passkey_panels_words_in_german(browser: Browser, new_account: str) -> None:
    """The panel's own sentence comes from the page (passkeys.js's <script> element) and the
    server's refusal comes worded, both in the member's language (issue 53)."""
    browser.visit("/settings/language", "language-settings")
    browser.driver.find_element(By.CSS_SELECTOR, 'label[for="language-de"]').click()
    follow(browser, browser.driver.find_element(By.ID, "language-submit"), "language-saved")
    browser.visit("/settings/sign-in", "settings-in-german")
    assert_panel_shown(browser, "passkey-add-panel")
    fill(browser, "passkey-name", "Handy")
    said = failed_ceremony(browser, "passkey-add", "passkey-add-status", "add-without-password-in-german")
    assert said == "Gib zuerst dein Passwort ein: Zum Hinzufügen eines Passkeys wird es gebraucht.", said
    fill(browser, "passkey-password", "not the password at all")
    browser.allow_failed_load(browser.url(REGISTRATION_OPTIONS), 403)
    said = failed_ceremony(browser, "passkey-add", "passkey-add-status", "add-with-wrong-password-in-german")
    assert said == (
        "Das ist nicht dein Passwort. Gib das Passwort ein, mit dem du dich anmeldest, und füge dann den Passkey hinzu."
    ), said
    browser.assert_no_console_errors()


def test_adding_a_passkey_after_being_signed_out_elsewhere_says_to_sign_in(
    browser: Browser, new_account: str, public_url: str, request: pytest.FixtureRequest,
) -> None:
    """Settings sits open while the user, in another browser, presses "Sign out everywhere else".
    Back here, pressing "Add a passkey" cannot work any more: the panel says so in a sentence that
    tells them to sign in again (not a script's error message), the page stays, nothing is made."""
    driver = browser.driver
    browser.visit("/settings/sign-in", "settings-left-open")
    assert_panel_shown(browser, "passkey-add-panel")

    other = Browser(new_chromium(*DEFAULT_WINDOW), public_url, request.node.name + "-other-browser")
    try:
        other.resize(*DEFAULT_WINDOW)
        sign_in(other, new_account)
        other.visit("/settings/sign-in", "settings")
        follow(other, other.driver.find_element(By.CSS_SELECTOR, 'form[action="/settings/sessions/sign-out-others"] button'),
               "signed-out-others")
        assert other.path == "/settings/sign-in", other.driver.current_url
    finally:
        other.driver.quit()

    fill(browser, "passkey-name", "Phone")
    fill(browser, "passkey-password", PASSWORD)
    said = failed_ceremony(browser, "passkey-add", "passkey-add-status", "add-after-signed-out-elsewhere")
    assert driver.get_credentials() == [], "the authenticator made a passkey for a signed-out browser"
    browser.visit("/settings/sign-in", "settings-reloaded")
    assert browser.path == "/login", f"this browser was not signed out elsewhere: {driver.current_url}"
    assert "sign in" in said.lower(), f"the panel does not say to sign in again; it says {said!r}"


def test_without_javascript_no_passkey_buttons_and_passwords_work(browser: Browser, new_account: str) -> None:
    """In a browser with JavaScript off, the sign-in page and Settings offer no passkey button
    (the panels stay hidden), the passkeys already added are still listed and can be removed with
    the plain form, and signing in with the password works."""
    driver = browser.driver
    add_passkey(browser, "Phone")

    browser.disable_javascript()
    browser.visit("/settings/sign-in", "settings-without-javascript")
    assert_panel_not_shown(browser, "passkey-add-panel", "passkey-add")
    assert [row[0] for row in passkey_rows(browser)] == ["Phone"]
    remove = driver.find_element(By.CSS_SELECTOR, "#passkey-list tbody tr button[type='submit']")
    follow(browser, remove, "removed-without-javascript")
    assert flash_text(browser) == REMOVED
    assert passkey_rows(browser) == []
    assert_panel_not_shown(browser, "passkey-add-panel", "passkey-add")

    sign_out(browser)
    assert browser.path == "/login", driver.current_url
    browser.screenshot("sign-in-without-javascript")
    assert_panel_not_shown(browser, "passkey-sign-in-panel", "passkey-sign-in")
    sign_in(browser, new_account)
    assert browser.path == "/lists", f"signing in without JavaScript led to {driver.current_url}"
    assert signed_in_as(browser) == new_account
    browser.assert_no_console_errors()


def test_passkey_pages_without_console_errors(browser: Browser, new_account: str) -> None:
    """The script is served from the site itself, runs under the CSP (no inline script or style,
    no violation in the console) and the pages it changes stay well structured, with and without
    passkeys listed, signed in and out."""
    status, headers, _ = http_get(browser.url("/static/passkeys.js"))
    assert status == 200 and "javascript" in headers.get("content-type", ""), (status, headers.get("content-type"))

    def check(path: str, name: str, panel: str) -> None:
        browser.visit(path, name)
        assert_panel_shown(browser, panel)
        assert inline_styles_and_scripts(browser) == [], f"{path} has inline styles or scripts, which the CSP blocks"
        assert page_structure_problems(browser) == [], path

    check("/settings/sign-in", "settings-without-passkeys", "passkey-add-panel")
    add_passkey(browser, "Phone")
    check("/settings/sign-in?done=passkey-added", "settings-with-a-passkey", "passkey-add-panel")
    sign_out(browser)
    check("/login", "sign-in", "passkey-sign-in-panel")
    check("/login?next=/wishlist", "sign-in-with-next", "passkey-sign-in-panel")
    browser.assert_no_console_errors()
