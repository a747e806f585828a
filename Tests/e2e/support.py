"""What the browser tests share: a plain HTTP getter and a Chromium window with page helpers.

Nothing is downloaded at test time: the browser and its driver are the Debian packages at fixed
paths, and Selenium Manager is never consulted (an explicit driver path skips it; SE_OFFLINE keeps
it from reaching out should anything call it anyway).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import socket
import unicodedata
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

os.environ.setdefault("SE_OFFLINE", "true")

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = REPO_ROOT / ".build" / "e2e-screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
DEFAULT_WINDOW = (1280, 900)

# Loopback traffic must never go through a proxy that the environment may name.
_http = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_get(url: str, timeout: float = 5.0, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET (following redirects) that returns (status, headers, body) for error statuses too.

    `headers` are sent with the request (and with the requests of any redirects it follows).
    """
    try:
        with _http.open(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        try:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()
        finally:
            error.close()


# The sockets that hold the ports free_port() handed out, open until the test process ends.
_RESERVED_PORTS: list[socket.socket] = []


def free_port() -> int:
    """A loopback port for a server a test starts, which no one else is given in the meantime.

    Finding a free port and closing the probe leaves a window in which another process (the other
    pytest-xdist worker, another build's tests) may be given the same port. Here the probe stays
    bound, without listening, for the rest of the test process: the system gives the port to no
    one else who asks for a free one, while a server that binds it by number with SO_REUSEADDR
    (ours through Hummingbird, nginx, Caddy, aiosmtpd) gets it. Until the server listens, a
    connection to the port is refused, as to any closed port.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    probe.bind(("127.0.0.1", 0))
    _RESERVED_PORTS.append(probe)
    return probe.getsockname()[1]


def chromium_options(width: int, height: int) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--lang=en-US",
        "--no-first-run",
        "--no-default-browser-check",
        "--no-proxy-server",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-features=Translate,OptimizationHints,MediaRouter",
        "--force-color-profile=srgb",
        # Scrollbars that take no room, as a phone's: a classic one narrows the page by 15 px, and a
        # capture of the whole page (which needs none) lays the text out wider for a moment, after
        # which a page opened at a fragment is no longer where it was.
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def new_chromium(width: int = DEFAULT_WINDOW[0], height: int = DEFAULT_WINDOW[1]) -> webdriver.Chrome:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver", pytrace=False)
    return webdriver.Chrome(options=chromium_options(width, height), service=Service(executable_path=CHROMEDRIVER))


@contextmanager
def chromium(base_url: str, name: str) -> Iterator["Browser"]:
    """A Chromium of a test's own on a server of its own (`configured_server`), quit when the block ends."""
    driver = new_chromium()
    try:
        yield Browser(driver, base_url, name)
    finally:
        driver.quit()


def at_public_url(base_url: str) -> str:
    """The server at its public URL, http://localhost:PORT, where links in mail and the OpenID
    provider send the browser (cookies are per host, so a test browses there too)."""
    return f"http://localhost:{urlsplit(base_url).port}"


_FAILED_OWN_LOAD = re.compile(r"^(?P<url>\S+) - Failed to load resource: the server responded with a status of (?P<status>\d{3})")


class Browser:
    """One Chromium window for one test, with the helpers every page test needs."""

    def __init__(self, driver: webdriver.Chrome, base_url: str, test_name: str) -> None:
        self.driver = driver
        self.base_url = base_url
        self.test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")
        self.console: list[dict] = []
        self._expected_failures: set[tuple[str, int]] = set()
        self._window_frame: tuple[int, int] | None = None

    # Navigation

    def url(self, path: str) -> str:
        """`path` on this browser's base URL; an absolute URL (a link the app handed out, on the
        server's public URL) is kept as it is, so `visit` opens a link as a person would."""
        if urlsplit(path).scheme in ("http", "https"):
            return path
        return self.base_url + path

    def visit(self, path: str, name: str | None = None, expect_status: int | None = None) -> None:
        """Opens `path`, waits for the page to finish loading and keeps a screenshot of it.

        `expect_status` names an error status the page is meant to answer with (a 404 page), so
        Chromium's own "Failed to load resource" line for that document is not counted as an error.
        """
        self.driver.get(self.url(path))
        self.wait_for_load()
        if expect_status is not None:
            self._expected_failures.add((self.driver.current_url, expect_status))
        self.screenshot(name or (path.strip("/").replace("/", "_") or "root"))

    def wait_for_load(self, timeout: float = 10.0) -> None:
        WebDriverWait(self.driver, timeout).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )

    @property
    def path(self) -> str:
        return urlsplit(self.driver.current_url).path

    def fetch(self, path: str, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
        """GET `path` outside the browser but with its cookies (the session included, HttpOnly as it
        is), for what a page links to but the browser would download rather than show: the CSV export."""
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
        return http_get(self.url(path), timeout=timeout, headers={"Cookie": cookies} if cookies else None)

    def allow_failed_load(self, url: str, *statuses: int) -> None:
        """Chromium logs "Failed to load resource ... status of 422" for a document that answers with
        an error status. A form the app is meant to refuse (re-rendered with 4xx) is no console error:
        name the page's full URL and the statuses it may answer with before submitting."""
        for status in statuses:
            self._expected_failures.add((url, status))

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def disable_javascript(self) -> None:
        """Turns the pages' own scripts off in this tab, for every page it loads from now on, as a
        browser with JavaScript disabled would. WebDriver's scripts (`js`, the helpers) still run."""
        self.driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})

    # Window

    def resize(self, width: int, height: int = DEFAULT_WINDOW[1]) -> None:
        """Makes the viewport (not the outer window) exactly width x height CSS pixels.

        The window's frame (its size less the viewport's) is measured once, with the window at rest
        as Chromium opened it, and added to every size asked for. Measured after a resize, a loaded
        machine could still report the old viewport beside the new window: a 1280 px viewport read
        after asking for 360 px asked next for a window -560 px wide. `outerWidth` is no measure
        either: headless Chromium reports at least 500 px for it below that."""
        if self._window_frame is None:
            window, inner = self.driver.get_window_size(), self.viewport()
            self._window_frame = (window["width"] - inner[0], window["height"] - inner[1])
        frame_w, frame_h = self._window_frame
        self.driver.set_window_size(width + frame_w, height + frame_h)
        WebDriverWait(self.driver, 5).until(
            lambda d: d.execute_script("return [window.innerWidth, window.innerHeight]") == [width, height],
            f"could not make the viewport {width} x {height} px (a window frame of {frame_w} x {frame_h} px)",
        )

    def viewport(self) -> tuple[int, int]:
        width, height = self.js("return [window.innerWidth, window.innerHeight]")
        return width, height

    # Evidence

    def screenshot(self, name: str) -> Path:
        """Saves the whole page (not only the viewport) as <test>-<name>.png under .build/."""
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        target = SCREENSHOT_DIR / f"{self.test_name}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        width, _ = self.viewport()
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": max(1, size["height"]), "scale": 1},
        })
        # Written aside and renamed: the fixtures' accounts (`reader-account-*`) are made once per
        # pytest-xdist worker under the same names, and a reader of the folder never sees half a file.
        partial = target.with_name(f".{target.name}.{os.getpid()}")
        partial.write_bytes(base64.b64decode(shot["data"]))
        partial.replace(target)
        # Every page visited is photographed here, so here every page's links and buttons are
        # checked for words run together; after the screenshot, so that a failure has its picture.
        glued = glued_words(self)
        assert not glued, f"{name}: links or buttons whose rendered text glues words together:\n" + "\n".join(glued)
        return target

    # Console

    def console_errors(self) -> list[str]:
        """Every SEVERE browser console entry so far (CSP violations, failed loads, script errors)."""
        self.console.extend(self.driver.get_log("browser"))
        errors = []
        for entry in self.console:
            if entry.get("level") != "SEVERE":
                continue
            message = entry.get("message", "")
            own = _FAILED_OWN_LOAD.match(message)
            if own and (own["url"], int(own["status"])) in self._expected_failures:
                continue
            errors.append(message)
        return errors

    def assert_no_console_errors(self) -> None:
        errors = self.console_errors()
        assert not errors, "the browser console reported errors:\n" + "\n".join(errors)

    # Layout

    def horizontal_overflow(self) -> int:
        """How many CSS pixels the page is wider than the viewport (0 or less when it fits).

        Measured against the layout width without the vertical scrollbar (clientWidth), which is
        stricter than window.innerWidth: a desktop scrollbar could otherwise hide a 15 px overflow.
        """
        return self.js(
            "const d = document.documentElement;"
            "return Math.max(d.scrollWidth, document.body.scrollWidth)"
            "     - Math.min(d.clientWidth, window.innerWidth);"
        )

    def assert_in_viewport(self, element: WebElement, what: str) -> None:
        """Scrolls `element` into view and checks it is shown whole, on top, inside the viewport."""
        assert element.is_displayed(), f"{what} is not displayed"
        box = self.js(
            "const el = arguments[0];"
            "el.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});"
            "const r = el.getBoundingClientRect();"
            "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
            "        width: r.width, height: r.height,"
            "        onTop: hit !== null && (hit === el || el.contains(hit) || hit.contains(el)),"
            "        vw: window.innerWidth, vh: window.innerHeight};",
            element,
        )
        assert box["width"] > 0 and box["height"] > 0, f"{what} has no size: {box}"
        assert box["left"] >= 0 and box["right"] <= box["vw"], f"{what} sticks out sideways: {box}"
        assert box["top"] >= 0 and box["bottom"] <= box["vh"], f"{what} does not fit the viewport: {box}"
        assert box["onTop"], f"{what} is covered by another element: {box}"

    def stylesheet_hrefs(self) -> list[str]:
        return self.js("return Array.from(document.styleSheets, s => s.href || '(inline)');")


