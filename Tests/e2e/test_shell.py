"""The page shell, signed out: layout, stylesheet, footer, error page, small screens, keyboard.

Runs against the real server with no NYT key, so every page also carries the sample-data notice.
"""

from __future__ import annotations

import re
import uuid

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from support import REPO_ROOT, Browser, follow, http_get

TITLE_SUFFIX = " · Bestseller Wishlist"
NYT_URL = "https://developer.nytimes.com"
NYT_CREDIT = "Data provided by The New York Times"


STYLE_SOURCE = (REPO_ROOT / "Public" / "style.css").read_text(encoding="utf-8")
STYLESHEET_COOKIE = "wishlist_stylesheet"


def assert_styled_by_our_stylesheet(browser: Browser, linked: bool | None = None) -> None:
    """The page's one stylesheet is Public/style.css, minified: inline (allowed by the CSP's hash)
    on a first visit, or linked at its content hash once the browser holds the file (`linked` says
    which is expected; None takes either). Every rule of Public/style.css is in it, the same once
    the browser has parsed both, and rules that only that file sets are in effect."""
    sheets = browser.js(
        "return Array.from(document.styleSheets, s => {"
        "  let rules = -1; try { rules = s.cssRules.length; } catch (e) {}"
        "  return {href: s.href, owner: s.ownerNode ? s.ownerNode.tagName.toLowerCase() : null, rules: rules};"
        "});"
    )
    owners = [(s["href"], s["owner"]) for s in sheets]
    if linked is None:
        linked = owners[:1] != [(None, "style")]
    if linked:
        assert len(owners) == 1 and owners[0][1] == "link" and re.fullmatch(
            re.escape(browser.url("/static/style.css?v=")) + "[0-9a-f]{16}", owners[0][0] or ""), f"one linked sheet at its hash: {sheets}"
    else:
        assert owners == [(None, "style")], f"one inline <style>, nothing linked: {sheets}"
    same = browser.js(
        "const file = new CSSStyleSheet(); file.replaceSync(arguments[0]);"
        # A custom property keeps its value's tokens as written, so `a, b` and the minified `a,b` differ in text alone.
        "const texts = sheet => Array.from(sheet.cssRules, r => r.cssText.replace(/,\\s+/g, ','));"
        "const page = texts(document.styleSheets[0]), whole = texts(file);"
        "return {page: page.length, file: whole.length, differ: whole.filter((t, i) => t !== page[i]).slice(0, 3)};",
        STYLE_SOURCE,
    )
    assert same["file"] > 0 and same["page"] == same["file"] and not same["differ"], f"the page's sheet is not style.css: {same}"

    computed = browser.js(
        "const root = getComputedStyle(document.documentElement);"
        "const body = getComputedStyle(document.body);"
        "const skip = document.querySelector('.skip-link');"
        "return {"
        "  accent: root.getPropertyValue('--color-accent').trim(),"
        "  bodyMargin: body.marginTop,"
        "  bodyDisplay: body.display,"
        "  skipPosition: skip ? getComputedStyle(skip).position : null,"
        "};"
    )
    assert computed["accent"], "the --color-accent custom property from style.css is not defined"
    assert computed["bodyMargin"] == "0px", f"body keeps the browser's default margin: {computed}"
    assert computed["bodyDisplay"] == "flex", f"body is not laid out by style.css: {computed}"
    assert computed["skipPosition"] == "absolute", f"the skip link is not styled: {computed}"


def test_root_sends_signed_out_visitors_to_sign_in(browser: Browser) -> None:
    browser.visit("/", "root")
    WebDriverWait(browser.driver, 10).until(lambda _: browser.path == "/login")
    heading = browser.driver.find_element(By.TAG_NAME, "h1")
    assert heading.text == "Sign in"


