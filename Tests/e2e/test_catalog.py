"""The catalog in a real browser: lists, one list, one book, search, favourites, small screens.

The server runs without an NYT key, so it shows the bundled sample catalog. What the pages should
show is read from that catalog's source (`support.sample_catalog()`), not repeated here.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from support import (
    Browser, SampleBook, SampleList, fill, fold, follow, inline_styles_and_scripts, query_of, sample_catalog, sample_list,
    sort_link, text_of, visible_text,
)

NYT_URL = "https://developer.nytimes.com"
NYT_CREDIT = "Data provided by The New York Times"
PLACEHOLDER = "/static/cover-placeholder.svg"
LIST = "hardcover-fiction"  # the sample's long weekly list (15 books)
MONTH_DAY_YEAR = r"(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}"


# ---------------------------------------------------------------------------------------------
# Helpers


def cards(browser: Browser, group: str) -> list[str]:
    """The lists (their `name_encoded`) shown as cards in the group section #favorites/#weekly/#monthly."""
    return [
        card.get_attribute("data-list")
        for card in browser.driver.find_elements(By.CSS_SELECTOR, f"#{group} li.list-card")
    ]


def all_cards(browser: Browser) -> list[str]:
    return [card.get_attribute("data-list") for card in browser.driver.find_elements(By.CSS_SELECTOR, "li.list-card")]


def card(browser: Browser, name: str) -> WebElement:
    found = browser.driver.find_elements(By.CSS_SELECTOR, f'li.list-card[data-list="{name}"]')
    assert len(found) == 1, f"expected one card for {name}, found {len(found)}"
    return found[0]


def favourite_button(scope: WebElement) -> WebElement:
    return scope.find_element(By.CSS_SELECTOR, "form.favorite-form button.favorite-toggle")


def assert_favourite_state(browser: Browser, button: WebElement, display_name: str, favourite: bool) -> None:
    assert button.get_attribute("aria-pressed") is None, "the label alone says the state; aria-pressed would say it twice"
    expected = f"Remove {display_name} from favourites" if favourite else f"Add {display_name} to favourites"
    assert button.accessible_name == expected, f"the star button is announced as {button.accessible_name!r}"
    shown = visible_text(browser, button)
    assert shown == ("Remove from favourites" if favourite else "Add to favourites"), shown
    star = button.find_element(By.CSS_SELECTOR, "svg.icon")
    assert star.get_attribute("aria-hidden") == "true", "the star is drawn, not read"
    filled = star.find_element(By.TAG_NAME, "path").get_attribute("fill")
    assert filled == ("currentColor" if favourite else "none"), f"the star is drawn {'open' if favourite else 'filled'}"


def book_rows(browser: Browser) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, "#books > li.book")


def row_weeks(row: WebElement) -> int:
    match = re.fullmatch(r"(\d+) weeks? on the list", row.find_element(By.CSS_SELECTOR, ".weeks").text)
    assert match, f"unexpected weeks text in {row.text!r}"
    return int(match[1])


def row_rank(row: WebElement) -> int:
    return int(row.get_attribute("data-rank"))


def assert_sorted_by(browser: Browser, sort: str, expected: SampleList) -> None:
    rows = book_rows(browser)
    assert len(rows) == len(expected.books)
    current = {a.text: a.get_attribute("aria-current") for a in browser.driver.find_elements(By.CSS_SELECTOR, "#sort-nav a")}
    if sort == "rank":
        assert [row_rank(row) for row in rows] == [book.rank for book in expected.books]
        assert current == {"By rank": "true", "By weeks on list": None, "Most wanted here": None, "Best rated here": None}, current
    else:
        weeks = [row_weeks(row) for row in rows]
        assert weeks == sorted((book.weeks_on_list for book in expected.books), reverse=True), weeks
        assert current == {"By rank": None, "By weeks on list": "true", "Most wanted here": None, "Best rated here": None}, current


