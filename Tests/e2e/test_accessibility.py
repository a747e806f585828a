"""Accessibility as a checked property of every page (issue 16, items 1 and 4).

Each page of the app, in the state that shows the most of it (a wishlist with items, a shared list
with reserved and open books, a gift notice, forms refused by the server, a book's rank chart with
its table of figures open, the new books of a favourite list, one-time links just made, gifts bought
with cards, ideas in every state, a book received with its card, a birthday coming up, a profile
picture), is checked in one Chromium that switches between the people of one household by swapping
their cookies:

- axe-core 4.9 (bundled by `selenium-axe-python`, nothing fetched) with the WCAG 2.0, 2.1 and 2.2
  A and AA rules, at 390 and 1280 CSS px, in the light and the dark colour scheme: no violations.
  Widths and schemes are set through the DevTools protocol (`Emulation.setDeviceMetricsOverride`,
  `Emulation.setEmulatedMedia`), since headless Chromium will not make a window under 500 px, and
  the page is not reloaded between them, so pages that answer a POST are checked as well.
- Reflow (WCAG 1.4.10): at 320 CSS px nothing scrolls sideways and no text is clipped.
- Text spacing (WCAG 1.4.12): with line height 1.5, letter spacing 0.12em, word spacing 0.16em
  and paragraph spacing 2em forced on, at 320 and 1280 px, still nothing overflows or is clipped.
- Forced colours (`forced-colors: active`): every button and field keeps a visible border, every
  focusable element shows a focus outline, the current sort option or page stays distinct, and a
  rank chart's line and labels are painted in a colour other than the page's.

The report of the run (pages x widths x schemes, rules run, violations with their nodes) goes to
`.build/accessibility/report.json` and `report.md`. One page only:
`A11Y_PAGES=people-member .venv/bin/python -m pytest Tests/e2e/test_accessibility.py` (names as in
PAGES, comma-separated), or `-k people-member`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from selenium_axe_python import Axe

from support import (
    DEFAULT_WINDOW, REPO_ROOT, Browser, fill, follow, new_chromium, sign_up, unique_username,
)
from test_gift_cycle import MONTHS, idea_for, reserve_idea, suggest_idea
from test_household import share_with_household
from test_profile_picture import jpeg_with_exif
from test_reading import add_to_wishlist, book_path, mark_read, sample_book, save_profile
from test_scan import barcode_photo

LIST = "hardcover-fiction"
HISTORY_BOOK = "9798940831327"  # on LIST in seven of the eight stored editions: its chart has a gap
OTHER_READ = ("hardcover-nonfiction", 2)  # a second book the owner reads, never on the owner's wishlist
IDEA_RANKS = (6, 7, 8)  # books of LIST the others suggest for the owner, never on her wishlist
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")
REFLOW_WIDTH = 320
TEXT_SPACING_WIDTHS = (320, 1280)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
REPORT_DIR = REPO_ROOT / ".build" / "accessibility"
# The pages share one household and one report: under pytest-xdist (`make e2e`, two workers) this
# file runs on one worker (conftest.py, ONE_WORKER_FILES). No page relies on another having run
# before it: what a page shows that another page makes (a link, readings, gifts) is made by
# whichever of them comes first.

# WCAG 1.4.12's own test values, as the Understanding document's bookmarklet applies them.
TEXT_SPACING_CSS = """
* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }
"""


# ---------------------------------------------------------------------------------------------
# The household whose pages are checked, and the one browser that plays all its people.


@dataclass
class Household:
    owner: str
    giver: str  # reserved two books, one of which the owner then removed (a notice)
    other_giver: str  # reserved one book, so the giver sees "Reserved by …"
    items: list[str]  # the owner's wishlist item ids, newest first
    removed: str
    open_item: str  # left for the giver to reserve on the member page (a flash message)
    book_path: str
    # One-time links as the app hands them out: on the server's public URL (localhost), not on the
    # base URL (127.0.0.1) the browser uses otherwise. Both are opened signed out, as given; the
    # next `become` brings the browser back to the base URL, where the cookies are.
    share_link: str
    reset_link: str = ""  # made by the admin page's check, opened signed out after it


@dataclass
class Readers:
    """What the household has read: the owner (sharing) read the household's book page's book with
    stars, a review of two lines and a date, and a second book with nothing else; a critic, who
    shares too, wants the first book and reviewed it. So its "In this household" shows every part."""
    critic: str
    book_path: str  # the household's book page, /books/{id}


@dataclass
class GiftCycle:
    """The household's gifts further on: the giver bought two books and wrote a card for each; the
    owner got one of them (received, with its card); the other giver bought the book it reserved.
    Three ideas: the other giver's first reserved by the giver, its second by itself, and the
    giver's own still open, so the giver's ideas page shows every state."""
    received: str  # the item the owner got
    bought: str  # bought by the giver, still to give, its card open on the member page
    ideas: list[str]  # the ideas' titles


def click(browser: Browser, element) -> None:
    """Clicks a control that does not leave the page, scrolled to first without animation (a
    click made while the page glides lands on whatever passes under it)."""
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", element)
    element.click()


class Site:
    """One Chromium for the whole module; `become(role)` swaps in that person's cookies."""

    def __init__(self, browser: Browser, public_url: str) -> None:
        self.browser = browser
        self.public_url = public_url  # where the links the app hands out lead (`server.publicURL`)
        self.role: str | None = None
        self.cookies: dict[str, list[dict]] = {}
        self._household: Household | None = None
        self._readers: Readers | None = None
        self._gift_cycle: GiftCycle | None = None
        self.profile_saved = False
        self.birthday_saved = False
        self.owner_is_admin = False

    @property
    def driver(self):
        return self.browser.driver

    def _on_site(self) -> None:
        if not self.driver.current_url.startswith(self.browser.base_url):
            self.driver.get(self.browser.url("/healthz"))

    def become(self, role: str | None) -> None:
        """Signs the browser in as `role` ("owner", "giver", "other_giver") or out (None)."""
        self._on_site()
        if self.role is not None:
            self.cookies[self.role] = self.driver.get_cookies()
        self.driver.delete_all_cookies()
        for cookie in self.cookies.get(role, []) if role else []:
            self.driver.add_cookie({k: v for k, v in cookie.items() if k != "domain"})
        self.role = role

    def remember(self, role: str) -> None:
        """The browser has just signed up or in as `role`: keep its cookies under that name."""
        self.role = role
        self.cookies[role] = self.driver.get_cookies()

    @property
    def household(self) -> Household:
        if self._household is None:
            self._household = self._make_household()
        return self._household

    @property
    def readers(self) -> Readers:
        if self._readers is None:
            role = self.role
            self._readers = self._make_readers()
            self.become(role)  # back to whoever the page is for
        return self._readers

    def _make_readers(self) -> Readers:
        b, h = self.browser, self.household
        # The household's book is LIST's first, whose wishlist item the owner removed: the form
        # offers no "Take it off my wishlist" to the owner, and the owner's wishlist stays as it is.
        reviewed, other = sample_book(LIST, 1), sample_book(*OTHER_READ)
        assert book_path(reviewed) == h.book_path, f"the household's book is not {LIST}'s first: {h.book_path}"
        self.become("owner")
        mark_read(b, reviewed, "owner-read", stars=5, review="Funny, then sad, then funny again.\nRead it twice.",
                  finished=date.today().replace(day=1).isoformat())
        mark_read(b, other, "owner-read-other")
        critic = (unique_username("critic") + "-with-a-long-name")[:32]
        self.become(None)
        sign_up(b, critic)
        self.remember("critic")
        share_with_household(b)
        add_to_wishlist(b, reviewed, "critic-wishes")
        mark_read(b, reviewed, "critic-read", stars=4, review="The organ chapter alone is worth it.", keep_on_wishlist=True)
        return Readers(critic, h.book_path)

    def save_profile(self) -> None:
        """The owner's profile: a bio of two lines, a birthday and a favourite book (once)."""
        if self.profile_saved:
            return
        role = self.role
        self.readers  # the favourite is a book read
        self.become("owner")
        self.browser.visit("/settings/profile", "profile")
        save_profile(self.browser, "Reads anything with a map in the front.\nAsk me about lighthouses.", ("March", "14"),
                     [sample_book(LIST, 1)], "profile-saved")
        self.profile_saved = True
        self.become(role)

    @property
    def gift_cycle(self) -> GiftCycle:
        if self._gift_cycle is None:
            role = self.role
            self._gift_cycle = self._make_gift_cycle()
            self.become(role)
        return self._gift_cycle

    def _make_gift_cycle(self) -> GiftCycle:
        b, driver, h = self.browser, self.driver, self.household
        # The book the owner gets is the one the member page's check reserves, so the item the
        # owner's own pages show (items[1], most wanted with a note) stays on her wishlist, whichever
        # pages come first.
        received, bought, taken = h.open_item, h.items[1], h.items[2]
        ideas = [sample_book(LIST, rank) for rank in IDEA_RANKS]

        def row(item: str):
            return driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{item}"]')

        # The giver buys both books reserved (the one to be received reserved here unless the member
        # page's check did it) and writes a card for each; the other giver buys the one it reserved.
        self.become("giver")
        b.visit(f"/people/{h.owner}", "member")
        if row(received).find_elements(By.CSS_SELECTOR, "form.reserve-form"):
            follow(b, row(received).find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'))
        for item, card in ((received, "Happy birthday! The chapter on the lighthouse keeper made me think of you."),
                           (bought, "For the long evenings — “read slowly”.\nLove, your neighbour")):
            follow(b, row(item).find_element(By.CSS_SELECTOR, 'form.bought-form button[type="submit"]'))
            click(b, row(item).find_element(By.CSS_SELECTOR, "details.card-details summary"))
            fill(b, f"card-{item}", card)
            follow(b, row(item).find_element(By.CSS_SELECTOR, 'form.card-form button[type="submit"]'))
        self.become("other_giver")
        b.visit(f"/people/{h.owner}", "member")
        follow(b, row(taken).find_element(By.CSS_SELECTOR, 'form.bought-form button[type="submit"]'))

        # The ideas: two from the other giver (one reserved by itself), one from the giver, who
        # reserves the other giver's first.
        b.visit(f"/people/{h.owner}/ideas", "ideas")
        suggest_idea(b, h.owner, ideas[0].isbn13, ideas[0].title, "Loved the author’s last one — “couldn’t put it down”.", "idea-1")
        suggest_idea(b, h.owner, ideas[1].isbn13, ideas[1].title, "", "idea-2")
        reserve_idea(b, idea_for(b, ideas[1].title), "idea-2-reserved")
        self.become("giver")
        b.visit(f"/people/{h.owner}/ideas", "ideas")
        suggest_idea(b, h.owner, ideas[2].isbn13, ideas[2].title, "For the train", "idea-3")
        reserve_idea(b, idea_for(b, ideas[0].title), "idea-1-reserved")

        # The owner gets the book with the card.
        self.become("owner")
        b.visit("/wishlist", "wishlist")
        got = driver.find_element(By.CSS_SELECTOR, f'#wishlist-items > li[data-item="{received}"] a.received-link')
        follow(b, got)
        follow(b, driver.find_element(By.ID, "received-submit"))
        assert b.path == "/wishlist/received", b.driver.current_url
        return GiftCycle(received, bought, [book.title for book in ideas])

    def save_birthday(self) -> None:
        """The critic (who shares) has a birthday ten days from the server's today (UTC), once."""
        if self.birthday_saved:
            return
        role = self.role
        self.readers  # the critic's account
        self.become("critic")
        soon = datetime.now(timezone.utc).date() + timedelta(days=10)
        self.browser.visit("/settings/profile", "profile")
        save_profile(self.browser, "", (MONTHS[soon.month - 1], str(soon.day)), [], "birthday-saved")
        self.birthday_saved = True
        self.become(role)

    def make_reset_link(self) -> None:
        """As the owner, on /admin, makes a reset link for the giver and keeps it, leaving the
        browser on the admin page with the link shown. The owner is made an admin on the command
        line the first time, as a person installing the app would."""
        h, b = self.household, self.browser
        if not self.owner_is_admin:
            promoted = subprocess.run(
                [str(os.environ.get("WISHLIST_BIN", REPO_ROOT / ".build" / "debug" / "wishlist")), "user", "promote", h.owner,
                 "--database", os.environ["WISHLIST_E2E_DATABASE"]],
                capture_output=True, text=True, cwd=REPO_ROOT, timeout=60,
            )
            assert promoted.returncode == 0, promoted.stderr
            self.owner_is_admin = True
        b.visit("/admin", "admin")
        follow(b, b.driver.find_element(By.CSS_SELECTOR, f'#users tr[data-user="{h.giver}"] form[action$="/reset-link"] button'))
        url = b.driver.find_element(By.ID, "new-link-url").get_attribute("value")
        assert url.startswith(self.public_url + "/reset/"), f"the reset link is not on {self.public_url}: {url}"
        h.reset_link = url  # a new link replaces the one before

    def _reserve(self, owner: str, item: str) -> None:
        """Presses "Reserve as a gift" on `item` of `owner`'s shared list."""
        b = self.browser
        b.visit(f"/people/{owner}", "member")
        row = self.driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{item}"]')
        follow(b, row.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'))
        assert "You reserved" in self.driver.find_element(By.ID, "flash").text

    def _make_household(self) -> Household:
        b, driver = self.browser, self.driver
        # The longest names allowed (32 characters), as the navigation, headings and rows show them.
        owner, giver, other = ((unique_username(p) + "-with-a-long-name")[:32] for p in ("owner", "giver", "other"))

        # The owner wishes for five books, one most wanted with a note, shares them and makes a link.
        self.become(None)
        sign_up(b, owner)
        self.remember("owner")
        b.visit(f"/lists/{LIST}", "list")
        book_path = driver.find_element(By.CSS_SELECTOR, "#books .book-title a").get_attribute("href")
        for rank in (5, 4, 3, 2, 1):
            row = driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-rank="{rank}"]')
            follow(b, row.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]'))
        b.visit("/wishlist", "wishlist")
        items = [row.get_attribute("data-item") for row in driver.find_elements(By.CSS_SELECTOR, "#wishlist-items > li")]
        assert len(items) == 5, items
        b.visit(f"/wishlist/{items[1]}", "item")
        click(b, driver.find_element(By.ID, "priority-high"))
        fill(b, "note", "Hardback, please — “signed” if the shop has one.\nA second line.")
        follow(b, driver.find_element(By.ID, "note-submit"))
        b.visit("/settings/sharing", "settings-sharing")
        click(b, driver.find_element(By.ID, "sharing-household"))
        follow(b, driver.find_element(By.ID, "sharing-submit"))
        assert driver.find_element(By.ID, "sharing-household").is_selected()
        follow(b, driver.find_element(By.ID, "share-link-create"))
        share_url = driver.find_element(By.ID, "share-link-url").get_attribute("value")

        # Another giver reserves one book; the giver reserves two.
        removed, reserved, taken, open_item = items[0], items[1], items[2], items[3]
        self.become(None)
        sign_up(b, other)
        self.remember("other_giver")
        self._reserve(owner, taken)
        self.become(None)
        sign_up(b, giver)
        self.remember("giver")
        self._reserve(owner, removed)
        self._reserve(owner, reserved)

        # The owner removes a reserved book: the giver gets a notice on Gifts I'm giving.
        self.become("owner")
        b.visit(f"/wishlist/{removed}/remove", "remove")
        follow(b, driver.find_element(By.ID, "remove-submit"))
        assert b.path == "/wishlist"
        assert share_url.startswith(self.public_url + "/shared/"), f"the share link is not on {self.public_url}: {share_url}"
        return Household(owner, giver, other, items, removed, open_item, book_path[len(b.base_url):], share_url)


@pytest.fixture(scope="module")
def site(server: str, public_url: str) -> Iterator[Site]:
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        browser = Browser(driver, server, "a11y")
        browser.resize(*DEFAULT_WINDOW)
        yield Site(browser, public_url)
    finally:
        driver.quit()


# ---------------------------------------------------------------------------------------------
# The pages. Each opens itself in the browser (a GET, or the form post whose answer it is) and
# leaves the browser on it; the checks then never reload it.


def _get(path: str | Callable[[Household], str], status: int | None = None, shot: str | None = None) -> Callable[[Site], None]:
    """A page opened by its address (`status`: the error status it answers with)."""
    def open_page(site: Site) -> None:
        target = path(site.household) if callable(path) else path
        site.browser.visit(target, shot, expect_status=status)
        headings = site.browser.driver.find_elements(By.TAG_NAME, "h1")
        assert headings, f"{target} has no heading"
        if status is not None:
            assert str(status) in headings[0].text, f"{target} is not the {status} page: {headings[0].text!r}"
    return open_page


def _login_failed(site: Site) -> None:
    b = site.browser
    b.visit("/login", "login")
    fill(b, "username", "nobody-" + unique_username("x")[-8:])
    fill(b, "password", "not the password at all")
    follow(b, b.driver.find_element(By.ID, "login-submit"))
    assert b.driver.find_elements(By.ID, "error-summary"), "a wrong sign-in was not refused"


def _signup_failed(site: Site) -> None:
    b = site.browser
    b.visit("/signup", "signup")
    b.js("document.getElementById('signup-form').noValidate = true;")  # let the server refuse it
    fill(b, "username", "x!")
    fill(b, "email", "not-an-address")
    fill(b, "password", "short")
    fill(b, "password_confirm", "different")
    follow(b, b.driver.find_element(By.ID, "signup-submit"))
    assert b.driver.find_elements(By.CSS_SELECTOR, ".field-error:not(:empty)"), "the bad sign-up was not refused"


def _note_too_long(site: Site) -> None:
    b = site.browser
    b.visit(f"/wishlist/{site.household.items[1]}", "item")
    b.js("const n = document.getElementById('note'); n.removeAttribute('maxlength'); n.value = 'x'.repeat(2001);")
    follow(b, b.driver.find_element(By.ID, "note-submit"))
    assert b.driver.find_element(By.ID, "note-error").text.strip(), "the long note was not refused"


def _list_refused(site: Site) -> None:
    """Issue 51: the list form sent without a name."""
    b = site.browser
    b.visit("/wishlist/lists/new", "list-new")
    b.js("document.getElementById('name').removeAttribute('required');")
    follow(b, b.driver.find_element(By.ID, "list-submit"))
    assert b.driver.find_element(By.ID, "name-error").text.strip(), "the nameless list was not refused"


def _list_made(site: Site) -> None:
    """Issue 51: the owner's Birthday list made, shown filtered with its confirmation (the owner has it from here on)."""
    b = site.browser
    b.visit("/wishlist/lists/new", "list-new")
    fill(b, "name", "Birthday")
    b.driver.find_element(By.ID, "occasion-birthday").click()
    follow(b, b.driver.find_element(By.ID, "list-submit"))
    assert "?list=" in b.driver.current_url, b.driver.current_url


def _list_edit(site: Site) -> None:
    b = site.browser
    b.visit("/wishlist", "wishlist")
    follow(b, b.driver.find_elements(By.CSS_SELECTOR, "#wish-list-links a.wish-list-edit")[-1])
    assert b.driver.find_element(By.ID, "delete-list-form"), "the Birthday list's edit page has no delete form"


def _member_list(site: Site) -> None:
    """Issue 51: a member's shared list at its own address, as a giver sees it."""
    b = site.browser
    b.visit(f"/people/{site.household.owner}", "member")
    follow(b, b.driver.find_element(By.LINK_TEXT, "Birthday"))
    assert "/lists/" in b.path, b.driver.current_url


def _password_failed(site: Site) -> None:
    b = site.browser
    b.visit("/settings/password", "settings-password")
    fill(b, "current_password", "this is not my password")
    fill(b, "new_password", "a brand new passphrase")
    fill(b, "new_password_confirm", "a brand new passphrase")
    follow(b, b.driver.find_element(By.CSS_SELECTOR, '#password-form button[type="submit"]'))
    assert b.driver.find_element(By.ID, "current_password-error").text.strip(), "the wrong password was not refused"


def _import_refused(site: Site) -> None:
    b = site.browser
    upload = REPORT_DIR / "not-a-goodreads-export.csv"
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.write_text("milk,eggs\nbread,butter\n", encoding="utf-8")
    b.visit("/wishlist", "wishlist")
    b.driver.find_element(By.ID, "import-file").send_keys(str(upload))
    follow(b, b.driver.find_element(By.ID, "import-submit"))
    assert b.driver.find_elements(By.ID, "error-summary"), "the odd CSV was not refused"


def _new_share_link(site: Site) -> None:
    b = site.browser
    site.household  # made before its link is replaced
    b.visit("/settings/sharing", "settings-sharing")
    follow(b, b.driver.find_element(By.ID, "share-link-create"))
    url = b.driver.find_element(By.ID, "share-link-url").get_attribute("value")
    assert url.startswith(site.public_url + "/shared/"), f"the share link is not on {site.public_url}: {url}"
    site.household.share_link = url  # the old link no longer works


def _new_feed_link(site: Site) -> None:
    b = site.browser
    b.visit("/settings/lists", "settings-lists")
    follow(b, b.driver.find_element(By.ID, "feed-link-create"))
    url = b.driver.find_element(By.ID, "feed-link-url").get_attribute("value")
    assert url.startswith(site.public_url + "/feeds/"), f"no feed link on {site.public_url} was shown: {url!r}"


def _book_rank_history(site: Site) -> None:
    """The book page with its rank history, every table of figures opened (they start closed)."""
    b = site.browser
    b.visit(f"/books/{HISTORY_BOOK}", "book")
    assert b.driver.find_elements(By.CSS_SELECTOR, f"#rank-history #history-{LIST} svg.rank-chart-svg"), "the book has no rank chart"
    figures = b.driver.find_elements(By.CSS_SELECTOR, "#rank-history details.rank-chart-figures")
    assert figures, "the rank history has no table of figures"
    for details in figures:
        click(b, details.find_element(By.TAG_NAME, "summary"))
    WebDriverWait(b.driver, 5).until(
        lambda d: all(f.get_attribute("open") is not None and f.find_element(By.TAG_NAME, "table").is_displayed() for f in figures),
        "the tables of figures did not open",
    )


def _lists_new_this_week(site: Site) -> None:
    """The catalog with "New this week" on it: the owner stars LIST (once; the star stays)."""
    b = site.browser
    b.visit("/lists", "lists")
    card = b.driver.find_element(By.CSS_SELECTOR, f'li.list-card[data-list="{LIST}"]')
    if "card-favorite" not in card.get_attribute("class").split():
        follow(b, card.find_element(By.CSS_SELECTOR, "form.favorite-form button.favorite-toggle"))
        assert b.path == "/lists", b.driver.current_url
    assert b.driver.find_elements(By.CSS_SELECTOR, f'#favorites li.list-card[data-list="{LIST}"]'), f"{LIST} is not a favourite"
    assert b.driver.find_elements(By.CSS_SELECTOR, "#new-this-week h3 + ul li a"), "no New this week section with books"


def _admin_with_a_new_link(site: Site) -> None:
    """The admin page, right after making a reset link (so the one-time link is on it)."""
    site.make_reset_link()


def _reset_password(site: Site) -> None:
    """The page of an admin's reset link, opened signed out as handed over (made here unless the
    admin page's check made one)."""
    if not site.household.reset_link:
        site.become("owner")
        site.make_reset_link()
        site.become(None)
    _get(lambda h: h.reset_link, shot="reset-password")(site)
    assert site.driver.find_elements(By.ID, "new_password"), "the reset link did not open the form for a new password"


def _member_after_reserving(site: Site) -> None:
    h = site.household
    b = site.browser
    b.visit(f"/people/{h.owner}", "member")
    open_rows = b.driver.find_elements(By.CSS_SELECTOR, f'#member-items > li[data-item="{h.open_item}"] form.reserve-form button')
    if open_rows:  # reserving it shows the flash message; the last book stays open
        follow(b, open_rows[0])
    states = {
        state: b.driver.find_elements(By.CSS_SELECTOR, f"#member-items {selector}")
        for state, selector in (("open", "form.reserve-form"), ("you", ".reserved-by-you"), ("other", ".reserved-by-other"))
    }
    assert all(states.values()), f"the member page lacks a row state: { {k: len(v) for k, v in states.items()} }"


def _reservations(site: Site) -> None:
    b = site.browser
    b.visit("/reservations", "reservations")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#gift-notices li.gift-notice"), "no notice of the removed book"
    assert b.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.wishlist-item"), "no reservation listed"


def _book_household(site: Site) -> None:
    """The book page with "In this household" filled: figures, an average, two reviews by name."""
    b = site.browser
    b.visit(site.readers.book_path, "book-household")
    assert len(b.driver.find_elements(By.CSS_SELECTOR, "#household-reviews > li.review")) >= 2, "fewer than two reviews"
    assert b.driver.find_elements(By.ID, "household-rating"), "no average rating"
    assert b.driver.find_elements(By.ID, "reading-forget"), "the owner's reading is not on the page"


def _reading_edit(site: Site) -> None:
    b = site.browser
    b.visit(site.readers.book_path + "/reading", "reading-edit")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#reading-form input[name=rating]:checked"), "the edit form holds no rating"


def _reading_refused(site: Site) -> None:
    """The reading form refused on every field: a rating no radio offers, a review too long and a
    date in the future, each kept from the browser's own checks as a person's crafted post would be."""
    b = site.browser
    b.visit(site.readers.book_path + "/reading", "reading-edit")
    b.js(
        "const r = document.getElementById('rating-5'); r.value = '7'; r.checked = true;"
        "const t = document.getElementById('review'); t.removeAttribute('maxlength'); t.value = 'x'.repeat(5001);"
        "const f = document.getElementById('finished'); f.removeAttribute('max'); f.value = '2999-01-01';"
    )
    follow(b, b.driver.find_element(By.ID, "reading-submit"))
    for field in ("rating", "review", "finished"):
        assert b.driver.find_element(By.ID, f"{field}-error").text.strip(), f"the {field} was not refused"


def _reading(site: Site) -> None:
    b = site.browser
    site.readers
    b.visit("/reading", "reading")
    assert len(b.driver.find_elements(By.CSS_SELECTOR, "#reading-list > li.reading-row")) >= 2, "fewer than two books read"


def _list_most_wanted(site: Site) -> None:
    """LIST sorted by wanted, its first row saying what the household wants and rates. (Remembered
    for LIST from here on: no later page of the owner's opens it.)"""
    b = site.browser
    site.readers
    b.visit(f"/lists/{LIST}?sort=wanted", "list-most-wanted")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#books .book-standing .standing-wanted"), "no row says who wants it"
    assert b.driver.find_elements(By.CSS_SELECTOR, "#books .book-standing .standing-rating"), "no row shows a rating"


def _settings_profile(site: Site) -> None:
    """Settings → Profile as saving it answers: the confirmation, the bio, the birthday, a favourite ticked."""
    site.save_profile()
    b = site.browser
    if b.path != "/settings/profile":
        b.visit("/settings/profile", "profile")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#favorites input:checked"), "no favourite ticked"


def _people_profile(site: Site) -> None:
    """The owner's page under People with the profile, the wishlist and the books read."""
    site.save_profile()
    b = site.browser
    b.visit(f"/people/{site.household.owner}", "people-profile")
    for part in ("profile-bio", "profile-birthday", "profile-favorites", "member-reading-list"):
        assert b.driver.find_elements(By.ID, part), f"the member page has no #{part}"


def _received(site: Site) -> None:
    """Books you received, the book the owner got showing its giver's card and name."""
    site.gift_cycle
    b = site.browser
    if b.path != "/wishlist/received":
        b.visit("/wishlist/received", "received")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#received-items li.received-item figure.gift-card"), "no card on a received book"


def _member_bought(site: Site) -> None:
    """The owner's page as the giver sees it once gifts are bought: "Bought by you" with the card
    open (its form), and "Bought by" the other giver."""
    gc, b = site.gift_cycle, site.browser
    b.visit(f"/people/{site.household.owner}", "member-bought")
    mine = b.driver.find_element(By.CSS_SELECTOR, f'#member-items > li[data-item="{gc.bought}"]')
    assert "Bought by you" in mine.find_element(By.CSS_SELECTOR, ".reserved-by-you").text
    assert mine.find_element(By.CSS_SELECTOR, "details.card-details").get_attribute("open") is not None, "the card is not open"
    others = [p.text for p in b.driver.find_elements(By.CSS_SELECTOR, "#member-items .reserved-by-other")]
    assert any(text.startswith("Bought by") for text in others), others


def _ideas(site: Site) -> None:
    """Gift ideas for the owner as the giver sees them, one idea in each state, and a search's results."""
    site.gift_cycle
    b = site.browser
    b.visit(f"/people/{site.household.owner}/ideas?q=the", "ideas")
    for state in ("form[action$='/reserve']", ".reserved-by-you", ".reserved-by-other"):
        assert b.driver.find_elements(By.CSS_SELECTOR, f"#idea-list {state}"), f"no idea shows {state}"
    assert len(b.driver.find_elements(By.CSS_SELECTOR, "#idea-results > li.idea-result")) >= 2, "the search found fewer than two books"


def _reservations_gift_cycle(site: Site) -> None:
    """Gifts I'm giving with a book bought (its card open), an idea reserved, and a gift given."""
    site.gift_cycle
    b = site.browser
    b.visit("/reservations", "reservations-gift-cycle")
    for selector in ("section.gift-group form.bought-form[action$='/bought/delete']", "section.gift-group li.idea-gift",
                     "#given li.given-gift"):
        assert b.driver.find_elements(By.CSS_SELECTOR, selector), f"Gifts I'm giving has no {selector}"


def _people_birthdays(site: Site) -> None:
    site.save_birthday()
    b = site.browser
    b.visit("/people", "people-birthdays")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#birthdays li.birthday"), "no birthday coming up"


def _child_made(site: Site) -> None:
    """Issue 51: a child's profile made from People, landing on her page (the giver manages Bea from here on)."""
    b = site.browser
    b.visit("/people/new-child", "new-child")
    fill(b, "child-name", "Bea")
    follow(b, b.driver.find_element(By.ID, "child-submit"))
    assert b.path == "/people/~bea", b.driver.current_url


def _child_hand_over_link(site: Site) -> None:
    """A child's Manage page as making a hand-over link answers: the link shown once."""
    b = site.browser
    b.visit("/people/~bea/managers", "manage-bea")
    follow(b, b.driver.find_element(By.ID, "hand-over-submit"))
    assert b.driver.find_element(By.CSS_SELECTOR, "#hand-over-link input").get_attribute("value"), "no hand-over link shown"


def _hand_over(site: Site) -> None:
    """The page a hand-over link opens: her own account's form."""
    b = site.browser
    b.visit("/people/~bea/managers", "manage-bea")
    follow(b, b.driver.find_element(By.ID, "hand-over-submit"))
    link = b.driver.find_element(By.CSS_SELECTOR, "#hand-over-link input").get_attribute("value")
    b.visit(link[link.index("/hand-over/"):], "hand-over")
    assert b.driver.find_element(By.ID, "hand-over-form")


def _settings_profile_picture(site: Site) -> None:
    """Settings → Profile as uploading a picture answers: the picture shown, and Remove picture."""
    b = site.browser
    upload = REPORT_DIR / "profile-picture.jpg"
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.write_bytes(jpeg_with_exif())
    b.visit("/settings/profile", "profile")
    b.driver.find_element(By.ID, "picture-file").send_keys(str(upload))
    follow(b, b.driver.find_element(By.ID, "picture-submit"))
    assert b.driver.current_url.endswith("/settings/profile?done=picture"), b.driver.current_url
    picture = b.driver.find_element(By.CSS_SELECTOR, "#picture img.avatar")
    WebDriverWait(b.driver, 10).until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", picture),
        "the picture did not load",
    )
    assert b.driver.find_elements(By.ID, "picture-remove"), "no Remove picture"