def test_sign_in_page(browser: Browser) -> None:
    browser.visit("/login", "sign-in")
    driver = browser.driver

    assert driver.title.endswith(TITLE_SUFFIX), driver.title
    assert driver.title != TITLE_SUFFIX.strip(), "the page title is missing its own part"
    assert browser.js("return document.documentElement.lang") == "en"
    assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in"

    form = driver.find_element(By.ID, "login-form")
    assert form.get_attribute("method").lower() == "post"
    assert form.get_attribute("action") == browser.url("/login")
    csrf = form.find_element(By.CSS_SELECTOR, 'input[type="hidden"][name="csrf_token"]')
    assert csrf.get_attribute("value"), "the sign-in form carries an empty csrf_token"
    assert form.find_elements(By.CSS_SELECTOR, 'input[type="hidden"][name="next"]')

    username = form.find_element(By.ID, "username")
    assert username.get_attribute("name") == "username"
    assert username.get_attribute("autocomplete") == "username"
    assert username.get_attribute("required") is not None
    password = form.find_element(By.ID, "password")
    assert password.get_attribute("type") == "password"
    assert password.get_attribute("autocomplete") == "current-password"
    assert password.get_attribute("value") == ""
    submit = form.find_element(By.CSS_SELECTOR, 'button[type="submit"]')
    assert submit.text == "Sign in"

    # No errors yet: the field-error slots exist for aria-describedby but say nothing.
    assert not driver.find_elements(By.CSS_SELECTOR, '[role="alert"]')
    assert not driver.find_element(By.ID, "username-error").is_displayed()
    assert username.get_attribute("aria-invalid") == "false"

    # Signed-out navigation, with the current page marked.
    nav = driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Main"]')
    sign_in = nav.find_element(By.CSS_SELECTOR, 'a[href="/login"]')
    assert sign_in.get_attribute("aria-current") == "page"
    assert nav.find_elements(By.CSS_SELECTOR, 'a[href="/signup"]'), "sign-up is open by default but not linked"
    assert not nav.find_elements(By.CSS_SELECTOR, 'a[href="/wishlist"]'), "signed-out nav shows the wishlist"

    # Without NYT_API_KEY the app serves the sample catalog and must say so.
    notice = driver.find_element(By.ID, "sample-data-notice")
    assert notice.is_displayed()
    # One short line for everyone but an admin, who is the one who can set the key.
    assert "Sample data" in notice.text and "NYT_API_KEY" not in notice.text


def test_sign_up_page(browser: Browser) -> None:
    browser.visit("/signup", "sign-up")
    driver = browser.driver
    assert driver.find_element(By.TAG_NAME, "h1").text == "Create your account"
    form = driver.find_element(By.ID, "signup-form")
    assert form.get_attribute("action") == browser.url("/signup")
    assert form.find_element(By.CSS_SELECTOR, 'input[name="csrf_token"]').get_attribute("value")

    username = form.find_element(By.ID, "username")
    assert (username.get_attribute("minlength"), username.get_attribute("maxlength")) == ("3", "32")
    assert "username-hint" in username.get_attribute("aria-describedby").split()
    email = form.find_element(By.ID, "email")
    assert email.get_attribute("type") == "email"
    assert email.get_attribute("required") is None, "email is optional"
    for field in ("password", "password_confirm"):
        box = form.find_element(By.ID, field)
        assert box.get_attribute("type") == "password"
        assert box.get_attribute("autocomplete") == "new-password"
        assert box.get_attribute("minlength") == "8"
        assert box.get_attribute("value") == ""
    assert driver.find_element(By.CSS_SELECTOR, 'nav a[href="/signup"]').get_attribute("aria-current") == "page"


@pytest.mark.parametrize("path", ["/login", "/signup"])
def test_every_input_has_a_label(browser: Browser, path: str) -> None:
    browser.visit(path)
    unlabelled = browser.js(
        "return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))"
        "  .filter(el => el.labels === null || el.labels.length === 0 || !el.labels[0].textContent.trim())"
        "  .map(el => el.outerHTML);"
    )
    assert unlabelled == []


def test_failed_sign_in_keeps_username_and_explains(browser: Browser) -> None:
    browser.visit("/login", "before")
    name = f"nobody-{uuid.uuid4().hex[:8]}"
    browser.driver.find_element(By.ID, "username").send_keys(name)
    browser.driver.find_element(By.ID, "password").send_keys("not the password")
    browser.driver.find_element(By.ID, "login-submit").click()

    alert = WebDriverWait(browser.driver, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, '[role="alert"]')
    )
    browser.wait_for_load()
    browser.screenshot("after")
    assert "Wrong username or password" in alert.text
    assert browser.driver.find_element(By.ID, "username").get_attribute("value") == name
    assert browser.driver.find_element(By.ID, "password").get_attribute("value") == ""
    assert_styled_by_our_stylesheet(browser)