def open_list_from_catalog(browser: Browser, name: str, shot: str) -> None:
    browser.visit("/lists", f"{shot}-catalog")
    follow(browser, card(browser, name).find_element(By.CSS_SELECTOR, "a.card-link"), shot)
    assert browser.path == f"/lists/{name}"
    assert "sort" not in query_of(browser), browser.driver.current_url


def book_with_most_lists(predicate=lambda list_, book: True) -> tuple[SampleBook, list[tuple[SampleList, SampleBook]]]:
    """The sample book (by ISBN-13) on the most lists among those matching `predicate`."""
    placements: dict[str, list[tuple[SampleList, SampleBook]]] = {}
    for list_ in sample_catalog().values():
        for book in list_.books:
            placements.setdefault(book.isbn13, []).append((list_, book))
    candidates = [entries for entries in placements.values() if any(predicate(l, b) for l, b in entries)]
    assert candidates, "no sample book matches"
    best = max(candidates, key=len)
    return best[0][1], best


def open_book_from_list(browser: Browser, list_name: str, rank: int, shot: str) -> None:
    browser.visit(f"/lists/{list_name}?sort=rank", f"{shot}-list")
    row = browser.driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-rank="{rank}"]')
    follow(browser, row.find_element(By.CSS_SELECTOR, ".book-title a"), shot)
    assert browser.path.startswith("/books/"), browser.driver.current_url


def search(browser: Browser, query: str, shot: str) -> None:
    browser.visit("/search", f"{shot}-form")
    fill(browser, "q", query)
    follow(browser, browser.driver.find_element(By.ID, "search-submit"), shot)
    assert browser.path == "/search"
    assert query_of(browser).get("q") == [query], browser.driver.current_url


def javascript_urls(browser: Browser) -> list[str]:
    """Every attribute anywhere in the document whose value is a javascript: URL."""
    return browser.js(
        "const found = [];"
        "for (const el of document.querySelectorAll('*')) {"
        "  for (const attr of el.attributes) {"
        "    if (/^\\s*javascript:/i.test(attr.value.replace(/[\\t\\n\\r]/g, ''))) found.push(el.tagName + ' ' + attr.name + '=' + attr.value);"
        "  }"
        "}"
        "return found;"
    )


# ---------------------------------------------------------------------------------------------
# The catalog


def test_catalog_shows_weekly_and_monthly_lists(signed_in: Browser) -> None:
    browser = signed_in
    browser.visit("/lists", "catalog")
    driver = browser.driver
    catalog = sample_catalog()

    assert driver.find_element(By.TAG_NAME, "h1").text == "Best-seller lists"
    assert driver.title.startswith("Best-seller lists")
    assert driver.find_element(By.ID, "weekly-heading").text == "Weekly lists"
    assert driver.find_element(By.ID, "monthly-heading").text == "Monthly lists"
    assert not driver.find_elements(By.ID, "favorites"), "a user who starred nothing sees a favourites group"

    for group, frequency in (("weekly", "Weekly"), ("monthly", "Monthly")):
        expected = sorted(name for name, list_ in catalog.items() if list_.frequency == frequency)
        assert expected, f"the sample catalog has no {frequency.lower()} lists"
        assert sorted(cards(browser, group)) == expected, f"the {group} group shows the wrong lists"

    for name, list_ in catalog.items():
        item = card(browser, name)
        link = item.find_element(By.CSS_SELECTOR, "h3 a.card-link")
        assert link.text == list_.display_name
        assert link.get_attribute("href") == browser.url(f"/lists/{name}")
        text = item.text
        assert list_.frequency.upper() in text.upper()
        books = len(list_.books)
        assert f"{books} book{'' if books == 1 else 's'}" in text, text
        assert re.search(rf"Published {MONTH_DAY_YEAR}", text), text
        assert_favourite_state(browser, favourite_button(item), list_.display_name, favourite=False)

    # The dead list that only `names` mentions is not a current list.
    assert not driver.find_elements(By.CSS_SELECTOR, 'li.list-card[data-list="hardcover-almanacs"]')

    notice = driver.find_element(By.ID, "sample-data-notice")
    assert notice.is_displayed() and "Sample data" in notice.text
    credit = driver.find_element(By.CSS_SELECTOR, f'footer a[href="{NYT_URL}"]')
    assert credit.text == NYT_CREDIT
    browser.assert_in_viewport(credit, "the NYT attribution")


