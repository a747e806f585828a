"""Occasions in a real browser (issue 51): a family's lists, a reservation from one list, and the
household's calendar read by a real iCalendar parser.

Mum makes a Birthday list and a private Someday list, moves her books between them with the
plain form on each book's page and adds a third from its catalog page straight onto the Birthday list; Grandma finds the Birthday list under People, reserves from it, and
sees it reserved on every list; Mum's pages do not change by a byte. The calendar link Grandma
gets in Settings is parsed with Python's `icalendar`, a birthday on 29 February included.
Then Mum makes a profile for her daughter Bea with Dad as co-manager and puts a book on Bea's list
from its page; Grandma reserves it from Bea's page as from any member's, and Dad, who manages Bea,
sees that reservation; on his phone Dad makes, renames and deletes a list of Bea's on her Manage page.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import date, datetime

from dateutil.rrule import rrulestr
from icalendar import Calendar
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from support import Browser, accessibility_problems, fill, follow, heading, http_get, sign_up, text_of, unique_username
from test_household import (
    LIST, add_books, another_browser, assert_well_made, first_difference, flash_text, owner_view, reservation_state, row_by_id, rows,
    share_with_household, wishlist_items,
)


def make_list(browser: Browser, name: str, occasion: str, visibility: str) -> str:
    """Makes a list through its form; returns its id, read from the page the form leads to."""
    browser.visit("/wishlist", "wishlist-before-list")
    follow(browser, browser.driver.find_element(By.ID, "new-list-link"), f"new-list-{name}")
    fill(browser, "name", name)
    browser.driver.find_element(By.ID, f"occasion-{occasion}").click()
    browser.driver.find_element(By.ID, f"visibility-{visibility}").click()
    follow(browser, browser.driver.find_element(By.ID, "list-submit"), f"list-made-{name}")
    found = re.search(r"/wishlist\?list=(\d+)$", browser.driver.current_url)
    assert found, browser.driver.current_url
    assert "Your list is made" in flash_text(browser), flash_text(browser)
    return found.group(1)


def put_on_lists(browser: Browser, item: str, lists: list[str], shot: str) -> None:
    """Ticks exactly `lists` on the book's page and saves: moving and copying without script."""
    browser.visit(f"/wishlist/{item}", f"{shot}-item")
    for box in browser.driver.find_elements(By.CSS_SELECTOR, '#my-lists input[name="list"]'):
        if box.is_selected() != (box.get_attribute("value") in lists):
            browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", box)
            box.click()
    follow(browser, browser.driver.find_element(By.ID, "my-lists-submit"), shot)
    assert "The book’s lists are saved." in flash_text(browser), flash_text(browser)


