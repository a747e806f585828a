"""The catalog and the books in every language (issue 53): the lists, a list and an earlier edition
of it, a book's page, search, an author, adding a book and "Books I've read", each walked as a
member who starred a list, read a book, reads another now and wishes for a third.

- In en-XA, the tests' pseudo-language, every text a person reads in the page's main part (and the
  accessible names of its controls) is inside the pseudo wrapping "[…]", except book data (any
  text of the sample catalog's files, and a byline, the NYT's contributor line as it is: "by Ada
  Marsh and Bo Li", its names linked), the member's own words (her username, her review) and
  numbers; and no page is wider than a 360 px phone or a 1280 px screen with the texts 40% longer.
- In German and in Spanish, `<html lang>` names the language, axe-core finds nothing, and no word
  of the app's English catalog is left on the page unless the language's catalog uses it too
  ("Details", "Normal") or it is book data.

The flash of a form (the `Flash` enum, worded in Swift by another part of issue 53) is left out of
the walk. Error pages are not walked: their sentences are worded in Swift, English for now.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By

from support import REPO_ROOT, SAMPLE_CATALOG, Browser, click, follow, sample_list, sign_up, unique_username
from test_accessibility import emulate, run_axe
from test_languages import browser_asking_for, page_language
from test_rating_tap import accessibility_problems_here

LIST = "hardcover-fiction"
EARLIER_EDITION = "2026-11-08"  # an edition with one before it and one after it
READ, READING_NOW, WISHED = (sample_list(LIST).books[i] for i in (0, 1, 2))
REVIEW = "Gripping from the first page."
WIDTHS = (360, 1280)
# The name the server's default borrowing link has (config: borrowLinks): the admin's words, as a
# list's name is the NYT's, so data here.
LINK_NAMES = ("WorldCat (libraries near you)",)


@pytest.fixture(scope="module")
def pseudo_server(configured_server) -> Iterator[str]:
    """One server with the pseudo-language on, which a browser reaches by asking for en-XA."""
    with configured_server("languages-catalog", {"server": {"pseudoLanguage": True}}) as base_url:
        yield base_url


# ---------------------------------------------------------------------------------------------
# What a page says


def folded(text: str) -> str:
    """Text compared as the pages show the catalog's: titles in title case, typewriter apostrophes curly."""
    return text.casefold().replace("'", "’")


def catalog_strings() -> set[str]:
    """Every text of the sample catalog's files (titles, bylines, blurbs, publishers, list names),
    as the pages show it: folded, and a blurb's markup taken out as the catalog does."""
    found: set[str] = set()

    def collect(value) -> None:
        if isinstance(value, str):
            plain = html.unescape(re.sub(r"<[^>]*>", "", value))
            found.update(folded(part.strip()) for part in (value, plain) if len(part.strip()) > 1)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for path in SAMPLE_CATALOG.rglob("*.json"):
        collect(json.loads(path.read_text(encoding="utf-8")))
    return found


_TEXTS = r"""
const main = document.querySelector('main');
const where = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.classList.length ? '.' + Array.from(el.classList).join('.') : '');
// A flash is worded in Swift elsewhere; a byline's words between its linked names are the NYT's.
const byline = el => { const line = el.closest('.book-author'); return line !== null && line.querySelector('.author-link') !== null; };
const left = el => el.closest('#flash, .flash, script, style') || byline(el);
const found = [];
const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.replace(/\s+/g, ' ').trim();
  const element = node.parentElement;
  if (!text || left(element)) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  // Shown (a visually hidden text is laid out too, 1 px wide), or an option of a closed <select>.
  const shown = range.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  if (shown || element.closest('select')) found.push([text, where(element)]);
}
for (const element of main.querySelectorAll('[aria-label], [title]')) {
  if (left(element)) continue;
  for (const name of ['aria-label', 'title']) {
    const text = (element.getAttribute(name) || '').trim();
    if (text) found.push([text, where(element) + '[' + name + ']']);
  }
}
return found;
"""


# The innermost elements reaching past the viewport's right edge, for a failure's message.
_WIDE = r"""
const wide = Array.from(document.querySelectorAll('body *')).filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5);
return wide.filter(el => !wide.some(other => other !== el && el.contains(other))).slice(0, 5)
  .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && el.className.baseVal === undefined ? '.' + el.className.split(' ').join('.') : '')
             + ' "' + el.textContent.trim().slice(0, 40) + '"');
"""


def texts(browser: Browser) -> list[tuple[str, str]]:
    """(text, where) of every text the page's main part shows or names a control with."""
    return [tuple(pair) for pair in browser.js(_TEXTS)]


def without(text: str, data: list[str]) -> str:
    """`text`, folded, with every piece of book data and the member's words taken out (`data`, folded,
    longest first)."""
    text = folded(text)
    for piece in data:
        if piece in text:
            text = text.replace(piece, " ")
    return text


def outside_the_wrapping(text: str) -> str:
    """What is left of `text` outside en-XA's "[…]", which nest: a date inside a sentence."""
    kept, depth = [], 0
    for character in text:
        if character == "[":
            depth += 1
        elif character == "]" and depth:
            depth -= 1
        elif not depth:
            kept.append(character)
    return "".join(kept)


def unwrapped(browser: Browser, data: list[str]) -> list[str]:
    """The page's texts with letters outside the pseudo wrapping once data is taken out."""
    return [f"{where}: {text!r}" for text, where in texts(browser)
            if re.search(r"[^\W\d_]", without(outside_the_wrapping(text), data))]


