"""The wishlist in a real browser: add, mark, note, remove, sort, export, import, settings, phones.

Each story that changes a wishlist signs up its own account through the form (`new_account`).
The page checks share one account (`wisher`) with two books on its wishlist, one with a note.
What the catalog holds is read from the sample catalog's source (`support.sample_catalog()`).
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import string
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select

from support import (
    DEFAULT_WINDOW, PASSWORD, Browser, SampleBook, current_sort, fill, fold, follow, heading, http_get, inline_styles_and_scripts,
    new_chromium, page_structure_problems, query_of, sample_catalog, sample_list, sign_in, sign_out, sign_up, sort_link,
    text_of, unique_username, visible_text,
)

LIST = "hardcover-fiction"  # the sample's long weekly list
START_LIST = "hardcover-nonfiction"  # the default list the settings story picks
MONTH_D_YEAR = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}"
EMPTY_MESSAGE = "Your wishlist is empty. Browse the best-seller lists and press “Add to wishlist” on any book."
NO_FAVOURITES = "You have no favourite lists yet. Star a list in the catalog to add it."
IMPORT_HINT = (
    "In Goodreads: My Books → Import and export → Export library. Books on your to-read shelf join your wishlist, on "
    "your first list; "
    "books on your read shelf join the books you’ve read, with your rating, date read and review."
)
# A form the app refuses is re-rendered with a 4xx status; Chromium logs that as a failed load.
REFUSED = (400, 413, 415, 422)
# The columns of a Goodreads "Export library" file, in Goodreads' own order.
GOODREADS_COLUMNS = [
    "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
    "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
    "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
    "Spoiler", "Private Notes", "Read Count", "Owned Copies",
]


# ---------------------------------------------------------------------------------------------
# Helpers


def path_of(element: WebElement, attribute: str = "href") -> str:
    return urlsplit(element.get_attribute(attribute)).path


def book_row(browser: Browser, rank: int) -> WebElement:
    return browser.driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-rank="{rank}"]')


def row_title(row: WebElement) -> str:
    return row.find_element(By.CSS_SELECTOR, ".book-title a").text


def add_button(scope: WebElement) -> WebElement:
    return scope.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]')


def add_from_list(browser: Browser, rank: int, shot: str | None = None) -> str:
    """Presses "Add to wishlist" on the row ranked `rank` of the open list; returns the title shown."""
    row = book_row(browser, rank)
    title = row_title(row)
    follow(browser, add_button(row), shot)
    return title


def on_wishlist_mark(scope: WebElement) -> WebElement:
    marks = scope.find_elements(By.CSS_SELECTOR, "a.on-wishlist")
    assert len(marks) == 1, f"expected one 'On your wishlist' mark, found {len(marks)} in {text_of(scope)!r}"
    return marks[0]


def flash(browser: Browser) -> WebElement:
    found = browser.driver.find_elements(By.ID, "flash")
    assert found, f"no confirmation on {browser.driver.current_url}"
    return found[0]


def assert_on_screen(browser: Browser, element: WebElement, what: str) -> None:
    """`element` is visible where the page opened, without anyone scrolling to it."""
    assert element.is_displayed(), f"{what} is not displayed"
    box = browser.js(
        "const r = arguments[0].getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, vw: window.innerWidth, vh: window.innerHeight};",
        element,
    )
    assert 0 <= box["top"] and box["bottom"] <= box["vh"], f"{what} is off screen when the page opens: {box}"
    assert 0 <= box["left"] and box["right"] <= box["vw"], f"{what} sticks out sideways: {box}"


def wishlist_count(browser: Browser) -> int:
    """The number the navigation shows beside "Wishlist"."""
    shown = visible_text(browser, browser.driver.find_element(By.ID, "wishlist-count"))
    assert shown.isdigit(), f"the wishlist count in the navigation reads {shown!r}"
    return int(shown)


def wishlist_rows(browser: Browser) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, "#wishlist-items > li.wishlist-item")


def wishlist_titles(browser: Browser) -> list[str]:
    return [row_title(row) for row in wishlist_rows(browser)]


def wishlist_row(browser: Browser, title: str) -> WebElement:
    found = [row for row in wishlist_rows(browser) if fold(row_title(row)) == fold(title)]
    assert len(found) == 1, f"expected {title!r} once on the wishlist, found {wishlist_titles(browser)}"
    return found[0]



def details(browser: Browser) -> dict[str, str]:
    return dict(zip(
        (dt.text for dt in browser.driver.find_elements(By.CSS_SELECTOR, "#book-details dl dt")),
        (dd.text for dd in browser.driver.find_elements(By.CSS_SELECTOR, "#book-details dl dd")),
    ))


def note_box(browser: Browser) -> WebElement:
    return browser.driver.find_element(By.CSS_SELECTOR, '#note-form textarea[name="note"]')


def goodreads_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    """Writes `rows` as a Goodreads library export: every column, ISBNs as ="…" the way Goodreads does."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=GOODREADS_COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({column: row.get(column, "") for column in GOODREADS_COLUMNS})
    return path


