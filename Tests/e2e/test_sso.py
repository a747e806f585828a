"""Single sign-on in a real browser (issue 32), against a real OpenID provider on loopback.

The provider is `oidc-provider-mock` (pinned in requirements.txt), started by this module in a
thread on a free loopback port: discovery, a JWKS, RS256 ID tokens, and a login form where a
person types the subject (`sub`) to sign in as. Its issuer is http://localhost:PORT, which the app
accepts because http is allowed to loopback only. The app's servers are the test's own
(`configured_server`), opened on their public URL (http://localhost:PORT), where the provider
sends the browser back.

- The first sign-in through the provider makes an account named from `preferred_username`; signing
  out and in again through the provider is the same account.
- A member who signed up with a password links her identity from Settings, which asks for the
  password first (a wrong one is refused beside the field and nothing goes to the provider), and
  then signs in with it (issue 50).
- With `accounts.oidc.signup` off, or with `accounts.signup: closed` and `accounts.oidc.signup`
  unset, an identity no account has is refused with a sentence on the sign-in page (issue 50).
- With the provider stopped after a first sign-in through it, the button's answer names it as
  unreachable, and the password and a passkey still sign in (issue 33).
"""

from __future__ import annotations

import json
import urllib.request
import uuid
from contextlib import ExitStack
from typing import Iterator
from urllib.parse import quote

import oidc_provider_mock
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions

from support import (
    PASSWORD, Browser, accessibility_problems, at_public_url, chromium, fill, follow, sign_in, sign_out, sign_up, signed_in_as, unique_username,
)


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    """The provider's issuer URL, for the module's servers and tests."""
    with oidc_provider_mock.run_server_in_thread() as server:
        yield f"http://localhost:{server.server_port}"


