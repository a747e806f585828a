"""Readers (issue 28) in a real browser: books read, stars, reviews, the household's opinion, profiles.

- A reader marks a book read from its page, choosing the stars with the arrow keys (the stars are
  one radio group, one Tab stop, each star a radio with the label "N stars"), a review and a date,
  and finds it under "Books I've read".
- "In this household" on a book page counts and shows only members who share: a private member's
  wish, rating and review change nothing until that member shares.
- A list sorted by "Most wanted here" puts the book two sharing members want first, and the choice
  is remembered for that list (and only that list) when it is opened again without ?sort.
- A profile (bio, birthday, a favourite book) is shown to another member at the top of the page
  under People, before the wishlist and the books read.

Counts and orders come from every sharing member on the server, and each pytest-xdist worker's
server is shared by the tests on that worker: the other stories that share a wishlist
(test_household, test_keyboard, test_accessibility) wish only for books of hardcover-fiction, so
each story here uses a list of its own that none of them touches, and every person is a new account.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import date

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select

from support import (  # _navigates: waits for the page a key press leads to, as `follow` does for a click
    Browser, SampleBook, _navigates, click, current_sort, fold, follow, heading, open_me_menu, sample_catalog, sign_up, sort_link, text_of,
    unique_username, visible_text,
)
from test_household import another_browser, assert_well_made, flash_text, share_with_household, wishlist_items

READ_LIST = "hardcover-nonfiction"  # the keyboard story's book; its reader keeps the list private
HOUSEHOLD_LIST = "graphic-books-and-manga"  # the household panel's book
SORT_LIST = "paperback-mysteries"  # sorted by wanted: no other story wishes for its books
PROFILE_LIST = "audio-fiction"  # the profile's books read
OTHER_LIST = "young-adult-hardcover"  # a list whose sort must not follow SORT_LIST's
STAR_LABELS = ["No rating", "1 star", "2 stars", "3 stars", "4 stars", "5 stars"]
MAX_TABS = 80  # more stops than a book page has before its rating: one not reached by then is unreachable


# ---------------------------------------------------------------------------------------------
# Helpers


def sample_book(list_name: str, rank: int) -> SampleBook:
    books = {book.rank: book for book in sample_catalog()[list_name].books}
    assert rank in books, f"{list_name} has no book ranked {rank}: {sorted(books)}"
    return books[rank]


def book_path(book: SampleBook) -> str:
    """A catalog book's page; the catalog knows a book by its ISBN-13 (what the rows' data-book say)."""
    return f"/books/{book.isbn13}"


def list_rows(browser: Browser) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, "#books > li.book")


def list_order(browser: Browser) -> list[int]:
    """The open list's rows as their ranks, in the order shown."""
    return [int(row.get_attribute("data-rank")) for row in list_rows(browser)]


def standing(browser: Browser, book: SampleBook) -> str:
    """A list row's "2 here want it" and rating, "" when the row says nothing about the household."""
    row = browser.driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-book="{book.isbn13}"]')
    found = row.find_elements(By.CSS_SELECTOR, "p.book-standing")
    return visible_text(browser, found[0]) if found else ""



def flash_message(browser: Browser) -> str:
    """The confirmation's sentence, without the next-step link after it."""
    flash_text(browser)  # fails with the page's address when there is none
    return text_of(browser.driver.find_element(By.CSS_SELECTOR, "#flash .flash-message"))


def add_to_wishlist(browser: Browser, book: SampleBook, shot: str) -> None:
    """"Add to wishlist" on the book's page; back there, told so."""
    browser.visit(book_path(book), f"{shot}-book")
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, '#book form.add-to-wishlist button[type="submit"]'), shot)
    assert browser.path == book_path(book), browser.driver.current_url
    assert "Added" in flash_message(browser), flash_message(browser)


def us_date_keys(iso: str) -> str:
    """What a person types into a date field in an en-US Chromium (month, day, year): the field
    shows the browser's own format and gives the form ISO 8601."""
    year, month, day = iso.split("-")
    return month + day + year


def checked_rating(browser: Browser) -> str:
    checked = browser.driver.find_elements(By.CSS_SELECTOR, '#reading-form input[name="rating"]:checked')
    assert len(checked) == 1, f"{len(checked)} ratings are checked"
    return checked[0].get_attribute("id")