def test_a_family_keeps_lists_and_the_birthday_reservation_stays_hidden_from_mum(browser: Browser, server: str) -> None:
    mum_browser = browser
    mum, grandma = unique_username("mum"), unique_username("grandma")
    with ExitStack() as stack:
        gran = stack.enter_context(another_browser(server, f"{browser.test_name}-grandma"))
        sign_up(mum_browser, mum)
        add_books(mum_browser, (1, 2))
        share_with_household(mum_browser)
        items = wishlist_items(mum_browser)
        first, second = list(items)
        birthday = make_list(mum_browser, "Birthday", "birthday", "household")
        someday = make_list(mum_browser, "Someday", "none", "private")
        default = mum_browser.driver.find_element(By.CSS_SELECTOR, "#wish-list-links li.wish-list-link").get_attribute("id").removeprefix("wish-list-")

        # A book moved to the birthday list, the other to Someday: each list shows its own.
        put_on_lists(mum_browser, first, [birthday], "moved-to-birthday")
        put_on_lists(mum_browser, second, [someday], "moved-to-someday")
        mum_browser.visit(f"/wishlist?list={birthday}", "birthday-list")
        assert [r.get_attribute("data-item") for r in rows(mum_browser, "wishlist-items")] == [first]
        assert heading(mum_browser).startswith("Birthday"), heading(mum_browser)
        mum_browser.visit(f"/wishlist?list={someday}", "someday-list")
        assert [r.get_attribute("data-item") for r in rows(mum_browser, "wishlist-items")] == [second]
        for width in (360, 1280):
            mum_browser.resize(width, 800)
            mum_browser.visit("/wishlist", f"wishlist-lists-{width}px")
            assert mum_browser.horizontal_overflow() <= 0, f"/wishlist scrolls sideways at {width} px"
            assert_well_made(mum_browser, "/wishlist")
        mum_browser.resize(1280, 900)

        # A third book from its own page straight onto the Birthday list: the add form's choice.
        mum_browser.visit(f"/lists/{LIST}", "list-for-a-third")
        third_row = mum_browser.driver.find_element(By.CSS_SELECTOR, '#books > li.book[data-rank="3"]')
        follow(mum_browser, third_row.find_element(By.CSS_SELECTOR, 'a[href^="/books/"]'), "third-book")
        assert_well_made(mum_browser, "a book's page with a list to choose")
        assert accessibility_problems(mum_browser, "a book's page with a list to choose") == []
        choice = Select(mum_browser.driver.find_element(By.ID, "add-list"))
        assert choice.first_selected_option.text == "Wishlist", "her default list is chosen"
        assert [option.text for option in choice.options] == ["Wishlist", "Birthday", "Someday (only you)"]
        choice.select_by_visible_text("Birthday")
        follow(mum_browser, mum_browser.driver.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]'), "third-added")
        assert "Added" in flash_text(mum_browser), flash_text(mum_browser)
        mum_browser.visit(f"/wishlist?list={birthday}", "birthday-list-with-a-third")
        on_birthday = [r.get_attribute("data-item") for r in rows(mum_browser, "wishlist-items")]
        assert len(on_birthday) == 2 and first in on_birthday, on_birthday
        mum_browser.visit(f"/wishlist?list={default}", "default-list-without-the-third")
        third = (set(on_birthday) - {first}).pop()
        assert third not in [r.get_attribute("data-item") for r in rows(mum_browser, "wishlist-items")], "on the Birthday list alone"

        mum_paths = [
            "/wishlist", f"/wishlist?list={birthday}", f"/wishlist?list={someday}", f"/wishlist?list={default}",
            f"/wishlist/{first}", f"/wishlist/lists/{birthday}", "/people",
        ]
        before = owner_view(mum_browser, mum_paths)
        assert all(view[0] == 200 for view in before.values()), {path: view[0] for path, view in before.items()}

        # Grandma sees the Birthday list, not Someday nor its book, and reserves from the list.
        sign_up(gran, grandma)
        gran.visit(f"/people/{mum}", "mums-page")
        lists = [text_of(a) for a in gran.driver.find_elements(By.CSS_SELECTOR, "#member-lists a")]
        assert "Birthday" in lists and "Someday" not in lists, lists
        assert items[second] not in gran.driver.page_source
        follow(gran, gran.driver.find_element(By.LINK_TEXT, "Birthday"), "birthday-list-giver")
        assert gran.path == f"/people/{mum}/lists/{birthday}", gran.driver.current_url
        assert_well_made(gran, "a member's list")
        follow(gran, row_by_id(gran, "member-items", first).find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "reserved")
        assert gran.path == f"/people/{mum}/lists/{birthday}", gran.driver.current_url
        assert reservation_state(row_by_id(gran, "member-items", first)) == "you"
        gran.visit(f"/people/{mum}", "mums-page-reserved")
        assert reservation_state(row_by_id(gran, "member-items", first)) == "you", "reserved on every list that holds it"
        for width in (360, 1280):
            gran.resize(width, 800)
            gran.visit(f"/people/{mum}/lists/{birthday}", f"member-list-{width}px")
            assert gran.horizontal_overflow() <= 0, f"a member's list scrolls sideways at {width} px"

        # Mum's pages are the same bytes.
        after = owner_view(mum_browser, mum_paths)
        for path in mum_paths:
            assert after[path] == before[path], f"{path} changed once Grandma reserved: {first_difference(before[path][2], after[path][2])}"


