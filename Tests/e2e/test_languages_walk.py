"""Languages (issue 53): one walk of every page the e2e tests visit (language_walk.pages), as one
household on one server shows them (language_walk.py says what it holds).

- en-XA, the tests' pseudo-language (every translated text accented, wrapped "[…]" and about 40%
  longer, the way German and French run long), each page loaded once at 360 px and once at
  1280 px: `<html lang>` says en-XA; every text a person reads on the page (its title, the text
  and the controls' accessible names of the header and `<main>`) is inside the wrapping except
  book data (any text of the sample catalog's files, a byline's words between its linked names),
  members' words and numbers; nothing runs past the viewport nor is cut off; the header's items
  neither leave a phone's screen nor cover one another.
- German, French and Spanish, each page once at 1280 px: `<html lang>` names the language,
  axe-core finds nothing, and no English of the app's catalog is left (a word of messages.pot
  the language's catalog never uses, or a piece of an English message between its placeholders)
  except book data and members' words.

What a page shows that is not the app's to translate is skipped: see NOT_OURS.
"""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path
from typing import Iterator

import pytest
from selenium_axe_python import Axe

from language_walk import Household, Step, household_on, pages, signed_in
from support import REPO_ROOT, SAMPLE_CATALOG, Browser, glued_words
from test_accessibility import emulate, overflow_problems, run_axe
from test_languages import browser_asking_for, page_language

WIDTHS = (360, 1280)
LANGUAGES = REPO_ROOT / "Languages"

# Where a page shows what is not the app's text: the admin's log, stored as it was written; the
# browser's name in "Where you are signed in", from its User-Agent; the server's facts on Admin
# (a version, a count); a member's list names in a menu; a member's initials; each
# language's name on Settings → Language, written in that language; a book's description.
NOT_OURS = ", ".join((
    "#audit-log", "#sessions td:first-child", "#version", "#api-requests",
    "#default-list option:not([value=''])", ".avatar-initials", "#language-form span[lang]", ".book-description",
))
# Names of settings (and a value: Admin quotes `accounts.signup`'s "invite"), commands and files the
# pages quote, and a time zone's name: no language translates them.
CODE = ("accounts.signup", "invite", "wishlist user create", "Authorization: Bearer", "/api/v1/", "data.json", "UTC")


@pytest.fixture(scope="module")
def household(configured_server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Household]:
    with household_on(configured_server, tmp_path_factory.mktemp("languages-walk")) as made:
        yield made


# ---------------------------------------------------------------------------------------------
# What a page says


def folded(text: str) -> str:
    """Text compared as the pages show the catalog's: titles in title case, typewriter apostrophes curly."""
    return text.casefold().replace("'", "’")


@functools.lru_cache(maxsize=1)
def catalog_strings() -> frozenset[str]:
    """Every text of the sample catalog's files (titles, bylines, blurbs, publishers, list names),
    folded, and a blurb's markup taken out as the catalog does."""
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
    return frozenset(found)


def data_of(household: Household, step: Step) -> list[str]:
    """Book data, members' words and quoted code, folded, longest first."""
    words = household.words() + list(CODE)
    return sorted(catalog_strings() | {folded(word) for word in words}, key=len, reverse=True)


# (text, where) of every text a person meets: the page's title, every text node of the header and
# <main> that is laid out (a visually hidden one too: a screen reader says it) or is an option of a
# closed <select>, and every accessible name written in an attribute or a button's value.
_TEXTS = r"""
const skip = arguments[0];
const where = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.classList.length ? '.' + Array.from(el.classList).join('.') : '');
// A byline's words between its linked names are the NYT's.
const byline = el => { const line = el.closest('.book-author'); return line !== null && line.querySelector('.author-link') !== null; };
const left = el => el.closest(skip) || el.closest('script, style, template') || byline(el);
const found = [[document.title.replace(/ · Bestseller Wishlist$/, ''), 'title']];
for (const root of document.querySelectorAll('header.site-header, main')) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    const element = node.parentElement;
    if (!text || left(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const shown = range.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
    if (shown || element.closest('select')) found.push([text, where(element)]);
  }
  for (const element of root.querySelectorAll('[aria-label], [title], [placeholder], img[alt], input[type=submit], input[type=button]')) {
    if (left(element)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'value']) {
      if (name === 'value' && !element.matches('input[type=submit], input[type=button]')) continue;
      const text = (element.getAttribute(name) || '').trim();
      if (text) found.push([text, where(element) + '[' + name + ']']);
    }
  }
}
return found;
"""


def texts(browser: Browser) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in browser.js(_TEXTS, NOT_OURS)]


def without(text: str, data: list[str]) -> str:
    """`text`, folded, with every piece of `data` (folded, longest first) taken out."""
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


# ---------------------------------------------------------------------------------------------
# What fits


# The innermost elements reaching past the viewport's sides (a closed menu's items are not laid out).
_PAST_THE_EDGE = r"""
const width = document.documentElement.clientWidth;
const past = el => {
  if (el.closest('.visually-hidden, .skip-link, .table-wrap, option, script, style')) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true}) && (r.left < -1 || r.right > width + 1);
};
return Array.from(document.body.querySelectorAll('*')).filter(el => past(el) && !Array.from(el.children).some(past))
  .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + el.textContent.trim().slice(0, 40) +
                   '" spans ' + Math.round(el.getBoundingClientRect().left) + '..' + Math.round(el.getBoundingClientRect().right) + ' px');
"""

