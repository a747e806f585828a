"""History in a real browser (issue 13): rank charts, earlier editions, new books, the Atom feed.

The server keeps every edition of the sample catalog: eight weekly editions of Hardcover Fiction,
September 27 to November 15, 2026. One book of it, "Low Water on the Mississippi", fell off the list
for one week and came back, so its chart has a gap; three books entered the list in its newest
edition. Those facts are named once below (HISTORY, NEW_IN_NEWEST) and checked against the pages
themselves: the chart's table against the list's earlier editions, "new this week" against the
books of the edition before.

- The chart: an accessible inline SVG (its name from its own title and description), one line per
  run on the list, one point per edition, the summary sentence, the table of figures with the gap,
  links to earlier editions; at 390 and 1280 CSS px in light and dark, it fits the screen, its labels
  stay at least 11 px tall and its line stands out from the page (3:1, WCAG 1.4.11).
- Earlier editions: previous and next links, the note, the dates; "Returning" for a book that was on
  an earlier stored edition, "New this week" only for a book that never was; 404 for a date the
  app never stored; the edition links' words apart on screen and in their names at 360 and 1280 px.
- "New this week on your favourite lists" on the catalog and on the start list, only with favourites.
- The Atom feed: made, read without a session, parsed, reset and turned off in Settings.
"""

from __future__ import annotations

import re
import secrets
import xml.etree.ElementTree as ET
from datetime import date, datetime
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from test_accessibility import emulate
from support import Browser, fold, follow, http_get, long_date, query_of, sample_catalog, text_of, visible_text