def mark_read(
    browser: Browser, book: SampleBook, shot: str, stars: int | None = None, review: str = "", finished: str = "",
    keep_on_wishlist: bool | None = None, page: str | None = None,
) -> None:
    """Fills the reading form on `page` (the book's page unless given) and presses "I've read it".

    `keep_on_wishlist`: None when the book is not on the wishlist (the form must then not offer to
    take it off), else whether to untick "Take it off my wishlist" (ticked to begin with).
    """
    driver = browser.driver
    browser.visit(page or book_path(book), f"{shot}-form")
    form = driver.find_element(By.ID, "reading-form")
    if stars is not None:
        click(browser, driver.find_element(By.ID, f"rating-{stars}"))
    if review:
        form.find_element(By.ID, "review").send_keys(review)
    if finished:
        field = form.find_element(By.ID, "finished")
        field.send_keys(us_date_keys(finished))
        assert field.get_attribute("value") == finished, f"the date field holds {field.get_attribute('value')!r}"
    take_off = driver.find_elements(By.ID, "remove_from_wishlist")
    if keep_on_wishlist is None:
        assert not take_off, "the form offers to take off the wishlist a book that is not on it"
    else:
        assert len(take_off) == 1 and take_off[0].is_selected(), "“Take it off my wishlist” is not offered, ticked"
        assert take_off[0].accessible_name.strip() == "Take it off my wishlist", take_off[0].accessible_name
        if keep_on_wishlist:
            click(browser, take_off[0])
    follow(browser, driver.find_element(By.ID, "reading-submit"), shot)
    said = flash_message(browser)
    assert said.startswith("Saved: you’ve read “") and fold(book.title) in fold(said), said


def save_profile(browser: Browser, bio: str, birthday: tuple[str, str], favourites: list[SampleBook], shot: str) -> None:
    """Fills the open profile form (the bio typed after what it holds, the birthday as (month name,
    day), the favourites ticked by title) and saves it: back on the form, told so."""
    driver = browser.driver
    driver.find_element(By.ID, "bio").send_keys(bio)
    Select(driver.find_element(By.ID, "birthday_month")).select_by_visible_text(birthday[0])
    Select(driver.find_element(By.ID, "birthday_day")).select_by_visible_text(birthday[1])
    choices = driver.find_elements(By.CSS_SELECTOR, '#favorites input[type="checkbox"]')
    for book in favourites:
        (chosen,) = [c for c in choices if fold(book.title) in fold(c.accessible_name)]
        assert re.fullmatch(r"favorite_\d+", chosen.get_attribute("name")), chosen.get_attribute("name")
        if not chosen.is_selected():
            click(browser, chosen)
    follow(browser, driver.find_element(By.ID, "profile-submit"), shot)
    assert browser.path == "/settings/profile", driver.current_url
    assert flash_message(browser) == "Your profile was saved."


def household_panel(browser: Browser) -> dict[str, object]:
    """What "In this household" on the open book page says: its figures, and each review by name
    as (stars as a screen reader hears them, the review)."""
    panel = browser.driver.find_element(By.ID, "household")
    assert text_of(panel.find_element(By.TAG_NAME, "h2")) == "In this household"
    figures = {
        key: text_of(found[0]) if found else None
        for key in ("wanted", "read", "rating", "none")
        for found in [panel.find_elements(By.ID, f"household-{key}")]
    }
    reviews = {}
    for review in panel.find_elements(By.CSS_SELECTOR, "#household-reviews > li.review"):
        who = review.find_element(By.CSS_SELECTOR, ".review-by a")
        name = text_of(who)
        assert who.get_attribute("href") == browser.url(f"/people/{name}"), who.get_attribute("href")
        stars = review.find_elements(By.CSS_SELECTOR, ".review-by .stars")
        for star in stars:
            assert star.get_attribute("role") == "img", star.get_attribute("outerHTML")
        words = review.find_elements(By.CSS_SELECTOR, ".review-text")
        reviews[name] = (stars[0].get_attribute("aria-label") if stars else None, words[0].text if words else "")
    return {**figures, "reviews": reviews}


def set_private(browser: Browser) -> None:
    browser.visit("/settings/sharing", "settings-private")
    click(browser, browser.driver.find_element(By.ID, "sharing-private"))
    follow(browser, browser.driver.find_element(By.ID, "sharing-submit"), "private-again")
    assert browser.driver.find_element(By.ID, "sharing-private").is_selected()