def test_a_family_keeps_a_childs_list_and_dad_sees_grandmas_reservation(browser: Browser, server: str) -> None:
    mum_browser = browser
    mum, dad, grandma = unique_username("mum"), unique_username("dad"), unique_username("grandma")
    with ExitStack() as stack:
        dad_browser = stack.enter_context(another_browser(server, f"{browser.test_name}-dad"))
        gran = stack.enter_context(another_browser(server, f"{browser.test_name}-grandma"))
        sign_up(dad_browser, dad)
        sign_up(mum_browser, mum)
        share_with_household(mum_browser)

        # Mum makes Bea's profile from People, then adds Dad on Bea's Manage page.
        mum_browser.visit("/people", "people-before-child")
        follow(mum_browser, mum_browser.driver.find_element(By.ID, "new-child-link"), "new-child")
        assert_well_made(mum_browser, "/people/new-child")
        fill(mum_browser, "child-name", "Bea")
        Select(mum_browser.driver.find_element(By.ID, "birthday_month")).select_by_value("5")
        Select(mum_browser.driver.find_element(By.ID, "birthday_day")).select_by_value("4")
        follow(mum_browser, mum_browser.driver.find_element(By.ID, "child-submit"), "child-made")
        child = mum_browser.path.removeprefix("/people/")
        assert child.startswith("~bea"), mum_browser.driver.current_url
        mum_browser.visit(f"/people/{child}/managers", "manage-bea")
        assert_well_made(mum_browser, "a child's Manage page")
        fill(mum_browser, "manager-username", dad)
        follow(mum_browser, mum_browser.driver.find_element(By.ID, "add-manager-submit"), "dad-added")
        managers = [li.get_attribute("data-manager") for li in mum_browser.driver.find_elements(By.CSS_SELECTOR, "#manager-list li.manager")]
        assert sorted(managers) == sorted([mum, dad]), managers

        # A book on Bea's list, from the book's page.
        mum_browser.visit(f"/lists/{LIST}", "list-for-bea")
        book = mum_browser.driver.find_element(By.CSS_SELECTOR, '#books > li.book[data-rank="1"]').get_attribute("data-book")
        mum_browser.visit(f"/books/{book}", "book-for-bea")
        follow(mum_browser, mum_browser.driver.find_element(By.CSS_SELECTOR, f'form.add-to-wishlist input[name="for"][value="{child}"] ~ button'), "added-for-bea")
        assert mum_browser.path == f"/people/{child}", mum_browser.driver.current_url
        item = rows(mum_browser, "member-items")[0].get_attribute("data-item")

        # Grandma sees Bea on People, managed by Mum and Dad, and reserves her book.
        sign_up(gran, grandma)
        gran.visit("/people", "people-with-bea")
        assert "managed by" in gran.driver.find_element(By.CSS_SELECTOR, f'li.person a[href="/people/{child}"]').find_element(By.XPATH, "..").text
        gran.visit(f"/people/{child}", "beas-page")
        follow(gran, row_by_id(gran, "member-items", item).find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "reserved-for-bea")
        assert reservation_state(row_by_id(gran, "member-items", item)) == "you"

        # Dad, who manages Bea, sees Grandma's reservation, so he does not buy the book too.
        for width in (360, 1280):
            dad_browser.resize(width, 800)
            dad_browser.visit(f"/people/{child}", f"dad-sees-beas-reservation-{width}px")
            assert dad_browser.horizontal_overflow() <= 0, f"a child's page scrolls sideways at {width} px"
            assert reservation_state(row_by_id(dad_browser, "member-items", item)) == f"Reserved by {grandma}"
            dad_browser.visit(f"/people/{child}/managers", f"dad-manages-bea-{width}px")
            assert dad_browser.horizontal_overflow() <= 0, f"a child's Manage page scrolls sideways at {width} px"

        # On his phone Dad keeps Bea's lists from her Manage page: a Birthday list made, renamed, deleted.
        dad_browser.resize(360, 800)
        dad_browser.visit(f"/people/{child}/managers", "dad-keeps-beas-lists-360px")
        open_disclosure(dad_browser, dad_browser.driver.find_element(By.ID, "new-list"))
        fill(dad_browser, "new-list-name", "Birthday")
        dad_browser.driver.find_element(By.ID, "new-list-occasion-birthday").click()
        follow(dad_browser, dad_browser.driver.find_element(By.ID, "new-list-submit"), "beas-list-made-360px")
        assert flash_text(dad_browser) == "The list was made.", flash_text(dad_browser)
        assert_well_made(dad_browser, "a child's Manage page with her lists")
        made = child_list(dad_browser, "Birthday")
        list_id = made.get_attribute("data-list")
        assert "Birthday" in text_of(made), text_of(made)
        open_disclosure(dad_browser, made.find_element(By.CSS_SELECTOR, "details.list-edit"))
        fill(dad_browser, f"list-{list_id}-name", "Bea’s birthday")
        follow(dad_browser, made.find_element(By.CSS_SELECTOR, f'form[action="/people/{child}/lists/{list_id}"] button[type="submit"]'), "beas-list-renamed-360px")
        assert flash_text(dad_browser) == "The list was saved.", flash_text(dad_browser)
        renamed = child_list(dad_browser, "Bea’s birthday")
        open_disclosure(dad_browser, renamed.find_element(By.CSS_SELECTOR, "details.list-edit"))
        dad_browser.screenshot("beas-list-edit-open-360px")
        assert dad_browser.horizontal_overflow() <= 0, "a child's list form scrolls sideways at 360 px"
        follow(dad_browser, renamed.find_element(By.CSS_SELECTOR, "button.button-danger"), "beas-list-deleted-360px")
        assert flash_text(dad_browser) == "The list was deleted; its books stay on her wishlist.", flash_text(dad_browser)
        assert not dad_browser.driver.find_elements(By.CSS_SELECTOR, f'#child-lists li[data-list="{list_id}"]')
        dad_browser.visit(f"/people/{child}", "beas-page-after-her-list-went")
        assert row_by_id(dad_browser, "member-items", item), "her book stays on her wishlist"