def _add_book_refused(site: Site) -> None:
    """Add a book, typed in with no title, no author and a mistyped ISBN: each refused by its field."""
    b = site.browser
    b.visit("/books/new", "add-book")
    b.driver.find_element(By.ID, "isbn").send_keys("978-0-306-40615-8")
    follow(b, b.driver.find_element(By.ID, "manual-submit"))
    for field in ("title", "author", "isbn"):
        assert b.driver.find_element(By.ID, f"{field}-error").text.strip(), f"the {field} was not refused"


def _add_book_scan_refused(site: Site) -> None:
    """Add a book, with a photo whose barcode is another product's: refused beside the photo field."""
    b = site.browser
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    photo = barcode_photo("4006381333931", REPORT_DIR / "product-barcode.png")
    b.visit("/books/new", "add-book")
    b.allow_failed_load(b.url("/books/new/scan"), 422)
    b.driver.find_element(By.ID, "photo").send_keys(str(photo))
    follow(b, b.driver.find_element(By.ID, "scan-submit"))
    assert "That barcode is an EAN-13 of another product" in b.driver.find_element(By.ID, "photo-error").text, "the photo was not refused"


def _author_followed(site: Site) -> None:
    """An author's page as following them answers: from a book new on LIST (starred before), its
    author's link, then Follow."""
    b = site.browser
    b.visit("/lists", "lists")
    follow(b, b.driver.find_element(By.CSS_SELECTOR, "#new-this-week li a"))
    follow(b, b.driver.find_element(By.CSS_SELECTOR, ".book-detail-header a.author-link"))
    follow(b, b.driver.find_element(By.ID, "follow-submit"))
    assert b.driver.current_url.endswith("?done=followed"), b.driver.current_url


