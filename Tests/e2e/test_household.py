"""The household in a real browser: shared wishlists, secret gift reservations, priorities, share links.

Each story signs up its own accounts through the form, each person in a Chromium of their own (so
every session is separate): an owner who shares, and givers who reserve. The owner's pages are
fetched with the owner's cookies before and after the reservations and must not differ by a byte
(the CSRF token aside). The share link is opened in a fresh Chromium that has never signed in.
"""

from __future__ import annotations

import re
from contextlib import ExitStack, contextmanager
from typing import Iterator
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from support import (  # _navigates: waits for the page a key press leads to, as `follow` does for a click
    DEFAULT_WINDOW, Browser, _navigates, fold, follow, heading, http_get, inline_styles_and_scripts, new_chromium,
    page_structure_problems, sign_up, signed_in_as, text_of, unique_username, visible_text,
)

LIST = "hardcover-fiction"  # the sample's long weekly list, every row with "Add to wishlist"
CONFLICT = 409  # reserving a book someone else reserved
_CSRF_VALUE = re.compile(rb'(name="csrf_token" value=")[^"]*(")')


# ---------------------------------------------------------------------------------------------
# Helpers


@contextmanager
def another_browser(server: str, name: str) -> Iterator[Browser]:
    """A second (third...) Chromium with its own cookies, for another person in the same story."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        session = Browser(driver, server, name)
        session.resize(*DEFAULT_WINDOW)
        yield session
    finally:
        driver.quit()


def flash_text(browser: Browser) -> str:
    found = browser.driver.find_elements(By.ID, "flash")
    assert found, f"no confirmation on {browser.driver.current_url}"
    return text_of(found[0])


def rows(browser: Browser, container: str) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, f"#{container} > li.wishlist-item")


def row_title(row: WebElement) -> str:
    return text_of(row.find_element(By.CSS_SELECTOR, ".book-title"))


def row_by_id(browser: Browser, container: str, item: str) -> WebElement:
    found = browser.driver.find_elements(By.CSS_SELECTOR, f'#{container} > li.wishlist-item[data-item="{item}"]')
    shown = [r.get_attribute("data-item") for r in rows(browser, container)]
    assert len(found) == 1, f"expected item {item} once in #{container} on {browser.path}, found {shown}"
    return found[0]


def priority_of(row: WebElement) -> str:
    return text_of(row.find_element(By.CSS_SELECTOR, ".priority-tag"))


def reservation_state(row: WebElement) -> str:
    """What a giver sees on a row: "open" (a Reserve button), "you" (and Cancel), or "Reserved by NAME"."""
    reserve = row.find_elements(By.CSS_SELECTOR, "form.reserve-form")
    mine = row.find_elements(By.CSS_SELECTOR, "p.reserved-by-you")
    cancel = row.find_elements(By.CSS_SELECTOR, "form.cancel-reservation-form")
    other = row.find_elements(By.CSS_SELECTOR, "p.reserved-by-other")
    shown = len(reserve) + len(mine) + len(other)
    assert shown == 1, f"a row shows {shown} reservation states: {text_of(row)!r}"
    if reserve:
        assert not cancel
        button = reserve[0].find_element(By.CSS_SELECTOR, 'button[type="submit"]')
        assert text_of(button).startswith("Reserve as a gift"), text_of(button)
        return "open"
    if mine:
        assert text_of(mine[0]).endswith("Reserved by you"), text_of(mine[0])
        assert len(cancel) == 1, "a book reserved by you has no Cancel reservation button"
        assert text_of(cancel[0].find_element(By.CSS_SELECTOR, "button")).startswith("Cancel reservation")
        return "you"
    assert not cancel, "someone else's reservation offers a Cancel button"
    return text_of(other[0])


def reserve(browser: Browser, row: WebElement, shot: str) -> None:
    follow(browser, row.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), shot)


def reserve_with_keyboard(browser: Browser, row: WebElement, shot: str) -> None:
    """Tabs from the top of the page to the row's Reserve button (its focus visible) and presses Enter."""
    button = row.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]')
    keys = ActionChains(browser.driver)
    for _ in range(60):
        keys.send_keys(Keys.TAB).perform()
        if browser.js("return document.activeElement === arguments[0];", button):
            break
    else:
        pytest.fail(f"60 Tabs never reached the Reserve button of {row_title(row)!r}")
    outline = browser.js("const s = getComputedStyle(arguments[0]); return [s.outlineStyle, parseFloat(s.outlineWidth)];", button)
    assert outline[0] != "none" and outline[1] >= 2, f"the focused Reserve button shows no outline: {outline}"
    browser.screenshot(f"{shot}-focused")
    _navigates(browser, lambda: keys.send_keys(Keys.ENTER).perform())
    browser.screenshot(shot)