def goodreads_row(book_id: int, title: str, author: str, isbn10: str, isbn13: str, shelf: str, **extra: str) -> dict[str, str]:
    surname = author.split()[-1]
    row = {
        "Book Id": str(book_id), "Title": title, "Author": author,
        "Author l-f": f"{surname}, {' '.join(author.split()[:-1])}".strip(", "),
        "ISBN": f'="{isbn10}"', "ISBN13": f'="{isbn13}"', "My Rating": "0", "Average Rating": "3.98",
        "Publisher": "Goodreads Test Press", "Binding": "Hardcover", "Number of Pages": "320",
        "Year Published": "2024", "Original Publication Year": "2024", "Date Added": "2025/01/15",
        "Bookshelves": "" if shelf == "read" else shelf, "Bookshelves with positions": "" if shelf == "read" else f"{shelf} (#1)",
        "Exclusive Shelf": shelf, "Read Count": "1" if shelf == "read" else "0", "Owned Copies": "0",
    }
    row.update(extra)
    return row


def _initial(text: str) -> str:
    return next(c for c in fold(text) if c.isalnum())


def _without_article(title: str) -> str:
    return re.sub(r"^(the|a|an)\s+", "", fold(title))


def sort_trio() -> tuple[list[SampleBook], list[SampleBook], list[SampleBook]]:
    """Three books of LIST whose order by title and by author cannot depend on how the app compares
    text (with or without a leading "The", by whole name or surname, accents, case), and an order to
    add them in so that newest first, by title and by author are three different orders.
    Returns (add order, title order, author order)."""
    books = [b for b in sample_list(LIST).books if b.isbn13.isdigit()]
    for trio in itertools.combinations(books, 3):
        keys = {
            "title": [_initial(b.title) for b in trio], "bare title": [_initial(_without_article(b.title)) for b in trio],
            "author": [_initial(b.author) for b in trio], "surname": [_initial(b.author.split()[-1]) for b in trio],
        }
        if any(len(set(k)) < 3 for k in keys.values()):
            continue
        by_title = sorted(trio, key=lambda b: _initial(b.title))
        by_author = sorted(trio, key=lambda b: _initial(b.author))
        if by_title != sorted(trio, key=lambda b: _initial(_without_article(b.title))):
            continue
        if by_author != sorted(trio, key=lambda b: _initial(b.author.split()[-1])) or by_author == by_title:
            continue
        for order in itertools.permutations(trio):
            newest_first = list(reversed(order))
            if newest_first not in (by_title, by_author):
                return list(order), by_title, by_author
    pytest.fail("the sample list has no three books that sort unambiguously", pytrace=False)


# ---------------------------------------------------------------------------------------------
# The stories