def test_filter_narrows_the_lists_and_clear_restores_them(signed_in: Browser) -> None:
    browser = signed_in
    browser.visit("/lists", "all")
    driver = browser.driver
    everything = sorted(all_cards(browser))
    assert everything == sorted(sample_catalog())
    assert not driver.find_elements(By.ID, "filter-clear"), "Clear is offered with no filter set"

    field = driver.find_element(By.ID, "q")
    assert field.get_attribute("name") == "q"
    assert field.accessible_name == "Filter lists by name"
    fill(browser, "q", "fiction")
    follow(browser, driver.find_element(By.ID, "filter-submit"), "filtered")

    assert browser.path == "/lists" and query_of(browser).get("q") == ["fiction"]
    assert driver.find_element(By.ID, "q").get_attribute("value") == "fiction"
    expected = sorted(name for name, list_ in sample_catalog().items() if "fiction" in fold(list_.display_name))
    assert expected and len(expected) < len(everything), "the sample should have lists with and without 'fiction'"
    assert sorted(all_cards(browser)) == expected
    assert not driver.find_elements(By.ID, "no-match")

    follow(browser, driver.find_element(By.ID, "filter-clear"), "cleared")
    assert browser.driver.current_url == browser.url("/lists")
    assert sorted(all_cards(browser)) == everything
    assert driver.find_element(By.ID, "q").get_attribute("value") == ""

    # A filter that matches nothing says so and offers the way back.
    fill(browser, "q", "no such list at all")
    follow(browser, driver.find_element(By.ID, "filter-submit"), "no-match")
    assert all_cards(browser) == []
    message = driver.find_element(By.ID, "no-match")
    assert "no such list at all" in message.text
    follow(browser, message.find_element(By.CSS_SELECTOR, 'a[href="/lists"]'), "back-to-all")
    assert sorted(all_cards(browser)) == everything


def test_starring_a_list_moves_it_into_favourites(browser: Browser, new_account: str) -> None:
    driver = browser.driver
    weekly = sample_list(LIST)
    monthly = next(list_ for list_ in sample_catalog().values()
                   if list_.frequency == "Monthly" and "fiction" in fold(list_.display_name))
    browser.visit("/lists", "before")
    assert not driver.find_elements(By.ID, "favorites")
    assert LIST in cards(browser, "weekly")

    # Star: the list moves to "Your favourites", first on the page, and its button says so.
    follow(browser, favourite_button(card(browser, LIST)), "starred")
    # Back at the list's card, which says so (issue 57).
    assert browser.driver.current_url == browser.url("/lists#flash")
    assert driver.find_element(By.ID, "favorites-heading").text.endswith("Your favourites")
    assert cards(browser, "favorites") == [LIST]
    assert LIST not in cards(browser, "weekly")
    assert all_cards(browser)[0] == LIST, "favourites are not shown first"
    assert "card-favorite" in card(browser, LIST).get_attribute("class").split()
    assert_favourite_state(browser, favourite_button(card(browser, LIST)), weekly.display_name, favourite=True)

    # Starring from a filtered catalog comes back to the same filter.
    fill(browser, "q", "fiction")
    follow(browser, driver.find_element(By.ID, "filter-submit"), "filtered")
    follow(browser, favourite_button(card(browser, monthly.name_encoded)), "starred-while-filtered")
    assert browser.path == "/lists" and query_of(browser).get("q") == ["fiction"], browser.driver.current_url
    assert sorted(cards(browser, "favorites")) == sorted([LIST, monthly.name_encoded])

    # The list's own page shows the star pressed, and un-starring there stays on that page.
    browser.visit(f"/lists/{LIST}", "list-starred")
    header = driver.find_element(By.CSS_SELECTOR, ".list-header")
    assert_favourite_state(browser, favourite_button(header), weekly.display_name, favourite=True)
    follow(browser, favourite_button(header), "list-unstarred")
    assert browser.path == f"/lists/{LIST}"
    assert_favourite_state(browser, favourite_button(driver.find_element(By.CSS_SELECTOR, ".list-header")), weekly.display_name, favourite=False)

    browser.visit("/lists", "one-favourite-left")
    assert cards(browser, "favorites") == [monthly.name_encoded]
    assert LIST in cards(browser, "weekly")
    follow(browser, favourite_button(card(browser, monthly.name_encoded)), "none-left")
    assert not driver.find_elements(By.ID, "favorites")
    assert monthly.name_encoded in cards(browser, "monthly")
    assert sorted(all_cards(browser)) == sorted(sample_catalog())


