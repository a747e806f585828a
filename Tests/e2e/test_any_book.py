"""Any book via Open Library, every cover served by the app (issue 30), in a real browser.

The server here is not the session's `server`: it syncs its catalog from a fake NYT Books API and
looks books up in a fake Open Library (fake_services.py), both on loopback, so the catalog has
covers to fetch and the tests can take both services away.

- A book looked up by ISBN-13 typed with hyphens is one result; "Add this book" opens its page.
  The same book looked up again by its ISBN-10 (ending in X) and added opens the same page.
- A search by author lists the invented books with their year, author and a cover served from
  /covers/; the one found by title and author is added, and is on the wishlist (the result's
  "Put it on my wishlist" is ticked to begin with).
- With look-up off the page says so and offers the form to type a book in: a missing title and a
  mistyped ISBN are refused beside their fields with what was typed kept; title and author add it.
- No page makes the browser fetch anything from another site: a whole journey's requests, taken
  from Chromium's performance log, all go to the app.
- Once its covers are fetched, the app shows them with both services gone, and /books/new says
  Open Library could not be reached and still offers the form to type a book in.

Each pytest-xdist worker that runs these tests starts the fakes and the servers once for itself;
the offline story stops its services, so it starts a fake pair and a server of its own.
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack, contextmanager
from typing import Callable, Iterator, TypeVar
from urllib.parse import quote, urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from fake_services import CATALOGUE, HARBOUR_ALMANAC, LANTERN_KEEPER, QUIET_ORCHARD, NYTFake, OpenLibraryBook, OpenLibraryFake
from support import (  # _navigates: waits for the page a click leads to, with a deadline of our choosing
    CHROMEDRIVER, DEFAULT_WINDOW, Browser, _navigates, chromium_options, fold, follow, page_structure_problems,
    sign_up, unique_username, visible_text,
)
from test_household import heading, share_with_household, text_of

SYNCED_LIST = "hardcover-fiction"  # in the fake NYT's full overview
LOOKUP_DEADLINE_S = 30.0  # a look-up is up to four requests at Open Library's one a second, behind other tests'
SYNC_DEADLINE_S = 60.0
COVERS_DEADLINE_S = 120.0  # the cover job may fetch the whole catalog's covers before the few a test wants
IMAGES_DEADLINE_S = 30.0
POLL_INTERVAL_S = 0.2
REFUSED = (400, 422)
NEVER_COVERED = {fold(book.title) for book in CATALOGUE if book.cover is None}

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------
# Servers and browsers


def app_settings(open_library: OpenLibraryFake, nyt: NYTFake) -> dict:
    """The config that points a server at the fakes. The fake NYT has no quota, and the sync's
    default five requests a minute would make the first sync (two dozen lists) last minutes."""
    return {
        "nyt": {"apiKey": nyt.api_key, "baseURL": nyt.api_url, "requestsPerMinute": 1000},
        "openLibrary": {"baseURL": open_library.base_url, "coversURL": open_library.base_url},
    }


@pytest.fixture(scope="module")
def fakes() -> Iterator[tuple[OpenLibraryFake, NYTFake]]:
    with OpenLibraryFake() as open_library, NYTFake() as nyt:
        yield open_library, nyt


@pytest.fixture(scope="module")
def any_book_server(configured_server, fakes: tuple[OpenLibraryFake, NYTFake]) -> Iterator[str]:
    with configured_server("any-book", app_settings(*fakes)) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def lookup_off_server(configured_server) -> Iterator[str]:
    """A server with look-up turned off (and the sample catalog, as it has no NYT key)."""
    with configured_server("lookup-off", {"openLibrary": {"baseURL": ""}}) as base_url:
        yield base_url


@contextmanager
def chromium_logging_requests(base_url: str, name: str) -> Iterator[Browser]:
    """A headless Chromium as the `browser` fixture makes, on `base_url`, that also keeps Chromium's
    performance log: every request each page makes (`network_requests`)."""
    options = chromium_options(*DEFAULT_WINDOW)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        browser = Browser(driver, base_url, name)
        browser.resize(*DEFAULT_WINDOW)
        yield browser
    finally:
        driver.quit()


@pytest.fixture
def visitor(any_book_server: str, request: pytest.FixtureRequest) -> Iterator[Browser]:
    with chromium_logging_requests(any_book_server, request.node.name) as browser:
        yield browser


# ---------------------------------------------------------------------------------------------
# Waiting


def wait_until(check: Callable[[], T], deadline_s: float, what: str | Callable[[], str]) -> T:
    """Calls `check` until it returns something truthy and returns that; after `deadline_s`, fails
    with `what` (a callable is asked then, so it can say what is still missing)."""
    deadline = time.monotonic() + deadline_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"{what() if callable(what) else what} (waited {deadline_s:.0f} s)", pytrace=False)
        time.sleep(POLL_INTERVAL_S)


def wait_for_synced_catalog(browser: Browser) -> str:
    """Waits until the signed-in browser's server has synced the fake NYT: SYNCED_LIST exists and
    its covers are the app's own. Returns the list's path."""
    path = f"/lists/{SYNCED_LIST}"

    def synced() -> bool:
        status, _, body = browser.fetch(path)
        return status == 200 and b'src="/covers/' in body

    wait_until(synced, SYNC_DEADLINE_S, f"{path} never showed a cover from /covers/: the catalog did not sync from the fake NYT")
    return path


_NEXT_IMAGE = """
const waiting = Array.from(document.images).find(img => !img.complete);
if (waiting) waiting.scrollIntoView({block: 'center', behavior: 'instant'});
return !waiting;
"""


def load_every_image(browser: Browser) -> None:
    """Brings each image still loading into view, one per poll, until every image has loaded or
    failed. Covers are lazy, and a lazy image starts only once it comes near the viewport (a
    script that scrolled past all of them at once would start none)."""
    wait_until(lambda: browser.js(_NEXT_IMAGE), IMAGES_DEADLINE_S, f"the images of {browser.path} did not all load")


# ---------------------------------------------------------------------------------------------
# What a page shows


def network_requests(browser: Browser) -> list[str]:
    """The URL of every request the browser made since the last call (reading the performance log
    empties it): documents and redirects, styles, scripts, images, fonts, fetches, web sockets."""
    urls = []
    for entry in browser.driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
        elif message["method"] == "Network.webSocketCreated":
            urls.append(message["params"]["url"])
    return urls


def image_urls(browser: Browser) -> list[str]:
    """Every image address the page names, each srcset candidate included (a wider screen would
    fetch another), resolved against the page."""
    return browser.js(
        "const urls = [];"
        "for (const img of document.querySelectorAll('img, source')) {"
        "  if (img.getAttribute('src')) urls.push(new URL(img.getAttribute('src'), document.baseURI).href);"
        "  for (const candidate of (img.getAttribute('srcset') || '').split(',')) {"
        "    const url = candidate.trim().split(/\\s+/)[0];"
        "    if (url) urls.push(new URL(url, document.baseURI).href);"
        "  }"
        "}"
        "return urls;"
    )


def cover_images(browser: Browser) -> list[dict]:
    """Each cover on the page: its src and srcset as written, what it shows, its natural width and
    the title of the book it belongs to (the nearest row's or the book page's)."""
    return browser.js(
        "return Array.from(document.querySelectorAll('img.book-cover, .book-cover img'), img => {"
        "  const book = img.closest('li, article');"
        "  const title = book && book.querySelector('.book-title, h1');"
        "  return {src: img.getAttribute('src') || '', srcset: img.getAttribute('srcset') || '',"
        "          current: img.currentSrc, width: img.naturalWidth,"
        "          title: title ? title.textContent.trim() : ''};"
        "});"
    )


def cover_paths(cover: dict) -> set[str]:
    """The /covers/ addresses an image names in src and srcset."""
    candidates = [cover["src"]] + [part.strip().split()[0] for part in cover["srcset"].split(",") if part.strip()]
    return {url for url in candidates if url.startswith("/covers/")}


def is_jpeg(browser: Browser, url: str) -> bool:
    status, headers, _ = browser.fetch(url)
    return status == 200 and headers.get("content-type", "").startswith("image/jpeg")


def lookup_unavailable(browser: Browser) -> str:
    found = browser.driver.find_elements(By.CSS_SELECTOR, ".lookup-unavailable")
    assert len(found) == 1, f"{len(found)} .lookup-unavailable paragraphs on {browser.driver.current_url}"
    return visible_text(browser, found[0])


def wishlist_mark(browser: Browser) -> list[WebElement]:
    """The book page's "On your wishlist" mark (none while the book is not on it)."""
    return browser.driver.find_elements(By.CSS_SELECTOR, "#book a.on-wishlist")