@pytest.mark.parametrize("path", ["/login", "/signup", "/no-such-page"])
def test_stylesheet_is_applied(browser: Browser, path: str) -> None:
    browser.visit(path, expect_status=404 if path == "/no-such-page" else None)
    assert_styled_by_our_stylesheet(browser, linked=False)


def test_the_next_page_links_the_stylesheet_the_first_one_prefetched(browser: Browser) -> None:
    """A first visit carries the sheet inline and prefetches the file, whose answer sets the cookie
    naming its hash; the page after it links the file instead, takes it from the cache (nothing
    fetched again) and is styled by it, with no CSP complaint (issue 58)."""
    browser.visit("/login", "first-visit")
    assert_styled_by_our_stylesheet(browser, linked=False)
    prefetch = browser.js("const l = document.querySelector('link[rel=prefetch]'); return l && l.href;")
    assert prefetch and "/static/style.css?v=" in prefetch, prefetch
    cookie = WebDriverWait(browser.driver, 10).until(lambda d: d.get_cookie(STYLESHEET_COOKIE), "the prefetched sheet set no cookie")
    assert prefetch.endswith("?v=" + cookie["value"]) and cookie["httpOnly"], cookie

    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, 'nav a[href="/signup"]'), "next-page-linked")
    assert browser.path == "/signup"
    assert_styled_by_our_stylesheet(browser, linked=True)
    assert browser.js("return document.querySelector('link[rel=stylesheet]').href") == prefetch
    fetched = browser.js("return performance.getEntriesByName(arguments[0]).map(e => e.transferSize);", prefetch)
    assert fetched == [0], f"the linked sheet came over the network again: transferSize {fetched}"
    browser.assert_no_console_errors()


def test_page_with_its_stylesheet_arrives_compressed(browser: Browser) -> None:
    """Chromium asks for gzip; the page (opened from the address bar), which carries the
    stylesheet, comes compressed and it decodes it: fewer bytes on the wire than in the body, and
    the page styled."""
    browser.visit("/login")
    sizes = browser.js(
        "return performance.getEntriesByType('navigation')"
        ".map(e => ({name: e.name, type: e.entryType, encoded: e.encodedBodySize, decoded: e.decodedBodySize}));"
    )
    assert len(sizes) == 1, sizes
    assert 0 < sizes[0]["encoded"] < sizes[0]["decoded"] * 0.5, sizes
    assert_styled_by_our_stylesheet(browser, linked=False)


def test_chromium_reads_the_web_app_manifest(browser: Browser) -> None:
    """Chromium finds the manifest the layout links and parses it without errors (the first test
    of installability: name, start URL, standalone display, icons it can fetch)."""
    browser.visit("/login")
    manifest = browser.driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["url"] == browser.url("/manifest.webmanifest"), manifest
    assert manifest["errors"] == [], manifest["errors"]
    assert '"display": "standalone"' in manifest["data"]


@pytest.mark.parametrize("name, content_type", [
    ("style.css", "text/css"),
    ("favicon.svg", "image/svg+xml"),
    ("cover-placeholder.svg", "image/svg+xml"),
])
def test_static_files_are_served_with_their_type(server: str, name: str, content_type: str) -> None:
    # With `X-Content-Type-Options: nosniff`, a stylesheet served under another type is ignored.
    status, headers, body = http_get(f"{server}/static/{name}")
    assert status == 200
    assert headers.get("content-type", "").split(";")[0].strip() == content_type
    assert body


@pytest.mark.parametrize("path", ["/login", "/no-such-page"])
def test_footer_credits_the_new_york_times(browser: Browser, path: str) -> None:
    browser.visit(path, expect_status=404 if path == "/no-such-page" else None)
    credit = browser.driver.find_element(By.CSS_SELECTOR, f'footer a[href="{NYT_URL}"]')
    assert credit.text == NYT_CREDIT
    browser.assert_in_viewport(credit, "the NYT attribution")