def words(text: str) -> set[str]:
    return {word.casefold() for word in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", text))}


def po_strings(path, field: str) -> list[str]:
    """The texts of a catalog's `msgid` or `msgstr` lines (plural forms included)."""
    pattern = re.compile(rf'^{field}(?:\[\d\])? "(.*)"$')
    return [match.group(1).replace('\\"', '"') for line in path.read_text(encoding="utf-8").splitlines()
            if (match := pattern.match(line))]


def english_words(language: str) -> set[str]:
    """The words of the app's English catalog (messages.pot) that `language`'s catalog never uses."""
    languages = REPO_ROOT / "Languages"
    english = set().union(*(words(text) for text in po_strings(languages / "messages.pot", "msgid")))
    own = set().union(*(words(text) for text in po_strings(languages / f"{language}.po", "msgstr")))
    return english - own


def english_left(browser: Browser, data: list[str], forbidden: set[str]) -> list[str]:
    found = []
    for text, where in texts(browser):
        left = words(without(text, data)) & forbidden
        if left:
            found.append(f"{where}: {text!r} has {sorted(left)}")
    return found


# ---------------------------------------------------------------------------------------------
# A member's pages


@dataclass
class Member:
    username: str
    author_path: str = ""


def furnish(browser: Browser) -> Member:
    """Signs a new member up and gives her pages something to show: a starred list, a book read
    with stars and a review, one read now, one wished for, an author followed. Every control is
    found by its id or place, as the page's words are in another language."""
    member = Member(unique_username("reader"))
    sign_up(browser, member.username)
    driver = browser.driver
    browser.visit(f"/lists/{LIST}", "list")
    follow(browser, driver.find_element(By.CSS_SELECTOR, ".list-header form.favorite-form button"), "starred")

    browser.visit(f"/books/{READ.isbn13}", "read-book")
    click(browser, driver.find_element(By.ID, "rating-4"))
    driver.find_element(By.ID, "review").send_keys(REVIEW)
    follow(browser, driver.find_element(By.ID, "reading-submit"), "read")
    member.author_path = driver.find_element(By.CSS_SELECTOR, "#book .author-link").get_attribute("pathname")

    browser.visit(f"/books/{READING_NOW.isbn13}", "reading-now-book")
    follow(browser, driver.find_element(By.ID, "reading-now-start"), "reading-now")
    browser.visit(f"/books/{WISHED.isbn13}", "wished-book")
    follow(browser, driver.find_element(By.CSS_SELECTOR, '#book form.add-to-wishlist button[type="submit"]'), "wished")
    browser.visit(member.author_path, "author")
    follow(browser, driver.find_element(By.ID, "follow-submit"), "followed")
    return member


def search_word() -> str:
    return next(word for word in re.findall(r"[A-Za-z]{4,}", READ.title))


# (name, path) of the pages of the slice, as the member furnished them.
def pages(member: Member) -> list[tuple[str, str]]:
    return [
        ("lists", "/lists"),
        ("list", f"/lists/{LIST}"),
        ("earlier-edition", f"/lists/{LIST}?date={EARLIER_EDITION}"),
        ("book-read", f"/books/{READ.isbn13}"),
        ("book-reading-now", f"/books/{READING_NOW.isbn13}"),
        ("book-wished", f"/books/{WISHED.isbn13}"),
        ("search", "/search"),
        ("search-results", f"/search?q={search_word()}"),
        ("search-nothing", "/search?q=zzqx"),
        ("author", member.author_path),
        ("add-a-book", "/books/new"),
        ("books-read", "/reading"),
        ("reading-form", f"/books/{READ.isbn13}/reading"),
    ]


def data_of(member: Member) -> list[str]:
    return sorted(catalog_strings() | {folded(text) for text in (member.username, REVIEW, *LINK_NAMES)}, key=len, reverse=True)


# ---------------------------------------------------------------------------------------------
# The walks


def test_every_text_of_the_catalog_and_the_books_comes_through_the_catalogs_and_fits(pseudo_server: str) -> None:
    with browser_asking_for("en-XA", pseudo_server, "catalog-pseudo") as browser:
        member = furnish(browser)
        data = data_of(member)
        problems = []
        for name, path in pages(member):
            browser.visit(path, f"pseudo-{name}")
            assert page_language(browser) == "en-XA", f"{name} is not in en-XA"
            problems += [f"{name}: {found}" for found in unwrapped(browser, data)]
            for width in WIDTHS:
                emulate(browser, width)
                overflow = browser.horizontal_overflow()
                if overflow > 0:
                    problems.append(f"{name}: {overflow} px wider than {width} px: {browser.js(_WIDE)}")
            browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        assert not problems, "text outside the catalogs, or pages too wide:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_catalog_and_the_books_read_in_the_language_with_no_english_left(pseudo_server: str, language: str) -> None:
    forbidden = english_words(language)
    with browser_asking_for(language, pseudo_server, f"catalog-{language}") as browser:
        member = furnish(browser)
        data = data_of(member)
        problems = []
        for name, path in pages(member):
            browser.visit(path, f"{language}-{name}")
            assert page_language(browser) == language, f"{name} is in {page_language(browser)}, not {language}"
            problems += [f"{name}: {found}" for found in english_left(browser, data, forbidden)]
            if language == "de":
                problems += accessibility_problems_here(browser, f"{language}-{name}")
            else:
                problems += [f"{name}: {v['id']} {v['help']} {[n['target'] for n in v['nodes']]}" for v in run_axe(browser)["violations"]]
        assert not problems, f"English left, or accessibility problems, in {language}:\n" + "\n".join(problems)
