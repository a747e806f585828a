"""Languages (issue 53) on the wishlist, People and sharing pages, in a real browser.

One household on a server of its own with the tests' pseudo-language on: an owner with books on
her wishlist (one most wanted with a note), a birthday list with a share link and a child's
profile she manages; a giver who shares too, reserved a book, bought another with a card (which
the owner then received) and suggested an idea; a guest who reserved a book through the share
link. Every page of theirs is then walked by a browser asking for en-XA, German and French:

- en-XA (every catalog text accented and wrapped, "[Ŵîšĥļîšţ ~~~~]", 40% longer): no text of the
  page's `<main>`, nor its title or a control's accessible name, is outside the wrapping except
  book data, members' words and numbers; at 360 px and 1280 px nothing runs past the viewport.
- German and French: `<html lang>` is right, axe-core finds nothing, and no English text of these
  templates is left where the catalog has its own.

The parts of a page that other templates or Swift word (the book's details and reading form, the
pager, a confirmation) are left to their own tests: see OTHERS_PARTS.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from support import (
    REPO_ROOT, Browser, fill, follow, new_chromium, sample_catalog, sample_list, sign_up, unique_username,
)
from test_accessibility import emulate, run_axe
from test_gift_cycle import suggest_idea
from test_household import LIST, add_books, share_with_household
from test_languages import browser_asking_for, page_language
from test_occasions import make_list

VIEWS = REPO_ROOT / "Views"
LANGUAGES = REPO_ROOT / "Languages"
# The templates this file checks (issue 53's slice "lang-views-b").
SLICE = [
    *sorted((VIEWS / "wishlist").glob("*.html")), *sorted((VIEWS / "people").glob("*.html")),
    *sorted((VIEWS / "shared").glob("*.html")), *sorted((VIEWS / "reservations").glob("*.html")),
    *(VIEWS / "partials" / f"{name}.html" for name in (
        "wishlist-row", "wishlist-badge", "wishlist-standing", "member-profile", "member-reading",
        "reservation-actions", "child-list-fields", "avatar",
    )),
]
# Parts of these pages worded elsewhere, each checked by its own slice's test: the book's reading
# form, details and links, where to get it, what a member reads now and has read, the pager
# (Views/partials of "lang-views-a"); a field's error (of "lang-views-c"); the confirmation after a
# form (the Flash enum, worded in Swift by "lang-swift").
OTHERS_PARTS = "#your-reading, #book-details, #buy-links, #borrow-links, .get-links, #member-reading-now, .reading-row, .pager, .field-error, #flash"
# Book data and members' words the pages show whole: the book's description, a member's initials.
DATA_PARTS = ".book-description, .avatar-initials"
LIST_NAME = "Maya at 40"
# The day and month of a birthday (no year) as the core writes it, "4 May": English in every
# language until the core words it per language (its digest mail writes the same text).
CHILD_BIRTHDAY = ("5", "4", "4 May")
WIDTHS = (360, 1280)
PSEUDO_TEXT = re.compile(r"\[[^\[\]]*~+\]")
PLACEHOLDER = re.compile(r"\{\w+\}")
TAG = re.compile(r"""\{%-?\s*t\s+"((?:[^"\\]|\\.)*)"(?:\s+plural\s+"((?:[^"\\]|\\.)*)")?(?:\s+context\s+"((?:[^"\\]|\\.)*)")?""")


@dataclass
class Household:
    base_url: str
    owner: str
    giver: str
    child: str  # her username, "~bea-…"
    items: list[str]  # the owner's wishlist, newest first
    list_id: str  # the owner's birthday list, LIST_NAME
    share_link: str  # the birthday list's, on the public URL
    cancel_link: str  # the guest's, made when the guest reserved
    cookies: dict[str, list[dict]] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)  # members' words and book data, as the pages show them

    def pages(self) -> list[tuple[str | None, str]]:
        """(whose cookies, path) of every page of the slice the household reaches; None is signed out."""
        owner, item = self.owner, self.items[0]
        return [
            ("owner", "/wishlist"), ("owner", f"/wishlist?list={self.list_id}"), ("owner", f"/wishlist/{item}"),
            ("owner", f"/wishlist/{item}/remove"), ("owner", f"/wishlist/{item}/received"), ("owner", "/wishlist/received"),
            ("owner", "/wishlist/lists/new"), ("owner", f"/wishlist/lists/{self.list_id}"), ("owner", "/people"),
            ("owner", "/people/new-child"), ("owner", f"/people/{self.child}/managers"), ("owner", f"/people/{self.child}"),
            ("owner", "/reservations"),
            ("giver", f"/people/{owner}"), ("giver", f"/people/{owner}/lists/{self.list_id}"), ("giver", f"/people/{owner}/ideas"),
            ("giver", f"/people/{owner}/reading"), ("giver", "/reservations"),
            (None, self.share_link), (None, self.cancel_link),
        ]