LIST = "hardcover-fiction"
BOOK = "9798940831327"  # "Low Water on the Mississippi"
BOOK_TITLE = "Low Water on the Mississippi"
# Its rank in every stored edition of LIST, oldest first; None: off the list that week.
HISTORY = {
    "2026-09-27": 12, "2026-10-04": 13, "2026-10-11": 15, "2026-10-18": None,
    "2026-10-25": 14, "2026-11-01": 10, "2026-11-08": 9, "2026-11-15": 10,
}
EDITIONS = sorted(HISTORY)  # every stored edition of LIST, oldest first
NEWEST, BEFORE_NEWEST = EDITIONS[-1], EDITIONS[-2]
RETURNS_ON = "2026-10-25"  # the edition in which BOOK came back after a week off the list
NEW_IN_NEWEST = {  # the books on the newest edition that were not on the one before, with their ranks
    "9798407925279": ("The Lighthouse Ledger", 1),
    "9798454221522": ("The Orchard Condition", 5),
    "9798939702348": ("The Understudy’s Gambit", 11),
}
ATOM = "{http://www.w3.org/2005/Atom}"
URN_UUID = re.compile(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
MIN_LABEL_PX = 11


# ---------------------------------------------------------------------------------------------
# Helpers


def short_date(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day:%b} {day.day}, {day.year}"


def expected_summary() -> str:
    """The chart's sentence: the NYT's weeks on the list (the newest edition's `weeks_on_list`), then
    what HISTORY charts here (editions, the first, the peak and how often it was reached)."""
    on_list = {day: rank for day, rank in HISTORY.items() if rank is not None}
    peak = min(on_list.values())
    at_peak = sum(1 for rank in on_list.values() if rank == peak)
    listed = sample_catalog()[LIST]
    weeks = next(book.weeks_on_list for book in listed.books if book.isbn13 == BOOK)
    return (f"{weeks} weeks on {listed.display_name} by the NYT’s count, most recently {long_date(date.fromisoformat(max(on_list)))}. "
            f"Charted here: {len(on_list)} editions since {long_date(date.fromisoformat(min(on_list)))}, peak #{peak} in {at_peak} of them.")


def runs_on_list() -> list[int]:
    """How many editions in a row the book spent on the list, each time, from HISTORY: [3, 4]."""
    runs, length = [], 0
    for day in EDITIONS:
        if HISTORY[day] is None:
            if length:
                runs.append(length)
            length = 0
        else:
            length += 1
    return runs + ([length] if length else [])


def edition_shown(browser: Browser) -> str:
    """The date of the edition a list page shows, from its "Published" line."""
    published = browser.driver.find_element(By.CSS_SELECTOR, ".list-header .list-meta time")
    assert text_of(published) == long_date(date.fromisoformat(published.get_attribute("datetime"))), text_of(published)
    return published.get_attribute("datetime")


def edition_link(browser: Browser, which: str) -> WebElement | None:
    """#previous-edition or #next-edition (`which` is "previous" or "next"), or None."""
    found = browser.driver.find_elements(By.ID, f"{which}-edition")
    return found[0] if found else None


def href_path(link: WebElement) -> str:
    parts = urlsplit(link.get_attribute("href"))
    return parts.path + (f"?{parts.query}" if parts.query else "")


def book_rows(browser: Browser) -> dict[str, tuple[int, str, str]]:
    """{book id: (rank, movement class, movement text)} of every row of the list page."""
    rows = browser.js(
        "return Array.from(document.querySelectorAll('#books > li.book'), li => {"
        "  const m = li.querySelector('.movement');"
        "  const copy = m.cloneNode(true); copy.querySelectorAll('.visually-hidden').forEach(e => e.remove());"
        "  return [li.dataset.book, Number(li.dataset.rank),"
        "          Array.from(m.classList).filter(c => c !== 'movement').join(' '), copy.textContent.trim()];"
        "});"
    )
    return {book: (rank, kind, text) for book, rank, kind, text in rows}


def new_this_week(browser: Browser) -> list[dict]:
    """The "New this week" section as [{list path, date, books: [(book path, title, line)]}], one per list."""
    return browser.js(
        "const groups = [];"
        "for (const h of document.querySelectorAll('#new-this-week h3')) {"
        "  const list = h.querySelector('a'); const time = h.querySelector('time');"
        "  let ul = h.nextElementSibling; while (ul && ul.tagName !== 'UL' && ul.tagName !== 'H3') ul = ul.nextElementSibling;"
        "  const books = ul && ul.tagName === 'UL' ? Array.from(ul.querySelectorAll('li'), li => {"
        "    const a = li.querySelector('a');"
        "    return [a ? new URL(a.href).pathname : null, a ? a.textContent.trim() : '', li.textContent.replace(/\\s+/g, ' ').trim()];"
        "  }) : [];"
        "  groups.push({list: list ? new URL(list.href).pathname : null, name: list ? list.textContent.trim() : '',"
        "               date: time ? time.getAttribute('datetime') : null, books: books});"
        "}"
        "return groups;"
    )


def star_on_catalog(browser: Browser, name: str, shot: str) -> None:
    card = browser.driver.find_element(By.CSS_SELECTOR, f'li.list-card[data-list="{name}"]')
    follow(browser, card.find_element(By.CSS_SELECTOR, "form.favorite-form button.favorite-toggle"), shot)



_CHART_MEASURE = """
const svg = arguments[0];
const scale = svg.getScreenCTM().a;  // CSS px per user unit: the drawing shrinks with the page
const box = svg.getBoundingClientRect();
const labels = Array.from(svg.querySelectorAll('text'), t => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent.trim(), left: r.left, right: r.right, height: r.height,
          px: parseFloat(getComputedStyle(t).fontSize) * scale};
});
let el = svg, background = 'rgba(0, 0, 0, 0)';
while (el) {  // the colour the chart is drawn on: the nearest ancestor that paints a background
  const bg = getComputedStyle(el).backgroundColor;
  if (bg && !/^rgba\\(.*,\\s*0\\)$/.test(bg) && bg !== 'transparent') { background = bg; break; }
  el = el.parentElement;
}
return {left: box.left, right: box.right, width: box.width, vw: document.documentElement.clientWidth,
        labels: labels, background: background,
        strokes: Array.from(svg.querySelectorAll('.rank-chart-line'), l => getComputedStyle(l).stroke)};
"""


# A <summary> shows the browser's triangle only while it is displayed as a list-item with a list
# style; a stylesheet that changes its display (to flex, say) must draw a marker of its own.
_DISCLOSURE_MARKER = """
const s = getComputedStyle(arguments[0]);
const own = ['::before', '::after'].map(p => getComputedStyle(arguments[0], p).content)
  .filter(c => c && c !== 'none' && c !== 'normal' && c !== '""');
const native = s.display.split(' ').includes('list-item') && s.listStyleType !== 'none';
return {shown: native || own.length > 0, display: s.display, listStyleType: s.listStyleType, pseudo: own};
"""


def _rgb(css: str) -> tuple[float, float, float]:
    numbers = re.findall(r"[\d.]+", css)
    assert len(numbers) >= 3, f"not an rgb() colour: {css!r}"
    return float(numbers[0]), float(numbers[1]), float(numbers[2])


def contrast(one: str, other: str) -> float:
    """The WCAG contrast ratio of two computed CSS colours."""
    def luminance(css: str) -> float:
        channels = [c / 255 for c in _rgb(css)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def parse_rfc3339(text: str | None, what: str) -> datetime:
    assert text and RFC3339.fullmatch(text.strip()), f"{what} is not an RFC 3339 date-time: {text!r}"
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    assert moment.tzinfo is not None, f"{what} has no time zone: {text!r}"
    return moment


def read_feed(url: str) -> tuple[ET.Element, dict[str, str]]:
    """GETs the feed with no cookies at all, as a feed reader would, and parses it."""
    status, headers, body = http_get(url)
    assert status == 200, f"the feed answered {status}: {body[:300]!r}"
    content_type = headers.get("content-type", "")
    assert content_type.split(";")[0].strip() == "application/atom+xml", f"the feed is served as {content_type!r}"
    root = ET.fromstring(body)
    return root, headers


def feed_url_on_page(browser: Browser, public_url: str) -> str:
    """The feed link just made, shown in Settings: on the server's public URL (`server.publicURL`),
    whatever host the page was opened at, since a feed reader fetches it from elsewhere."""
    field = browser.driver.find_element(By.ID, "feed-link-url")
    assert field.get_attribute("readOnly") == "true", "the feed link is shown in a field that can be edited"
    assert field.accessible_name.strip(), "the feed link's field has no label"
    url = field.get_attribute("value")
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == tuple(urlsplit(public_url)[:2]), f"the feed link {url!r} is not on the public URL {public_url}"
    match = re.fullmatch(r"/feeds/([A-Za-z0-9_-]+)/favorites\.atom", parts.path)
    assert match, f"unexpected feed link {url!r}"
    assert len(match[1]) >= 43, f"the feed token {match[1]!r} is shorter than 256 bits in base64url"
    assert match[1] not in browser.driver.current_url, "the feed token is in the address bar"
    return url


def feed_button(browser: Browser) -> WebElement:
    return browser.driver.find_element(By.CSS_SELECTOR, "#feed-link #feed-link-create")


# ---------------------------------------------------------------------------------------------
# The stories


def test_rank_chart_on_the_book_page(signed_in: Browser) -> None:
    """A reader opens a book from its list and reads its rank history: the chart has an accessible
    name, one line per run on the list (broken where the book was off it), a point per edition and
    the summary; the table of figures says "Off the list" for the missing week and links to that
    earlier edition. At 390 and 1280 px, light and dark, the chart fits, its labels are readable and
    its line stands out from the page."""
    browser = signed_in
    driver = browser.driver
    display_name = sample_catalog()[LIST].display_name
    browser.visit(f"/lists/{LIST}", "list")
    row = driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-book="{BOOK}"]')
    follow(browser, row.find_element(By.CSS_SELECTOR, ".book-title a"), "book")
    assert browser.path == f"/books/{BOOK}", driver.current_url
    assert fold(driver.find_element(By.TAG_NAME, "h1").text) == fold(BOOK_TITLE)

    history = driver.find_element(By.ID, "rank-history")
    assert [text_of(h) for h in history.find_elements(By.TAG_NAME, "h3")] == [display_name]
    figure = history.find_element(By.CSS_SELECTOR, f"figure.rank-chart#history-{LIST}")
    svg = figure.find_element(By.CSS_SELECTOR, "svg")
    assert svg.get_attribute("role") == "img"
    # The accessible name comes from the chart's own <title> and <desc>, which must exist and say something.
    labelled_by = (svg.get_attribute("aria-labelledby") or "").split()
    assert len(labelled_by) >= 1, "the chart has no aria-labelledby"
    parts = browser.js(
        "return arguments[0].map(id => { const el = document.getElementById(id);"
        "  return el ? [el.tagName.toLowerCase(), arguments[1].contains(el), el.textContent.trim()] : null; });",
        labelled_by, svg,
    )
    assert None not in parts, f"aria-labelledby names missing ids: {labelled_by} -> {parts}"
    assert all(inside and text for _, inside, text in parts), f"the chart's name parts are empty or elsewhere: {parts}"
    assert {tag for tag, _, _ in parts} == {"title", "desc"}, parts
    name = re.sub(r"\s+", " ", svg.accessible_name or "").strip()
    assert name, "the browser computes no accessible name for the chart"
    assert all(re.sub(r"\s+", " ", text) in name for _, _, text in parts), f"the chart is announced as {name!r}"
    assert display_name in name, name

    lines = svg.find_elements(By.CSS_SELECTOR, "polyline.rank-chart-line")
    points = svg.find_elements(By.CSS_SELECTOR, "circle.rank-chart-point")
    assert runs_on_list() == [3, 4]
    assert len(lines) == 2, f"a book that left the list once should have 2 lines, the chart has {len(lines)}"
    assert [len(l.get_attribute("points").split()) for l in lines] == runs_on_list(), "the line does not break at the week off the list"
    assert len(points) == sum(1 for rank in HISTORY.values() if rank is not None) == 7, f"{len(points)} points"

    summary = expected_summary()
    assert text_of(figure.find_element(By.CSS_SELECTOR, "figcaption")) == summary
    assert text_of(svg.find_element(By.CSS_SELECTOR, "desc")) == summary

    # The figures: folded away until the reader opens them.
    details = history.find_element(By.CSS_SELECTOR, "details.rank-chart-figures")
    table = details.find_element(By.CSS_SELECTOR, "table")
    assert details.get_attribute("open") is None and not table.is_displayed(), "the table of figures starts open"
    summary = details.find_element(By.TAG_NAME, "summary")
    browser.assert_in_viewport(summary, "the figures' summary")
    summary.click()
    WebDriverWait(driver, 5).until(lambda d: table.is_displayed(), "clicking the summary did not open the figures")
    browser.screenshot("figures-open")
    shown = [
        (text_of(r.find_element(By.CSS_SELECTOR, "th a")),
         text_of(r.find_element(By.TAG_NAME, "td")),
         href_path(r.find_element(By.CSS_SELECTOR, "a")))
        for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    expected = [
        (short_date(day), "Off the list" if rank is None else f"#{rank}", f"/lists/{LIST}?date={day}")
        for day, rank in sorted(HISTORY.items(), reverse=True)
    ]
    assert shown == expected, f"the table of figures shows {shown}"

    # The week off the list links to that edition, where the book is indeed missing.
    gap = next(r for r in table.find_elements(By.CSS_SELECTOR, "tbody tr") if text_of(r.find_element(By.TAG_NAME, "td")) == "Off the list")
    follow(browser, gap.find_element(By.CSS_SELECTOR, "a"), "gap-edition")
    assert browser.path == f"/lists/{LIST}" and query_of(browser).get("date") == ["2026-10-18"], driver.current_url
    assert edition_shown(browser) == "2026-10-18"
    assert driver.find_element(By.ID, "edition-note").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, f'#books > li.book[data-book="{BOOK}"]'), "the book is on the week it was off"

    # Small and large screens, light and dark.
    browser.visit(f"/books/{BOOK}", "book-again")
    for width in (390, 1280):
        for scheme in ("light", "dark"):
            what = f"the chart at {width} px ({scheme})"
            emulate(browser, width, scheme)
            browser.screenshot(f"book-{width}px-{scheme}")
            assert browser.horizontal_overflow() <= 0, f"the book page scrolls sideways at {width} px ({scheme})"
            chart = browser.js(_CHART_MEASURE, driver.find_element(By.CSS_SELECTOR, f"#history-{LIST} svg"))
            assert chart["width"] > 0 and chart["left"] >= 0 and chart["right"] <= chart["vw"], f"{what} sticks out: {chart}"
            assert chart["labels"], f"{what} has no labels"
            for label in chart["labels"]:
                assert label["left"] >= 0 and label["right"] <= chart["vw"], f"{what}: label {label} is cut off"
                assert label["height"] >= MIN_LABEL_PX, f"{what}: label {label['text']!r} is {label['height']:.1f} px tall"
                assert label["px"] >= MIN_LABEL_PX, f"{what}: label {label['text']!r} renders at {label['px']:.1f} px"
            assert len(chart["strokes"]) == 2, chart
            for stroke in chart["strokes"]:
                assert stroke != chart["background"], f"{what}: the line is the colour of the page ({stroke})"
                ratio = contrast(stroke, chart["background"])
                assert ratio >= 3, f"{what}: the line {stroke} on {chart['background']} has contrast {ratio:.2f}:1"
    browser.assert_no_console_errors()

    # (Checked last so that the rest of the story runs either way.) The summary that opens the
    # figures must look like something that opens: a disclosure marker, the browser's or the app's.
    summary_line = driver.find_element(By.CSS_SELECTOR, "#rank-history details.rank-chart-figures > summary")
    marker = browser.js(_DISCLOSURE_MARKER, summary_line)
    assert marker["shown"], (
        f"the summary {text_of(summary_line)!r} shows no disclosure marker, so nothing says it opens: {marker}"
    )


def test_earlier_editions_and_returning_books(signed_in: Browser) -> None:
    """From the current list a reader steps back two editions and forward again, then back through
    every stored edition: each earlier one says so and links both ways, the oldest has no previous
    one. A book that comes back after a week away is "Returning", not "New this week"; "New this
    week" is only for books no earlier stored edition had. The list's editions agree with the chart's
    figures, and a date the app never stored is a 404."""
    browser = signed_in
    driver = browser.driver
    browser.visit(f"/lists/{LIST}", "current")
    assert edition_shown(browser) == NEWEST
    assert not driver.find_elements(By.ID, "edition-note"), "the current edition is called an earlier one"
    assert edition_link(browser, "next") is None, "the current edition links to a next one"

    # Two steps back, checking the note and the dates on the way.
    for step, expected in enumerate((EDITIONS[-2], EDITIONS[-3]), 1):
        previous = edition_link(browser, "previous")
        assert previous is not None, f"no Previous edition link on {driver.current_url}"
        assert previous.get_attribute("rel") == "prev"
        assert short_date(expected) in visible_text(browser, previous), visible_text(browser, previous)
        follow(browser, previous, f"back-{step}")
        assert browser.path == f"/lists/{LIST}" and query_of(browser).get("date") == [expected], driver.current_url
        assert edition_shown(browser) == expected
        note = driver.find_element(By.ID, "edition-note")
        assert note.is_displayed() and "earlier edition" in note.text, note.text
        current = note.find_element(By.CSS_SELECTOR, "a")
        assert href_path(current) == f"/lists/{LIST}", href_path(current)

    # And forward again: the edition after 2026-11-01, then the current one at its own address.
    assert href_path(edition_link(browser, "next")) == f"/lists/{LIST}?date={EDITIONS[-2]}"
    follow(browser, edition_link(browser, "next"), "forward-1")
    assert edition_shown(browser) == EDITIONS[-2] and driver.find_elements(By.ID, "edition-note")
    assert edition_link(browser, "next").get_attribute("rel") == "next"
    follow(browser, edition_link(browser, "next"), "forward-2")
    assert driver.current_url == browser.url(f"/lists/{LIST}"), driver.current_url
    assert edition_shown(browser) == NEWEST and not driver.find_elements(By.ID, "edition-note")

    # Back through every stored edition, newest to oldest.
    editions: dict[str, dict[str, tuple[int, str, str]]] = {NEWEST: book_rows(browser)}
    while edition_link(browser, "previous") is not None:
        came_from = edition_shown(browser)
        follow(browser, edition_link(browser, "previous"), f"edition-{len(editions)}")
        day = edition_shown(browser)
        assert day < came_from and day not in editions, f"Previous edition went from {came_from} to {day}"
        assert href_path(edition_link(browser, "next")) in (f"/lists/{LIST}?date={came_from}", f"/lists/{LIST}"), \
            f"the next edition of {day} is not {came_from}"
        editions[day] = book_rows(browser)
    assert sorted(editions) == EDITIONS, f"the editions reached are {sorted(editions)}"

    # The list's editions agree with the chart's figures for the book.
    ranks = {day: rows[BOOK][0] if BOOK in rows else None for day, rows in editions.items()}
    assert ranks == HISTORY, f"the editions show {BOOK_TITLE} at {ranks}"

    # Movement, edition by edition (the oldest has no stored edition before it to compare with).
    seen: set[str] = set(editions[EDITIONS[0]])
    returning_found = []
    for before, day in zip(EDITIONS, EDITIONS[1:]):
        for book, (rank, kind, text) in editions[day].items():
            what = f"#{rank} ({book}) on {day}"
            if book in editions[before]:
                assert kind not in ("movement-new", "movement-returning"), f"{what} was on {before} but shows {text!r}"
            elif book in seen:
                assert (kind, text) == ("movement-returning", "Returning"), f"{what} comes back but shows {text!r} ({kind})"
                returning_found.append((day, book))
            else:
                assert (kind, text) == ("movement-new", "New this week"), f"{what} is new but shows {text!r} ({kind})"
        seen |= set(editions[day])
    assert (RETURNS_ON, BOOK) in returning_found, f"{BOOK_TITLE} is not Returning on {RETURNS_ON}: {returning_found}"

    # The reader sees it too: on that edition the row says Returning, in words.
    browser.visit(f"/lists/{LIST}?date={RETURNS_ON}", "returning")
    movement = driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-book="{BOOK}"] .movement')
    assert "movement-returning" in movement.get_attribute("class").split()
    assert "Returning" in visible_text(browser, movement) and "New this" not in text_of(movement), text_of(movement)

    # A date with no stored edition.
    browser.visit(f"/lists/{LIST}?date=2026-10-19", "no-such-edition", expect_status=404)
    assert "404" in driver.find_element(By.TAG_NAME, "h1").text, driver.find_element(By.TAG_NAME, "h1").text
    browser.assert_no_console_errors()