def test_add_from_a_list_mark_note_and_remove(browser: Browser, new_account: str) -> None:
    driver = browser.driver
    home = sample_list(LIST)
    older, newer = home.books[1], home.books[0]

    # Add from a list row: back on the same list, told so, and the row is marked.
    browser.visit(f"/lists/{LIST}", "list")
    assert wishlist_count(browser) == 0
    older_title = add_from_list(browser, older.rank, "added-from-list")
    assert browser.path == f"/lists/{LIST}", f"adding led to {driver.current_url}"
    message = flash(browser)
    assert f"Added “{older_title}” to your wishlist" in text_of(message), text_of(message)
    assert "flash-success" in message.get_attribute("class").split()
    assert_on_screen(browser, message, "the confirmation")
    mark = on_wishlist_mark(book_row(browser, older.rank))
    assert "On your wishlist" in visible_text(browser, mark)
    assert re.fullmatch(r"/wishlist/[^/]+", path_of(mark)), f"the mark links to {mark.get_attribute('href')}"
    assert not book_row(browser, older.rank).find_elements(By.CSS_SELECTOR, "form.add-to-wishlist")
    assert book_row(browser, newer.rank).find_elements(By.CSS_SELECTOR, "form.add-to-wishlist")
    assert wishlist_count(browser) == 1

    # A second tab opens the book page while the book is not on the wishlist yet...
    book_path = path_of(book_row(browser, newer.rank).find_element(By.CSS_SELECTOR, ".book-title a"))
    list_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    book_tab = driver.current_window_handle
    browser.visit(book_path, "book-page-before")
    assert add_button(driver.find_element(By.CSS_SELECTOR, ".book-detail-actions"))

    # ...the first tab adds it from the list...
    driver.switch_to.window(list_tab)
    newer_title = add_from_list(browser, newer.rank, "added-second")
    assert f"Added “{newer_title}” to your wishlist" in text_of(flash(browser))
    assert wishlist_count(browser) == 2

    # ...and adding it again from the stale book page changes nothing and says so.
    driver.switch_to.window(book_tab)
    follow(browser, add_button(driver.find_element(By.CSS_SELECTOR, ".book-detail-actions")), "added-again")
    assert browser.path == book_path, f"adding from the book page led to {driver.current_url}"
    again = text_of(flash(browser))
    assert "already" in again.lower() and fold(newer_title) in fold(again), again
    assert wishlist_count(browser) == 2
    item_path = path_of(on_wishlist_mark(driver.find_element(By.CSS_SELECTOR, ".book-detail-actions")))
    assert re.fullmatch(r"/wishlist/[^/]+", item_path), f"the book page's mark links to {item_path}"
    driver.close()
    driver.switch_to.window(list_tab)

    # The wishlist: newest first by default.
    follow(browser, driver.find_element(By.ID, "nav-wishlist"), "wishlist")
    assert browser.path == "/wishlist"
    assert driver.find_element(By.ID, "nav-wishlist").get_attribute("aria-current") == "page"
    assert heading(browser).startswith("Your wishlist") and "2 books" in heading(browser), heading(browser)
    assert [fold(t) for t in wishlist_titles(browser)] == [fold(newer_title), fold(older_title)]
    assert current_sort(browser) == ["Newest first"]
    first = wishlist_rows(browser)[0]
    assert first.find_element(By.CSS_SELECTOR, ".book-author").text == f"by {newer.author}"
    assert re.fullmatch(rf"Added {MONTH_D_YEAR}", first.find_element(By.CSS_SELECTOR, ".item-added").text)
    standing = first.find_element(By.CSS_SELECTOR, ".item-standing")
    assert f"On {home.display_name} (#{newer.rank})" in standing.text, standing.text
    assert path_of(standing.find_element(By.TAG_NAME, "a")) == f"/lists/{LIST}"
    assert not first.find_elements(By.CSS_SELECTOR, ".item-note")
    assert not driver.find_elements(By.ID, "wishlist-empty")
    title_link = first.find_element(By.CSS_SELECTOR, ".book-title a")
    assert path_of(title_link) == item_path, "the wishlist and the book page disagree on the item's address"

    # The item page: the book's details from the item's copy, its standing, the date it was added.
    follow(browser, title_link, "item")
    assert browser.path == item_path
    assert fold(heading(browser)) == fold(newer_title)
    assert re.search(r"Added .*\d{4}", driver.find_element(By.ID, "item-added").text)
    assert details(browser).get("ISBN-13") == newer.isbn13, details(browser)
    assert details(browser).get("Publisher") == newer.publisher, details(browser)
    on_lists = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#item-lists a")]
    assert f"#{newer.rank} on {home.display_name}" in on_lists, on_lists
    assert path_of(driver.find_element(By.ID, "book-link")) == book_path
    if any(url.lower().startswith(("http://", "https://")) for _, url in newer.buy_links):
        assert driver.find_elements(By.CSS_SELECTOR, "#buy-links a")
    assert "javascript:" not in driver.page_source.lower()

    # A note: written, saved, shown again, escaped.
    box = note_box(browser)
    assert box.accessible_name == "Your note"
    assert box.get_attribute("maxlength") == "2000"
    assert box.get_attribute("value") == ""
    assert driver.find_element(By.ID, "note-hint").text.startswith("Up to 2,000 characters.")
    note = "Ask for it <b>signed</b> & gift-wrapped — “for Dad”\nsecond line"
    fill(browser, "note", note)
    follow(browser, driver.find_element(By.ID, "note-submit"), "note-saved")
    assert browser.path == item_path, f"saving the note led to {driver.current_url}"
    assert note_box(browser).get_attribute("value") == note
    assert not driver.find_elements(By.CSS_SELECTOR, "main b"), "the note's markup reached the page as markup"

    # Too long for the server (a browser that ignores maxlength): refused beside the field, text kept.
    long_note = "x" * 2001
    browser.js("arguments[0].removeAttribute('maxlength'); arguments[0].value = arguments[1];", note_box(browser), long_note)
    browser.allow_failed_load(browser.url(item_path), *REFUSED)
    follow(browser, driver.find_element(By.ID, "note-submit"), "note-too-long")
    assert browser.path == item_path
    error = driver.find_element(By.ID, "note-error")
    assert error.is_displayed() and error.text.strip(), "the refused note has no error beside it"
    assert note_box(browser).get_attribute("aria-invalid") == "true"
    assert note_box(browser).get_attribute("value") == long_note, "the refused note was not given back"
    browser.visit(item_path, "note-unchanged")
    assert note_box(browser).get_attribute("value") == note

    browser.visit("/wishlist", "wishlist-with-note")
    row = wishlist_row(browser, newer_title)
    assert visible_text(browser, row.find_element(By.CSS_SELECTOR, ".item-note")) == re.sub(r"\s+", " ", note)

    # Remove, through the confirmation page; "Keep it" first goes back untouched.
    browser.visit(item_path, "item-before-remove")
    follow(browser, driver.find_element(By.ID, "remove-link"), "remove-confirm")
    assert browser.path == f"{item_path}/remove"
    assert heading(browser) == f"Remove “{newer_title}” from your wishlist?"
    warning = driver.find_element(By.ID, "note-warning")
    assert "Your note will be deleted too." in warning.text and "gift-wrapped" in warning.text
    form = driver.find_element(By.ID, "remove-form")
    assert form.get_attribute("method").lower() == "post" and path_of(form, "action") == f"{item_path}/delete"
    assert form.find_element(By.CSS_SELECTOR, 'input[name="csrf_token"]').get_attribute("value")
    follow(browser, driver.find_element(By.ID, "keep-link"), "kept")
    assert browser.path == item_path and wishlist_count(browser) == 2

    follow(browser, driver.find_element(By.ID, "remove-link"))
    follow(browser, driver.find_element(By.ID, "remove-submit"), "removed")
    assert browser.path == "/wishlist", f"removing led to {driver.current_url}"
    assert [fold(t) for t in wishlist_titles(browser)] == [fold(older_title)]
    assert wishlist_count(browser) == 1
    browser.visit(item_path, "removed-item", expect_status=404)
    assert "404" in heading(browser)

    # The last one goes from the row's own Remove link; then the empty state explains what to do.
    browser.visit("/wishlist", "one-left")
    follow(browser, wishlist_row(browser, older_title).find_element(By.CSS_SELECTOR, "a.item-remove"), "remove-last")
    assert heading(browser) == f"Remove “{older_title}” from your wishlist?"
    assert not driver.find_elements(By.ID, "note-warning"), "a book without a note warns about its note"
    follow(browser, driver.find_element(By.ID, "remove-submit"), "empty")
    empty = driver.find_element(By.ID, "wishlist-empty")
    assert empty.is_displayed() and EMPTY_MESSAGE in text_of(empty), text_of(empty)
    assert "0 books" in heading(browser)
    assert wishlist_count(browser) == 0
    assert not wishlist_rows(browser) and not driver.find_elements(By.ID, "sort-nav")
    assert driver.find_element(By.ID, "import-form").is_displayed(), "an empty wishlist hides the import"
    follow(browser, empty.find_element(By.CSS_SELECTOR, 'a[href="/lists"]'), "back-to-the-lists")
    assert browser.path == "/lists"

    browser.visit(f"/lists/{LIST}", "list-unmarked")
    assert add_button(book_row(browser, older.rank)) and add_button(book_row(browser, newer.rank))
    browser.assert_no_console_errors()