# ---------------------------------------------------------------------------------------------
# Signed-in pages: accounts made through the real forms, and page changes caused by a click.

PASSWORD = "a long enough passphrase 🔑"


def unique_username(prefix: str = "reader") -> str:
    """A username no other test (or earlier run against the same database) has used."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"[:32]


def _navigates(browser: "Browser", action, timeout: float = 10.0) -> None:
    """Runs `action` (a click, a submit) and waits until the browser has loaded the next page.

    The old document is marked with a token that a new document does not have. (Waiting for the
    old <html> element to go stale races with Chromium swapping documents: it sometimes reports
    "Node ... does not belong to the document" instead of a stale element.)
    """
    token = uuid.uuid4().hex
    browser.js("window.__e2ePage = arguments[0];", token)
    action()

    def next_page_loaded(driver) -> bool:
        try:
            return driver.execute_script(
                "return window.__e2ePage !== arguments[0] && document.readyState === 'complete';", token
            )
        except WebDriverException:  # the script ran while one document replaced the other
            return False

    WebDriverWait(browser.driver, timeout).until(next_page_loaded, "the page did not change")


def follow(browser: "Browser", element: WebElement, name: str | None = None) -> None:
    """Clicks a link or submit button, waits for the page it leads to and screenshots it."""
    # Scroll first, without animation (a script's scrollIntoView may glide by default), so that the
    # click lands on the element rather than on whatever passes under the pointer.
    browser.js("arguments[0].scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});", element)
    _navigates(browser, element.click)
    if name:
        browser.screenshot(name)


def fill(browser: "Browser", field_id: str, text: str) -> WebElement:
    field = browser.driver.find_element(By.ID, field_id)
    field.clear()
    field.send_keys(text)
    return field


def sign_up(browser: "Browser", username: str, password: str = PASSWORD) -> None:
    """Creates an account through the sign-up form; the browser is then signed in as it."""
    browser.visit("/signup", "sign-up-form")
    fill(browser, "username", username)
    fill(browser, "password", password)
    fill(browser, "password_confirm", password)
    follow(browser, browser.driver.find_element(By.ID, "signup-submit"))
    problems = browser.driver.find_elements(By.CSS_SELECTOR, '[role="alert"], .field-error:not(:empty)')
    assert browser.path != "/signup", "sign-up failed: " + " | ".join(p.text for p in problems)


def sign_in(browser: "Browser", username: str, password: str = PASSWORD, start: str = "/login") -> None:
    """Signs in through the sign-in form (opening `start` first when not already on a sign-in page)."""
    if browser.path != "/login" or browser.driver.current_url == "data:,":
        browser.visit(start, "sign-in-form")
    fill(browser, "username", username)
    fill(browser, "password", password)
    follow(browser, browser.driver.find_element(By.ID, "login-submit"))


def open_me_menu(browser: "Browser") -> None:
    """Opens the navigation's "Me" menu (a <details>), where Settings, the books read, Admin and
    Sign out live, as a person would: by pressing "Me"."""
    menu = browser.driver.find_element(By.ID, "me-menu")
    if menu.get_attribute("open") is None:
        # A page opened at its confirmation (`#flash`) is scrolled past the header: back up first.
        toggle = browser.driver.find_element(By.ID, "me-toggle")
        browser.js("arguments[0].scrollIntoView({block: 'nearest', behavior: 'instant'});", toggle)
        toggle.click()
        WebDriverWait(browser.driver, 5).until(lambda d: menu.get_attribute("open") is not None, "the Me menu did not open")


def sign_out(browser: "Browser") -> None:
    open_me_menu(browser)
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, '#signout-form button[type="submit"]'))


def signed_in_as(browser: "Browser") -> str | None:
    """The username the navigation shows, or None when it shows no one signed in."""
    found = browser.driver.find_elements(By.ID, "nav-user")
    if not found:
        return None
    text = found[0].get_attribute("textContent") or ""
    return re.sub(r"\s+", " ", text).replace("Signed in as", "").strip()


# ---------------------------------------------------------------------------------------------
# The sample catalog the server shows without an NYT key, read from its JSON files (one per API
# response, at the API's own paths), so the tests follow the data instead of repeating it.

SAMPLE_CATALOG = REPO_ROOT / "Sources" / "WishlistCore" / "Catalog" / "SampleCatalog"


@dataclass(frozen=True)
class SampleBook:
    rank: int
    rank_last_week: int
    weeks_on_list: int
    title: str
    author: str
    publisher: str
    isbn13: str
    isbn10: str
    buy_links: tuple[tuple[str, str], ...]
    other_links: tuple[str, ...]  # review and chapter links, as the API sends them (any scheme)
    has_cover: bool  # an http(s) image URL, with or without a size; otherwise the page shows the placeholder

    def movement(self, period: str = "week") -> str:
        """What a list page shows about the book's move since the previous edition ("week"/"month")."""
        if self.rank_last_week == 0:
            return f"New this {period}"
        if self.rank_last_week > self.rank:
            return f"Up {self.rank_last_week - self.rank}"
        if self.rank_last_week < self.rank:
            return f"Down {self.rank - self.rank_last_week}"
        return f"Same as last {period}"