@pytest.mark.parametrize("width", [360, 1280])
def test_edition_links_keep_their_words_apart(signed_in: Browser, width: int) -> None:
    """The edition links show "Previous edition Nov 8, 2026" and are named "Previous edition, Nov 8,
    2026" (the comma for screen readers only), on a phone and on a desktop: as flex boxes of three
    items they showed "Previous editionNov 8, 2026". (Chromium names them "Previous edition , Nov 8,
    2026" and puts the comma on a line of its own in innerText: the visually hidden span is
    absolutely positioned, so a box of its own. The words stay apart, which is what matters.)"""
    browser = signed_in
    browser.visit(f"/lists/{LIST}?date={BEFORE_NEWEST}", f"editions-{width}")
    emulate(browser, width, "light")
    browser.screenshot(f"editions-at-{width}")  # checks every link's words on screen at this width
    for which, day in (("previous", EDITIONS[-3]), ("next", NEWEST)):
        link = edition_link(browser, which)
        assert link is not None, f"no {which} edition link on {browser.driver.current_url}"
        label = f"{which.capitalize()} edition"
        words = rf"{label} ?, {re.escape(short_date(day))}"
        assert re.fullmatch(words, link.accessible_name), link.accessible_name
        rendered = re.sub(r"\s+", " ", browser.js("return arguments[0].innerText;", link)).strip()
        assert re.fullmatch(words, rendered), rendered
        assert visible_text(browser, link) == f"{label} {short_date(day)}", visible_text(browser, link)