# ---------------------------------------------------------------------------------------------
# One list


def test_list_page_shows_the_books_in_rank_order(signed_in: Browser) -> None:
    browser = signed_in
    expected = sample_list(LIST)
    assert len(expected.books) == 15
    open_list_from_catalog(browser, LIST, "list")
    driver = browser.driver

    assert driver.find_element(By.TAG_NAME, "h1").text == expected.display_name
    header = driver.find_element(By.CSS_SELECTOR, ".list-header")
    assert expected.frequency.upper() in header.text.upper()
    assert re.search(rf"Published {MONTH_DAY_YEAR}", header.text), header.text
    # The server serves the invented sample catalog: the list must not claim an update from the NYT.
    updated = driver.find_element(By.ID, "list-updated").text
    assert updated == "Sample data, bundled with the app", updated
    assert "NYT" not in header.text and "New York Times" not in header.text, header.text
    assert_favourite_state(browser, favourite_button(header), expected.display_name, favourite=False)
    assert driver.find_element(By.ID, "books-heading").text == "15 books"
    assert_sorted_by(browser, "rank", expected)

    rows = book_rows(browser)
    cover_boxes = set()
    for row, book in zip(rows, expected.books):
        what = f"row #{book.rank} ({book.title})"
        assert row_rank(row) == book.rank
        badge = row.find_element(By.CSS_SELECTOR, ".book-rank")
        assert visible_text(browser, badge) == str(book.rank) and text_of(badge) == f"Rank {book.rank}", what

        title = row.find_element(By.CSS_SELECTOR, "h3.book-title a")
        assert fold(title.text) == fold(book.title), what
        assert urlsplit(title.get_attribute("href")).path.startswith("/books/"), what
        assert row.find_element(By.CSS_SELECTOR, ".book-author").text == f"by {book.author}", what

        movement = row.find_element(By.CSS_SELECTOR, ".movement")
        assert book.movement(expected.period) in movement.text, f"{what}: {movement.text!r}"
        if book.movement().startswith(("Up", "Down")):
            assert text_of(movement).endswith(f"since last {expected.period}"), f"{what}: {text_of(movement)!r}"
        weeks = book.weeks_on_list
        assert row.find_element(By.CSS_SELECTOR, ".weeks").text == f"{weeks} week{'' if weeks == 1 else 's'} on the list", what

        cover = row.find_element(By.CSS_SELECTOR, "img.book-cover")
        # get_dom_attribute: the markup's own width/height, not the rendered size get_attribute reports.
        width, height = cover.get_dom_attribute("width"), cover.get_dom_attribute("height")
        assert width.isdigit() and int(width) > 0 and height.isdigit() and int(height) > 0, f"{what}: {width}x{height}"
        assert cover.get_dom_attribute("alt") == "", what
        assert cover.get_dom_attribute("loading") == "lazy", what
        if not book.has_cover:
            assert urlsplit(cover.get_attribute("src")).path == PLACEHOLDER, what
            assert (width, height) == ("128", "193"), what
        cover_boxes.add((cover.rect["width"], cover.rect["height"]))

        form = row.find_element(By.CSS_SELECTOR, "form.add-to-wishlist")
        assert form.get_attribute("action") == browser.url("/wishlist")
        assert form.find_element(By.CSS_SELECTOR, 'input[name="book"]').get_attribute("value"), what
        assert form.find_element(By.CSS_SELECTOR, 'input[name="return_to"]').get_attribute("value") == f"/lists/{LIST}"
        button = form.find_element(By.CSS_SELECTOR, 'button[type="submit"]')
        assert visible_text(browser, button) == "Add to wishlist"
        assert fold(book.title) in fold(button.accessible_name), f"{what}: {button.accessible_name!r}"

    assert len(cover_boxes) == 1, f"covers are shown at different sizes: {cover_boxes}"
    first_cover = rows[0].find_element(By.CSS_SELECTOR, "img.book-cover")
    WebDriverWait(driver, 5).until(
        lambda _: browser.js("return arguments[0].complete && arguments[0].naturalWidth > 0", first_cover),
        "the first cover did not load",
    )