# ---------------------------------------------------------------------------------------------
# /books/new


def look_up(browser: Browser, button: str, fields: dict[str, str], shot: str) -> list[WebElement]:
    """Opens /books/new, fills the look-up form that has these fields, presses its `button` and
    returns the results shown."""
    browser.visit("/books/new", f"{shot}-form")
    assert heading(browser) == "Add a book that is not on a list", heading(browser)
    selector = 'main form[method="get"]' + "".join(f':has([name="{name}"])' for name in fields)
    form = browser.driver.find_element(By.CSS_SELECTOR, selector)
    for name, text in fields.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(text)
    submit = form.find_element(By.XPATH, f".//button[normalize-space()='{button}']")
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", submit)
    _navigates(browser, submit.click, timeout=LOOKUP_DEADLINE_S)
    browser.screenshot(shot)
    assert browser.path == "/books/new", browser.driver.current_url
    return browser.driver.find_elements(By.CSS_SELECTOR, "ol.lookup-results > li")


def result_for(results: list[WebElement], book: OpenLibraryBook) -> WebElement:
    found = [result for result in results if fold(book.title) in fold(text_of(result))]
    assert len(found) == 1, f"{book.title!r} is in {len(found)} results: {[text_of(r) for r in results]}"
    return found[0]


def add_result(browser: Browser, result: WebElement, shot: str) -> None:
    """Presses the result's "Add this book" (its name may go on with the title for screen readers)."""
    button = result.find_element(By.XPATH, ".//form//button[starts-with(normalize-space(), 'Add this book')]")
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", button)
    _navigates(browser, button.click, timeout=LOOKUP_DEADLINE_S)
    browser.screenshot(shot)
    assert browser.path.startswith("/books/") and browser.path != "/books/new", browser.driver.current_url