def _lists_new_from_authors(site: Site) -> None:
    """The catalog with "New from authors you follow" on it (the author followed just before)."""
    b = site.browser
    b.visit("/lists", "lists")
    assert b.driver.find_elements(By.CSS_SELECTOR, "#new-from-authors li"), "nothing new from the author followed"


@dataclass(frozen=True)
class Page:
    name: str
    role: str | None  # who looks at it: "owner", "giver", or None (signed out)
    open: Callable[[Site], None]
    household: bool = True  # needs the household's accounts and data


PAGES = [
    # Signed out.
    Page("login", None, _get("/login"), household=False),
    Page("signup", None, _get("/signup"), household=False),
    Page("not-found", None, _get("/no-such-page", status=404), household=False),
    Page("login-failed", None, _login_failed, household=False),
    Page("signup-failed", None, _signup_failed, household=False),
    Page("shared", None, _get(lambda h: h.share_link, shot="shared")),
    # The owner.
    Page("lists", "owner", _get("/lists")),
    Page("lists-new-this-week", "owner", _lists_new_this_week),  # LIST starred from here on
    Page("author-followed", "owner", _author_followed),  # the owner follows an author new on LIST from here on
    Page("lists-new-from-authors", "owner", _lists_new_from_authors),
    Page("list", "owner", _get(f"/lists/{LIST}")),
    Page("book", "owner", _get(lambda h: h.book_path)),
    Page("book-rank-history", "owner", _book_rank_history),
    Page("search", "owner", _get("/search?q=the")),
    Page("search-nothing", "owner", _get("/search?q=zzzqqq")),
    Page("add-book", "owner", _get("/books/new")),
    Page("add-book-refused", "owner", _add_book_refused),
    Page("add-book-scan-refused", "owner", _add_book_scan_refused),
    Page("wishlist", "owner", _get("/wishlist")),
    Page("wishlist-item", "owner", _get(lambda h: f"/wishlist/{h.items[1]}")),
    Page("wishlist-remove", "owner", _get(lambda h: f"/wishlist/{h.items[1]}/remove")),
    Page("wishlist-got-it", "owner", _get(lambda h: f"/wishlist/{h.items[1]}/received")),
    Page("note-too-long", "owner", _note_too_long),
    Page("import-refused", "owner", _import_refused),
    Page("wishlist-list-new", "owner", _get("/wishlist/lists/new")),
    Page("wishlist-list-refused", "owner", _list_refused),
    Page("wishlist-list-made", "owner", _list_made),  # the owner has a Birthday list from here on
    Page("wishlist-list-edit", "owner", _list_edit),
    Page("settings", "owner", _get("/settings")),
    Page("settings-lists", "owner", _get("/settings/lists")),
    Page("settings-sharing", "owner", _get("/settings/sharing")),
    Page("settings-password", "owner", _get("/settings/password")),
    Page("settings-sign-in", "owner", _get("/settings/sign-in")),
    Page("settings-data", "owner", _get("/settings/data")),
    Page("settings-language", "owner", _get("/settings/language")),
    Page("welcome", "owner", _get("/welcome")),  # the setup page's own check is in test_first_week.py
    Page("settings-new-share-link", "owner", _new_share_link),
    Page("settings-new-feed-link", "owner", _new_feed_link),
    Page("password-failed", "owner", _password_failed),
    Page("list-earlier-edition", "owner", _get(f"/lists/{LIST}?date=2026-10-04")),
    Page("book-household", "owner", _book_household),  # the owner and a critic read LIST's first book from here on
    Page("reading-edit", "owner", _reading_edit),
    Page("reading-refused", "owner", _reading_refused),
    Page("reading", "owner", _reading),
    Page("list-most-wanted", "owner", _list_most_wanted),
    Page("settings-profile", "owner", _settings_profile),  # the owner's profile from here on
    Page("admin", "owner", _admin_with_a_new_link),
    Page("reset-password", None, _reset_password),
    # A giver.
    Page("people", "giver", _get("/people")),
    Page("people-member", "giver", _member_after_reserving),
    Page("people-member-list", "giver", _member_list),
    Page("reservations", "giver", _reservations),
    Page("wishlist-empty", "giver", _get("/wishlist")),
    Page("reading-empty", "giver", _get("/reading")),
    Page("people-profile", "giver", _people_profile),
    Page("people-reading", "giver", _get(lambda h: f"/people/{h.owner}/reading")),
    # The gift cycle (the owner gets a book from here on) and the profile picture.
    Page("wishlist-received", "owner", _received),
    Page("people-member-bought", "giver", _member_bought),
    Page("people-ideas", "giver", _ideas),
    Page("reservations-gift-cycle", "giver", _reservations_gift_cycle),
    Page("people-birthdays", "giver", _people_birthdays),
    Page("settings-profile-picture", "owner", _settings_profile_picture),
    # Children (issue 51): the giver makes Bea's profile and manages it.
    Page("people-new-child", "giver", _get("/people/new-child")),
    Page("people-child-made", "giver", _child_made),
    Page("people-child-manage", "giver", _get("/people/~bea/managers")),
    Page("people-child-hand-over-link", "giver", _child_hand_over_link),
    Page("hand-over", "giver", _hand_over),
]
_only = {name.strip() for name in os.environ.get("A11Y_PAGES", "").split(",") if name.strip()}
if _only - {p.name for p in PAGES}:
    raise pytest.UsageError(f"A11Y_PAGES names unknown pages: {sorted(_only - {p.name for p in PAGES})}")