def tab_to_rating(browser: Browser) -> str:
    """Tabs from the top of the page until a star rating has focus; returns the id of that radio."""
    keys = ActionChains(browser.driver)
    for _ in range(MAX_TABS):
        keys.send_keys(Keys.TAB).perform()
        focused = browser.js("const e = document.activeElement; return e.name === 'rating' ? e.id : null;")
        if focused:
            return focused
    pytest.fail(f"{MAX_TABS} Tabs never reached the star rating")


def press(browser: Browser, key: str) -> tuple[str, str]:
    """Presses `key` on what has focus; returns (the focused element's id, the checked rating's id)."""
    ActionChains(browser.driver).send_keys(key).perform()
    return browser.js("return document.activeElement.id;"), checked_rating(browser)


# ---------------------------------------------------------------------------------------------
# The stories


def test_mark_a_book_read_with_stars_chosen_by_keyboard(browser: Browser, new_account: str) -> None:
    driver = browser.driver
    book = sample_book(READ_LIST, 1)
    review = "Read it on the train & finished it in bed <3"
    finished = f"{date.today().year}-03-14"

    # Nothing read yet: the empty state, reached from the navigation.
    browser.visit("/lists", "lists")
    open_me_menu(browser)
    follow(browser, driver.find_element(By.ID, "nav-reading"), "reading-empty")
    assert browser.path == "/reading", driver.current_url
    assert driver.find_elements(By.ID, "reading-empty"), "a new account's books read are not empty"
    assert not driver.find_elements(By.ID, "reading-list")

    browser.visit(book_path(book), "book")
    section = driver.find_element(By.ID, "your-reading")
    assert text_of(section.find_element(By.TAG_NAME, "h2")) == "Have you read it?"
    assert not driver.find_elements(By.ID, "reading-forget"), "a book not read offers to forget it"
    # Each star a radio a screen reader names "N stars" (the drawn stars are hidden from it), in one
    # group named by its legend.
    radios = driver.find_elements(By.CSS_SELECTOR, '#rating input[type="radio"][name="rating"]')
    assert [r.get_attribute("id") for r in radios] == ["rating-none"] + [f"rating-{n}" for n in range(1, 6)]
    assert [r.accessible_name.strip() for r in radios] == STAR_LABELS
    group = driver.find_element(By.ID, "rating")
    assert group.tag_name == "fieldset" and group.accessible_name.startswith("Your rating"), group.accessible_name
    assert checked_rating(browser) == "rating-none"

    # The keyboard: the group is one Tab stop, entered at the checked radio; the arrows move the
    # choice along it, and back.
    assert tab_to_rating(browser) == "rating-none", "Tab entered the star rating somewhere other than its checked radio"
    for stars in range(1, 6):
        assert press(browser, Keys.ARROW_RIGHT) == (f"rating-{stars}",) * 2, f"the right arrow did not move to {stars} stars"
    assert press(browser, Keys.ARROW_LEFT) == ("rating-4", "rating-4"), "the left arrow did not move back to 4 stars"
    focused = driver.switch_to.active_element
    assert focused.accessible_name.strip() == "4 stars", focused.accessible_name
    outline = browser.js("const s = getComputedStyle(arguments[0]); return [s.outlineStyle, parseFloat(s.outlineWidth)];", focused)
    assert outline[0] != "none" and outline[1] >= 2, f"the focused star shows no outline: {outline}"
    browser.screenshot("four-stars-focused")

    # On with the keyboard: the review, then the date (typed as the field shows it), then the button.
    assert press(browser, Keys.TAB)[0] == "review", "Tab after the stars does not reach the review"
    ActionChains(driver).send_keys(review).perform()
    assert press(browser, Keys.TAB)[0] == "finished", "Tab after the review does not reach the date"
    ActionChains(driver).send_keys(us_date_keys(finished)).perform()
    assert driver.find_element(By.ID, "finished").get_attribute("value") == finished
    while browser.js("return document.activeElement.id;") != "reading-submit":
        assert press(browser, Keys.TAB)[0] in ("finished", "reading-submit"), "Tab after the date goes past the button"
    assert not driver.find_elements(By.ID, "remove_from_wishlist"), "a book not on the wishlist offers to leave it"
    _navigates(browser, lambda: ActionChains(driver).send_keys(Keys.ENTER).perform())
    browser.screenshot("read")

    # Back on the book page, told so; the form now holds the reading and offers to forget it.
    assert browser.path == book_path(book), driver.current_url
    said = flash_message(browser)
    assert said.startswith("Saved: you’ve read “") and fold(said) == fold(f"Saved: you’ve read “{book.title}”."), said
    assert text_of(driver.find_element(By.CSS_SELECTOR, "#your-reading h2")) == "You’ve read it"
    assert checked_rating(browser) == "rating-4"
    assert driver.find_element(By.ID, "review").get_attribute("value") == review
    assert driver.find_element(By.ID, "finished").get_attribute("value") == finished
    assert visible_text(browser, driver.find_element(By.ID, "reading-submit")) == "Save"
    assert driver.find_element(By.CSS_SELECTOR, '#reading-forget button[type="submit"]').is_displayed()
    assert_well_made(browser, "the book page once read")

    # Books I've read: the one row, its stars said as words, the review as typed (escaped), the date.
    open_me_menu(browser)
    follow(browser, driver.find_element(By.ID, "nav-reading"), "reading-one")
    assert text_of(driver.find_element(By.ID, "reading-total")) == "1 book"
    rows = driver.find_elements(By.CSS_SELECTOR, "#reading-list > li.reading-row")
    assert len(rows) == 1, [text_of(r) for r in rows]
    title = rows[0].find_element(By.CSS_SELECTOR, ".reading-title a")
    assert fold(text_of(title)) == fold(book.title) and title.get_attribute("href") == browser.url(book_path(book))
    stars = rows[0].find_element(By.CSS_SELECTOR, ".reading-meta .stars")
    assert (stars.get_attribute("role"), stars.get_attribute("aria-label")) == ("img", "4 of 5 stars")
    assert rows[0].find_element(By.CSS_SELECTOR, ".review-text").text == review
    assert rows[0].find_element(By.CSS_SELECTOR, ".reading-finished time").get_attribute("datetime") == finished
    edit = rows[0].find_element(By.CSS_SELECTOR, ".reading-edit a")
    assert edit.get_attribute("href") == browser.url(book_path(book) + "/reading")
    assert fold(book.title) in fold(edit.accessible_name), edit.accessible_name
    assert_well_made(browser, "/reading")
    browser.assert_no_console_errors()