def add_by_isbn(browser: Browser, book: OpenLibraryBook, shot: str) -> None:
    """Looks the book up by its ISBN-13 and adds the one result; its page opens."""
    results = look_up(browser, "Look up", {"isbn": book.printed_isbn13}, f"{shot}-lookup")
    assert len(results) == 1, [text_of(result) for result in results]
    add_result(browser, results[0], shot)
    assert browser.path == f"/books/{book.isbn13}", browser.driver.current_url


def manual_field(browser: Browser, name: str) -> WebElement:
    return browser.driver.find_element(By.CSS_SELECTOR, f'#manual-entry [name="{name}"]')


def type_in(browser: Browser, values: dict[str, str]) -> None:
    for name, text in values.items():
        field = manual_field(browser, name)
        field.clear()
        field.send_keys(text)


def submit_manual_entry(browser: Browser, shot: str) -> None:
    follow(browser, browser.driver.find_element(By.XPATH, "//form[@id='manual-entry']//button[normalize-space()='Add the book']"), shot)


def error_beside(browser: Browser, name: str) -> str:
    """The message in the field-error that the manual form's field `name` is described by ("" when empty)."""
    field = manual_field(browser, name)
    described_by = (field.get_attribute("aria-describedby") or "").split()
    errors = [
        element for id_ in described_by for element in browser.driver.find_elements(By.ID, id_)
        if "field-error" in (element.get_attribute("class") or "").split()
    ]
    assert len(errors) == 1, f"the {name} field is described by {len(errors)} .field-error: {described_by}"
    return visible_text(browser, errors[0])


# ---------------------------------------------------------------------------------------------
# Catalog books