def open_disclosure(browser: Browser, details: WebElement) -> None:
    """Opens a closed details disclosure by its summary, as a reader would."""
    if details.get_attribute("open") is None:
        summary = details.find_element(By.TAG_NAME, "summary")
        browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", summary)
        summary.click()
    WebDriverWait(browser.driver, 10).until(lambda _: details.get_attribute("open") is not None)


def child_list(browser: Browser, name: str) -> WebElement:
    """The row of the child's list named `name` on her Manage page."""
    found = [row for row in browser.driver.find_elements(By.CSS_SELECTOR, "#child-lists > li.child-list")
             if text_of(row.find_element(By.CSS_SELECTOR, ".child-list-name")) == name]
    assert len(found) == 1, [text_of(row) for row in browser.driver.find_elements(By.CSS_SELECTOR, "#child-lists > li.child-list")]
    return found[0]


def test_the_calendar_link_reads_in_a_real_parser_with_the_twenty_ninth_of_february(browser: Browser, server: str) -> None:
    leap, reader = unique_username("leap"), unique_username("reader")
    with ExitStack() as stack:
        other = stack.enter_context(another_browser(server, f"{browser.test_name}-reader"))
        sign_up(browser, leap)
        share_with_household(browser)
        browser.visit("/settings/profile", "profile")
        Select(browser.driver.find_element(By.ID, "birthday_month")).select_by_value("2")
        Select(browser.driver.find_element(By.ID, "birthday_day")).select_by_value("29")
        follow(browser, browser.driver.find_element(By.ID, "profile-submit"), "profile-saved")
        christmas = make_list(browser, "Christmas", "christmas", "household")
        make_list(browser, "Quiet", "christmas", "private")

        sign_up(other, reader)
        other.visit("/settings/lists", "settings-lists")
        follow(other, other.driver.find_element(By.ID, "feed-link-create"), "feed-link-made")
        link = other.driver.find_element(By.ID, "calendar-link-url").get_attribute("value")
        assert re.fullmatch(r"https?://[^/]+/calendar/[A-Za-z0-9_-]{43}\.ics", link), link
        status, headers, body = http_get(other.url(link))
        assert status == 200 and headers.get("content-type") == "text/calendar; charset=utf-8", (status, headers)

        calendar = Calendar.from_ical(body)
        events = {str(event["UID"]): event for event in calendar.walk("VEVENT")}
        mine = {uid: event for uid, event in events.items() if leap in str(event["SUMMARY"])}
        summaries = sorted(str(event["SUMMARY"]) for event in mine.values())
        assert summaries == [f"{leap}’s Christmas list", f"{leap}’s birthday"], summaries
        birthday = next(event for event in mine.values() if str(event["SUMMARY"]).endswith("birthday"))
        assert birthday.decoded("DTSTART") == date(2000, 2, 29)
        rule = birthday["RRULE"]
        assert rule["FREQ"] == ["YEARLY"] and rule["BYMONTHDAY"] == [-1] and rule["BYMONTH"] == [2], rule
        # The rule, expanded as dateutil (icalendar's own dependency) reads it: the last day of February every year.
        rule_text = birthday["RRULE"].to_ical().decode()
        days = list(rrulestr(rule_text, dtstart=datetime(2000, 2, 29)).xafter(datetime(2026, 1, 1), count=3))
        assert [d.date() for d in days] == [date(2026, 2, 28), date(2027, 2, 28), date(2028, 2, 29)], days
        christmas_event = next(event for uid, event in events.items() if uid.startswith(f"list-{christmas}@"))
        assert christmas_event.decoded("DTSTART") == date(2000, 12, 25)
        assert not any("Quiet" in str(event["SUMMARY"]) for event in events.values()), "a private list is nobody else's"
