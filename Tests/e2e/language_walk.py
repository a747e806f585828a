"""The household the language walk (test_languages_walk.py) reads every page of, made once through
the forms in English, and the walk's pages as data.

One server with the tests' pseudo-language on, mail on and single sign-on set up with a provider
that is down (a loopback port nothing listens on: its refusals are pages of ours). It started
twice: first a reader signed up with an address she confirmed, starred a list and asked for the
weekly digest, which the second start sent her, with its unsubscribe link; the second start's
setup link is spent once the owner is made an admin. The owner (an admin) has books on her
wishlist (one most wanted with a note), a birthday list with a share link, a child's profile she
manages, a starred list, a book read with stars and a review, one read now, a followed author, an
API token, a feed link and an invite; the giver shares too, reserved a book, bought another with a
card (which the owner then received) and suggested an idea; a guest reserved a book through the
share link; the admin made a reset link for the owner.
"""

from __future__ import annotations

import re
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from mail_server import MailServer, link_in
from support import REPO_ROOT, Browser, click, fill, follow, free_port, new_chromium, sample_list, sign_up, unique_username
from test_cli import BINARY
from test_first_week import setup_link
from test_gift_cycle import suggest_idea
from test_household import LIST, add_books, share_with_household
from test_mail import sign_up_with_address
from test_occasions import make_list

EARLIER_EDITION = "2026-11-08"  # an edition of LIST with one before it and one after it
# The owner's wishlist holds LIST's books 0 to 3 and the idea is book 5: she reads others.
READ, READING_NOW, UNSHELVED, IDEA = (sample_list(LIST).books[i] for i in (6, 7, 8, 5))
LIST_NAME = "Maya at 40"
TOKEN_NAME = "Haus"
OWNER_ADDRESS = "owner@example.com"  # saved, not confirmed
REVIEW = "Gripping from the first page."
# The day and month of the child's birthday, as the form takes them.
CHILD_BIRTHDAY = ("5", "4")
# The members' own words: a member's first list is named "Wishlist" when the account is made, hers
# to rename; the server's default borrowing link's name is the admin's (config: borrowLinks).
MEMBERS_WORDS = ("Bea", LIST_NAME, "Wishlist", "Hardback, please", "Happy birthday!", "For the train", "Aunt Rosa",
                 REVIEW, TOKEN_NAME, "Bestseller Wishlist", "WorldCat (libraries near you)", OWNER_ADDRESS)


@dataclass
class Household:
    base_url: str
    database: Path
    owner: str
    giver: str
    child: str  # her username, "~bea-…"
    items: list[str]  # the owner's wishlist, newest first
    list_id: str  # the owner's birthday list, LIST_NAME
    share_link: str  # the birthday list's, on the public URL
    cancel_link: str  # the guest's, made when the guest reserved
    reset_link: str  # the owner's, which the admin made
    author_path: str  # the author of READ, whom the owner follows
    reader: Reader  # the digest's reader, made at the first start
    setup_link: str  # the second start's, spent: the owner was made an admin
    smtp: MailServer
    cookies: dict[str, list[dict]] = field(default_factory=dict)

    def words(self) -> list[str]:
        """Members' words the pages show (book data is the sample catalog's)."""
        return [self.owner, self.giver, self.child, self.reader.name, *MEMBERS_WORDS]


@dataclass
class Reader:
    """A member with a confirmed address and the weekly digest, from the server's first start."""
    name: str
    confirmation_path: str  # her address's link, spent at the first start
    unsubscribe_link: str = ""  # the digest's, sent at the second start


@dataclass(frozen=True)
class Step:
    """A page of the walk: `path` opened as `role` (None: signed out), or, with `action`, the page
    an action there leads to (a link or token shown once, as it is made). `status`: an error page's."""
    name: str
    role: str | None
    path: str
    action: Callable[[Browser], None] | None = None
    status: int | None = None