def add_first_book_of_list(browser: Browser, shot: str) -> str:
    """Opens the synced list's first book and puts it on the wishlist; returns the book's path."""
    browser.visit(wait_for_synced_catalog(browser), f"{shot}-list")
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, "#books > li.book .book-title a"), f"{shot}-book")
    path = browser.path
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, '#book form.add-to-wishlist button[type="submit"]'), shot)
    assert browser.path == path, browser.driver.current_url
    assert wishlist_mark(browser), f"{path} is not marked as on the wishlist after adding it"
    return path


# ---------------------------------------------------------------------------------------------
# The stories


def test_a_book_looked_up_by_isbn_is_added_once(visitor: Browser, fakes: tuple[OpenLibraryFake, NYTFake]) -> None:
    open_library, _ = fakes
    book = QUIET_ORCHARD
    sign_up(visitor, unique_username("isbn"))

    results = look_up(visitor, "Look up", {"isbn": book.printed_isbn13}, "by-isbn-13")
    assert len(results) == 1, [text_of(result) for result in results]
    shown = fold(text_of(results[0]))
    assert fold(book.title) in shown and fold(book.author) in shown, text_of(results[0])
    add_result(visitor, results[0], "added")
    assert visitor.path == f"/books/{book.isbn13}", visitor.driver.current_url
    assert fold(book.title) in fold(heading(visitor)), heading(visitor)
    assert fold(book.author) in fold(text_of(visitor.driver.find_element(By.CSS_SELECTOR, "#book .book-author")))
    page = visitor.driver.current_url

    # The same book by its ISBN-10, whose check digit is X, leads to the book already here: by a
    # link saying it is here already, or by a result whose "Add this book" goes there.
    results = look_up(visitor, "Look up", {"isbn": book.printed_isbn10}, "by-isbn-10")
    known = visitor.driver.find_elements(By.CSS_SELECTOR, "#lookup-known a")
    if known:
        follow(visitor, known[0], "known")
    else:
        assert len(results) == 1, [text_of(result) for result in results]
        add_result(visitor, results[0], "added-again")
    assert visitor.driver.current_url == page

    # Typed in by hand with that ISBN, it is still that book, on the wishlist once.
    visitor.visit("/books/new", "by-hand-form")
    type_in(visitor, {"title": book.title, "author": book.author, "isbn": book.printed_isbn10})
    submit_manual_entry(visitor, "added-by-hand")
    assert visitor.driver.current_url == page
    visitor.visit("/wishlist", "wishlist")
    titles = [text_of(title) for title in visitor.driver.find_elements(By.CSS_SELECTOR, "li.wishlist-item .book-title")]
    assert [fold(title) for title in titles] == [fold(book.title)], titles

    asked = [r for r in open_library.requests if r.path == f"/isbn/{book.isbn13}.json"]
    assert asked, f"Open Library was never asked for /isbn/{book.isbn13}.json: {[r.path for r in open_library.requests]}"
    assert all("BestsellerWishlist" in r.user_agent for r in asked), {r.user_agent for r in asked}
    visitor.assert_no_console_errors()


def test_a_book_found_by_title_and_author_goes_on_the_wishlist(visitor: Browser) -> None:
    sign_up(visitor, unique_username("search"))

    by_author = [book for book in CATALOGUE if book.author == LANTERN_KEEPER.author]
    results = look_up(visitor, "Search Open Library", {"author": LANTERN_KEEPER.author.upper()}, "by-author")
    assert len(results) == len(by_author), [text_of(result) for result in results]
    for book in by_author:
        result = result_for(results, book)
        shown = text_of(result)
        assert fold(book.author) in fold(shown) and str(book.year) in shown, shown
        if book.cover is not None:
            images = result.find_elements(By.TAG_NAME, "img")
            assert images and images[0].get_dom_attribute("src").startswith("/covers/"), result.get_attribute("innerHTML")
    assert not page_structure_problems(visitor), page_structure_problems(visitor)

    results = look_up(visitor, "Search Open Library", {"title": "lantern keeper", "author": "okafor"}, "by-title-and-author")
    assert len(results) == 1, [text_of(result) for result in results]
    wish = results[0].find_element(By.CSS_SELECTOR, 'input[type="checkbox"][name="wish"]')
    assert wish.is_selected() and wish.accessible_name.strip() == "Put it on my wishlist", wish.accessible_name
    add_result(visitor, results[0], "added")
    assert visitor.path == f"/books/{LANTERN_KEEPER.isbn13}", visitor.driver.current_url
    assert fold(LANTERN_KEEPER.title) in fold(heading(visitor)), heading(visitor)
    assert wishlist_mark(visitor), "the added book is not on the wishlist"

    visitor.visit("/wishlist", "wishlist")
    titles = [text_of(title) for title in visitor.driver.find_elements(By.CSS_SELECTOR, "li.wishlist-item .book-title")]
    assert [fold(title) for title in titles] == [fold(LANTERN_KEEPER.title)], titles
    visitor.assert_no_console_errors()