def test_not_found_page(browser: Browser, server: str) -> None:
    status, headers, _ = http_get(f"{server}/no-such-page")
    assert status == 404
    assert headers.get("content-type", "").startswith("text/html")

    browser.visit("/no-such-page", "not-found", expect_status=404)
    heading = browser.driver.find_element(By.TAG_NAME, "h1")
    assert "404" in heading.text
    assert "not found" in heading.text.lower()
    assert browser.driver.title.endswith(TITLE_SUFFIX)
    home = browser.driver.find_element(By.CSS_SELECTOR, 'main a[href="/"]')
    assert home.text == "Back to the best-seller lists"
    assert_styled_by_our_stylesheet(browser)
    code_size, body_size = browser.js(
        "return [parseFloat(getComputedStyle(document.querySelector('.error-code')).fontSize),"
        "        parseFloat(getComputedStyle(document.body).fontSize)];"
    )
    assert code_size > 2 * body_size, "the status code is not set large"


@pytest.mark.parametrize("path, status", [("/", None), ("/login", None), ("/signup", None), ("/no-such-page", 404)])
def test_no_console_errors(browser: Browser, server: str, path: str, status: int | None) -> None:
    # The point: a CSP violation (an inline style or script) is logged as a console error. That
    # only proves something if the page is actually served with the CSP.
    _, headers, _ = http_get(server + path)
    assert "default-src 'self'" in headers.get("content-security-policy", ""), headers
    browser.visit(path, expect_status=status)
    browser.assert_no_console_errors()


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_sign_in_layout_fits(browser: Browser, width: int) -> None:
    browser.resize(width, 900)
    browser.visit("/login", f"{width}px")
    assert browser.horizontal_overflow() <= 0, f"the page scrolls sideways at {width} px"

    driver = browser.driver
    nav = driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Main"]')
    browser.assert_in_viewport(nav, "the main navigation")
    for link in nav.find_elements(By.TAG_NAME, "a"):
        browser.assert_in_viewport(link, f"the nav link {link.text!r}")
    browser.assert_in_viewport(driver.find_element(By.CSS_SELECTOR, "header .brand"), "the brand")

    for element_id, what in [("username", "the username input"), ("password", "the password input"),
                             ("login-submit", "the sign-in button")]:
        element = driver.find_element(By.ID, element_id)
        browser.assert_in_viewport(element, what)
        height = element.rect["height"]
        assert height >= 44, f"{what} is {height} px tall, too small to tap"

    font_size = browser.js("return parseFloat(getComputedStyle(document.getElementById('username')).fontSize)")
    assert font_size >= 16, "inputs under 16 px make phones zoom in on focus"
    if width >= 1024:
        assert driver.find_element(By.ID, "username").rect["width"] <= 640, "the form stretches across the desktop"


def test_keyboard_focus_is_visible(browser: Browser) -> None:
    browser.visit("/login", "start")
    driver = browser.driver
    keys = ActionChains(driver)

    def active(prop: str):
        return browser.js(f"return document.activeElement && document.activeElement.{prop};")

    # The first Tab reaches the skip link, which then comes into view.
    keys.send_keys(Keys.TAB).perform()
    assert "skip-link" in (active("className") or "")
    skip = driver.switch_to.active_element
    WebDriverWait(driver, 5).until(
        lambda _: skip.rect["y"] >= 0, "the focused skip link stays off screen"
    )
    browser.assert_in_viewport(skip, "the focused skip link")
    browser.screenshot("skip-link")

    # Following it lands in the main content; the next Tab reaches the username field.
    keys.send_keys(Keys.ENTER).perform()
    WebDriverWait(driver, 5).until(lambda _: browser.js("return location.hash") == "#main")
    keys.send_keys(Keys.TAB).perform()
    WebDriverWait(driver, 5).until(lambda _: active("id") == "username", "Tab after the skip link missed the form")

    outline = browser.js(
        "const s = getComputedStyle(document.activeElement);"
        "return {style: s.outlineStyle, width: parseFloat(s.outlineWidth)};"
    )
    assert outline["style"] != "none", outline
    assert outline["width"] >= 2, f"the focus outline is too thin to see: {outline}"
    browser.screenshot("username-focused")