def count_in(figure: str) -> int:
    """The number a panel's line starts with ("2 members want it" → 2; "No member …" → 0)."""
    first = figure.split()[0]
    return 0 if first == "No" else int(first)


def test_household_panel_counts_only_members_who_share(browser: Browser, server: str) -> None:
    book = sample_book(HOUSEHOLD_LIST, 1)
    names = {who: unique_username(who) for who in ("fan", "critic", "loner")}
    with ExitStack() as stack:
        fan = browser
        critic = stack.enter_context(another_browser(server, f"{browser.test_name}-critic"))
        loner = stack.enter_context(another_browser(server, f"{browser.test_name}-loner"))

        # The fan shares, wishes for the book, reads it and keeps it on the wishlist (for a gift copy).
        sign_up(fan, names["fan"])
        share_with_household(fan)
        add_to_wishlist(fan, book, "fan-wishes")
        mark_read(fan, book, "fan-read", stars=5, review="Best thing I read all year.", keep_on_wishlist=True)
        assert "off your wishlist" not in flash_message(fan)
        assert list(wishlist_items(fan).values()), "the fan's wish went with the reading"

        # The critic shares and reads it from the wishlist item's page, which takes it off the list.
        sign_up(critic, names["critic"])
        share_with_household(critic)
        add_to_wishlist(critic, book, "wishes")
        (item,) = wishlist_items(critic)
        mark_read(critic, book, "read", stars=4, review="Good,\nbut the middle drags.", keep_on_wishlist=False,
                  page=f"/wishlist/{item}")
        assert critic.path == "/wishlist", critic.driver.current_url
        assert flash_message(critic).endswith("It is off your wishlist now."), flash_message(critic)
        assert wishlist_items(critic) == {}, "the book read is still on the critic's wishlist"

        # The panel counts every sharing member of the server, and other stories share too: what
        # matters is that it holds these two and that the loner below never moves it.
        fan.visit(book_path(book), "fan-sees-two")
        shared = household_panel(fan)
        assert shared["reviews"][names["fan"]] == ("5 of 5 stars", "Best thing I read all year."), shared
        assert shared["reviews"][names["critic"]] == ("4 of 5 stars", "Good,\nbut the middle drags."), shared
        assert count_in(shared["wanted"]) >= 1 and count_in(shared["read"]) >= 2, shared

        # The loner keeps the list private, wishes for the book, and rates it one star with a review:
        # the panel, seen by anyone (the loner included), does not change.
        sign_up(loner, names["loner"])
        add_to_wishlist(loner, book, "wishes")
        loner_review = "Not for me at all."
        mark_read(loner, book, "read", stars=1, review=loner_review, keep_on_wishlist=True)
        assert household_panel(loner) == shared
        assert loner_review not in text_of(loner.driver.find_element(By.ID, "household"))
        assert not loner.driver.find_elements(By.CSS_SELECTOR, f'#household a[href="/people/{names["loner"]}"]')
        fan.visit(book_path(book), "fan-sees-panel")
        assert household_panel(fan) == shared
        assert loner_review not in fan.driver.page_source and names["loner"] not in fan.driver.page_source
        assert_well_made(fan, "the book page with its household panel")

        # Once the loner shares, the same wish, stars and review count; private again, they do not.
        share_with_household(loner)
        fan.visit(book_path(book), "fan-sees-loner")
        with_loner = household_panel(fan)
        assert count_in(with_loner["wanted"]) == count_in(shared["wanted"]) + 1, with_loner
        assert count_in(with_loner["read"]) == count_in(shared["read"]) + 1, with_loner
        assert with_loner["reviews"] == {**shared["reviews"], names["loner"]: ("1 of 5 stars", loner_review)}, with_loner
        set_private(loner)
        fan.visit(book_path(book), "fan-sees-loner-gone")
        assert household_panel(fan) == shared

        for session in (fan, critic, loner):
            session.assert_no_console_errors()