def test_new_this_week_on_favourite_lists(browser: Browser, new_account: str) -> None:
    """A new reader with no favourites sees no "New this week" section. Once they star the list, the
    catalog shows the books that entered it in its newest edition (exactly those not on the edition
    before), each linking to its page; with that list as the start page, "/" shows them too. Without
    favourites again, the section is gone from both."""
    driver = browser.driver
    display_name = sample_catalog()[LIST].display_name
    browser.visit("/lists", "no-favourites")
    assert not driver.find_elements(By.ID, "new-this-week"), "a reader with no favourites sees new books"

    # What "new" must mean, read from the list itself: on the newest edition, not on the one before.
    browser.visit(f"/lists/{LIST}?date={BEFORE_NEWEST}", "edition-before")
    before = set(book_rows(browser))
    browser.visit(f"/lists/{LIST}", "newest-edition")
    newest = book_rows(browser)
    entered = {book: rank for book, (rank, _, _) in newest.items() if book not in before}
    assert entered == {book: rank for book, (_, rank) in NEW_IN_NEWEST.items()}, f"new on {NEWEST}: {entered}"

    browser.visit("/lists", "catalog")
    star_on_catalog(browser, LIST, "starred")
    section = driver.find_elements(By.ID, "new-this-week")
    assert section and section[0].is_displayed(), "no New this week section after starring a list"
    heading = section[0].find_element(By.CSS_SELECTOR, "h2")
    assert text_of(heading) == "New this week on your favourite lists"
    assert section[0].get_attribute("aria-labelledby") == heading.get_attribute("id")
    groups = new_this_week(browser)
    assert len(groups) == 1, groups
    group = groups[0]
    assert (group["list"], group["name"], group["date"]) == (f"/lists/{LIST}", display_name, NEWEST), group
    shown = {path.removeprefix("/books/"): (title, line) for path, title, line in group["books"]}
    assert set(shown) == set(NEW_IN_NEWEST), f"New this week shows {sorted(shown)}"
    assert not set(shown) & before, f"books that were on the {BEFORE_NEWEST} edition are called new: {set(shown) & before}"
    for book, (title, rank) in NEW_IN_NEWEST.items():
        assert fold(shown[book][0]) == fold(title), shown[book]
        assert f"#{rank}" in shown[book][1], f"the line of {title} does not give its rank: {shown[book][1]!r}"
    assert [path.removeprefix("/books/") for path, _, _ in group["books"]] == \
        sorted(NEW_IN_NEWEST, key=lambda b: NEW_IN_NEWEST[b][1]), "the new books are not in rank order"

    # The list's name leads to the list; a title leads to its book.
    list_link = section[0].find_element(By.CSS_SELECTOR, "h3 a")
    assert href_path(list_link) == f"/lists/{LIST}"
    book_id, (title, _) = sorted(NEW_IN_NEWEST.items(), key=lambda item: item[1][1])[1]  # not the first: any row must work
    link = section[0].find_element(By.CSS_SELECTOR, f'li a[href="/books/{book_id}"]')
    follow(browser, link, "new-book")
    assert browser.path == f"/books/{book_id}", driver.current_url
    assert fold(driver.find_element(By.TAG_NAME, "h1").text) == fold(title)

    # The list as the start page: "/" opens it, with the same section.
    browser.visit("/settings/lists", "settings")
    Select(driver.find_element(By.ID, "default-list")).select_by_value(LIST)
    follow(browser, driver.find_element(By.ID, "default-list-submit"), "start-page-saved")
    browser.visit("/", "start-page")
    assert browser.path == f"/lists/{LIST}", f"/ led to {driver.current_url}"
    assert driver.find_elements(By.ID, "new-this-week"), "the start list shows no New this week section"
    assert new_this_week(browser) == groups, f"the start page shows {new_this_week(browser)}"

    # No favourites any more: no section on the start page or the catalog.
    follow(browser, driver.find_element(By.CSS_SELECTOR, ".list-header button.favorite-toggle"), "unstarred")
    browser.visit("/", "start-page-no-favourites")
    assert browser.path == f"/lists/{LIST}"
    assert not driver.find_elements(By.ID, "new-this-week"), "the start page shows new books without favourites"
    browser.visit("/lists", "catalog-no-favourites")
    assert not driver.find_elements(By.ID, "new-this-week"), "the catalog shows new books without favourites"
    browser.assert_no_console_errors()