def test_sort_by_weeks_is_remembered(signed_in: Browser) -> None:
    browser = signed_in
    expected = sample_list(LIST)
    browser.visit(f"/lists/{LIST}", "by-rank")
    assert_sorted_by(browser, "rank", expected)

    follow(browser, sort_link(browser, "By weeks on list"), "by-weeks")
    assert query_of(browser).get("sort") == ["weeks"]
    assert_sorted_by(browser, "weeks", expected)

    # Coming back to the list without ?sort keeps the order chosen last; other lists are untouched.
    open_list_from_catalog(browser, LIST, "by-weeks-remembered")
    assert_sorted_by(browser, "weeks", expected)
    other = next(name for name in sample_catalog() if name != LIST)
    browser.visit(f"/lists/{other}", "other-list")
    assert_sorted_by(browser, "rank", sample_list(other))

    browser.visit(f"/lists/{LIST}", "still-by-weeks")
    follow(browser, sort_link(browser, "By rank"), "back-to-rank")
    assert query_of(browser).get("sort") == ["rank"]
    assert_sorted_by(browser, "rank", expected)
    open_list_from_catalog(browser, LIST, "by-rank-remembered")
    assert_sorted_by(browser, "rank", expected)


# ---------------------------------------------------------------------------------------------
# One book


def test_book_page_shows_details_buy_links_and_lists(signed_in: Browser) -> None:
    browser = signed_in
    driver = browser.driver
    home = sample_list(LIST)
    # A book that the sample gives a link with a scheme other than http(s), if it has one.
    book = next((b for b in home.books if any(not link.lower().startswith(("http:", "https:")) for link in b.other_links)),
                home.books[0])
    open_book_from_list(browser, LIST, book.rank, "book")

    assert fold(driver.find_element(By.TAG_NAME, "h1").text) == fold(book.title)
    assert book.author in driver.find_element(By.CSS_SELECTOR, ".book-detail-header .book-author").text

    details = dict(zip(
        (dt.text for dt in driver.find_elements(By.CSS_SELECTOR, "#book-details dl dt")),
        (dd.text for dd in driver.find_elements(By.CSS_SELECTOR, "#book-details dl dd")),
    ))
    assert details.get("Publisher") == book.publisher, details
    assert details.get("ISBN-13") == book.isbn13, details
    if book.isbn10:
        assert details.get("ISBN-10") == book.isbn10, details

    cover = driver.find_element(By.CSS_SELECTOR, ".book-detail-figure img.book-cover")
    assert (cover.get_dom_attribute("width") or "").isdigit() and (cover.get_dom_attribute("height") or "").isdigit()
    if not book.has_cover:
        # The jacket is in the page, painted with it (docs/decisions/book-page-carries-its-cover.md).
        assert cover.get_attribute("src").startswith("data:image/svg+xml,")
        assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", cover) > 0

    on_lists = driver.find_elements(By.CSS_SELECTOR, "#book-lists a")
    assert f"#{book.rank} on {home.display_name}" in [a.text for a in on_lists]
    link = next(a for a in on_lists if a.text == f"#{book.rank} on {home.display_name}")
    assert link.get_attribute("href") == browser.url(f"/lists/{LIST}")

    web_links = [(name, url) for name, url in book.buy_links if url.lower().startswith(("http://", "https://"))]
    assert web_links, "the sample book has no buy links"
    shown = driver.find_elements(By.CSS_SELECTOR, "#buy-links a")
    assert [visible_text(browser, a) for a in shown] == [name for name, _ in web_links]
    for anchor in shown:
        assert anchor.get_attribute("href").startswith(("http://", "https://")), anchor.get_attribute("href")
        assert {"noopener", "noreferrer"} <= set((anchor.get_attribute("rel") or "").split())
        assert "another site" in anchor.accessible_name

    # The sample's javascript: link must not reach the page: not as a link, not neutralised either.
    assert javascript_urls(browser) == []
    assert "javascript:" not in driver.page_source.lower()
    assert not driver.find_elements(By.CSS_SELECTOR, 'a[href^="about:"]'), "a dropped link still shows as about:invalid"
    for anchor in driver.find_elements(By.CSS_SELECTOR, "#review-links a"):
        assert anchor.get_attribute("href").startswith(("http://", "https://"))

    form = driver.find_element(By.CSS_SELECTOR, ".book-detail-actions")
    assert form.find_elements(By.CSS_SELECTOR, 'form.add-to-wishlist[action="/wishlist"]') or \
        form.find_elements(By.CSS_SELECTOR, 'a.on-wishlist[href="/wishlist"]')