SELECTED = [p for p in PAGES if not _only or p.name in _only]


# ---------------------------------------------------------------------------------------------
# Emulation through the DevTools protocol.


def settle(browser: Browser) -> None:
    """Waits for the transitions a change set off (the buttons' colours fade in 0.15 s): until they
    end, computed styles, and so axe's contrast checks, read the colours they started from."""
    WebDriverWait(browser.driver, 5).until(
        lambda d: d.execute_script("return document.getAnimations().every(a => a.playState !== 'running');"),
        "the page's transitions did not end",
    )


def emulate(browser: Browser, width: int, scheme: str = "light", forced: bool = False) -> None:
    """A viewport `width` CSS px wide, the colour scheme, forced colours on or off. (Not reduced
    motion: the stylesheet then gives every property a 0.01 ms transition, so a style read right
    after a change returns the old value.)"""
    driver = browser.driver
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 800 if width < 600 else DEFAULT_WINDOW[1], "deviceScaleFactor": 1, "mobile": False,
    })
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen", "features": [
        {"name": "prefers-color-scheme", "value": scheme},
        {"name": "forced-colors", "value": "active" if forced else "none"},
    ]})
    WebDriverWait(driver, 5).until(lambda d: d.execute_script(
        "return window.innerWidth === arguments[0]"
        " && matchMedia('(prefers-color-scheme: ' + arguments[1] + ')').matches"
        " && matchMedia('(forced-colors: active)').matches === arguments[2];",
        width, scheme, forced,
    ), f"the page did not take {width} px, {scheme}, forced colours {forced}")
    settle(browser)