# ---------------------------------------------------------------------------------------------
# The household, made once through the forms, in English


@contextmanager
def signed_in(browser: Browser, household: Household, role: str | None) -> Iterator[None]:
    """The browser with `role`'s cookies (none for None) for the block."""
    driver = browser.driver
    if not driver.current_url.startswith(browser.base_url):
        driver.get(browser.url("/healthz"))
    driver.delete_all_cookies()
    for cookie in household.cookies.get(role, []) if role else []:
        driver.add_cookie({k: v for k, v in cookie.items() if k != "domain"})
    yield


def make_household(browser: Browser, base_url: str) -> Household:
    b, driver = browser, browser.driver
    owner, giver = unique_username("owner"), unique_username("giver")
    books = sample_list(LIST).books

    sign_up(b, owner)
    add_books(b, (4, 3, 2, 1))
    b.visit("/wishlist", "wishlist")
    items = [row.get_attribute("data-item") for row in driver.find_elements(By.CSS_SELECTOR, "#wishlist-items > li")]
    b.visit(f"/wishlist/{items[0]}", "item")
    driver.find_element(By.ID, "priority-high").click()
    fill(b, "note", "Hardback, please")
    follow(b, driver.find_element(By.ID, "note-submit"))
    share_with_household(b)
    list_id = make_list(b, LIST_NAME, "birthday", "household")
    b.visit(f"/wishlist/lists/{list_id}", "list-edit")
    follow(b, driver.find_element(By.ID, "share-link-create"))
    share_link = driver.find_element(By.ID, "share-link-url").get_attribute("value")
    for item in items[:2]:  # two books on the birthday list: one for the guest, one open
        b.visit(f"/wishlist/{item}", "item")
        box = driver.find_element(By.CSS_SELECTOR, f'#my-lists input[value="{list_id}"]')
        b.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", box)
        box.click()
        follow(b, driver.find_element(By.ID, "my-lists-submit"))
    b.visit("/people/new-child", "new-child")
    fill(b, "child-name", "Bea")
    Select(driver.find_element(By.ID, "birthday_month")).select_by_value(CHILD_BIRTHDAY[0])
    Select(driver.find_element(By.ID, "birthday_day")).select_by_value(CHILD_BIRTHDAY[1])
    follow(b, driver.find_element(By.ID, "child-submit"))
    child = b.path.removeprefix("/people/")
    owner_cookies = driver.get_cookies()

    # The giver reserves the note's book, buys another with a card, and suggests an idea.
    driver.delete_all_cookies()
    sign_up(b, giver)
    share_with_household(b)
    b.visit(f"/people/{owner}", "member")
    for item in (items[0], items[3]):
        row = driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{item}"]')
        follow(b, row.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'))
    row = driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{items[3]}"]')
    follow(b, row.find_element(By.CSS_SELECTOR, 'form.bought-form button[type="submit"]'))
    row = driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{items[3]}"]')
    b.js("arguments[0].open = true;", row.find_element(By.CSS_SELECTOR, "details.card-details"))
    fill(b, f"card-{items[3]}", "Happy birthday!")
    follow(b, row.find_element(By.CSS_SELECTOR, 'form.card-form button[type="submit"]'))
    idea = books[5]
    b.visit(f"/people/{owner}/ideas", "ideas")
    suggest_idea(b, owner, idea.isbn13, idea.title, "For the train", "idea")
    giver_cookies = driver.get_cookies()

    # The owner gets the bought book; a guest reserves the other book of the birthday list.
    driver.delete_all_cookies()
    for cookie in owner_cookies:
        driver.add_cookie({k: v for k, v in cookie.items() if k != "domain"})
    b.visit(f"/wishlist/{items[3]}/received", "received-confirm")
    follow(b, driver.find_element(By.ID, "received-submit"))
    with chromium_at(base_url) as guest:
        guest.driver.get(share_link)
        form = guest.driver.find_element(By.CSS_SELECTOR, f'#shared-items > li[data-item="{items[1]}"] form.guest-reserve-form')
        form.find_element(By.CSS_SELECTOR, 'input[name="name"]').send_keys("Aunt Rosa")
        follow(guest, form.find_element(By.CSS_SELECTOR, 'button[type="submit"]'))
        cancel_link = guest.driver.find_element(By.ID, "guest-cancel-link").get_attribute("value")

    # A member's first list is named "Wishlist" when the account is made: hers to rename, a member's word.
    words = [owner, giver, child, "Bea", LIST_NAME, "Wishlist", "Hardback, please", "Happy birthday!", "For the train", "Aunt Rosa"]
    for catalog_list in sample_catalog().values():
        words.append(catalog_list.display_name)
        for book in catalog_list.books:
            words += [book.title, book.author]
    household = Household(base_url, owner, giver, child, items, list_id, share_link, cancel_link,
                          {"owner": owner_cookies, "giver": giver_cookies}, words)
    return household


@contextmanager
def chromium_at(base_url: str) -> Iterator[Browser]:
    driver = new_chromium()
    try:
        yield Browser(driver, base_url, "languages-lists-guest")
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def household(configured_server) -> Iterator[Household]:
    with configured_server("languages-lists", {"server": {"pseudoLanguage": True}}) as base_url:
        with chromium_at(base_url) as browser:
            made = make_household(browser, base_url)
        yield made


# ---------------------------------------------------------------------------------------------
# What a page shows


# The text a person meets in `<main>` and the page's title, with where each is: every text node
# (visually hidden ones too: a screen reader says them) and every accessible name written in an
# attribute, outside the parts of OTHERS_PARTS.
_TEXTS = """
const skipped = Array.from(document.querySelectorAll(arguments[0]));
const outside = node => !skipped.some(part => part.contains(node));
const texts = [{where: 'title', text: document.title.replace(/ · Bestseller Wishlist$/, '')}];
const main = document.querySelector('main');
const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
for (let node; (node = walker.nextNode()); ) {
  const parent = node.parentElement;
  if (!node.data.trim() || !outside(node) || parent.closest('script, style, template')) continue;
  texts.push({where: parent.outerHTML.slice(0, 160), text: node.data});
}
for (const el of main.querySelectorAll('[aria-label], [title], [placeholder], img[alt], input[type=submit], input[type=button]')) {
  if (!outside(el)) continue;
  for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
    if (el.getAttribute(name)) texts.push({where: el.outerHTML.slice(0, 160), text: el.getAttribute(name)});
  if (el.matches('input[type=submit], input[type=button]')) texts.push({where: el.outerHTML.slice(0, 160), text: el.value});
}
return texts;
"""


def page_texts(browser: Browser) -> list[dict[str, str]]:
    return browser.js(_TEXTS, f"{OTHERS_PARTS}, {DATA_PARTS}")


def without_data(text: str, words: list[str]) -> str:
    """`text` without the household's words, longest first (a title may hold a shorter one), in
    any case (the pages write the catalog's "SALT AND SIGNAL" as "Salt and Signal")."""
    for word in sorted(words, key=len, reverse=True):
        text = re.sub(re.escape(word), " ", text, flags=re.IGNORECASE)
    return text


def unwrapped_text(browser: Browser, household: Household) -> list[str]:
    """The page's text outside the pseudo-language's wrapping, book data, members' words, numbers
    and punctuation: each as (where, what is left)."""
    found = []
    for text in page_texts(browser):
        left = without_data(PSEUDO_TEXT.sub(" ", text["text"]), household.words + [CHILD_BIRTHDAY[2]])
        if re.search(r"[^\W\d_]", left):
            found.append(f"{left.strip()!r} in {text['where']}")
    return found


def overflowing(browser: Browser) -> list[str]:
    """The elements that run past the viewport's right edge, and the page's own overflow."""
    # The innermost ones: an element whose child runs past the edge is said by that child.
    found = browser.js("""
        const width = document.documentElement.clientWidth;
        const past = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > width + 1; };
        return Array.from(document.querySelectorAll('body *'))
          .filter(el => past(el) && !Array.from(el.children).some(past))
          .map(el => Math.round(el.getBoundingClientRect().right) + ' px: ' + el.outerHTML.slice(0, 120));
    """)
    if browser.horizontal_overflow() > 0:
        found.append(f"the page is {browser.horizontal_overflow()} px wider than the viewport")
    return found


# ---------------------------------------------------------------------------------------------
# English left behind


def catalog(language: str) -> dict[tuple[str | None, str], list[str]]:
    """Languages/<language>.po as {(context, English): [its forms]} (one line a string, as ours are)."""
    entries: dict[tuple[str | None, str], list[str]] = {}
    context = english = None
    unquote = lambda s: re.sub(r"\\(.)", lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), s[1:-1])
    for line in (LANGUAGES / f"{language}.po").read_text(encoding="utf-8").splitlines():
        if line.startswith("msgctxt "):
            context = unquote(line[8:])
        elif line.startswith("msgid "):
            english = unquote(line[6:])
        elif line.startswith("msgstr") and english:
            entries.setdefault((context, english), []).append(unquote(line.split(" ", 1)[1]))
        elif not line.strip():
            context = english = None
    return entries