@dataclass(frozen=True)
class SampleList:
    name_encoded: str
    display_name: str
    frequency: str  # "Weekly" or "Monthly", as the catalog shows it
    books: tuple[SampleBook, ...]

    @property
    def period(self) -> str:
        return "month" if self.frequency == "Monthly" else "week"


def _sample_book(raw: dict) -> SampleBook:
    others = tuple(
        str(raw.get(key) or "")
        for key in ("book_review_link", "sunday_review_link", "first_chapter_link", "article_chapter_link")
        if raw.get(key)
    )
    return SampleBook(
        rank=int(raw["rank"]),
        rank_last_week=int(raw.get("rank_last_week") or 0),
        weeks_on_list=int(raw.get("weeks_on_list") or 0),
        title=raw["title"],
        author=raw.get("author") or "",
        publisher=raw.get("publisher") or "",
        isbn13=raw.get("primary_isbn13") or "",
        isbn10=raw.get("primary_isbn10") or "",
        buy_links=tuple((link.get("name") or "", link.get("url") or "") for link in raw.get("buy_links") or []),
        other_links=others,
        has_cover=str(raw.get("book_image") or "").lower().startswith(("http://", "https://")),
    )


def sample_list(name: str) -> SampleList:
    catalog = sample_catalog()
    assert name in catalog, f"the sample catalog has no list {name!r}: {sorted(catalog)}"
    return catalog[name]