def run_axe(browser: Browser) -> dict:
    if not browser.js("return typeof window.axe === 'object';"):
        Axe(browser.driver).inject()
    result = browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations', 'incomplete']})"
        "  .then(r => done({version: r.testEngine.version,"
        "    violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, tags: v.tags,"
        "      nodes: v.nodes.map(n => ({target: n.target, html: n.html, summary: n.failureSummary}))})),"
        "    incomplete: r.incomplete.map(v => ({id: v.id, help: v.help,"
        "      nodes: v.nodes.map(n => ({target: n.target, summary: n.failureSummary}))})),"
        "    rules: [].concat(r.passes, r.violations, r.incomplete, r.inapplicable).map(v => v.id)}),"
        "    e => done({error: String(e)}));",
        AXE_TAGS,
    )
    assert "error" not in result, f"axe-core failed: {result}"
    return result


# Reflow and text spacing: the page does not scroll sideways, and no text is cut off by a box
# that hides its overflow (or truncated with an ellipsis), scrolls inside a box (tables may), or
# spills out of a box of fixed size.
_OVERFLOW_CHECK = r"""
const problems = [];
const root = document.documentElement;
const sideways = Math.max(root.scrollWidth, document.body.scrollWidth) - Math.min(root.clientWidth, window.innerWidth);
if (sideways > 0) problems.push('the page scrolls sideways by ' + sideways + ' px');
const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.classList.length ? '.' + Array.from(el.classList).join('.') : '') +
  ' "' + el.textContent.trim().replace(/\s+/g, ' ').slice(0, 50) + '"';
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('.visually-hidden, script, style, template, option, select, textarea, input')) continue;
  if (['IMG', 'SVG', 'BR', 'INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) continue;
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden' || style.display === 'inline') continue;
  if (!el.textContent.trim() || el.clientWidth === 0) continue;
  const over = {w: el.scrollWidth - el.clientWidth, h: el.scrollHeight - el.clientHeight};
  if (over.w <= 1 && over.h <= 1) continue;
  const clips = [style.overflowX, style.overflowY].some(v => v === 'hidden' || v === 'clip');
  const scrolls = [style.overflowX, style.overflowY].some(v => v === 'auto' || v === 'scroll');
  // A phone's list row cuts its blurb to two lines on purpose, with "more" beside it to show the rest.
  const clamped = style.webkitLineClamp !== 'none' && el.parentElement && el.parentElement.querySelector(':scope > details.blurb-more');
  if (clamped) continue;
  if (style.textOverflow === 'ellipsis' && over.w > 1) problems.push('text truncated: ' + describe(el));
  else if (clips) problems.push('text clipped (' + over.w + ' x ' + over.h + ' px hidden): ' + describe(el));
  else if (scrolls && !el.querySelector('table')) problems.push('scrolls inside itself: ' + describe(el));
  else if (!scrolls) {
    // Text that spills out of its own box: only boxes that draw a frame (a border or a background)
    // make the spill visible as overlap; plain wrappers let their content flow on.
    const framed = parseFloat(style.borderTopWidth) > 0 || parseFloat(style.borderBottomWidth) > 0 ||
      style.backgroundColor !== 'rgba(0, 0, 0, 0)';
    if (framed) problems.push('text spills out of its box (' + over.w + ' x ' + over.h + ' px): ' + describe(el));
  }
}
return problems;
"""