def pages(h: Household) -> list[Step]:
    """Every page the e2e tests visit, as the household furnished it."""
    owner, item = h.owner, h.items[0]
    search_word = next(word for word in re.findall(r"[A-Za-z]{4,}", READ.title))
    return [
        # Signed out
        Step("sign-in", None, "/login"), Step("sign-up", None, "/signup"), Step("forgot", None, "/forgot"),
        Step("api", None, "/api/v1"), Step("shared-list", None, h.share_link), Step("guest-reservation", None, h.cancel_link),
        Step("reset", None, h.reset_link),
        Step("confirmation-used", None, h.reader.confirmation_path, status=410),
        Step("unsubscribe", None, h.reader.unsubscribe_link),
        Step("unsubscribed", None, h.reader.unsubscribe_link, lambda b: press(b, "unsubscribe-submit")),
        Step("setup-used", None, h.setup_link, status=410),
        Step("sso-refused", None, "/login?refused=sso-no-account"), Step("sso-unreachable", None, "/oidc/start", status=502),
        Step("sso-stale", None, "/oidc/callback?state=stale", status=400),
        # An address confirmed: each walk gives the giver a new one and opens its link.
        Step("address-confirmed", "giver", "/settings/email", lambda b: confirm_new_address(b, h.smtp)),
        # The catalog and the books
        Step("home", "owner", "/"), Step("lists", "owner", "/lists"), Step("list", "owner", f"/lists/{LIST}"),
        Step("earlier-edition", "owner", f"/lists/{LIST}?date={EARLIER_EDITION}"),
        Step("book-read", "owner", f"/books/{READ.isbn13}"), Step("book-reading-now", "owner", f"/books/{READING_NOW.isbn13}"),
        Step("book-wished", "owner", f"/books/{sample_list(LIST).books[0].isbn13}"),
        Step("book", "owner", f"/books/{UNSHELVED.isbn13}"),
        Step("search", "owner", "/search"), Step("search-results", "owner", f"/search?q={search_word}"),
        Step("search-nothing", "owner", "/search?q=zzqx"), Step("author", "owner", h.author_path),
        Step("add-a-book", "owner", "/books/new"), Step("books-read", "owner", "/reading"),
        Step("reading-form", "owner", f"/books/{READ.isbn13}/reading"),
        # The wishlist, People and gifts
        Step("wishlist", "owner", "/wishlist"), Step("wishlist-list", "owner", f"/wishlist?list={h.list_id}"),
        Step("item", "owner", f"/wishlist/{item}"), Step("remove", "owner", f"/wishlist/{item}/remove"),
        Step("received-confirm", "owner", f"/wishlist/{item}/received"), Step("received", "owner", "/wishlist/received"),
        Step("new-list", "owner", "/wishlist/lists/new"), Step("list-edit", "owner", f"/wishlist/lists/{h.list_id}"),
        Step("people", "owner", "/people"), Step("new-child", "owner", "/people/new-child"),
        Step("managers", "owner", f"/people/{h.child}/managers"), Step("child", "owner", f"/people/{h.child}"),
        Step("new-hand-over-link", "owner", f"/people/{h.child}/managers", lambda b: press(b, "hand-over-submit")),
        Step("hand-over", "owner", f"/people/{h.child}/managers", open_new_hand_over_link),
        Step("owners-gifts", "owner", "/reservations"),
        Step("member", "giver", f"/people/{owner}"), Step("member-list", "giver", f"/people/{owner}/lists/{h.list_id}"),
        Step("ideas", "giver", f"/people/{owner}/ideas"), Step("member-reading", "giver", f"/people/{owner}/reading"),
        Step("gifts", "giver", "/reservations"),
        # The welcome, Settings, the API's page and Admin, then what each makes and shows once
        Step("welcome", "owner", "/welcome"),
        *(Step(path.strip("/").replace("/", "-"), "owner", path) for path in (
            "/settings", "/settings/profile", "/settings/lists", "/settings/sharing", "/settings/email", "/settings/password",
            "/settings/sign-in", "/settings/api-tokens", "/settings/language", "/settings/data", "/api/v1", "/admin")),
        Step("new-api-token", "owner", "/settings/api-tokens", lambda b: make_api_token(b, TOKEN_NAME)),
        Step("new-share-link", "giver", "/settings/sharing", lambda b: press(b, "share-link-create")),
        Step("new-feed-link", "owner", "/settings/lists", lambda b: press(b, "feed-link-create")),
        Step("new-invite", "owner", "/admin", lambda b: press(b, "invite-create")),
        Step("new-reset-link", "owner", "/admin", lambda b: make_reset_link(b, h.giver)),
        # Error pages
        Step("no-such-page", "owner", "/no-such-page", status=404),
        Step("no-such-book", "owner", "/books/no-such-book", status=404),
        Step("no-such-page-signed-out", None, "/no-such-page", status=404),
    ]


# ---------------------------------------------------------------------------------------------
# Actions, found by id or place: the page's words are in another language.