@functools.lru_cache(maxsize=1)
def sample_catalog() -> dict[str, SampleList]:
    """Every current list of the sample catalog by `list_name_encoded`, its books in rank order.

    Current lists are the ones the full overview carries plus those fetched one by one; a list
    that only `names` mentions (a long-dead one) is not current and is not shown.
    """
    lists = SAMPLE_CATALOG / "lists"
    if not (lists / "names.json").is_file():
        pytest.fail(f"the sample catalog is missing: {lists / 'names.json'}", pytrace=False)

    def response(path: Path) -> dict:
        return json.loads(path.read_text(encoding="utf-8"))

    names = response(lists / "names.json")["results"]
    frequency = {entry["list_name_encoded"]: entry["updated"].capitalize() for entry in names}
    raw_lists = list(response(lists / "full-overview.json")["results"]["lists"])
    raw_lists += [response(path)["results"] for path in sorted((lists / "current").glob("*.json"))]
    catalog = {}
    for raw in raw_lists:
        encoded = raw["list_name_encoded"]
        books = tuple(sorted((_sample_book(book) for book in raw["books"]), key=lambda book: book.rank))
        catalog[encoded] = SampleList(
            name_encoded=encoded,
            display_name=raw["display_name"],
            frequency=(raw.get("updated") or frequency.get(encoded, "")).capitalize(),
            books=books,
        )
    return catalog