def test_book_on_several_lists_names_each_of_them(signed_in: Browser) -> None:
    browser = signed_in
    book, placements = book_with_most_lists(lambda list_, _: list_.name_encoded == LIST)
    if len(placements) < 2:
        pytest.skip("no sample book is on more than one list")
    open_book_from_list(browser, LIST, next(b.rank for l, b in placements if l.name_encoded == LIST), "book")
    shown = {a.text: urlsplit(a.get_attribute("href")).path
             for a in browser.driver.find_elements(By.CSS_SELECTOR, "#book-lists a")}
    for list_, entry in placements:
        assert shown.get(f"#{entry.rank} on {list_.display_name}") == f"/lists/{list_.name_encoded}", shown


# ---------------------------------------------------------------------------------------------
# Search


def mixed_case(text: str) -> str:
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(text))


def test_search_by_author_ignores_case_and_accents(signed_in: Browser) -> None:
    browser = signed_in
    # An author whose name has accents (if the sample has one), on as many lists as possible.
    book, placements = book_with_most_lists(lambda _, b: fold(b.author) != b.author.casefold())
    if fold(book.author) == book.author.casefold():
        book, placements = book_with_most_lists()
    plain = "".join(c for c in fold(book.author) if c.isascii())
    queries = [mixed_case(book.author)]
    if plain != book.author.casefold():
        queries.append(plain)  # typed without the accents

    for number, query in enumerate(queries, 1):
        search(browser, query, f"query-{number}")
        driver = browser.driver
        assert driver.find_element(By.ID, "q").get_attribute("value") == query
        rows = driver.find_elements(By.CSS_SELECTOR, "#result-list > li.book")
        heading = driver.find_element(By.ID, "results-heading").text
        count = len(rows)
        assert heading == f"{count} book{' matches' if count == 1 else 's match'} “{query}”", heading
        matching = [row for row in rows if fold(row.find_element(By.CSS_SELECTOR, ".book-title").text) == fold(book.title)]
        assert matching, f"searching {query!r} did not find {book.title!r} by {book.author}: {[r.text for r in rows]}"
        row = matching[0]
        assert book.author in row.find_element(By.CSS_SELECTOR, ".book-author").text
        on = row.find_element(By.CSS_SELECTOR, ".book-lists")
        assert on.text.startswith("On: ")
        for list_, entry in placements:
            assert f"{list_.display_name} (#{entry.rank})" in on.text, on.text
            link = on.find_element(By.XPATH, f'.//a[normalize-space()="{list_.display_name}"]')
            assert urlsplit(link.get_attribute("href")).path == f"/lists/{list_.name_encoded}"
        # Search results are not ranked on one list: no rank badge, no movement.
        assert not row.find_elements(By.CSS_SELECTOR, ".book-rank, .movement")
        assert row.find_element(By.CSS_SELECTOR, 'input[name="return_to"]').get_attribute("value").startswith("/search?")