def add_books(browser: Browser, ranks: tuple[int, ...]) -> None:
    """Presses "Add to wishlist" on the rows of LIST ranked `ranks`, in that order."""
    browser.visit(f"/lists/{LIST}", "list")
    for rank in ranks:
        row = browser.driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-rank="{rank}"]')
        follow(browser, row.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]'), f"added-{rank}")
        assert "Added" in flash_text(browser), flash_text(browser)


def wishlist_items(browser: Browser) -> dict[str, str]:
    """The owner's wishlist as {item id: title}, newest first."""
    browser.visit("/wishlist", "wishlist")
    return {row.get_attribute("data-item"): row_title(row) for row in rows(browser, "wishlist-items")}


def book_path_of(browser: Browser, item: str) -> str:
    """The catalog page of the book behind the owner's wishlist item, from the item's page."""
    browser.visit(f"/wishlist/{item}", f"item-{item}")
    return urlsplit(browser.driver.find_element(By.ID, "book-link").get_attribute("href")).path


def set_priority(browser: Browser, item: str, priority: str, note: str = "") -> None:
    browser.visit(f"/wishlist/{item}", f"item-{item}")
    browser.driver.find_element(By.ID, f"priority-{priority}").click()
    if note:
        field = browser.driver.find_element(By.ID, "note")
        field.clear()
        field.send_keys(note)
    follow(browser, browser.driver.find_element(By.ID, "note-submit"), f"priority-{priority}")
    assert browser.path == f"/wishlist/{item}", browser.driver.current_url
    assert browser.driver.find_element(By.ID, f"priority-{priority}").is_selected()


def share_with_household(browser: Browser) -> None:
    browser.visit("/settings/sharing", "settings")
    private = browser.driver.find_element(By.ID, "sharing-private")
    assert private.is_selected(), "a new account's wishlist is not private"
    household = browser.driver.find_element(By.ID, "sharing-household")
    assert household.get_attribute("name") == "sharing" and household.get_attribute("value") == "household"
    assert household.accessible_name.strip() == "Everyone on this server", household.accessible_name
    # Scrolled to first without animation, or on a short window the click lands on whatever
    # glides under the pointer.
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", household)
    household.click()
    follow(browser, browser.driver.find_element(By.ID, "sharing-submit"), "shared")
    assert browser.path == "/settings/sharing", browser.driver.current_url
    assert "shared with everyone on this server" in flash_text(browser), flash_text(browser)
    assert browser.driver.find_element(By.ID, "sharing-household").is_selected()


def open_member(browser: Browser, owner: str, shot: str) -> str:
    """People in the navigation, then the owner's name; returns the count People showed beside it."""
    follow(browser, browser.driver.find_element(By.ID, "nav-people"), f"{shot}-people")
    assert browser.path == "/people", browser.driver.current_url
    people = browser.driver.find_elements(By.CSS_SELECTOR, f'#people-list li.person[data-person="{owner}"] a.person-link')
    assert len(people) == 1, f"{owner} is not listed once under People"
    count = text_of(browser.driver.find_element(By.CSS_SELECTOR, f'li.person[data-person="{owner}"] .person-count'))
    follow(browser, people[0], shot)
    assert browser.path == f"/people/{owner}", browser.driver.current_url
    return count