def fold(text: str) -> str:
    """Case- and accent-insensitive form, for comparing what a page shows with the sample data."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def text_of(element: WebElement) -> str:
    """All the text of an element, visually hidden parts included, with whitespace collapsed."""
    return re.sub(r"\s+", " ", element.get_attribute("textContent") or "").strip()


def heading(browser: "Browser") -> str:
    return text_of(browser.driver.find_element(By.TAG_NAME, "h1"))


def query_of(browser: "Browser") -> dict[str, list[str]]:
    return parse_qs(urlsplit(browser.driver.current_url).query)


def sort_link(browser: "Browser", label: str) -> WebElement:
    return browser.driver.find_element(By.XPATH, f'//nav[@id="sort-nav"]//a[normalize-space()="{label}"]')


def click(browser: "Browser", element: WebElement) -> None:
    """Clicks a control that does not leave the page, scrolled to first without animation (a
    click made while the page glides lands on whatever passes under it)."""
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", element)
    element.click()


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def long_date(day: date) -> str:
    """A date as the pages write it: "November 26, 2026"."""
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def accessibility_problems(browser: "Browser", name: str) -> list[str]:
    """What test_accessibility.py finds on the page `browser` shows: axe-core's violations at both
    widths in both colour schemes, and overflow at the reflow width; for the pages a test of its own
    reaches (mail, single sign-on). The browser is left at the wider width."""
    from test_accessibility import REFLOW_WIDTH, SCHEMES, WIDTHS, emulate, overflow_problems, run_axe

    found = []
    for width in WIDTHS:
        for scheme in SCHEMES:
            emulate(browser, width, scheme)
            found += [f"{name} at {width} px, {scheme}: {v['id']} {v['help']} {[n['target'] for n in v['nodes']]}"
                      for v in run_axe(browser)["violations"]]
    emulate(browser, REFLOW_WIDTH)
    found += [f"{name} at {REFLOW_WIDTH} px: {p}" for p in overflow_problems(browser)]
    emulate(browser, WIDTHS[-1])
    return found


def current_sort(browser: "Browser") -> list[str]:
    """The sort links of a paged list (wishlist, books read) that say they are the current order."""
    return [text_of(a) for a in browser.driver.find_elements(By.CSS_SELECTOR, '#sort-nav a[aria-current="true"]')]


def visible_text(browser: "Browser", element: WebElement) -> str:
    """The element's text without its visually hidden parts (which WebDriver's .text may include)."""
    return browser.js(
        "const copy = arguments[0].cloneNode(true);"
        "copy.querySelectorAll('.visually-hidden').forEach(e => e.remove());"
        "return copy.textContent.replace(/\\s+/g, ' ').trim();",
        element,
    )


# ---------------------------------------------------------------------------------------------
# Rendered text: a flex or grid container drops the white space between its items, so a link such
# as `Previous edition <time>Nov 8</time>` laid out as an inline-flex box shows "Previous editionNov
# 8". Two checks, for each link and button: no word of innerText (what is copied, and what some
# browsers give screen readers) is two or more words of textContent run together, and no two words
# with white space between them in the source are drawn on one line touching. Visually hidden parts
# are not on screen and may be missing from innerText: innerText is also compared with the text
# without them, and on screen they are skipped (their white space still separates words). Case is
# ignored, since innerText carries text-transform.

_GLUED_WORDS = """
const words = text => text.replace(/\\s+/g, ' ').trim().toLowerCase().split(' ').filter(Boolean);