def test_search_by_title_and_the_empty_states(signed_in: Browser) -> None:
    browser = signed_in
    driver = browser.driver
    browser.visit("/search", "not-searched")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Search"
    field = driver.find_element(By.ID, "q")
    assert field.get_attribute("type") == "search" and field.get_attribute("name") == "q"
    assert field.accessible_name == "Title or author"
    assert driver.find_element(By.ID, "search-hint").is_displayed()
    assert not driver.find_elements(By.ID, "results")
    nav = driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Main"] a[href="/search"]')
    assert nav.get_attribute("aria-current") == "page"

    book = sample_list(LIST).books[0]
    word = max(re.findall(r"[A-Za-z]{4,}", book.title), key=len)
    search(browser, mixed_case(word), "title-word")
    titles = [fold(t.text) for t in driver.find_elements(By.CSS_SELECTOR, "#result-list .book-title")]
    assert fold(book.title) in titles, titles

    search(browser, "zzqx no such book", "no-results")
    assert driver.find_element(By.ID, "results-heading").text == "0 books match “zzqx no such book”"
    empty = driver.find_element(By.ID, "no-results")
    assert empty.is_displayed() and "zzqx no such book" in empty.text
    assert empty.find_element(By.CSS_SELECTOR, 'a[href="/lists"]')
    assert not driver.find_elements(By.CSS_SELECTOR, "li.book")


# ---------------------------------------------------------------------------------------------
# Every catalog page: phones, the console, structure


def catalog_pages(browser: Browser) -> list[tuple[str, str]]:
    """(name, path) of every catalog page, the book page found by following a link."""
    book = sample_list(LIST).books[0]
    browser.visit(f"/lists/{LIST}?sort=rank", "find-a-book")
    book_path = urlsplit(browser.driver.find_element(
        By.CSS_SELECTOR, f'#books > li.book[data-rank="{book.rank}"] .book-title a').get_attribute("href")).path
    surname = book.author.split()[-1]
    return [
        ("catalog", "/lists"),
        ("catalog-filtered", "/lists?q=fiction"),
        ("catalog-no-match", "/lists?q=nothing-like-this"),
        ("list", f"/lists/{LIST}"),
        ("list-by-weeks", f"/lists/{LIST}?sort=weeks"),
        ("monthly-list", "/lists/" + next(n for n, l in sample_catalog().items() if l.frequency == "Monthly")),
        ("book", book_path),
        ("search", "/search"),
        ("search-results", f"/search?q={surname}"),
        ("search-no-results", "/search?q=zzqx"),
    ]


@pytest.mark.parametrize("width", [360, 390])
def test_catalog_pages_fit_a_phone(signed_in: Browser, width: int) -> None:
    browser = signed_in
    pages = catalog_pages(browser)
    browser.resize(width, 800)
    for name, path in pages:
        browser.visit(path, f"{name}-{width}px")
        assert browser.horizontal_overflow() <= 0, f"{path} scrolls sideways at {width} px"
        browser.assert_in_viewport(browser.driver.find_element(By.TAG_NAME, "h1"), f"the heading of {path}")

        rows = browser.driver.find_elements(By.CSS_SELECTOR, "li.book")
        if rows:
            # Compact rows (issue 36): no cover on a phone, the title names the book.
            shown = [c for c in browser.driver.find_elements(By.CSS_SELECTOR, "li.book img.book-cover") if c.is_displayed()]
            assert not shown, f"{path}: {len(shown)} covers in the rows at {width} px"
            first = rows[0]
            browser.assert_in_viewport(first.find_element(By.CSS_SELECTOR, ".book-title a"), f"{path}: the first title")
            action = first.find_element(By.CSS_SELECTOR, ".book-actions button, .book-actions a")
            browser.assert_in_viewport(action, f"{path}: the first book's wishlist control")
            assert action.rect["height"] >= 44, f"{path}: the wishlist control is {action.rect['height']} px tall"
        for toggle in browser.driver.find_elements(By.CSS_SELECTOR, "button.favorite-toggle")[:2]:
            browser.assert_in_viewport(toggle, f"{path}: a favourite toggle")
            assert toggle.rect["height"] >= 44

    browser.visit(dict(pages)["book"], f"book-{width}px")
    cover = browser.driver.find_element(By.CSS_SELECTOR, ".book-detail img.book-cover")
    browser.assert_in_viewport(cover, "the book's cover")