def owner_view(browser: Browser, paths: list[str]) -> dict[str, tuple[int, str, bytes]]:
    """Status, type and body of every page, fetched with the owner's cookies, the CSRF token masked."""
    view = {}
    for path in paths:
        status, headers, body = browser.fetch(path)
        view[path] = (status, headers.get("content-type", ""), _CSRF_VALUE.sub(rb"\1-\2", body))
    return view


def first_difference(before: bytes, after: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    return f"at byte {at}: {before[max(0, at - 120):at + 120]!r} became {after[max(0, at - 120):at + 120]!r}"


def assert_well_made(browser: Browser, what: str) -> None:
    """What every page of the app gets right: structure, no inline styles or scripts, no sideways scroll."""
    problems = page_structure_problems(browser)
    assert problems == [], f"{what}: {problems}"
    assert inline_styles_and_scripts(browser) == [], f"{what} has inline styles or scripts, which the CSP blocks"
    assert browser.horizontal_overflow() <= 0, f"{what} scrolls sideways"


def assert_fits_a_phone(browser: Browser, pages: dict[str, str], width: int = 360) -> None:
    """Each page ({screenshot name: path}) fits `width` px without scrolling sideways, its buttons big enough."""
    browser.resize(width, 800)
    try:
        for name, path in pages.items():
            browser.visit(path, f"{name}-{width}px")
            assert browser.horizontal_overflow() <= 0, f"{path} scrolls sideways at {width} px"
            # Buttons and the names under People (the way into each list) 44 px tall, as on every other page.
            for selector, least in (("main .reservation-actions button, main .gift-notice button, #gifts-link, a.person-link", 44),):
                # Controls folded inside a closed <details> (a card's form) are not on the page until opened.
                shown = [c for c in browser.driver.find_elements(By.CSS_SELECTOR, selector) if c.is_displayed()]
                for control in shown[:8]:
                    what = f"{path}: {control.tag_name} {text_of(control)[:40]!r}"
                    browser.assert_in_viewport(control, what)
                    assert control.rect["height"] >= least, f"{what} is {control.rect['height']} px tall, too small to tap"
    finally:
        browser.resize(*DEFAULT_WINDOW)


# ---------------------------------------------------------------------------------------------
# The stories


def test_two_givers_reserve_and_the_owner_never_knows(browser: Browser, server: str) -> None:
    owner_browser = browser
    owner = unique_username("owner")
    giver_a, giver_b = unique_username("giver-a"), unique_username("giver-b")
    with ExitStack() as stack:
        a = stack.enter_context(another_browser(server, f"{browser.test_name}-giver-a"))
        b = stack.enter_context(another_browser(server, f"{browser.test_name}-giver-b"))

        # The owner wishes for three books; the oldest is the one most wanted.
        sign_up(owner_browser, owner)
        add_books(owner_browser, (3, 2, 1))
        items = wishlist_items(owner_browser)
        assert len(items) == 3, items
        newest, middle, oldest = list(items)
        set_priority(owner_browser, oldest, "high")
        owner_browser.visit("/wishlist?sort=priority", "wishlist-by-priority")
        by_priority = rows(owner_browser, "wishlist-items")
        assert [r.get_attribute("data-item") for r in by_priority] == [oldest, newest, middle]
        assert [priority_of(r) for r in by_priority] == ["High priority", "Normal priority", "Normal priority"]

        # Until the owner shares, a giver finds nothing: not under People, and 404 at the address.
        sign_up(a, giver_a)
        a.visit("/people", "people-before-sharing")
        assert not a.driver.find_elements(By.CSS_SELECTOR, f'li.person[data-person="{owner}"]')
        a.visit(f"/people/{owner}", "private-member", expect_status=404)
        assert "404" in heading(a), heading(a)
        assert not any(title in a.driver.page_source for title in items.values())

        share_with_household(owner_browser)
        # A share link, where a guest will reserve too (issue 57); the owner opens it as well.
        owner_browser.visit("/settings/sharing", "settings")
        follow(owner_browser, owner_browser.driver.find_element(By.ID, "share-link-create"), "link-made")
        share_link = owner_browser.driver.find_element(By.ID, "share-link-url").get_attribute("value")
        share_path = "/shared/" + share_link.rsplit("/shared/", 1)[1]
        owner_paths = [
            "/wishlist", "/wishlist?sort=priority", "/wishlist?sort=title", "/wishlist.csv",
            *(f"/wishlist/{item}" for item in items), *(f"/wishlist/{item}/remove" for item in items),
            "/people", f"/people/{owner}", share_path,
            # Each book's page, which tells a giver who here wants it (issue 57), never her.
            *(book_path_of(owner_browser, item) for item in items),
        ]
        before = owner_view(owner_browser, owner_paths)
        assert all(before[path][0] == 200 for path in owner_paths), {path: view[0] for path, view in before.items()}
        assert before["/wishlist"][2].count(b'class="book wishlist-item"') == 3, "the owner's wishlist shows no books to compare"
        assert before["/wishlist.csv"][1].startswith("text/csv")

        # Giver A finds the owner under People, with the count, and sees the list most wanted first.
        assert open_member(a, owner, "member-a") == "3 books"
        assert heading(a) == owner, heading(a)
        wishlist_heading = a.driver.find_element(By.ID, "wishlist-heading").text
        assert wishlist_heading.startswith(f"{owner}’s wishlist") and "3 books" in wishlist_heading, wishlist_heading
        member_rows = rows(a, "member-items")
        assert [r.get_attribute("data-item") for r in member_rows] == [oldest, newest, middle]
        assert priority_of(member_rows[0]) == "High priority"
        assert [reservation_state(r) for r in member_rows] == ["open", "open", "open"]
        assert not a.driver.find_elements(By.CSS_SELECTOR, 'a[href*="/remove"], #note-form'), "a giver can edit the owner's list"
        assert_well_made(a, f"/people/{owner}")

        # Giver B opens the same page before A reserves anything (a page B keeps open).
        sign_up(b, giver_b)
        open_member(b, owner, "member-b-stale")
        assert reservation_state(row_by_id(b, "member-items", newest)) == "open"

        # A reserves the newest book: back on the list, told so, the row marked.
        reserve(a, row_by_id(a, "member-items", newest), "reserved-a")
        assert a.path == f"/people/{owner}", a.driver.current_url
        said = flash_text(a)
        assert f"You reserved “{items[newest]}” as a gift for {owner}" in said, said
        assert reservation_state(row_by_id(a, "member-items", newest)) == "you"
        assert reservation_state(row_by_id(a, "member-items", oldest)) == "open"

        # B presses Reserve on the stale page: refused (409) with Owner's list again, the book's card
        # naming A; nothing changes.
        b.allow_failed_load(b.url("/reservations"), CONFLICT)
        reserve(b, row_by_id(b, "member-items", newest), "reserve-taken")
        assert b.path == "/reservations", b.driver.current_url
        assert heading(b) == owner, heading(b)
        said = text_of(row_by_id(b, "member-items", newest).find_element(By.ID, "flash"))
        assert said == f"Already reserved by {giver_a} — pick another.", said
        assert reservation_state(row_by_id(b, "member-items", newest)) == f"Reserved by {giver_a}"
        b.visit("/reservations", "gifts-b-none")
        assert b.driver.find_elements(By.ID, "gifts-empty"), "the refused reservation was kept for B"
        a.visit("/reservations", "gifts-a-one")
        assert "1 book" in text_of(a.driver.find_element(By.ID, "gifts-total"))
        gift_rows = a.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.wishlist-item")
        assert [r.get_attribute("data-item") for r in gift_rows] == [newest]
        assert reservation_state(gift_rows[0]) == "you"
        group_link = a.driver.find_element(By.CSS_SELECTOR, "section.gift-group h2 a")
        assert text_of(group_link) == owner and urlsplit(group_link.get_attribute("href")).path == f"/people/{owner}"
        follow(a, group_link, "member-a-open")  # A keeps the list open while B reserves

        # B sees A's reservation by name, without a Reserve button, and reserves another book.
        open_member(b, owner, "member-b")
        assert reservation_state(row_by_id(b, "member-items", newest)) == f"Reserved by {giver_a}"
        reserve_with_keyboard(b, row_by_id(b, "member-items", oldest), "reserved-b")
        assert f"You reserved “{items[oldest]}” as a gift for {owner}" in flash_text(b)
        assert reservation_state(row_by_id(b, "member-items", oldest)) == "you"
        assert reservation_state(row_by_id(b, "member-items", middle)) == "open"

        # A's page, opened before that, still offers it: refused the same way, naming B.
        assert reservation_state(row_by_id(a, "member-items", oldest)) == "open"
        a.allow_failed_load(a.url("/reservations"), CONFLICT)
        reserve(a, row_by_id(a, "member-items", oldest), "reserve-taken-a")
        said = text_of(row_by_id(a, "member-items", oldest).find_element(By.ID, "flash"))
        assert said == f"Already reserved by {giver_b} — pick another.", said

        # ...and, reloaded, shows B's reservation by name; A's gifts are what they were.
        a.visit(f"/people/{owner}", "member-a-after")
        assert reservation_state(row_by_id(a, "member-items", oldest)) == f"Reserved by {giver_b}"
        assert reservation_state(row_by_id(a, "member-items", newest)) == "you"
        assert reservation_state(row_by_id(a, "member-items", middle)) == "open"
        a.visit("/reservations", "gifts-a-still-one")
        assert [r.get_attribute("data-item") for r in a.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.wishlist-item")] == [newest]

        # A guest without an account reserves the last one on the share link; the givers see their name.
        guest = stack.enter_context(another_browser(server, f"{browser.test_name}-guest"))
        guest.visit(share_path, "shared")
        guest.driver.find_element(By.ID, f"guest-name-{middle}").send_keys("Grandpa")
        follow(guest, row_by_id(guest, "shared-items", middle).find_element(By.CSS_SELECTOR, "form.guest-reserve-form button"), "guest-reserved")
        assert guest.driver.find_elements(By.ID, "guest-cancel-link"), "no cancel link after the guest reserved"
        a.visit(f"/people/{owner}", "member-a-guest")
        assert reservation_state(row_by_id(a, "member-items", middle)) == "Reserved by Grandpa (guest)"

        # The owner's pages, counts, CSV and statuses are what they were, byte for byte.
        after = owner_view(owner_browser, owner_paths)
        for path in owner_paths:
            assert before[path][:2] == after[path][:2], f"{path}: {before[path][:2]} became {after[path][:2]}"
            assert before[path][2] == after[path][2], f"{path} changed after the reservations {first_difference(before[path][2], after[path][2])}"
        assert b"Grandpa" not in b"".join(view[2] for view in after.values())
        owner_browser.visit("/wishlist", "owner-after-reservations")
        assert "reserved" not in fold(owner_browser.driver.find_element(By.TAG_NAME, "main").text)
        owner_browser.visit(f"/people/{owner}", "owner-own-member-page")
        assert owner_browser.path == "/wishlist", "the owner's own People page does not lead to the wishlist"

        # The owner removes the book A reserved; A is told on Gifts I'm giving, until dismissing it.
        owner_browser.visit(f"/wishlist/{newest}/remove", "remove-confirm")
        follow(owner_browser, owner_browser.driver.find_element(By.ID, "remove-submit"), "removed")
        assert owner_browser.path == "/wishlist"
        assert newest not in [r.get_attribute("data-item") for r in rows(owner_browser, "wishlist-items")]

        follow(a, a.driver.find_element(By.ID, "nav-people"), "people-a")
        follow(a, a.driver.find_element(By.ID, "gifts-link"), "gifts-a-notice")
        assert a.path == "/reservations", a.driver.current_url
        notices = a.driver.find_elements(By.CSS_SELECTOR, "#gift-notices li.gift-notice")
        assert len(notices) == 1, [text_of(n) for n in notices]
        assert text_of(notices[0].find_element(By.TAG_NAME, "p")) == f"{owner} removed “{items[newest]}” from their list."
        assert not a.driver.find_elements(By.CSS_SELECTOR, "section.gift-group"), "the removed book is still listed as a gift"
        assert_well_made(a, "/reservations with a notice")
        dismiss = notices[0].find_element(By.CSS_SELECTOR, 'button[type="submit"]')
        assert visible_text(a, dismiss) == "Dismiss" and fold(items[newest]) in fold(dismiss.accessible_name)
        follow(a, dismiss, "gifts-a-dismissed")
        assert a.path == "/reservations", a.driver.current_url
        assert not a.driver.find_elements(By.CSS_SELECTOR, "#gift-notices, li.gift-notice"), "the dismissed notice is still shown"
        assert a.driver.find_elements(By.ID, "gifts-empty")
        a.visit("/reservations", "gifts-a-again")
        assert not a.driver.find_elements(By.CSS_SELECTOR, "li.gift-notice"), "the dismissed notice came back"

        # B is not told anything, and still gives the book B reserved.
        b.visit("/reservations", "gifts-b")
        assert not b.driver.find_elements(By.CSS_SELECTOR, "li.gift-notice"), "B was told about A's gift"
        assert [r.get_attribute("data-item") for r in b.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.wishlist-item")] == [oldest]
        b.visit(f"/people/{owner}", "member-b-after-removal")
        assert [r.get_attribute("data-item") for r in rows(b, "member-items")] == [oldest, middle]
        assert_well_made(b, f"/people/{owner}")

        assert_fits_a_phone(b, {"people": "/people", "member": f"/people/{owner}", "gifts": "/reservations"})
        for session in (owner_browser, a, b):
            session.assert_no_console_errors()


def test_share_link_for_someone_without_an_account(browser: Browser, server: str, public_url: str) -> None:
    owner = unique_username("sharer")
    giver = unique_username("giver")
    note = "Paperback is fine — “any edition”"
    with ExitStack() as stack:
        # The owner wishes for two books, one of them most wanted, with a note, and shares them.
        sign_up(browser, owner)
        add_books(browser, (2, 1))
        items = wishlist_items(browser)
        newest, oldest = list(items)
        set_priority(browser, oldest, "high", note)
        share_with_household(browser)

        # A giver reserves one, so there is a reservation the share link must not show.
        g = stack.enter_context(another_browser(server, f"{browser.test_name}-giver"))
        sign_up(g, giver)
        g.visit(f"/people/{owner}", "member")
        reserve(g, row_by_id(g, "member-items", newest), "reserved")
        assert reservation_state(row_by_id(g, "member-items", newest)) == "you"

        # The owner makes a link: shown once, on the page the form answers with.
        browser.visit("/settings/sharing", "settings-before-link")
        assert not browser.driver.find_elements(By.ID, "share-link-revoke"), "a revoke button before there is a link"
        assert not browser.driver.find_elements(By.ID, "share-link-url")
        follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "link-made")
        field = browser.driver.find_element(By.ID, "share-link-url")
        assert field.get_attribute("readonly") is not None and field.accessible_name, "the new link is not a labelled, read-only field"
        link = field.get_attribute("value")
        # The link is on the server's public URL (`server.publicURL`), never on the host the page was
        # asked for: the page, as the browser has it, is at the base URL (127.0.0.1), the link it
        # shows on localhost.
        origin, shown = browser.js("return [location.origin, document.getElementById('share-link-url').value];")
        assert origin == server and shown.startswith(public_url + "/shared/"), (origin, shown)
        assert urlsplit(link).netloc == urlsplit(public_url).netloc != urlsplit(server).netloc, link
        assert re.fullmatch(re.escape(public_url + "/shared/") + r"[A-Za-z0-9_-]{40,}", link), link
        browser.visit("/settings/sharing", "settings-with-link")
        assert not browser.driver.find_elements(By.ID, "share-link-url"), "the link is shown again after the page is left"
        assert link not in browser.driver.page_source
        assert browser.driver.find_element(By.ID, "share-link-revoke").is_displayed()

        # A fresh browser, never signed in, opens it as given (on the public URL, the same server):
        # titles, priority and note; the reservation is "Reserved", naming no one (issue 57).
        guest = stack.enter_context(another_browser(server, f"{browser.test_name}-guest"))
        assert guest.driver.get_cookies() == []
        guest.visit(link, "shared-list")
        assert guest.driver.current_url == link, guest.driver.current_url
        assert signed_in_as(guest) is None
        assert heading(guest).startswith(f"{owner}’s wishlist") and "2 books" in heading(guest), heading(guest)
        shared = rows(guest, "shared-items")
        assert [fold(row_title(r)) for r in shared] == [fold(items[oldest]), fold(items[newest])], "not most wanted first"
        assert [priority_of(r) for r in shared] == ["High priority", "Normal priority"]
        assert note in text_of(shared[0].find_element(By.CSS_SELECTOR, ".item-note"))
        assert giver not in guest.driver.page_source, "the share link names the giver"
        assert text_of(shared[1].find_element(By.CSS_SELECTOR, ".reserved-mark")) == "Reserved"
        assert not shared[0].find_elements(By.CSS_SELECTOR, ".reserved-mark")
        assert not guest.driver.find_elements(By.CSS_SELECTOR, "form.reserve-form, form.cancel-reservation-form")
        assert len(guest.driver.find_elements(By.CSS_SELECTOR, "form.guest-reserve-form")) == 1, "a guest may reserve the open one"
        assert not guest.driver.find_elements(By.CSS_SELECTOR, "#shared-items a[href^='/wishlist']"), "links into the owner's pages"
        robots = guest.driver.find_elements(By.CSS_SELECTOR, 'meta[name="robots"]')
        assert [m.get_attribute("content") for m in robots] == ["noindex"]
        assert_well_made(guest, "the shared list")
        status, headers, _ = http_get(link)
        assert status == 200 and headers.get("referrer-policy") == "no-referrer", (status, headers)
        assert_fits_a_phone(guest, {"shared-list": link})

        # Replacing the link: the new one works, the old one is gone.
        browser.visit("/settings/sharing", "settings-replace")
        follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "link-replaced")
        replacement = browser.driver.find_element(By.ID, "share-link-url").get_attribute("value")
        assert replacement != link and replacement.startswith(public_url + "/shared/"), replacement
        assert http_get(replacement)[0] == 200
        guest.visit(link, "old-link", expect_status=404)
        assert "404" in heading(guest), heading(guest)
        assert owner not in guest.driver.page_source and items[oldest] not in guest.driver.page_source

        # Revoking: the link answers 404, with the same private headers.
        browser.visit("/settings/sharing", "settings-revoke")
        follow(browser, browser.driver.find_element(By.ID, "share-link-revoke"), "link-revoked")
        assert browser.path == "/settings/sharing", browser.driver.current_url
        assert "no longer works" in flash_text(browser), flash_text(browser)
        assert not browser.driver.find_elements(By.ID, "share-link-revoke")
        guest.visit(replacement, "revoked-link", expect_status=404)
        assert "404" in heading(guest), heading(guest)
        assert items[oldest] not in guest.driver.page_source
        status, headers, _ = http_get(replacement)
        assert status == 404 and headers.get("referrer-policy") == "no-referrer", (status, headers)
        assert http_get(browser.url("/shared/" + "A" * 43))[0] == 404

        for session in (browser, g, guest):
            session.assert_no_console_errors()