def overflow_problems(browser: Browser) -> list[str]:
    return browser.js(_OVERFLOW_CHECK)


def with_text_spacing(browser: Browser, on: bool) -> None:
    """Adds (or takes away) the WCAG 1.4.12 spacing as a constructed stylesheet, which the page's
    Content-Security-Policy does not block (a <style> element other than the page's own would be)."""
    applied = browser.js(
        "if (arguments[1]) {"
        "  const sheet = new CSSStyleSheet(); sheet.replaceSync(arguments[0]); window.__textSpacing = sheet;"
        "  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];"
        "} else {"
        "  document.adoptedStyleSheets = document.adoptedStyleSheets.filter(s => s !== window.__textSpacing);"
        "}"
        "const p = document.querySelector('main p') || document.body;"
        "return [getComputedStyle(p).letterSpacing, parseFloat(getComputedStyle(p).fontSize)];",
        TEXT_SPACING_CSS, on,
    )
    settle(browser)
    spacing, size = applied
    if on:
        assert spacing.endswith("px") and abs(float(spacing[:-2]) - 0.12 * size) < 0.05, f"the text spacing did not apply: {applied}"


_FORCED_COLOURS_CHECK = r"""
const problems = [];
const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.classList.length ? '.' + Array.from(el.classList).join('.') : '') +
  ' "' + el.textContent.trim().replace(/\s+/g, ' ').slice(0, 40) + '"';
const alpha = c => { const m = /rgba\([^)]*,\s*([\d.]+)\)/.exec(c); return m ? parseFloat(m[1]) : (c === 'transparent' ? 0 : 1); };
const shown = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('.visually-hidden'); };
const line = (style, side) => style['border' + side + 'Style'] !== 'none' && style['border' + side + 'Style'] !== 'hidden'
  && parseFloat(style['border' + side + 'Width']) >= 1 && alpha(style['border' + side + 'Color']) > 0;
const outlined = s => s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 && alpha(s.outlineColor) > 0;

// Buttons and fields: a visible frame on all four sides (the background is forced to the page's).
const controls = document.querySelectorAll(
  'button, .button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea');
for (const el of controls) {
  if (!shown(el)) continue;
  const s = getComputedStyle(el);
  if (!['Top', 'Right', 'Bottom', 'Left'].every(side => line(s, side)) && !outlined(s))
    problems.push('no visible border: ' + describe(el));
}

// The current item of a set (a sort option, the page in the navigation) looks unlike the others.
// Compared as drawn: a transparent background shows what is behind it.
const fill = el => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
  if (alpha(c) > 0) return c; } return 'canvas'; };
const look = el => { const s = getComputedStyle(el);
  return [s.color, fill(el), s.borderTopStyle, s.borderTopWidth, s.borderTopColor,
          s.textDecorationLine, s.textDecorationThickness, s.fontWeight, s.outlineStyle].join('|'); };
for (const current of document.querySelectorAll('li > a[aria-current]')) {
  const other = Array.from(current.closest('ul, ol').querySelectorAll(':scope > li > a:not([aria-current])'))[0];
  if (other && shown(current) && look(current) === look(other))
    problems.push('the current one looks like the others: ' + describe(current));
}

// A rank chart keeps its line and its labels: the line's stroke and the labels' fill are painted
// (not none, not transparent) in a colour other than the one the chart is drawn on.
const canvas = () => { const probe = document.createElement('span');
  probe.style.forcedColorAdjust = 'none'; probe.style.color = 'Canvas'; document.body.append(probe);
  const c = getComputedStyle(probe).color; probe.remove(); return c; };
const rgb = c => { const m = /^rgba?\(([^)]*)\)$/.exec(c); return m ? m[1].split(/[\s,\/]+/).slice(0, 3).map(Number).join(',') : null; };
const painted = (paint, on) => rgb(paint) !== null && alpha(paint) > 0 && rgb(paint) !== rgb(on);
for (const svg of document.querySelectorAll('svg.rank-chart-svg')) {
  if (!shown(svg)) continue;
  const on = fill(svg) === 'canvas' ? canvas() : fill(svg);
  const chart = svg.closest('figure') || svg;
  const lines = svg.querySelectorAll('.rank-chart-line');
  lines.forEach((line, i) => {
    const stroke = getComputedStyle(line).stroke;
    if (!painted(stroke, on))
      problems.push('chart line ' + (i + 1) + ' of ' + lines.length + ' is not visible (stroke ' + stroke + ' on ' + on + '): ' + describe(chart));
  });
  for (const text of svg.querySelectorAll('text')) {
    const paint = getComputedStyle(text).fill;
    if (shown(text) && !painted(paint, on))
      problems.push('a chart label is not visible (fill ' + paint + ' on ' + on + '): ' + describe(chart) + ' label "' + text.textContent.trim() + '"');
  }
}
return problems;
"""