def provider_user(provider: str, preferred_username: str) -> str:
    """A new subject at the provider whose ID tokens say `preferred_username`; returns the subject."""
    subject = f"sub-{uuid.uuid4().hex[:12]}"
    body = json.dumps({"preferred_username": preferred_username, "email": "shared@example.org"}).encode()
    request = urllib.request.Request(
        f"{provider}/users/{quote(subject)}", data=body, method="PUT", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 204, response.status
    return subject


def settings(provider: str, signup: bool | None) -> dict:
    """The provider's client; `signup` None leaves `accounts.oidc.signup` to follow `accounts.signup`."""
    oidc = {"issuer": provider, "clientID": "wishlist-e2e", "clientSecret": "e2e-secret"}
    if signup is not None:
        oidc["signup"] = signup
    return {"accounts": {"oidc": oidc}}


@pytest.fixture(scope="module")
def sso_server(configured_server, provider: str) -> Iterator[str]:
    """A server whose single sign-on may make accounts, on its public URL."""
    with configured_server("sso", settings(provider, signup=True)) as base_url:
        yield at_public_url(base_url)


@pytest.fixture(scope="module")
def sso_server_without_signup(configured_server, provider: str) -> Iterator[str]:
    with configured_server("sso-no-signup", settings(provider, signup=False)) as base_url:
        yield at_public_url(base_url)


@pytest.fixture(scope="module")
def sso_server_signup_closed(configured_server, provider: str) -> Iterator[str]:
    """Sign-up closed, and `accounts.oidc.signup` unset: single sign-on makes no accounts either."""
    closed = settings(provider, signup=None)
    closed["accounts"]["signup"] = "closed"
    with configured_server("sso-signup-closed", closed) as base_url:
        yield at_public_url(base_url)


def sign_in_at_provider(browser: Browser, provider: str, subject: str, start: str, password: str = PASSWORD) -> None:
    """Follows the app's single sign-on button on `start` (on Settings, the linking form, with
    `password`), and signs in at the provider's form as `subject`."""
    browser.visit(start)
    if start.startswith("/login"):
        follow(browser, browser.driver.find_element(By.ID, "sso-sign-in"), "provider-form")
    else:
        fill(browser, "link_password", password)
        follow(browser, browser.driver.find_element(By.ID, "sso-link"), "provider-form")
    assert browser.driver.current_url.startswith(provider + "/"), browser.driver.current_url
    browser.driver.find_element(By.CSS_SELECTOR, 'input[name="sub"]').send_keys(subject)
    follow(browser, browser.driver.find_element(By.XPATH, '//button[normalize-space()="Authorize"]'), "back-from-provider")


def test_the_first_sign_in_makes_the_account_and_the_next_finds_it(sso_server: str, provider: str, request: pytest.FixtureRequest) -> None:
    name = unique_username("sso")
    subject = provider_user(provider, name)
    with chromium(sso_server, request.node.name) as browser:
        sign_in_at_provider(browser, provider, subject, "/login")
        # A new account starts in the welcome, as a password sign-up does (issue 57).
        assert browser.path == "/welcome", browser.driver.current_url
        assert signed_in_as(browser) == name

        sign_out(browser)
        assert signed_in_as(browser) is None
        sign_in_at_provider(browser, provider, subject, "/login")
        assert signed_in_as(browser) == name, "the same identity signs in to the same account"


def test_a_member_links_her_identity_from_settings_and_signs_in_with_it(sso_server: str, provider: str, request: pytest.FixtureRequest) -> None:
    with chromium(sso_server, request.node.name) as browser:
        member = unique_username("linker")
        sign_up(browser, member)
        subject = provider_user(provider, "someone-else-entirely")

        # Linking asks for the password: a wrong one stays here, with the error beside the field.
        browser.visit("/settings/sign-in")
        fill(browser, "link_password", "not the password")
        follow(browser, browser.driver.find_element(By.ID, "sso-link"), "link-wrong-password")
        assert browser.path == "/settings/single-sign-on/link", browser.driver.current_url
        assert browser.driver.find_element(By.ID, "link_password-error").text.endswith("That is not your password.")
        assert browser.driver.find_element(By.ID, "link_password").get_attribute("aria-invalid") == "true"

        sign_in_at_provider(browser, provider, subject, "/settings/sign-in")
        assert browser.path == "/settings/sign-in", browser.driver.current_url
        assert "Single sign-on is linked." in browser.driver.find_element(By.TAG_NAME, "main").text
        assert browser.driver.find_elements(By.ID, "identity-list"), "the linked identity is listed"

        sign_out(browser)
        sign_in_at_provider(browser, provider, subject, "/login")
        assert signed_in_as(browser) == member, "signed in to the member's own account, no new one"


def test_without_sso_signup_an_unknown_identity_is_refused_with_a_sentence(
    sso_server_without_signup: str, provider: str, request: pytest.FixtureRequest
) -> None:
    subject = provider_user(provider, unique_username("stranger"))
    with chromium(sso_server_without_signup, request.node.name) as browser:
        sign_in_at_provider(browser, provider, subject, "/login")
        assert browser.path == "/login", browser.driver.current_url
        text = browser.driver.find_element(By.TAG_NAME, "main").text
        assert "No account here is linked to that single sign-on identity, and new accounts can’t be made with it." in text
        assert signed_in_as(browser) is None


def test_with_signup_closed_an_unknown_identity_gets_no_account(
    sso_server_signup_closed: str, provider: str, request: pytest.FixtureRequest
) -> None:
    subject = provider_user(provider, unique_username("closed"))
    with chromium(sso_server_signup_closed, request.node.name) as browser:
        sign_in_at_provider(browser, provider, subject, "/login")
        assert browser.path == "/login", browser.driver.current_url
        text = browser.driver.find_element(By.TAG_NAME, "main").text
        assert "No account here is linked to that single sign-on identity, and new accounts can’t be made with it." in text
        assert signed_in_as(browser) is None


def test_the_pages_single_sign_on_adds_are_accessible(sso_server: str, provider: str, request: pytest.FixtureRequest) -> None:
    """The sign-in page with its single sign-on button, and Settings' "Single sign-on" section
    before and after linking: axe-core's WCAG A and AA rules at both widths and in both colour
    schemes, and reflow at 320 px, as test_accessibility.py checks every other page."""
    with chromium(sso_server, request.node.name) as browser:
        browser.visit("/login", "sso-login")
        found = accessibility_problems(browser, "sign-in")
        sign_up(browser, unique_username("a11y"))
        browser.visit("/settings/sign-in", "sso-settings")
        found += accessibility_problems(browser, "settings, nothing linked")
        sign_in_at_provider(browser, provider, provider_user(provider, "a11y"), "/settings/sign-in")
        found += accessibility_problems(browser, "settings, linked")
    assert not found, "\n".join(found)


def test_with_the_provider_stopped_passwords_and_passkeys_sign_in_and_the_button_names_it_unreachable(
    configured_server, request: pytest.FixtureRequest
) -> None:
    """A provider of this test's own signs a person in once (so the app has read its discovery
    document), then stops. Pressing the button answers our own page naming the provider as
    unreachable (not the browser's "can't reach this site"), and a member's password and passkey
    still sign her in. The page passes axe-core."""
    from test_accessibility import run_axe
    from test_passkeys import add_passkey

    with ExitStack() as running_provider, chromium("http://localhost", request.node.name) as browser:
        issuer = f"http://localhost:{running_provider.enter_context(oidc_provider_mock.run_server_in_thread()).server_port}"
        stopped = settings(issuer, signup=True)
        stopped["accounts"]["oidc"]["providerName"] = "Example ID"
        with configured_server("sso-stopped", stopped) as base_url:
            browser.base_url = at_public_url(base_url)
            browser.driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
                protocol=Protocol.CTAP2, transport=Transport.INTERNAL,
                has_resident_key=True, has_user_verification=True, is_user_verified=True,
            ))
            sign_in_at_provider(browser, issuer, provider_user(issuer, unique_username("before")), "/login")
            assert signed_in_as(browser) is not None, "the provider worked before it stopped"
            sign_out(browser)
            member = unique_username("stranded")
            sign_up(browser, member)
            add_passkey(browser, "Laptop")
            sign_out(browser)

            running_provider.close()
            browser.visit("/login", "sign-in-provider-stopped")
            follow(browser, browser.driver.find_element(By.ID, "sso-sign-in"), "provider-unreachable")
            assert browser.path == "/oidc/start", browser.driver.current_url
            text = browser.driver.find_element(By.TAG_NAME, "main").text
            assert ("Example ID can’t be reached right now — sign in with your password or passkey, "
                    "or try again in a few minutes.") in text, text
            assert signed_in_as(browser) is None
            violations = run_axe(browser)["violations"]
            assert not violations, [(v["id"], v["help"]) for v in violations]

            sign_in(browser, member)
            assert signed_in_as(browser) == member, "the password signs in"
            sign_out(browser)
            browser.visit("/login", "passkey-with-provider-stopped")
            follow(browser, browser.driver.find_element(By.ID, "passkey-sign-in"), "signed-in-with-passkey")
            assert signed_in_as(browser) == member, "the passkey signs in"