def test_sort_by_title_and_author_and_export_csv(browser: Browser, new_account: str) -> None:
    driver = browser.driver
    add_order, by_title, by_author = sort_trio()
    browser.visit(f"/lists/{LIST}", "list")
    for book in add_order:
        add_from_list(browser, book.rank)
        assert browser.path == f"/lists/{LIST}"

    def shown_order() -> list[str]:
        return [fold(t) for t in wishlist_titles(browser)]

    browser.visit("/wishlist", "newest-first")
    assert shown_order() == [fold(b.title) for b in reversed(add_order)]
    assert current_sort(browser) == ["Newest first"]

    follow(browser, sort_link(browser, "Title"), "by-title")
    assert query_of(browser).get("sort") == ["title"], driver.current_url
    assert shown_order() == [fold(b.title) for b in by_title]
    assert current_sort(browser) == ["Title"]

    follow(browser, sort_link(browser, "Author"), "by-author")
    assert query_of(browser).get("sort") == ["author"], driver.current_url
    assert shown_order() == [fold(b.title) for b in by_author]
    assert [r.find_element(By.CSS_SELECTOR, ".book-author").text for r in wishlist_rows(browser)] == [f"by {b.author}" for b in by_author]
    assert current_sort(browser) == ["Author"]

    follow(browser, sort_link(browser, "Newest first"), "newest-again")
    assert query_of(browser).get("sort") == ["added"], driver.current_url
    assert shown_order() == [fold(b.title) for b in reversed(add_order)]

    # Export: a CSV download that Goodreads can import, with every book on the wishlist.
    link = driver.find_element(By.ID, "export-link")
    assert link.text == "Export to Goodreads (CSV)"
    assert path_of(link) == "/wishlist.csv"
    assert "Goodreads" in driver.find_element(By.ID, "export-hint").text
    status, headers, body = browser.fetch("/wishlist.csv")
    assert status == 200, f"/wishlist.csv answered {status}"
    assert headers.get("content-type", "").split(";")[0].strip() == "text/csv", headers
    assert "attachment" in headers.get("content-disposition", ""), f"the export is not offered as a download: {headers}"
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows and {"Title", "Author"} <= set(rows[0]), f"not a Goodreads CSV: {body[:300]!r}"
    assert sorted(fold(r["Title"]) for r in rows) == sorted(fold(b.title) for b in add_order)
    for book in add_order:
        row = next(r for r in rows if fold(r["Title"]) == fold(book.title))
        assert row["Author"] == book.author, row
        assert book.isbn13 in " ".join(row.values()), f"the export lacks the ISBN-13 of {book.title}: {row}"

    # Signed out, the export is out of reach.
    status, headers, body = http_get(browser.url("/wishlist.csv"))
    assert not headers.get("content-type", "").startswith("text/csv"), "the export answers without a session"
    browser.assert_no_console_errors()