def english_left_behind_finder(language: str):
    """A check for text of these templates still in English on a page in `language`: each fixed
    piece of a marked English text (between its placeholders) of two words or more, or of one word
    of five letters or more, that no translation of the language holds too (German says "Export",
    and every language names Goodreads' own "My Books")."""
    translations = catalog(language)
    in_the_language = "\n".join(form for forms in translations.values() for form in forms)
    pieces: set[str] = set()
    for template in SLICE:
        for match in TAG.finditer(template.read_text(encoding="utf-8")):
            english, plural, context = (re.sub(r"\\(.)", r"\1", g) if g else g for g in match.groups())
            forms = translations.get((context, english), [])
            assert forms and all(forms), f"{language}.po lacks {english!r} of {template.name}"
            for text in (english, plural or english):
                for piece in PLACEHOLDER.split(text):
                    piece = piece.strip(" .,:;!?“”()")
                    if (len(piece.split()) >= 2 or len(piece) >= 5) and piece not in in_the_language:
                        pieces.add(piece)
    pattern = re.compile(r"(?<![\w])(" + "|".join(sorted(map(re.escape, pieces), key=len, reverse=True)) + r")(?![\w])")

    def english_left(browser: Browser, household: Household) -> list[str]:
        return [f"{found.group(1)!r} in {text['where']}" for text in page_texts(browser)
                for found in [pattern.search(without_data(text["text"], household.words))] if found]

    return english_left