def test_a_book_typed_in_while_look_up_is_off(lookup_off_server: str, request: pytest.FixtureRequest) -> None:
    title, author, link = "Notes from the Salt Marsh", "Odile Brennan", "https://example.com/salt-marsh"
    with chromium_logging_requests(lookup_off_server, request.node.name) as browser:
        sign_up(browser, unique_username("by-hand"))
        browser.visit("/books/new", "form")
        assert "Look-up is off on this server" in lookup_unavailable(browser)
        assert not page_structure_problems(browser), page_structure_problems(browser)
        wish = manual_field(browser, "wish")
        assert wish.is_selected() and wish.accessible_name.strip() == "Put it on my wishlist", wish.accessible_name

        # No title: refused beside the title, with what was typed kept.
        type_in(browser, {"author": author, "link": link})
        browser.allow_failed_load(browser.url("/books/new"), *REFUSED)
        submit_manual_entry(browser, "refused-no-title")
        assert browser.path == "/books/new", browser.driver.current_url
        assert error_beside(browser, "title"), "no error beside the missing title"
        assert manual_field(browser, "author").get_attribute("value") == author
        assert manual_field(browser, "link").get_attribute("value") == link
        assert browser.driver.find_element(By.ID, "error-summary").is_displayed()

        # A mistyped ISBN (the last digit of QUIET_ORCHARD's, off by one): refused beside the ISBN.
        mistyped = QUIET_ORCHARD.printed_isbn13[:-1] + str((int(QUIET_ORCHARD.isbn13[-1]) + 1) % 10)
        type_in(browser, {"title": title, "isbn": mistyped})
        submit_manual_entry(browser, "refused-isbn")
        assert browser.path == "/books/new", browser.driver.current_url
        assert "digit" in error_beside(browser, "isbn"), error_beside(browser, "isbn")
        assert error_beside(browser, "title") == ""
        assert manual_field(browser, "isbn").get_attribute("value") == mistyped
        assert manual_field(browser, "title").get_attribute("value") == title

        # Title and author: added, under an id of its own, and on the wishlist.
        manual_field(browser, "isbn").clear()
        submit_manual_entry(browser, "added")
        assert browser.path.startswith("/books/added-"), browser.driver.current_url
        assert fold(title) in fold(heading(browser)), heading(browser)
        assert fold(author) in fold(text_of(browser.driver.find_element(By.CSS_SELECTOR, "#book .book-author")))
        assert wishlist_mark(browser), "the book typed in is not on the wishlist"
        browser.assert_no_console_errors()