def test_import_a_goodreads_export(browser: Browser, new_account: str, tmp_path: Path) -> None:
    driver = browser.driver
    in_catalog = next(b for b in sample_list(LIST).books[2:] if b.isbn13.isdigit() and b.isbn10)
    outside = ("The Quiet Orchard", "Wren Halloway", "0306406152", "9780306406157")  # valid ISBNs, not in the sample
    finished = ("Tales Already Read", "Ada Finchley", "0140449132", "9780140449136")
    assert all(b.isbn13 not in (outside[3], finished[3]) for l in sample_catalog().values() for b in l.books)
    export = goodreads_csv(tmp_path / "goodreads_library_export.csv", [
        goodreads_row(101, string.capwords(in_catalog.title), in_catalog.author, in_catalog.isbn10, in_catalog.isbn13, "to-read"),
        goodreads_row(102, *outside, "to-read"),
        goodreads_row(103, *finished, "read", **{"My Rating": "4", "Date Read": "2025/02/01"}),
        goodreads_row(104, "Halfway Through", "Ada Finchley", "", "", "currently-reading"),
    ])

    browser.visit("/wishlist", "before-import")
    form = driver.find_element(By.ID, "import-form")
    assert form.get_attribute("method").lower() == "post" and path_of(form, "action") == "/wishlist/import"
    assert form.get_attribute("enctype") == "multipart/form-data"
    first_field = form.find_element(By.CSS_SELECTOR, "input")
    assert first_field.get_attribute("name") == "csrf_token" and first_field.get_attribute("value"), \
        "the CSRF token must come first in the multipart body"
    upload = driver.find_element(By.ID, "import-file")
    assert upload.get_attribute("name") == "file" and upload.get_attribute("type") == "file"
    assert upload.get_attribute("accept") == ".csv,text/csv" and upload.get_attribute("required") is not None
    assert upload.accessible_name == "Goodreads export (CSV)"
    assert driver.find_element(By.ID, "import-file-hint").text == IMPORT_HINT

    upload.send_keys(str(export))
    follow(browser, driver.find_element(By.ID, "import-submit"), "imported")
    summary = driver.find_element(By.ID, "import-summary")
    assert summary.is_displayed()
    said = text_of(summary)
    assert "2 added" in said and "0 already" in said and "1 skipped" in said, said
    assert "1 added to the books you’ve read" in said, said
    skipped = [text_of(li) for li in driver.find_elements(By.CSS_SELECTOR, "#skipped-list li")]
    assert len(skipped) == 1 and "Halfway Through" in skipped[0], skipped
    reason = skipped[0].split(":", 1)[-1].strip()
    assert "currently-reading" in reason.lower(), f"the skipped row does not say why: {skipped[0]!r}"
    assert wishlist_count(browser) == 2

    browser.visit("/wishlist", "after-import")
    assert sorted(fold(t) for t in wishlist_titles(browser)) == sorted([fold(in_catalog.title), fold(outside[0])])
    matched = wishlist_row(browser, in_catalog.title)
    assert f"On {sample_list(LIST).display_name} (#{in_catalog.rank})" in matched.find_element(By.CSS_SELECTOR, ".item-standing").text
    stranger = wishlist_row(browser, outside[0])
    assert stranger.find_element(By.CSS_SELECTOR, ".item-standing").text == "Not on a current list"
    assert stranger.find_element(By.CSS_SELECTOR, ".book-author").text == f"by {outside[1]}"
    follow(browser, stranger.find_element(By.CSS_SELECTOR, ".book-title a"), "imported-item")
    assert details(browser).get("ISBN-13") == outside[3], details(browser)
    assert driver.find_element(By.ID, "no-longer-listed").is_displayed()
    # A book no list carries became a book of its own, with a page like any other (issue 30).
    follow(browser, driver.find_element(By.ID, "book-link"), "imported-book")
    assert fold(heading(browser)) == fold(outside[0]), heading(browser)

    # The read shelf's book is among the books read, with its stars and date.
    browser.visit("/reading", "imported-reading")
    read_row = driver.find_element(By.CSS_SELECTOR, "#reading-list li.reading-row")
    assert finished[0] in read_row.text and "Finished 2025-02-01" in read_row.text, read_row.text
    assert read_row.find_element(By.CSS_SELECTOR, ".stars").get_attribute("aria-label") == "4 of 5 stars"

    # The same file again: nothing new, all already there, the other shelf's book skipped again.
    browser.visit("/wishlist", "before-second-import")
    driver.find_element(By.ID, "import-file").send_keys(str(export))
    follow(browser, driver.find_element(By.ID, "import-submit"), "imported-again")
    said = text_of(driver.find_element(By.ID, "import-summary"))
    assert "0 added" in said and "2 already" in said and "1 skipped" in said, said
    assert "1 already among the books you’ve read" in said, said
    assert wishlist_count(browser) == 2

    # A file that is not a Goodreads export is refused beside the field, and nothing changes.
    other = tmp_path / "shopping.csv"
    other.write_text("milk,eggs\nbread,butter\n", encoding="utf-8")
    browser.visit("/wishlist", "before-refused-import")
    driver.find_element(By.ID, "import-file").send_keys(str(other))
    browser.allow_failed_load(browser.url("/wishlist/import"), *REFUSED)
    follow(browser, driver.find_element(By.ID, "import-submit"), "refused-import")
    error = driver.find_element(By.ID, "import-file-error")
    assert error.is_displayed() and error.text.strip(), "the refused upload has no error beside the field"
    assert driver.find_element(By.ID, "import-file").get_attribute("aria-invalid") == "true"
    summary = driver.find_element(By.ID, "error-summary")
    assert summary.is_displayed()
    assert summary.find_element(By.CSS_SELECTOR, "a").get_attribute("href").endswith("#import-file"), "the summary leads to the field"
    assert driver.title.startswith("Error: ")
    assert not driver.find_elements(By.ID, "import-summary")
    assert wishlist_count(browser) == 2
    browser.assert_no_console_errors()