function gluedInText(el) {
  const shown = new Set(words(el.innerText));
  const copy = el.cloneNode(true);
  copy.querySelectorAll('.visually-hidden').forEach(e => e.remove());
  const glued = [];
  for (const source of [words(el.textContent), words(copy.textContent)])
    for (let i = 0; i < source.length; i++)
      for (let j = i + 1, run = source[i]; j < source.length; j++) {
        run += source[j];
        if (shown.has(run)) glued.push('innerText runs together ' + JSON.stringify(source.slice(i, j + 1).join(' ')));
      }
  return glued;
}

function boxes(node, start, end) {
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, end);
  return Array.from(range.getClientRects()).filter(r => r.width > 0 && r.height > 0);
}

function sameLine(a, b) {
  return Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5 * Math.min(a.height, b.height);
}

function gluedOnScreen(el) {
  const glued = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let previous = null, space = false;
  for (let node; (node = walker.nextNode()); ) {
    const hidden = node.parentElement.closest('.visually-hidden') !== null;
    for (const part of node.data.matchAll(/\\s+|\\S+/g)) {
      if (/^\\s/.test(part[0])) { space = true; continue; }
      const drawn = hidden ? [] : boxes(node, part.index, part.index + part[0].length);
      if (!drawn.length) continue;  // not on screen: neither word of a pair
      const first = drawn[0];
      if (previous && space && sameLine(previous.box, first) && first.left - previous.box.right < 1)
        glued.push('shown touching: ' + JSON.stringify(previous.word + ' ' + part[0]));
      previous = {word: part[0], box: drawn[drawn.length - 1]};
      space = false;
    }
  }
  return glued;
}

const problems = [];
for (const el of document.querySelectorAll('a, button')) {
  if (!(el instanceof HTMLElement)) continue;
  for (const problem of new Set([...gluedInText(el), ...gluedOnScreen(el)]))
    problems.push(problem + ' in ' + el.outerHTML.slice(0, 240));
}
return problems;
"""


def glued_words(browser: "Browser") -> list[str]:
    """The links and buttons whose rendered text runs two of their words into one, in innerText
    or on screen."""
    return browser.js(_GLUED_WORDS)


# ---------------------------------------------------------------------------------------------
# Page structure: what every page must get right for screen readers and keyboards.

_STRUCTURE_CHECK = """
const problems = [];
const headings = Array.from(document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6'));
if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
let level = 0;
for (const h of headings) {
  const l = Number(h.tagName[1]);
  if (l > level + 1) problems.push('heading jumps to ' + h.tagName + ': ' + h.textContent.trim());
  level = l;
}
for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea'))
  if (!el.labels || !el.labels.length || !el.labels[0].textContent.trim()) problems.push('unlabelled ' + el.outerHTML);
for (const el of document.querySelectorAll('[aria-describedby]'))
  for (const id of el.getAttribute('aria-describedby').split(/\\s+/))
    if (id && !document.getElementById(id)) problems.push('aria-describedby names a missing #' + id);
for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push('img without alt ' + img.src);
for (const img of document.querySelectorAll('img')) if (!img.getAttribute('width') || !img.getAttribute('height')) problems.push('img without size ' + img.src);
const ids = Array.from(document.querySelectorAll('[id]'), e => e.id);
for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push('duplicate id ' + id);
for (const a of document.querySelectorAll('a, button')) if (!a.textContent.trim() && !a.getAttribute('aria-label')) problems.push('empty ' + a.outerHTML);
for (const a of document.querySelectorAll('a[href^="#"]')) if (a.getAttribute('href').length > 1 && !document.getElementById(a.getAttribute('href').slice(1))) problems.push('link to a missing ' + a.getAttribute('href'));
return problems;
"""


def page_structure_problems(browser: "Browser") -> list[str]:
    """One h1, no skipped heading levels, every field labelled and its aria-describedby resolving,
    images with alt and size, unique ids, no empty links or buttons, in-page links that land."""
    return browser.js(_STRUCTURE_CHECK)


def inline_styles_and_scripts(browser: "Browser") -> list[str]:
    """Inline style attributes, <style> blocks and inline scripts, which the CSP blocks; all but the
    head's one <style>, the page's stylesheet on a first visit, which the CSP allows by the hash of
    its text (once the browser holds the file, the page links it instead)."""
    return browser.js(
        "const own = document.head.querySelector('style');"
        "return Array.from(document.querySelectorAll('[style], style, script:not([src])')).filter(e => e !== own)"
        ".map(e => e.outerHTML.slice(0, 120));"
    )