def test_no_console_errors_on_catalog_pages(signed_in: Browser) -> None:
    browser = signed_in
    for name, path in catalog_pages(browser):
        browser.visit(path, name)
        inline = inline_styles_and_scripts(browser)
        assert inline == [], f"{path} has inline styles or scripts, which the CSP blocks: {inline}"
    browser.assert_no_console_errors()


def test_catalog_pages_are_well_structured(signed_in: Browser) -> None:
    browser = signed_in
    for name, path in catalog_pages(browser):
        browser.visit(path, name)
        problems = browser.js(
            "const problems = [];"
            "const headings = Array.from(document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6'));"
            "if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');"
            "let level = 0;"
            "for (const h of headings) {"
            "  const l = Number(h.tagName[1]);"
            "  if (l > level + 1) problems.push('heading jumps to ' + h.tagName + ': ' + h.textContent.trim());"
            "  level = l;"
            "}"
            "for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea'))"
            "  if (!el.labels || !el.labels.length || !el.labels[0].textContent.trim()) problems.push('unlabelled ' + el.outerHTML);"
            "for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push('img without alt ' + img.src);"
            "for (const img of document.querySelectorAll('img')) if (!img.getAttribute('width') || !img.getAttribute('height')) problems.push('img without size ' + img.src);"
            "const ids = Array.from(document.querySelectorAll('[id]'), e => e.id);"
            "for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push('duplicate id ' + id);"
            "for (const a of document.querySelectorAll('a, button')) if (!a.textContent.trim() && !a.getAttribute('aria-label')) problems.push('empty ' + a.outerHTML);"
            "return problems;"
        )
        assert problems == [], f"{path}: {problems}"
        for button in browser.driver.find_elements(By.CSS_SELECTOR, "main button"):
            assert button.accessible_name.strip(), f"{path}: a button without an accessible name"
        current = [a.get_attribute("href") for a in browser.driver.find_elements(By.CSS_SELECTOR, 'nav[aria-label="Main"] [aria-current="page"]')]
        assert len(current) == 1, f"{path}: the main navigation marks {current} as current"


def test_keyboard_reaches_the_star_and_the_wishlist_button(signed_in: Browser) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser = signed_in
    browser.visit(f"/lists/{LIST}", "start")
    keys = ActionChains(browser.driver)
    seen = []
    for _ in range(40):
        keys.send_keys(Keys.TAB).perform()
        info = browser.js(
            "const el = document.activeElement; const s = getComputedStyle(el);"
            "return {cls: el.className, tag: el.tagName, outline: s.outlineStyle, width: parseFloat(s.outlineWidth)};"
        )
        seen.append(info)
        if info["tag"] == "BUTTON" and "button-small" in info["cls"]:
            break
    classes = [info["cls"] for info in seen]
    assert any("favorite-toggle" in c for c in classes), f"Tab never reached the star: {classes}"
    last = seen[-1]
    assert "button-small" in last["cls"], f"Tab never reached an Add to wishlist button: {classes}"
    assert last["outline"] != "none" and last["width"] >= 2, f"the focused button shows no outline: {last}"
    browser.screenshot("wishlist-button-focused")