# Focus every focusable element in turn (after one real Tab, so script focus counts as keyboard
# focus) and read its outline while it has focus. What a closed <details> folds away keeps its
# boxes but is not rendered, so it cannot take focus: it is checked on pages that open it.
_FOCUS_CHECK = r"""
const problems = [];
const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
  (el.classList.length ? '.' + Array.from(el.classList).join('.') : '') +
  ' "' + el.textContent.trim().replace(/\s+/g, ' ').slice(0, 40) + '"';
const alpha = c => { const m = /rgba\([^)]*,\s*([\d.]+)\)/.exec(c); return m ? parseFloat(m[1]) : (c === 'transparent' ? 0 : 1); };
const focusable = Array.from(document.querySelectorAll(
  'a[href], button, input:not([type=hidden]), select, textarea, details > summary:first-of-type, [tabindex]:not([tabindex="-1"])'))
  .filter(el => !el.disabled && el.getClientRects().length > 0 && el.checkVisibility());
let checked = 0;
for (const el of focusable) {
  el.focus({preventScroll: true});
  if (document.activeElement !== el) { problems.push('cannot take focus: ' + describe(el)); continue; }
  const s = getComputedStyle(el);
  if (!el.matches(':focus-visible')) problems.push('focus not marked visible: ' + describe(el));
  else if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2 || alpha(s.outlineColor) === 0)
    problems.push('no focus outline (' + s.outlineStyle + ' ' + s.outlineWidth + ' ' + s.outlineColor + '): ' + describe(el));
  checked++;
}
document.activeElement.blur();
return {problems, checked};
"""