# ---------------------------------------------------------------------------------------------
# The walks


def each_page(household: Household, language: str) -> Iterator[tuple[Browser, str]]:
    with browser_asking_for(language, household.base_url, f"lists-{language}") as browser:
        for role, path in household.pages():
            with signed_in(browser, household, role):
                if path.startswith("http"):
                    browser.driver.get(path)
                else:
                    browser.visit(path, f"{language}-{path.strip('/').replace('/', '-').replace('?', '-')}")
                yield browser, path


def test_every_text_of_the_lists_pages_is_marked_and_fits_at_360_and_1280_px(household: Household) -> None:
    problems = []
    for browser, path in each_page(household, "en-XA"):
        assert page_language(browser) == "en-XA", f"{path} is not in en-XA"
        problems += [f"{path}: {p}" for p in unwrapped_text(browser, household)]
        for width in WIDTHS:
            emulate(browser, width)
            problems += [f"{path} at {width} px: {p}" for p in overflowing(browser)]
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_lists_pages_read_in_german_and_french_with_no_english_left(household: Household, language: str) -> None:
    english_left = english_left_behind_finder(language)
    problems = []
    for browser, path in each_page(household, language):
        if page_language(browser) != language:
            problems.append(f"{path}: <html lang={page_language(browser)!r}>")
        problems += [f"{path}: English left: {p}" for p in english_left(browser, household)]
        problems += [f"{path}: {v['id']} {v['help']} {[n['target'] for n in v['nodes']]}" for v in run_axe(browser)["violations"]]
    assert problems == [], "\n".join(problems)