def test_list_sorted_by_most_wanted_is_remembered(browser: Browser, server: str) -> None:
    books = sample_catalog()[SORT_LIST].books
    last, second_last = books[-1], books[-2]
    by_rank = [b.rank for b in books]
    with another_browser(server, f"{browser.test_name}-friend") as friend:
        # A friend wishes for the last-ranked book, still private: nobody counts that wish yet.
        sign_up(friend, unique_username("friend"))
        add_to_wishlist(friend, last, "wishes")

        # The reader shares and wishes for the last two books, the second-last first.
        sign_up(browser, unique_username("sorter"))
        share_with_household(browser)
        add_to_wishlist(browser, second_last, "wishes-second-last")
        add_to_wishlist(browser, last, "wishes-last")

        browser.visit(f"/lists/{SORT_LIST}", "by-rank")
        assert list_order(browser) == by_rank and current_sort(browser) == ["By rank"]
        follow(browser, sort_link(browser, "Most wanted here"), "by-wanted-one-each")
        assert browser.path == f"/lists/{SORT_LIST}" and "sort=wanted" in browser.driver.current_url
        assert current_sort(browser) == ["Most wanted here"]
        # One wish each: the tie goes by rank.
        assert list_order(browser) == [second_last.rank, last.rank] + by_rank[:-2], list_order(browser)
        # A row's count leaves its reader out (issue 57): her own wishes say nothing to her.
        assert standing(browser, second_last) == standing(browser, last) == "", "her own wishes are counted to her"

        # The friend shares: the last-ranked book, wanted by two, comes first, and the list opened
        # again without ?sort is still sorted by wanted.
        share_with_household(friend)
        browser.visit(f"/lists/{SORT_LIST}", "by-wanted-remembered")
        assert "sort=" not in browser.driver.current_url
        assert current_sort(browser) == ["Most wanted here"], "the list forgot it was sorted by wanted"
        assert list_order(browser) == [last.rank, second_last.rank] + by_rank[:-2], list_order(browser)
        assert standing(browser, last) == "1 here wants it" and standing(browser, second_last) == ""
        first = list_rows(browser)[0]
        assert fold(text_of(first.find_element(By.CSS_SELECTOR, ".book-title a"))) == fold(last.title)
        assert_well_made(browser, f"/lists/{SORT_LIST} by wanted")

        # The choice belongs to that list: another list still opens by rank.
        browser.visit(f"/lists/{OTHER_LIST}", "other-list")
        assert current_sort(browser) == ["By rank"], current_sort(browser)
        assert list_order(browser) == [b.rank for b in sample_catalog()[OTHER_LIST].books]

        for session in (browser, friend):
            session.assert_no_console_errors()


