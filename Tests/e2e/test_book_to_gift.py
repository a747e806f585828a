"""From a book to a gift in one step (issue 57, item 6) in real browsers, at 360 px and 1280 px.

A giver opens a book's page and finds who here wants it, with Reserve beside each name; pressing it
reserves the gift and comes back to the same book, the confirmation on that person's row and in
focus. The owner's own page of the book names nobody. A member's page on a phone shows her first
wished-for book on the first screen: her bio folds under "About …".
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import DEFAULT_WINDOW, Browser, follow, sign_up, text_of, unique_username
from test_first_week import WIDTHS, _overlap
from test_household import add_books, another_browser, book_path_of, share_with_household, wishlist_items
from test_rating_tap import accessibility_problems_here, on_screen

_WANT_BOXES = """
const box = (element) => { const r = element.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
return Array.from(document.querySelectorAll('#giver-wants > li.giver-want')).map((row) => ({
  name: box(row.querySelector('.giver-want-name')),
  controls: Array.from(row.querySelectorAll('button, .reserved-mark')).filter((c) => c.getClientRects().length > 0).map(box),
}));
"""


def _named_wanters(browser: Browser) -> list[str]:
    """Who the book page names as wanting it. Other tests' members on this session's server may
    want the same book, so a test looks for its own member's row among them."""
    return [text_of(a) for a in browser.driver.find_elements(By.CSS_SELECTOR, "#giver-wants > li.giver-want .giver-want-name a")]


def test_a_book_page_names_who_wants_it_with_reserve_beside_each_at_360_and_1280(browser: Browser, server: str) -> None:
    owner = unique_username("wanter")
    sign_up(browser, owner)
    share_with_household(browser)
    add_books(browser, (1,))
    (item,) = wishlist_items(browser)
    book = book_path_of(browser, item)
    browser.visit(book, "book-owner")
    assert owner not in _named_wanters(browser), "the owner's own want is on her page of the book"

    with another_browser(server, f"{browser.test_name}-giver") as giver:
        sign_up(giver, unique_username("giver"))
        for width in WIDTHS:
            giver.resize(width, 800)
            giver.visit(book, f"book-givers-{width}px")
            wants = giver.driver.find_elements(By.CSS_SELECTOR, "#giver-wants > li.giver-want")
            names = _named_wanters(giver)
            assert names.count(owner) == 1, names
            button = wants[names.index(owner)].find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]')
            assert button.rect["height"] >= 44, f"Reserve is {button.rect['height']} px tall at {width} px"
            for row in giver.js(_WANT_BOXES):
                for control in row["controls"]:
                    assert _overlap(row["name"], control) <= 0.5, f"at {width} px a control covers {owner}'s name"
        assert accessibility_problems_here(giver, "a book page with who wants it") == []

        giver.resize(360, 800)
        giver.visit(book, "book-givers-before-reserve")
        want = giver.driver.find_element(By.ID, f"item-{item}")
        follow(giver, want.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "book-givers-reserved")
        assert giver.path == book, giver.driver.current_url
        want = giver.driver.find_element(By.ID, f"item-{item}")
        flash = want.find_element(By.ID, "flash")
        assert "You reserved" in text_of(flash), text_of(flash)
        assert giver.js("return document.activeElement && document.activeElement.id") == "flash", "the confirmation does not take focus"
        assert on_screen(giver, flash), "the confirmation on the row is off the screen the page opened on"
        assert "Reserved by you" in text_of(want)
        assert accessibility_problems_here(giver, "a book page after reserving from it") == []
        giver.resize(*DEFAULT_WINDOW)

    # And the owner's page of it is what it was: nothing of the reservation.
    browser.visit(book, "book-owner-after")
    assert owner not in _named_wanters(browser)


def test_a_members_first_book_is_on_a_phones_first_screen(browser: Browser, server: str) -> None:
    owner = unique_username("mum")
    sign_up(browser, owner)
    share_with_household(browser)
    add_books(browser, (1, 2))
    browser.visit("/settings/profile", "profile-form")
    bio = "Mostly crime novels on the train, a saga at Christmas, and whatever my sister lends me. " * 3
    browser.driver.find_element(By.ID, "bio").send_keys(bio.strip())
    follow(browser, browser.driver.find_element(By.ID, "profile-submit"), "profile-saved")

    with another_browser(server, f"{browser.test_name}-giver") as giver:
        sign_up(giver, unique_username("giver"))
        giver.resize(360, 640)
        giver.visit(f"/people/{owner}", "member-360x640")
        _, height = giver.viewport()
        first = giver.driver.find_element(By.CSS_SELECTOR, "#member-items > li.wishlist-item .book-title")
        top = giver.js("return arguments[0].getBoundingClientRect().bottom;", first)
        assert top <= height, f"her first book's title ends at {top:.0f} px, below the first screen ({height} px)"
        # The bio is a tap away, under "About …".
        about = giver.driver.find_element(By.CSS_SELECTOR, "#profile-more > summary")
        assert text_of(about) == f"About {owner}"
        about.click()
        assert giver.driver.find_element(By.ID, "profile-bio").is_displayed()
        assert accessibility_problems_here(giver, "a member's page with her profile folded") == []
        giver.resize(*DEFAULT_WINDOW)