def test_start_page_and_favourite_lists_in_settings(browser: Browser, new_account: str) -> None:
    driver = browser.driver
    catalog = sample_catalog()
    start = catalog[START_LIST]

    browser.visit("/settings/lists", "settings")
    choice = Select(driver.find_element(By.ID, "default-list"))
    assert driver.find_element(By.ID, "default-list").get_attribute("name") == "list"
    assert driver.find_element(By.ID, "default-list").accessible_name, "the start-page choice has no label"
    assert choice.options[0].get_attribute("value") == "" and choice.options[0].text == "The catalog (all lists)"
    assert choice.first_selected_option.get_attribute("value") == ""
    assert {o.get_attribute("value") for o in choice.options} == {""} | set(catalog)
    assert text_of(driver.find_element(By.ID, "no-favorites")) == NO_FAVOURITES

    # A default list: after signing out and in again, that list opens first; so does "/".
    choice.select_by_value(START_LIST)
    follow(browser, driver.find_element(By.ID, "default-list-submit"), "start-page-saved")
    assert browser.path == "/settings/lists", driver.current_url
    assert Select(driver.find_element(By.ID, "default-list")).first_selected_option.get_attribute("value") == START_LIST
    sign_out(browser)
    sign_in(browser, new_account)
    browser.screenshot("signed-in-to-start-page")
    assert browser.path in ("/", f"/lists/{START_LIST}"), f"signing in led to {driver.current_url}"
    assert heading(browser) == start.display_name
    browser.visit("/", "root")
    assert heading(browser) == start.display_name

    # A favourite list shows in settings, links to its list, and goes with its Remove button.
    browser.visit(f"/lists/{LIST}", "list")
    follow(browser, driver.find_element(By.CSS_SELECTOR, ".list-header button.favorite-toggle"), "starred")
    browser.visit("/settings/lists", "settings-with-favourite")
    entries = driver.find_elements(By.CSS_SELECTOR, "#favorite-lists > li")
    assert [e.get_attribute("data-list") for e in entries] == [LIST]
    link = entries[0].find_element(By.CSS_SELECTOR, "a")
    assert path_of(link) == f"/lists/{LIST}" and sample_list(LIST).display_name in link.text
    remove = entries[0].find_element(By.CSS_SELECTOR, 'button[type="submit"]')
    assert visible_text(browser, remove) == "Remove"
    assert sample_list(LIST).display_name in remove.accessible_name, remove.accessible_name
    assert not driver.find_elements(By.ID, "no-favorites")
    follow(browser, remove, "favourite-removed")
    assert browser.path == "/settings/lists", driver.current_url
    assert not driver.find_elements(By.CSS_SELECTOR, "#favorite-lists > li")
    assert text_of(driver.find_element(By.ID, "no-favorites")) == NO_FAVOURITES
    browser.visit("/lists", "catalog-without-favourites")
    assert not driver.find_elements(By.ID, "favorites")

    # Back to the catalog as the start page.
    browser.visit("/settings/lists", "settings-again")
    assert Select(driver.find_element(By.ID, "default-list")).first_selected_option.get_attribute("value") == START_LIST
    Select(driver.find_element(By.ID, "default-list")).select_by_value("")
    follow(browser, driver.find_element(By.ID, "default-list-submit"), "catalog-start-saved")
    browser.visit("/", "root-catalog")
    assert heading(browser) == "Best-seller lists"
    browser.assert_no_console_errors()


