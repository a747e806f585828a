"""Guests reserve on a share link (issue 57), in a real browser.

A grandparent without an account opens the link on a phone (360 px), reserves a book with the
name "Grandpa" and is shown a private cancel link once. The owner's pages, fetched with her cookies
before and after, do not differ by a byte (the CSRF token aside); a giver of the household sees
"Reserved by Grandpa (guest)". The new pages have no axe-core violation.
"""

from __future__ import annotations

import re
from contextlib import ExitStack

from selenium.webdriver.common.by import By

from support import Browser, accessibility_problems, fill, follow, heading, sign_up, signed_in_as, text_of, unique_username
from test_household import (
    add_books, another_browser, first_difference, owner_view, reservation_state, row_by_id, rows, share_with_household,
    wishlist_items,
)


def test_a_guest_reserves_on_a_share_link_and_only_the_givers_see_it(browser: Browser, server: str, public_url: str) -> None:
    owner = unique_username("grandchild")
    giver = unique_username("aunt")
    with ExitStack() as stack:
        sign_up(browser, owner)
        add_books(browser, (1, 2))
        items = wishlist_items(browser)
        first, second = list(items)
        share_with_household(browser)
        browser.visit("/settings/sharing", "settings")
        follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "link-made")
        link = browser.driver.find_element(By.ID, "share-link-url").get_attribute("value")
        path = "/shared/" + link.rsplit("/shared/", 1)[1]
        pages = ["/", "/wishlist", "/wishlist?sort=priority", "/wishlist.csv", f"/wishlist/{first}", "/people",
                 f"/people/{owner}", "/reservations", "/settings/sharing", "/settings/data", path]
        before = owner_view(browser, pages)

        # The guest, never signed in, on a phone.
        guest = stack.enter_context(another_browser(server, f"{browser.test_name}-guest"))
        guest.resize(360, 800)
        guest.visit(path, "shared-360px")
        assert signed_in_as(guest) is None
        assert guest.horizontal_overflow() <= 0, "the share link scrolls sideways at 360 px"
        row = row_by_id(guest, "shared-items", first)
        fill(guest, f"guest-name-{first}", "Grandpa")
        follow(guest, row.find_element(By.CSS_SELECTOR, 'form.guest-reserve-form button[type="submit"]'), "reserved-360px")
        assert guest.horizontal_overflow() <= 0
        cancel = guest.driver.find_element(By.ID, "guest-cancel-link")
        assert cancel.get_attribute("readonly") is not None and cancel.accessible_name, "the cancel link is not a labelled, read-only field"
        cancel_link = cancel.get_attribute("value")
        assert re.fullmatch(re.escape(public_url + "/guest-reservations/") + r"[A-Za-z0-9_-]{43}", cancel_link), cancel_link
        assert items[first] in text_of(guest.driver.find_element(By.ID, "guest-reserved"))
        problems = accessibility_problems(guest, "the share link after reserving")

        # Once: the page again shows "Reserved", naming no one, and not the link.
        guest.visit(path, "shared-again")
        assert cancel_link not in guest.driver.page_source
        reserved = row_by_id(guest, "shared-items", first)
        assert text_of(reserved.find_element(By.CSS_SELECTOR, ".reserved-mark")) == "Reserved"
        assert "Grandpa" not in guest.driver.page_source
        assert not reserved.find_elements(By.CSS_SELECTOR, "form"), "a reserved book offers Reserve"
        assert len(rows(guest, "shared-items")) == 2
        problems += accessibility_problems(guest, "the share link with a reserved book")
        guest.visit(cancel_link.replace(public_url, server), "cancel-page")
        assert heading(guest) == "Cancel your reservation?", heading(guest)
        problems += accessibility_problems(guest, "the cancel page")
        assert problems == [], problems

        # The owner: every page the same bytes.
        after = owner_view(browser, pages)
        for page in pages:
            assert after[page] == before[page], f"{page} changed once a guest reserved: {first_difference(before[page][2], after[page][2])}"
        browser.visit(f"/people/{owner}")
        assert "Grandpa" not in browser.driver.page_source

        # A giver of the household: "Reserved by Grandpa (guest)", and no way to reserve it twice.
        g = stack.enter_context(another_browser(server, f"{browser.test_name}-giver"))
        sign_up(g, giver)
        g.visit(f"/people/{owner}", "member")
        assert reservation_state(row_by_id(g, "member-items", first)) == "Reserved by Grandpa (guest)"
        assert reservation_state(row_by_id(g, "member-items", second)) == "open"

        # The cancel link's button frees it for the household again.
        follow(guest, guest.driver.find_element(By.ID, "guest-cancel-submit"), "cancelled")
        assert heading(guest) == "Reservation cancelled", heading(guest)
        g.visit(f"/people/{owner}", "member-after-cancel")
        assert reservation_state(row_by_id(g, "member-items", first)) == "open"
