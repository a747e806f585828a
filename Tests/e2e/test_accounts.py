"""Accounts in a real browser: sign up, sign out, sign in, a wrong password, and `?next=`.

Every account is made through the sign-up form, never behind the app's back.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By

from support import (
    PASSWORD, Browser, fill, follow, sign_in, sign_out, sign_up, signed_in_as, unique_username,
)

GENERIC_FAILURE = "Wrong username or password"


def assert_on_catalog(browser: Browser, username: str) -> None:
    assert browser.path == "/lists", f"expected the catalog, got {browser.driver.current_url}"
    assert browser.driver.find_element(By.TAG_NAME, "h1").text == "Best-seller lists"
    assert signed_in_as(browser) == username, "the navigation does not name the signed-in user"
    nav = browser.driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Main"]')
    lists = nav.find_element(By.CSS_SELECTOR, 'a[href="/lists"]')
    assert lists.get_attribute("aria-current") == "page"
    for path in ("/search", "/wishlist", "/settings"):
        assert nav.find_elements(By.CSS_SELECTOR, f'a[href="{path}"]'), f"the signed-in navigation lacks {path}"
    assert not nav.find_elements(By.CSS_SELECTOR, 'a[href="/login"]'), "a signed-in user is offered sign-in"


def assert_on_sign_in(browser: Browser) -> None:
    assert browser.path == "/login", f"expected the sign-in page, got {browser.driver.current_url}"
    assert browser.driver.find_element(By.TAG_NAME, "h1").text == "Sign in"
    assert signed_in_as(browser) is None, "the sign-in page still shows a signed-in user"


def test_sign_up_sign_out_and_sign_in_again(browser: Browser) -> None:
    username = unique_username("newcomer")

    sign_up(browser, username)
    browser.screenshot("after-sign-up")
    # Every sign-up ends in the welcome (issue 57); skipping it leads to People.
    assert browser.path == "/welcome", f"sign-up led to {browser.driver.current_url}"
    follow(browser, browser.driver.find_element(By.ID, "welcome-skip"), "welcome-skipped")
    assert browser.path == "/people", browser.driver.current_url
    browser.visit("/lists", "lists")
    assert_on_catalog(browser, username)

    sign_out(browser)
    browser.screenshot("after-sign-out")
    assert_on_sign_in(browser)
    # The session ended on the server: the catalog is out of reach again.
    browser.visit("/lists", "lists-after-sign-out")
    assert browser.path == "/login"

    sign_in(browser, username)
    browser.screenshot("after-sign-in")
    assert_on_catalog(browser, username)


def test_sign_in_with_a_wrong_password_says_one_generic_thing(browser: Browser, reader: tuple[str, str]) -> None:
    username, _ = reader
    messages = {}
    for case, name in (("wrong-password", username), ("unknown-user", unique_username("nobody"))):
        browser.visit("/login", f"{case}-before")
        fill(browser, "username", name)
        fill(browser, "password", "not the right password")
        follow(browser, browser.driver.find_element(By.ID, "login-submit"), f"{case}-after")

        assert_on_sign_in(browser)
        alert = browser.driver.find_element(By.CSS_SELECTOR, '[role="alert"]')
        assert GENERIC_FAILURE in alert.text
        assert browser.driver.find_element(By.ID, "username").get_attribute("value") == name
        assert browser.driver.find_element(By.ID, "password").get_attribute("value") == ""
        messages[case] = alert.text
    # The same words whether or not the account exists: no hint about which usernames are taken.
    assert messages["wrong-password"] == messages["unknown-user"]

    sign_in(browser, username)
    assert_on_catalog(browser, username)


@pytest.mark.parametrize("path", ["/lists", "/lists/hardcover-fiction"])
def test_signed_out_visit_returns_there_after_sign_in(browser: Browser, reader: tuple[str, str], path: str) -> None:
    username, password = reader
    browser.visit(path, "signed-out-visit")
    assert_on_sign_in(browser)
    query = parse_qs(urlsplit(browser.driver.current_url).query)
    assert query.get("next") == [path], f"the sign-in page lost where the visitor was going: {browser.driver.current_url}"
    assert browser.driver.find_element(By.CSS_SELECTOR, '#login-form input[name="next"]').get_attribute("value") == path

    sign_in(browser, username, password)
    browser.screenshot("returned")
    assert browser.path == path, f"signing in led to {browser.driver.current_url}, not back to {path}"
    assert signed_in_as(browser) == username


def test_sign_in_ignores_a_next_that_leaves_the_site(browser: Browser, reader: tuple[str, str]) -> None:
    username, password = reader
    browser.visit("/login?next=https://example.com/phish", "offsite-next")
    sign_in(browser, username, password)
    assert browser.driver.current_url.startswith(browser.base_url + "/"), browser.driver.current_url
    assert signed_in_as(browser) == username


def test_password_is_never_put_back_into_a_form(browser: Browser) -> None:
    # A sign-up the app refuses (the confirmation differs) comes back without either password.
    browser.visit("/signup", "before")
    fill(browser, "username", unique_username("mismatch"))
    fill(browser, "password", PASSWORD)
    fill(browser, "password_confirm", PASSWORD + " but different")
    follow(browser, browser.driver.find_element(By.ID, "signup-submit"), "after")
    assert browser.path == "/signup"
    for field in ("password", "password_confirm"):
        assert browser.driver.find_element(By.ID, field).get_attribute("value") == ""
    assert signed_in_as(browser) is None