# The header's brand and items, as boxes (the brand has none in a member's phone header).
_HEADER = r"""
const boxes = [];
for (const element of document.querySelectorAll('.site-header .brand, .site-header .nav-list > li')) {
  const r = element.getBoundingClientRect();
  if (r.width === 0) continue;
  boxes.push({name: element.textContent.trim().slice(0, 30), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              clipped: element.scrollWidth > element.clientWidth + 1});
}
return boxes;
"""


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def header_problems(browser: Browser, width: int) -> list[str]:
    """The header's items each inside the screen, none cut off, none over another."""
    boxes = browser.js(_HEADER)
    found = [f"{box['name']!r} runs past the screen's edge or is cut off: {box}" for box in boxes
             if box["left"] < 0 or box["right"] > width or box["clipped"]]
    found += [f"{a['name']!r} and {b['name']!r} overlap" for i, a in enumerate(boxes) for b in boxes[i + 1:] if overlaps(a, b)]
    return found


def layout_problems(browser: Browser, width: int) -> list[str]:
    found = overflow_problems(browser) + browser.js(_PAST_THE_EDGE) + header_problems(browser, width)
    if browser.horizontal_overflow() > 0:
        found.append(f"the page is {browser.horizontal_overflow()} px wider than the viewport")
    return found


# ---------------------------------------------------------------------------------------------
# English left behind


def po_strings(path: Path, field: str) -> list[str]:
    """The texts of a catalog's `msgid` or `msgstr` lines (plural forms included)."""
    pattern = re.compile(rf'^{field}(?:_plural|\[\d\])? "(.*)"$')
    return [match.group(1).replace('\\"', '"') for line in path.read_text(encoding="utf-8").splitlines()
            if (match := pattern.match(line))]


def words(text: str) -> set[str]:
    return {word.casefold() for word in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", text))}


def english_finder(language: str):
    """A check for the app's English on a page in `language`: a word of messages.pot that the
    language's catalog never uses; or a piece of an English message between its placeholders (two
    words or more, or one of five letters or more) that none of the language's translations holds
    (German says "Export", every language names Goodreads' own "My Books")."""
    english = po_strings(LANGUAGES / "messages.pot", "msgid")
    own = po_strings(LANGUAGES / f"{language}.po", "msgstr")
    forbidden = set().union(*map(words, english)) - set().union(*map(words, own))
    in_the_language = folded("\n".join(own))
    pieces = {piece for text in english for piece in (p.strip(" .,:;!?“”()") for p in re.split(r"\{\w+\}", folded(text)))
              if (len(piece.split()) >= 2 or len(piece) >= 5) and piece not in in_the_language}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, pieces), key=len, reverse=True)) + r")(?![\w-])")

    def english_left(browser: Browser, data: list[str]) -> list[str]:
        found = []
        for text, where in texts(browser):
            rest = without(text, data)
            left = sorted(words(rest) & forbidden) + [match.group(1) for match in pattern.finditer(rest)]
            if left:
                found.append(f"{where}: {text!r} has {left}")
        return found

    return english_left


# ---------------------------------------------------------------------------------------------
# The walks


def walk(browser: Browser, household: Household) -> Iterator[Step]:
    """Opens every page of the walk in turn as its role (doing a step's action there). No picture
    is kept of a page unless it has a finding (`keep_picture`): a walk opens some 60 pages a width."""
    role = "nobody yet"
    for step in pages(household):
        if step.role != role:
            signed_in(browser, household, step.role)
            role = step.role
        browser.driver.get(browser.url(step.path))
        browser.wait_for_load()
        if step.status is not None:
            browser.allow_failed_load(browser.driver.current_url, step.status)
        if step.action:
            step.action(browser)
        glued = glued_words(browser)
        assert not glued, f"{step.name}: links or buttons whose rendered text glues words together:\n" + "\n".join(glued)
        yield step


def keep_picture(browser: Browser, name: str, found: list[str]) -> list[str]:
    if found:
        browser.screenshot(name)
    return found


def preload_axe(browser: Browser) -> None:
    """axe-core in every page the browser opens from now on, before the page's own scripts, rather
    than sent over WebDriver into each page (CDP's script is not subject to the page's CSP)."""
    source = Path(Axe(browser.driver).script_url).read_text(encoding="utf-8")
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})


def test_every_page_in_the_pseudo_language_is_marked_and_fits_at_360_and_1280_px(household: Household) -> None:
    problems = []
    with browser_asking_for("en-XA", household.base_url, "walk-pseudo") as browser:
        for width in WIDTHS:
            emulate(browser, width)
            for step in walk(browser, household):
                found = [] if page_language(browser) == "en-XA" else [f"<html lang={page_language(browser)!r}>"]
                found += unwrapped(browser, data_of(household, step)) + layout_problems(browser, width)
                problems += [f"{step.name} at {width} px: {p}" for p in keep_picture(browser, f"{width}-{step.name}", found)]
    assert not problems, "text outside the catalogs, or pages that do not fit:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_page_reads_in_the_language_with_no_english_left_and_no_axe_finding(household: Household, language: str) -> None:
    english_left = english_finder(language)
    problems = []
    with browser_asking_for(language, household.base_url, f"walk-{language}") as browser:
        preload_axe(browser)
        for step in walk(browser, household):
            found = [] if page_language(browser) == language else [f"<html lang={page_language(browser)!r}>"]
            found += [f"English left: {p}" for p in english_left(browser, data_of(household, step))]
            found += [f"{v['id']} {v['help']} {[n['target'] for n in v['nodes']]}" for v in run_axe(browser)["violations"]]
            problems += [f"{step.name}: {p}" for p in keep_picture(browser, step.name, found)]
    assert not problems, f"English left, or accessibility problems, in {language}:\n" + "\n".join(problems)