def test_atom_feed_of_new_books(browser: Browser, new_account: str, public_url: str) -> None:
    """A reader stars a list and makes a feed link in Settings; the link is shown once. Fetched with
    no cookies, as a feed reader would, it is an Atom feed (id, title, updated, self link) whose
    entries include the books new on the list, linking to their pages, with stable urn:uuid ids.
    Resetting the link stops the old one; turning the feed off stops the new one; a made-up
    token finds nothing. The link, and every link in the feed, is on the server's public URL,
    though Settings was opened at the base URL (127.0.0.1)."""
    driver = browser.driver
    host = urlsplit(public_url).netloc
    browser.visit("/lists", "catalog")
    star_on_catalog(browser, LIST, "starred")

    browser.visit("/settings/lists", "settings")
    assert not driver.find_elements(By.ID, "feed-link-url"), "a feed link is shown before one was made"
    assert not driver.find_elements(By.ID, "feed-link-revoke"), "there is no feed to turn off yet"
    assert visible_text(browser, feed_button(browser)) == "Make a feed link"
    follow(browser, feed_button(browser), "feed-link-made")
    url = feed_url_on_page(browser, public_url)
    assert visible_text(browser, feed_button(browser)) == "Reset feed link"
    assert driver.find_element(By.ID, "feed-link-revoke").is_displayed()

    # Shown once: Settings opened again does not show it.
    browser.visit("/settings/lists", "settings-later")
    assert not driver.find_elements(By.ID, "feed-link-url"), "the feed link is shown again"
    assert url not in driver.page_source
    assert visible_text(browser, feed_button(browser)) == "Reset feed link"

    root, _ = read_feed(url)
    assert root.tag == f"{ATOM}feed", root.tag
    feed_id = root.findtext(f"{ATOM}id")
    assert feed_id and feed_id.strip(), "the feed has no id"
    assert (root.findtext(f"{ATOM}title") or "").strip(), "the feed has no title"
    feed_updated = parse_rfc3339(root.findtext(f"{ATOM}updated"), "the feed's updated")
    self_links = [l.get("href") for l in root.findall(f"{ATOM}link") if l.get("rel") == "self"]
    assert self_links == [url], f"the feed's self link is {self_links}, not {url}"

    entries = root.findall(f"{ATOM}entry")
    assert entries, "the feed has no entries"
    by_book: dict[str, ET.Element] = {}
    ids = []
    for entry in entries:
        entry_id = (entry.findtext(f"{ATOM}id") or "").strip()
        assert URN_UUID.fullmatch(entry_id), f"entry id {entry_id!r} is not a urn:uuid"
        ids.append(entry_id)
        assert (entry.findtext(f"{ATOM}title") or "").strip(), f"entry {entry_id} has no title"
        updated = parse_rfc3339(entry.findtext(f"{ATOM}updated"), f"entry {entry_id}'s updated")
        assert updated <= feed_updated, f"entry {entry_id} is newer ({updated}) than the feed ({feed_updated})"
        links = [l.get("href") for l in entry.findall(f"{ATOM}link") if l.get("rel") in (None, "alternate")]
        assert len(links) == 1, f"entry {entry_id} has links {links}"
        parts = urlsplit(links[0])
        assert parts.netloc == host, f"entry {entry_id} links to another host: {links[0]}"
        match = re.fullmatch(r"/books/([^/]+)", parts.path)
        assert match, f"entry {entry_id} does not link to a book: {links[0]}"
        if match[1] in NEW_IN_NEWEST:
            by_book[match[1]] = entry
    assert len(set(ids)) == len(ids), f"entry ids repeat: {ids}"
    assert set(by_book) == set(NEW_IN_NEWEST), f"the feed lacks {set(NEW_IN_NEWEST) - set(by_book)}"
    for book, (title, _) in NEW_IN_NEWEST.items():
        entry = by_book[book]
        assert fold(title) in fold(entry.findtext(f"{ATOM}title") or ""), entry.findtext(f"{ATOM}title")
        assert parse_rfc3339(entry.findtext(f"{ATOM}updated"), title).date() == date.fromisoformat(NEWEST)

    # Read again: the same feed id and entry ids, so a reader shows nothing twice.
    again, _ = read_feed(url)
    assert again.findtext(f"{ATOM}id") == feed_id
    assert [(e.findtext(f"{ATOM}id") or "").strip() for e in again.findall(f"{ATOM}entry")] == ids

    # Reset: the old link stops, the new one works.
    follow(browser, feed_button(browser), "feed-link-reset")
    new_url = feed_url_on_page(browser, public_url)
    assert new_url != url
    status, _, _ = http_get(url)
    assert status == 404, f"the feed link from before the reset still answers {status}"
    read_feed(new_url)

    # Turned off: nothing answers, and Settings offers to make one again.
    follow(browser, driver.find_element(By.ID, "feed-link-revoke"), "feed-off")
    assert browser.path == "/settings/lists", driver.current_url
    status, _, _ = http_get(new_url)
    assert status == 404, f"the turned-off feed still answers {status}"
    assert not driver.find_elements(By.ID, "feed-link-revoke")
    assert not driver.find_elements(By.ID, "feed-link-url")
    assert visible_text(browser, feed_button(browser)) == "Make a feed link"

    status, _, _ = http_get(browser.url(f"/feeds/{secrets.token_urlsafe(32)}/favorites.atom"))
    assert status == 404, f"a made-up feed token answers {status}"
    browser.assert_no_console_errors()