def test_no_page_makes_the_browser_reach_another_site(visitor: Browser, any_book_server: str, request: pytest.FixtureRequest) -> None:
    # Someone sharing a wishlist with a cover on it, for a profile page with covers.
    neighbour = unique_username("neighbour")
    with chromium_logging_requests(any_book_server, f"{request.node.name}-neighbour") as other:
        sign_up(other, neighbour)
        share_with_household(other)
        add_first_book_of_list(other, "neighbour")

    sign_up(visitor, unique_username("journey"))
    requested = network_requests(visitor)
    named: list[str] = []

    def take_in() -> None:
        load_every_image(visitor)
        requested.extend(network_requests(visitor))
        named.extend(image_urls(visitor))

    visitor.visit("/", "catalog")
    take_in()
    visitor.visit(wait_for_synced_catalog(visitor), "list")
    take_in()
    add_first_book_of_list(visitor, "book")
    take_in()
    visitor.visit(f"/search?q={quote(heading(visitor))}", "search")
    take_in()
    results = look_up(visitor, "Search Open Library", {"author": LANTERN_KEEPER.author}, "books-new")
    take_in()
    add_result(visitor, result_for(results, LANTERN_KEEPER), "added")
    take_in()
    for path, shot in (("/wishlist", "wishlist"), (f"/people/{neighbour}", "profile"), ("/settings", "settings"), ("/settings/lists", "settings-lists")):
        visitor.visit(path, shot)
        take_in()

    port = urlsplit(any_book_server).port
    own = {f"127.0.0.1:{port}", f"localhost:{port}"}
    foreign = sorted({
        url for url in requested + named
        if not (url.startswith("data:") or (urlsplit(url).scheme in ("http", "https") and urlsplit(url).netloc in own))
    })
    assert not foreign, "the browser was sent elsewhere than the app:\n" + "\n".join(foreign)
    assert any(urlsplit(url).path.startswith("/covers/") for url in requested), "no cover was loaded: the journey saw no image"


def test_covers_stay_when_the_services_are_gone(configured_server, request: pytest.FixtureRequest) -> None:
    with ExitStack() as stack:
        open_library = stack.enter_context(OpenLibraryFake())
        nyt = stack.enter_context(NYTFake())
        base_url = stack.enter_context(configured_server("offline", app_settings(open_library, nyt)))
        browser = stack.enter_context(chromium_logging_requests(base_url, request.node.name))
        sign_up(browser, unique_username("offline"))

        # A wishlist with a list book, an Open Library book with a cover and one without.
        book_path = add_first_book_of_list(browser, "list-book")
        for book in (LANTERN_KEEPER, HARBOUR_ALMANAC):
            add_by_isbn(browser, book, f"added-{book.isbn13}")
            assert wishlist_mark(browser), f"{book.title} is not on the wishlist"
        pages = {"catalog": "/", "list": f"/lists/{SYNCED_LIST}", "book": book_path, "wishlist": "/wishlist"}

        # Online: every cover these pages name, fetched by the server before the services go.
        wanted: set[str] = set()
        for shot, path in pages.items():
            browser.visit(path, f"online-{shot}")
            wanted |= {p for cover in cover_images(browser) if fold(cover["title"]) not in NEVER_COVERED for p in cover_paths(cover)}
        assert wanted, "the pages name no cover under /covers/"
        pending = set(wanted)

        def all_fetched() -> bool:
            pending.difference_update({path for path in list(pending) if is_jpeg(browser, path)})
            return not pending

        wait_until(all_fetched, COVERS_DEADLINE_S, lambda: f"covers never answered as JPEG: {sorted(pending)}")

        nyt.stop()
        open_library.stop()

        for shot, path in pages.items():
            browser.visit(path, f"offline-{shot}")
            load_every_image(browser)
            for cover in cover_images(browser):
                assert cover["width"] > 0, f"{path}: the cover of {cover['title']!r} shows nothing: {cover}"
                if fold(cover["title"]) in NEVER_COVERED:
                    continue
                if shot == "book" and cover["src"].startswith("data:image/jpeg;base64,"):
                    continue  # the book's own page carries its cover's large file (docs/decisions/book-page-carries-its-cover.md)
                assert cover["src"].startswith("/covers/"), f"{path}: {cover['title']!r} has no cover of the app's: {cover}"
                assert is_jpeg(browser, cover["current"]), f"{path}: {cover['title']!r} shows the placeholder: {cover}"
        browser.assert_no_console_errors()

        results = look_up(browser, "Search Open Library", {"title": "lantern"}, "offline-search")
        assert not results, [text_of(result) for result in results]
        assert "Open Library could not be reached" in lookup_unavailable(browser)
        # It is first on the page, in focus, not below the forms (issue 57).
        assert browser.js("return document.activeElement && document.activeElement.id") == "lookup-unavailable"
        assert browser.js("const r = document.getElementById('lookup-unavailable').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;")
        assert browser.driver.find_element(By.ID, "manual-entry").is_displayed(), "the form to type a book in is gone"