def forced_colours_problems(browser: Browser) -> tuple[list[str], int]:
    problems = browser.js(_FORCED_COLOURS_CHECK)
    # Tab from the start of the main area (the skip link's target, focusable by script only).
    browser.js("document.getElementById('main').focus({preventScroll: true});")
    ActionChains(browser.driver).send_keys(Keys.TAB).perform()
    WebDriverWait(browser.driver, 5).until(
        lambda d: d.execute_script("return document.activeElement !== document.body && document.activeElement.matches(':focus-visible');"),
        "Tab did not move a visible focus into the page",
    )
    focus = browser.js(_FOCUS_CHECK)
    return problems + focus["problems"], focus["checked"]


# ---------------------------------------------------------------------------------------------
# The report, rewritten after every page so that a failing run leaves one too.

REPORT: dict[str, dict] = {}


def write_report() -> None:
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    pages = [REPORT[p.name] for p in PAGES if p.name in REPORT]
    rules = sorted({rule for page in pages for run in page["axe"] for rule in run["rules"]})
    versions = sorted({run["version"] for page in pages for run in page["axe"]})
    violations = sum(len(v["nodes"]) for page in pages for run in page["axe"] for v in run["violations"])
    other = sum(len(page[key]) for page in pages for key in ("reflow", "text_spacing", "forced_colors"))
    summary = {
        "axe_core": versions, "tags": AXE_TAGS, "widths": list(WIDTHS), "schemes": list(SCHEMES),
        "pages": len(pages), "axe_runs": sum(len(p["axe"]) for p in pages), "rules_run": rules,
        "violation_nodes": violations, "reflow_width": REFLOW_WIDTH, "text_spacing_widths": list(TEXT_SPACING_WIDTHS),
        "layout_and_forced_colour_problems": other,
    }
    compact = [{**page, "axe": [{k: v for k, v in run.items() if k != "rules"} | {"rules_run": len(run["rules"])}
                                for run in page["axe"]]} for page in pages]
    (REPORT_DIR / "report.json").write_text(json.dumps({"summary": summary, "pages": compact}, indent=2), encoding="utf-8")

    lines = [
        "# Accessibility report", "",
        f"axe-core {', '.join(versions)}, tags {', '.join(AXE_TAGS)}: {len(pages)} pages x {len(WIDTHS)} widths "
        f"x {len(SCHEMES)} schemes = {summary['axe_runs']} runs, {len(rules)} rules, {violations} violating nodes.",
        f"Reflow at {REFLOW_WIDTH} px, text spacing (WCAG 1.4.12) at {' and '.join(map(str, TEXT_SPACING_WIDTHS))} px, "
        f"forced colours at {WIDTHS[-1]} px: {other} problems.", "",
        "| page | path | " + " | ".join(f"{w} {s}" for w in WIDTHS for s in SCHEMES) + " | reflow | text spacing | forced colours | focus checked |",
        "|---|---|" + "---|" * (len(WIDTHS) * len(SCHEMES) + 4),
    ]
    for page in pages:
        cells = [str(sum(len(v["nodes"]) for v in run["violations"])) for run in page["axe"]]
        lines.append(f"| {page['name']} | `{page['path']}` | " + " | ".join(cells) +
                     f" | {len(page['reflow'])} | {len(page['text_spacing'])} | {len(page['forced_colors'])} | {page['focus_checked']} |")
    details = []
    for page in pages:
        for run in page["axe"]:
            for v in run["violations"]:
                details.append(f"- {page['name']} at {run['width']} px, {run['scheme']}: **{v['id']}** ({v['impact']}) {v['help']}")
                details += [f"  - `{', '.join(map(str, n['target']))}`: {n['summary'].splitlines()[-1].strip()}" for n in v["nodes"]]
        for key in ("reflow", "text_spacing", "forced_colors"):
            details += [f"- {page['name']}, {key.replace('_', ' ')}: {problem}" for problem in page[key]]
    lines += ["", "## Problems", ""] + (details or ["None."])
    # What axe could not decide (decorative symbols, a field partly off screen): listed, not failed.
    review: dict[tuple[str, str], set[str]] = {}
    for page in pages:
        for run in page["axe"]:
            for v in run["incomplete"]:
                for n in v["nodes"]:
                    reason = n["summary"].splitlines()[-1].strip()
                    review.setdefault((v["id"], reason), set()).add(f"{page['name']} `{', '.join(map(str, n['target']))}`")
    lines += ["", "## Needs review (axe incomplete)", ""]
    lines += [f"- **{rule}**: {reason} ({len(where)}): " + "; ".join(sorted(where)[:6]) + (" …" if len(where) > 6 else "")
              for (rule, reason), where in sorted(review.items())] or ["None."]
    lines += ["", "## Rules run", "", ", ".join(rules), ""]
    (REPORT_DIR / "report.md").write_text("\n".join(lines), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The test: one per page, every check on the page as loaded once.


@pytest.mark.parametrize("page", SELECTED, ids=[p.name for p in SELECTED])
def test_page_is_accessible(site: Site, page: Page) -> None:
    browser = site.browser
    if page.household:
        site.household  # the accounts exist before anyone becomes one of them
    site.become(page.role)
    emulate(browser, WIDTHS[-1])
    started = time.monotonic()
    page.open(site)
    opened = urlsplit(browser.driver.current_url)  # on the base URL, or the public URL for a link handed out
    path = opened.path + (f"?{opened.query}" if opened.query else "")
    entry = {"name": page.name, "path": re.sub(r"/(shared|reset)/[^/?#]+", r"/\1/{token}", path),
             "role": page.role or "signed out", "axe": [], "reflow": [], "text_spacing": [], "forced_colors": []}
    REPORT[page.name] = entry
    try:
        for width in WIDTHS:
            for scheme in SCHEMES:
                emulate(browser, width, scheme)
                result = run_axe(browser)
                entry["axe"].append({"width": width, "scheme": scheme, **result})

        emulate(browser, REFLOW_WIDTH)
        entry["reflow"] = overflow_problems(browser)
        for width in TEXT_SPACING_WIDTHS:
            emulate(browser, width)
            with_text_spacing(browser, True)
            entry["text_spacing"] += [f"at {width} px: {p}" for p in overflow_problems(browser)]
            with_text_spacing(browser, False)

        emulate(browser, WIDTHS[-1], "light", forced=True)
        browser.screenshot(f"{page.name}-forced-colors")
        entry["forced_colors"], entry["focus_checked"] = forced_colours_problems(browser)
    finally:
        entry.setdefault("focus_checked", 0)
        entry["seconds"] = round(time.monotonic() - started, 1)
        emulate(browser, WIDTHS[-1])
        write_report()

    found = [
        f"{run['width']} px {run['scheme']}: {v['id']} ({v['impact']}) {v['help']} at "
        + "; ".join(", ".join(map(str, n["target"])) for n in v["nodes"])
        for run in entry["axe"] for v in run["violations"]
    ]
    found += [f"reflow at {REFLOW_WIDTH} px: {p}" for p in entry["reflow"]]
    found += [f"text spacing {p}" for p in entry["text_spacing"]]
    found += [f"forced colours: {p}" for p in entry["forced_colors"]]
    assert entry["focus_checked"] > 0, f"{page.name}: no focusable element was checked"
    assert not found, f"{page.name} ({path}):\n" + "\n".join(found)