def test_wishlist_needs_sign_in(browser: Browser) -> None:
    browser.visit("/wishlist", "signed-out")
    assert browser.path == "/login"
    assert query_of(browser).get("next") == ["/wishlist"], browser.driver.current_url


# ---------------------------------------------------------------------------------------------
# Every wishlist page: phones, the console, structure. One account with two books, one with a note.


@dataclass(frozen=True)
class Wisher:
    username: str
    password: str
    items: tuple[str, ...]  # item paths, newest first; the first has a note
    titles: tuple[str, ...]


WISHER_NOTE = "Birthday idea. " + "A long note that has to wrap on a phone without pushing the page sideways. " * 3


@pytest.fixture(scope="module")
def wisher(server: str) -> Wisher:
    """An account made through the sign-up form, with two books on its wishlist and a note on one."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        session = Browser(driver, server, "wisher-account")
        session.resize(*DEFAULT_WINDOW)
        username = unique_username("wisher")
        sign_up(session, username)
        session.visit(f"/lists/{LIST}", "list")
        for rank in (2, 1):
            add_from_list(session, rank)
        session.visit("/wishlist", "wishlist")
        rows = wishlist_rows(session)
        assert len(rows) == 2, f"the wisher's wishlist has {len(rows)} books"
        items = tuple(path_of(row.find_element(By.CSS_SELECTOR, ".book-title a")) for row in rows)
        titles = tuple(row_title(row) for row in rows)
        session.visit(items[0], "item")
        fill(session, "note", WISHER_NOTE)
        follow(session, driver.find_element(By.ID, "note-submit"), "note")
    finally:
        driver.quit()
    return Wisher(username, PASSWORD, items, titles)


def wishlist_pages(wisher: Wisher) -> list[tuple[str, str]]:
    return [
        ("wishlist", "/wishlist"),
        ("wishlist-by-title", "/wishlist?sort=title"),
        ("wishlist-by-author", "/wishlist?sort=author"),
        ("item-with-note", wisher.items[0]),
        ("item-without-note", wisher.items[1]),
        ("remove-with-note", wisher.items[0] + "/remove"),
        ("remove-without-note", wisher.items[1] + "/remove"),
        ("settings", "/settings"),
        ("settings-lists", "/settings/lists"),
        ("settings-sharing", "/settings/sharing"),
        ("settings-password", "/settings/password"),
        ("settings-sign-in", "/settings/sign-in"),
        ("settings-data", "/settings/data"),
        ("list-with-marks", f"/lists/{LIST}"),
    ]


@pytest.mark.parametrize("width", [360, 390])
def test_wishlist_pages_fit_a_phone(browser: Browser, wisher: Wisher, width: int) -> None:
    sign_in(browser, wisher.username, wisher.password)
    browser.resize(width, 800)
    driver = browser.driver
    for name, path in wishlist_pages(wisher):
        browser.visit(path, f"{name}-{width}px")
        assert browser.horizontal_overflow() <= 0, f"{path} scrolls sideways at {width} px"
        browser.assert_in_viewport(driver.find_element(By.TAG_NAME, "h1"), f"the heading of {path}")
        controls = driver.find_elements(By.CSS_SELECTOR, (
            "main .book-actions a, main .book-actions button, #sort-nav a, #import-file, #import-submit, #export-link,"
            " #note, #note-submit, #remove-link, #remove-submit, #keep-link, #default-list, #default-list-submit,"
            " #favorite-lists button"
        ))
        for control in controls[:12]:
            what = f"{path}: {control.tag_name} {text_of(control)[:40]!r}"
            browser.assert_in_viewport(control, what)
            assert control.rect["height"] >= 44, f"{what} is {control.rect['height']} px tall, too small to tap"
        for cover in driver.find_elements(By.CSS_SELECTOR, "li.wishlist-item img.book-cover"):
            assert cover.rect["width"] <= width / 3, f"{path}: a cover takes {cover.rect['width']} of {width} px"
    browser.visit(wisher.items[0], f"item-note-{width}px")
    browser.assert_in_viewport(driver.find_element(By.ID, "note"), "the note")
    browser.assert_in_viewport(driver.find_element(By.ID, "note-submit"), "Save note")


def test_no_console_errors_on_wishlist_pages(browser: Browser, wisher: Wisher) -> None:
    sign_in(browser, wisher.username, wisher.password)
    for name, path in wishlist_pages(wisher):
        browser.visit(path, name)
        assert inline_styles_and_scripts(browser) == [], f"{path} has inline styles or scripts, which the CSP blocks"
    browser.assert_no_console_errors()


def test_wishlist_pages_are_well_structured(browser: Browser, wisher: Wisher) -> None:
    sign_in(browser, wisher.username, wisher.password)
    driver = browser.driver
    for name, path in wishlist_pages(wisher):
        browser.visit(path, name)
        assert page_structure_problems(browser) == [], path
        for button in driver.find_elements(By.CSS_SELECTOR, "main button"):
            assert button.accessible_name.strip(), f"{path}: a button without an accessible name"
        current = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, 'nav[aria-label="Main"] [aria-current="page"]')]
        assert len(current) == 1, f"{path}: the main navigation marks {current} as current"
        if path.startswith("/wishlist"):
            assert urlsplit(current[0]).path == "/wishlist", f"{path}: the navigation marks {current}"

    # The wishlist rows: the note, shortened to 200 characters, and links that say which book they act on.
    browser.visit("/wishlist", "rows")
    row = wishlist_row(browser, wisher.titles[0])
    shown_note = visible_text(browser, row.find_element(By.CSS_SELECTOR, ".item-note"))
    assert shown_note.endswith("…") and len(shown_note) <= 201 and WISHER_NOTE.startswith(shown_note[:-1].rstrip()), shown_note
    for link in row.find_elements(By.CSS_SELECTOR, ".book-actions a"):
        assert fold(wisher.titles[0]) in fold(link.accessible_name), f"{link.accessible_name!r} does not name the book"
    assert wishlist_count(browser) == 2


def test_someone_elses_item_is_not_found(browser: Browser, wisher: Wisher, reader: tuple[str, str]) -> None:
    sign_in(browser, *reader)
    for number, path in enumerate((wisher.items[0], wisher.items[0] + "/remove"), 1):
        browser.visit(path, f"other-users-item-{number}", expect_status=404)
        assert "404" in heading(browser), f"{path} answered another user with {heading(browser)!r}"
        assert wisher.titles[0] not in browser.driver.page_source
    browser.assert_no_console_errors()