def press(browser: Browser, button_id: str) -> None:
    follow(browser, browser.driver.find_element(By.ID, button_id))


def make_api_token(browser: Browser, name: str) -> None:
    fill(browser, "api-token-name", name)
    press(browser, "api-token-create")
    assert browser.driver.find_elements(By.ID, "new-api-token"), "no new token shown"


def confirm_new_address(browser: Browser, smtp: MailServer) -> None:
    """Gives the member a new address and opens the confirmation link mailed to it."""
    address = f"{unique_username('address')}@example.com"
    fill(browser, "email-address", address)
    press(browser, "email-submit")
    message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address)
    browser.driver.get(link_in(message, "/verify-email/"))
    browser.wait_for_load()


def open_new_hand_over_link(browser: Browser) -> None:
    """Makes a hand-over link on the child's Manage page and opens it, as she would: signed out
    (the link is on the public URL, where the manager's browser has no session)."""
    press(browser, "hand-over-submit")
    browser.driver.get(browser.driver.find_element(By.CSS_SELECTOR, "#hand-over-link input").get_attribute("value"))
    browser.wait_for_load()


def make_reset_link(browser: Browser, username: str) -> str:
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, f'#users tr[data-user="{username}"] form[action$="/reset-link"] button'))
    return browser.driver.find_element(By.ID, "new-link-url").get_attribute("value")


def signed_in(browser: Browser, household: Household, role: str | None) -> None:
    """The browser with `role`'s cookies, or none for None."""
    if not browser.driver.current_url.startswith(browser.base_url):
        browser.driver.get(browser.url("/healthz"))  # cookies are set for the page's host
    use_cookies(browser, household.cookies.get(role, []) if role else [])


def use_cookies(browser: Browser, cookies: list[dict]) -> None:
    browser.driver.delete_all_cookies()
    for cookie in cookies:
        browser.driver.add_cookie({k: v for k, v in cookie.items() if k != "domain"})