def test_profile_with_bio_birthday_and_favourite_shown_to_another_member(browser: Browser, server: str) -> None:
    driver = browser.driver
    owner = unique_username("profile")
    favourite, other = sample_book(PROFILE_LIST, 2), sample_book(PROFILE_LIST, 1)
    this_year = date.today().year
    bio = "Audiobooks on the bus, <b>not</b> bold & never skipped.\nSecond line."

    sign_up(browser, owner)
    share_with_household(browser)
    mark_read(browser, favourite, "read-favourite", stars=5, finished=f"{this_year}-01-01")
    mark_read(browser, other, "read-other", finished=date.today().isoformat())

    # Settings → Profile: initials stand in for a picture; the favourites are the books read.
    browser.visit("/settings", "settings")
    follow(browser, driver.find_element(By.CSS_SELECTOR, '#settings-nav a[href="/settings/profile"]'), "profile-form")
    assert browser.path == "/settings/profile", driver.current_url
    initials = "".join(part[0] for part in owner.split("-")[:2]).upper()
    assert text_of(driver.find_element(By.CSS_SELECTOR, "#picture span.avatar-initials")) == initials
    choices = driver.find_elements(By.CSS_SELECTOR, '#favorites input[type="checkbox"]')
    assert sorted(fold(c.accessible_name) for c in choices) == sorted(
        fold(f"{b.title} by {b.author}") for b in (favourite, other)), [c.accessible_name for c in choices]
    assert not any(c.is_selected() for c in choices)
    save_profile(browser, bio, ("March", "14"), [favourite], "profile-saved")
    assert driver.find_element(By.ID, "bio").get_attribute("value") == bio
    assert Select(driver.find_element(By.ID, "birthday_month")).first_selected_option.text == "March"
    assert Select(driver.find_element(By.ID, "birthday_day")).first_selected_option.text == "14"
    assert [fold(c.accessible_name) for c in driver.find_elements(By.CSS_SELECTOR, '#favorites input:checked')] == [
        fold(f"{favourite.title} by {favourite.author}")]
    assert_well_made(browser, "/settings/profile")

    # Another member finds it under People: the profile first, then the wishlist, then the books read.
    with another_browser(server, f"{browser.test_name}-visitor") as visitor:
        sign_up(visitor, unique_username("visitor"))
        # By address: under pytest-xdist, People lists every sharing member this worker's stories
        # made, and the name may be on a later page of it.
        visitor.visit(f"/people/{owner}", "member")
        page = visitor.driver
        assert heading(visitor) == owner
        avatar = page.find_element(By.CSS_SELECTOR, "#profile span.avatar-initials")
        assert text_of(avatar) == initials and avatar.get_attribute("aria-hidden") == "true"
        # The bio folds under "About …" so that her first book shows on a phone's first screen (issue 57).
        page.find_element(By.CSS_SELECTOR, "#profile-more > summary").click()
        shown_bio = page.find_element(By.ID, "profile-bio")
        assert shown_bio.get_attribute("textContent") == bio, "the bio is not shown as typed (escaped)"
        assert shown_bio.text == bio, "the bio's line break is not kept on screen"
        assert not page.find_elements(By.CSS_SELECTOR, "#profile-bio b"), "the bio's markup was not escaped"
        assert text_of(page.find_element(By.ID, "profile-birthday")) == "Birthday: 14 March"
        assert text_of(page.find_element(By.ID, "profile-wishes")) == "0 wishes"
        assert text_of(page.find_element(By.ID, "profile-read-this-year")) == "2 books read this year"
        favourites = page.find_elements(By.CSS_SELECTOR, "#profile-favorites > li")
        assert [fold(text_of(f)) for f in favourites] == [fold(f"{favourite.title} by {favourite.author}")]
        link = favourites[0].find_element(By.TAG_NAME, "a")
        assert link.get_attribute("href") == visitor.url(book_path(favourite))
        read_titles = [text_of(t) for t in page.find_elements(By.CSS_SELECTOR, "#member-reading .reading-title")]
        assert sorted(map(fold, read_titles)) == sorted(fold(b.title) for b in (favourite, other)), read_titles
        assert not page.find_elements(By.CSS_SELECTOR, "#member-reading .reading-edit"), "another member's reading is editable"
        order = visitor.js(
            "return ['profile', 'wishlist-heading', 'member-reading'].map(id => document.getElementById(id))"
            ".map((e, i, all) => i === 0 || Boolean(all[i - 1].compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING));"
        )
        assert order == [True, True, True], "the member page is not profile, then wishlist, then books read"
        assert_well_made(visitor, f"/people/{owner}")
        visitor.assert_no_console_errors()
    browser.assert_no_console_errors()