def promote(name: str, database: Path) -> None:
    done = subprocess.run([str(BINARY), "user", "promote", name, "--database", str(database)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------------------------------
# The household, made once through the forms, in English


def make_household(browser: Browser, base_url: str, database: Path, reader: Reader, setup: str, smtp: MailServer) -> Household:
    b, driver = browser, browser.driver
    owner, giver = unique_username("owner"), unique_username("giver")

    sign_up(b, owner)
    add_books(b, (4, 3, 2, 1))
    b.visit("/wishlist", "wishlist")
    items = [row.get_attribute("data-item") for row in driver.find_elements(By.CSS_SELECTOR, "#wishlist-items > li")]
    b.visit(f"/wishlist/{items[0]}", "item")
    driver.find_element(By.ID, "priority-high").click()
    fill(b, "note", "Hardback, please")
    press(b, "note-submit")
    share_with_household(b)
    list_id = make_list(b, LIST_NAME, "birthday", "household")
    b.visit(f"/wishlist/lists/{list_id}", "list-edit")
    press(b, "share-link-create")
    share_link = driver.find_element(By.ID, "share-link-url").get_attribute("value")
    for item in items[:2]:  # two books on the birthday list: one for the guest, one open
        b.visit(f"/wishlist/{item}", "item")
        box = driver.find_element(By.CSS_SELECTOR, f'#my-lists input[value="{list_id}"]')
        b.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", box)
        box.click()
        press(b, "my-lists-submit")
    b.visit("/people/new-child", "new-child")
    fill(b, "child-name", "Bea")
    Select(driver.find_element(By.ID, "birthday_month")).select_by_value(CHILD_BIRTHDAY[0])
    Select(driver.find_element(By.ID, "birthday_day")).select_by_value(CHILD_BIRTHDAY[1])
    press(b, "child-submit")
    child = b.path.removeprefix("/people/")
    author_path = read_books(b)
    promote(owner, database)
    b.visit("/settings/api-tokens", "api-tokens")
    make_api_token(b, TOKEN_NAME)
    b.visit("/settings/lists", "settings-lists")
    press(b, "feed-link-create")
    b.visit("/settings/email", "email")
    fill(b, "email-address", OWNER_ADDRESS)
    press(b, "email-submit")
    b.visit("/admin", "admin")
    press(b, "invite-create")
    reset_link = make_reset_link(b, owner)
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
    b.visit(f"/people/{owner}/ideas", "ideas")
    suggest_idea(b, owner, IDEA.isbn13, IDEA.title, "For the train", "idea")
    giver_cookies = driver.get_cookies()

    # The owner gets the bought book; a guest reserves the other book of the birthday list.
    use_cookies(b, owner_cookies)
    b.visit(f"/wishlist/{items[3]}/received", "received-confirm")
    press(b, "received-submit")
    driver.delete_all_cookies()
    driver.get(share_link)
    form = driver.find_element(By.CSS_SELECTOR, f'#shared-items > li[data-item="{items[1]}"] form.guest-reserve-form')
    form.find_element(By.CSS_SELECTOR, 'input[name="name"]').send_keys("Aunt Rosa")
    follow(b, form.find_element(By.CSS_SELECTOR, 'button[type="submit"]'))
    cancel_link = driver.find_element(By.ID, "guest-cancel-link").get_attribute("value")
    return Household(base_url, database, owner, giver, child, items, list_id, share_link, cancel_link, reset_link,
                     author_path, reader, setup, smtp, {"owner": owner_cookies, "giver": giver_cookies})


def read_books(b: Browser) -> str:
    """The owner stars LIST, reads READ with four stars and a review, reads READING_NOW now and
    follows READ's author, whose page's path she returns."""
    driver = b.driver
    b.visit(f"/lists/{LIST}", "list")
    follow(b, driver.find_element(By.CSS_SELECTOR, ".list-header form.favorite-form button"))
    b.visit(f"/books/{READ.isbn13}", "read-book")
    click(b, driver.find_element(By.ID, "rating-4"))
    driver.find_element(By.ID, "review").send_keys(REVIEW)
    press(b, "reading-submit")
    author_path = driver.find_element(By.CSS_SELECTOR, "#book .author-link").get_attribute("pathname")
    b.visit(f"/books/{READING_NOW.isbn13}", "reading-now-book")
    press(b, "reading-now-start")
    b.visit(author_path, "author")
    press(b, "follow-submit")
    return author_path


def make_reader(browser: Browser, smtp: MailServer) -> Reader:
    """At the first start: a member who confirms her address, stars LIST and asks for the digest."""
    b, name = browser, unique_username("reader")
    address = f"{name}@example.com"
    sign_up_with_address(b, name, address)
    message = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == address and m["Subject"] == "Confirm your e-mail address")
    link = link_in(message, "/verify-email/")
    b.driver.get(link)
    assert b.driver.find_elements(By.ID, "verified-message"), "the reader's address was not confirmed"
    b.visit(f"/lists/{LIST}", "list")
    follow(b, b.driver.find_element(By.CSS_SELECTOR, ".list-header form.favorite-form button"))
    b.visit("/settings/email", "email")
    b.driver.find_element(By.ID, "digest-weekly").click()
    press(b, "digest-submit")
    b.driver.delete_all_cookies()
    return Reader(name, link[link.index("/verify-email/"):])


@contextmanager
def household_on(configured_server, workdir: Path) -> Iterator[Household]:
    """The household on a server with the pseudo-language and mail on (the forgotten-password and
    e-mail pages are there only with mail), against a local SMTP server, and single sign-on with
    its provider down. The server starts twice, as an upgrade or a reboot would: the weekly digest
    goes out when it starts."""
    (workdir / "smtp").mkdir()
    with MailServer(workdir / "smtp") as smtp:
        provider = f"http://localhost:{free_port()}"  # bound, never listening: the provider is down
        settings = {
            "server": {"pseudoLanguage": True}, "mail": smtp.settings(),
            "accounts": {"oidc": {"issuer": provider, "clientID": "wishlist-e2e", "clientSecret": "e2e-secret"}},
        }
        driver = new_chromium()
        try:
            with configured_server("languages-walk", settings, workdir=workdir) as base_url:
                reader = make_reader(Browser(driver, base_url, "languages-walk-reader"), smtp)
            with configured_server("languages-walk", settings, workdir=workdir) as base_url:
                digest = smtp.wait_for(lambda m: m["To"].addresses[0].addr_spec == f"{reader.name}@example.com" and m["Subject"] == "Your week in books")
                reader.unsubscribe_link = digest["List-Unsubscribe"].strip("<>")
                link = setup_link(workdir / "server.log")
                made = make_household(Browser(driver, base_url, "languages-walk-household"), base_url, workdir / "e2e.sqlite", reader, link, smtp)
                driver.quit()
                driver = None
                yield made
        finally:
            if driver:
                driver.quit()
