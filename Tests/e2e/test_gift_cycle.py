"""The gift cycle (issue 29) in a real browser, without a line of JavaScript: reserve, buy, write a
card, suggest ideas, receive, move back; and the birthdays coming up under People.

One story walks a whole cycle with three people, each in a Chromium of their own: an owner who
shares her wishlist and two givers, A and B. The givers see each other's reservations ("Bought by
A"), ideas and who reserved them; the owner sees none of it (her pages, fetched with her cookies
before and after, do not differ by a byte, the CSRF token aside) until she presses "I got it":
then the cards are hers to read with their givers' names, and a giver who wrote none stays
anonymous. Moving a book back puts it on her wishlist reserved as before, and tells nobody.

Every form here is a plain HTML form: the pages' scripts are turned off in every tab, so the
cycle is shown to work without them. The owner wishes only for books of hardcover-fiction, as the
other household stories do (see test_reading.py), and every person is a new account.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from datetime import date, datetime, timedelta, timezone

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from support import MONTHS, Browser, click, fold, follow, long_date, sign_out, sign_up, text_of, unique_username, visible_text
from test_household import (
    LIST, add_books, another_browser, assert_well_made, first_difference, flash_text, owner_view, row_by_id, rows,
    share_with_household, wishlist_items,
)
from test_reading import flash_message, sample_book, save_profile

RESERVATION_MARKS = "p.reserved-mark, form.reserve-form, form.bought-form, details.card-details, form.cancel-reservation-form"


# ---------------------------------------------------------------------------------------------
# Helpers


def utc_today() -> date:
    """Today where the server reckons it (`server.timeZone`, UTC unless configured; dates render in UTC)."""
    return datetime.now(timezone.utc).date()


def mark_of(row: WebElement) -> str:
    """What a giver sees on a row of a shared list: "open" (a Reserve button), or the mark in words
    ("Reserved by you", "Bought by you", "Bought by NAME"...), the controls checked to match it."""
    reserve = row.find_elements(By.CSS_SELECTOR, "form.reserve-form")
    mine = row.find_elements(By.CSS_SELECTOR, "p.reserved-by-you")
    other = row.find_elements(By.CSS_SELECTOR, "p.reserved-by-other")
    assert len(reserve) + len(mine) + len(other) == 1, f"a row shows {len(reserve) + len(mine) + len(other)} states: {text_of(row)!r}"
    own_controls = row.find_elements(By.CSS_SELECTOR, "form.bought-form, details.card-details, form.cancel-reservation-form")
    if reserve:
        assert not own_controls, "an open row offers a reserver's controls"
        return "open"
    if other:
        assert not own_controls, "someone else's reservation offers its controls: " + text_of(row)
        return text_of(other[0])
    assert len(own_controls) == 3, "a book reserved by you lacks I bought it, the card or Cancel reservation"
    # The parcel is decoration (hidden from screen readers); the words are the mark.
    return text_of(mine[0]).strip()


def bought_button(row: WebElement) -> WebElement:
    return row.find_element(By.CSS_SELECTOR, 'form.bought-form button[type="submit"]')


def write_card(browser: Browser, row: WebElement, item: str, message: str, shot: str) -> None:
    """Opens "Write a card" on the row (a <details>, no script), types the card and saves it."""
    details = row.find_element(By.CSS_SELECTOR, "details.card-details")
    assert details.get_attribute("open") is None, "the card is open before there is one"
    summary = details.find_element(By.TAG_NAME, "summary")
    assert visible_text(browser, summary) == "Write a card", visible_text(browser, summary)
    click(browser, summary)
    field = browser.driver.find_element(By.ID, f"card-{item}")
    WebDriverWait(browser.driver, 5).until(lambda d: field.is_displayed(), "Write a card did not open")
    assert field.get_attribute("name") == "message" and field.get_attribute("maxlength") == "500"
    field.send_keys(message)
    save = details.find_element(By.CSS_SELECTOR, 'form.card-form button[type="submit"]')
    assert text_of(save) == "Save card"
    follow(browser, save, shot)


def idea_rows(browser: Browser) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, "#idea-list > li.idea")


def idea_for(browser: Browser, title: str) -> WebElement:
    found = [li for li in idea_rows(browser) if fold(text_of(li.find_element(By.CSS_SELECTOR, ".book-title"))) == fold(title)]
    assert len(found) == 1, f"{title!r} is among the ideas {len(found)} times: {[text_of(li) for li in idea_rows(browser)]}"
    return found[0]


def idea_state(idea: WebElement) -> str:
    """"open" (a Reserve button), "Reserved by you" (with Cancel), or "Reserved by NAME"."""
    reserve = [b for b in idea.find_elements(By.CSS_SELECTOR, 'form button[type="submit"]') if text_of(b).startswith("Reserve as a gift")]
    mine = idea.find_elements(By.CSS_SELECTOR, "p.reserved-by-you")
    other = idea.find_elements(By.CSS_SELECTOR, "p.reserved-by-other")
    assert len(reserve) + len(mine) + len(other) == 1, f"an idea shows {len(reserve) + len(mine) + len(other)} states: {text_of(idea)!r}"
    if reserve:
        return "open"
    if mine:
        cancel = idea.find_elements(By.CSS_SELECTOR, 'form button[type="submit"]')
        assert [text_of(b) for b in cancel if text_of(b).startswith("Cancel reservation")], "your reserved idea cannot be cancelled"
        return text_of(mine[0])
    return text_of(other[0])


def open_ideas(browser: Browser, owner: str, shot: str) -> None:
    """The owner's page under People, then its link to the gift ideas."""
    browser.visit(f"/people/{owner}", f"{shot}-member")
    link = browser.driver.find_element(By.ID, "ideas-link")
    assert visible_text(browser, link) == f"Gift ideas for {owner}", visible_text(browser, link)
    follow(browser, link, shot)
    assert browser.path == f"/people/{owner}/ideas", browser.driver.current_url


def suggest_idea(browser: Browser, owner: str, isbn13: str, query: str, note: str, shot: str) -> None:
    """On the open ideas page: finds the book with the search form and suggests it with `note`."""
    driver = browser.driver
    search = driver.find_element(By.ID, "idea-search")
    assert search.get_attribute("method").lower() == "get"
    field = driver.find_element(By.ID, "q")
    field.clear()
    field.send_keys(query)
    follow(browser, driver.find_element(By.ID, "idea-search-submit"), f"{shot}-results")
    assert browser.path == f"/people/{owner}/ideas", browser.driver.current_url
    results = driver.find_elements(By.CSS_SELECTOR, "#idea-results > li.idea-result")
    (result,) = [r for r in results if r.find_element(By.CSS_SELECTOR, 'input[name="book"]').get_attribute("value") == isbn13]
    note_field = result.find_element(By.CSS_SELECTOR, 'input[name="note"]')
    assert note_field.accessible_name.startswith("A note for the others"), note_field.accessible_name
    note_field.send_keys(note)
    button = result.find_element(By.CSS_SELECTOR, 'button[type="submit"]')
    assert visible_text(browser, button) == f"Suggest for {owner}", visible_text(browser, button)
    follow(browser, button, shot)
    assert browser.path == f"/people/{owner}/ideas", browser.driver.current_url
    assert flash_message(browser).startswith("Your idea is added."), flash_message(browser)


def reserve_idea(browser: Browser, idea: WebElement, shot: str) -> str:
    """Presses the idea's "Reserve as a gift"; returns the confirmation's sentence."""
    (button,) = [b for b in idea.find_elements(By.CSS_SELECTOR, 'form button[type="submit"]') if text_of(b).startswith("Reserve as a gift")]
    follow(browser, button, shot)
    return flash_message(browser)


def received_rows(browser: Browser) -> list[WebElement]:
    return browser.driver.find_elements(By.CSS_SELECTOR, "#received-items > li.received-item")


def cards_on(row: WebElement) -> list[tuple[str, str]]:
    """The cards of a received book as (message, "From NAME")."""
    return [
        (card.find_element(By.TAG_NAME, "blockquote").get_attribute("textContent"), text_of(card.find_element(By.TAG_NAME, "figcaption")))
        for card in row.find_elements(By.CSS_SELECTOR, "figure.gift-card")
    ]


def given(browser: Browser) -> list[str]:
    """The Given section of the open Gifts I'm giving, each gift's sentence."""
    return [text_of(li) for li in browser.driver.find_elements(By.CSS_SELECTOR, "#given li.given-gift")]


def gift_item_ids(browser: Browser) -> list[str]:
    """The owner's books the open Gifts I'm giving lists as still to give."""
    return [r.get_attribute("data-item") for r in browser.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.wishlist-item")]


def assert_owner_sees_nothing(browser: Browser, secrets: list[str], what: str) -> None:
    """The owner's open page has no reservation control or mark, and none of the givers' words."""
    main = browser.driver.find_element(By.TAG_NAME, "main")
    assert not main.find_elements(By.CSS_SELECTOR, RESERVATION_MARKS), f"{what} shows a reservation"
    words = fold(main.get_attribute("textContent"))
    for word in ("reserved", "bought", *secrets):
        assert fold(word) not in words, f"{what} gives away {word!r}"


# ---------------------------------------------------------------------------------------------
# The stories


def test_a_whole_gift_cycle_with_two_givers(browser: Browser, server: str) -> None:
    owner_browser = browser
    owner, name_a, name_b = unique_username("owner"), unique_username("giver-a"), unique_username("giver-b")
    card = "For the long train rides <3 & the short ones — love, A"
    note = "She loved the first one & reads on the bus"
    idea_book = sample_book(LIST, 4)
    with ExitStack() as stack:
        a = stack.enter_context(another_browser(server, f"{browser.test_name}-giver-a"))
        b = stack.enter_context(another_browser(server, f"{browser.test_name}-giver-b"))
        for session in (owner_browser, a, b):
            session.disable_javascript()

        # The owner wishes for three books of LIST (ranks 1 to 3, rank 1 newest) and shares them.
        sign_up(owner_browser, owner)
        add_books(owner_browser, (3, 2, 1))
        items = wishlist_items(owner_browser)
        book1, book2, book3 = items
        assert [fold(t) for t in items.values()] == [fold(sample_book(LIST, r).title) for r in (1, 2, 3)], items
        share_with_household(owner_browser)
        owner_paths = [
            "/wishlist", "/wishlist?sort=priority", "/wishlist.csv", *(f"/wishlist/{item}" for item in items),
            "/wishlist/received", "/people", f"/people/{owner}", f"/people/{owner}/ideas",
        ]
        before = owner_view(owner_browser, owner_paths)
        assert all(view[0] == 200 for view in before.values()), {path: view[0] for path, view in before.items()}
        assert before[f"/people/{owner}/ideas"] == before["/wishlist"], "the owner's ideas address is not her wishlist"

        # Both givers see the owner's list, every book open.
        sign_up(a, name_a)
        sign_up(b, name_b)
        for giver, shot in ((a, "member-a"), (b, "member-b")):
            giver.visit(f"/people/{owner}", shot)
            assert [mark_of(r) for r in rows(giver, "member-items")] == ["open"] * 3

        # A reserves book 1, marks it bought and writes a card; each answer comes back to the list.
        follow(a, row_by_id(a, "member-items", book1).find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "a-reserved")
        assert a.path == f"/people/{owner}", a.driver.current_url
        assert "You reserved" in flash_text(a), flash_text(a)
        row = row_by_id(a, "member-items", book1)
        assert mark_of(row) == "Reserved by you"
        button = bought_button(row)
        assert visible_text(a, button) == "I bought it"
        assert button.find_element(By.XPATH, "..").get_attribute("action") == a.url(f"/reservations/{book1}/bought")
        follow(a, button, "a-bought")
        assert a.path == f"/people/{owner}", a.driver.current_url
        assert flash_message(a).startswith("Marked bought."), flash_message(a)
        row = row_by_id(a, "member-items", book1)
        assert mark_of(row) == "Bought by you"
        assert visible_text(a, bought_button(row)) == "Not bought yet"
        assert bought_button(row).find_element(By.XPATH, "..").get_attribute("action") == a.url(f"/reservations/{book1}/bought/delete")
        write_card(a, row, book1, card, "a-card")
        assert a.path == f"/people/{owner}", a.driver.current_url
        assert flash_message(a).startswith("Your card is saved."), flash_message(a)
        row = row_by_id(a, "member-items", book1)
        details = row.find_element(By.CSS_SELECTOR, "details.card-details")
        assert details.get_attribute("open") is not None, "the saved card is folded away"
        assert visible_text(a, details.find_element(By.TAG_NAME, "summary")) == "Your card"
        assert a.driver.find_element(By.ID, f"card-{book1}").get_attribute("value") == card
        assert mark_of(row) == "Bought by you"
        assert_well_made(a, f"/people/{owner} with a card")

        # B sees that A bought it, nothing of the card, and no way to reserve it.
        b.visit(f"/people/{owner}", "member-b-bought")
        assert mark_of(row_by_id(b, "member-items", book1)) == f"Bought by {name_a}"
        assert card not in b.driver.page_source and "train rides" not in b.driver.page_source

        # B suggests an idea with a note; A finds it among the ideas and reserves it.
        open_ideas(b, owner, "ideas-b-empty")
        assert b.driver.find_elements(By.ID, "ideas-empty"), "a new list has ideas"
        suggest_idea(b, owner, idea_book.isbn13, idea_book.author.split()[-1], note, "ideas-b-suggested")
        idea = idea_for(b, idea_book.title)
        assert text_of(idea.find_element(By.CSS_SELECTOR, ".idea-by")) == f"Suggested by {name_b}: “{note}”"
        assert idea_state(idea) == "open"
        assert_well_made(b, f"/people/{owner}/ideas")

        open_ideas(a, owner, "ideas-a")
        idea = idea_for(a, idea_book.title)
        assert text_of(idea.find_element(By.CSS_SELECTOR, ".idea-by")) == f"Suggested by {name_b}: “{note}”"
        # What the confirmation says is checked at the end, so that the rest of the cycle runs whatever it says.
        idea_reserved_said = reserve_idea(a, idea, "ideas-a-reserved")
        assert a.path == f"/people/{owner}/ideas", a.driver.current_url
        assert idea_state(idea_for(a, idea_book.title)) == "Reserved by you"
        b.visit(f"/people/{owner}/ideas", "ideas-b-reserved")
        assert idea_state(idea_for(b, idea_book.title)) == f"Reserved by {name_a}"

        # B reserves book 2 and writes no card.
        b.visit(f"/people/{owner}", "member-b-reserve")
        follow(b, row_by_id(b, "member-items", book2).find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "b-reserved")
        assert mark_of(row_by_id(b, "member-items", book2)) == "Reserved by you"
        assert mark_of(row_by_id(b, "member-items", book3)) == "open"

        # The owner: every page and answer as it was, byte for byte; no mark on her rows; her
        # address for ideas is her wishlist.
        after = owner_view(owner_browser, owner_paths)
        for path in owner_paths:
            assert before[path][:2] == after[path][:2], f"{path}: {before[path][:2]} became {after[path][:2]}"
            assert before[path][2] == after[path][2], f"{path} changed {first_difference(before[path][2], after[path][2])}"
        secrets = [name_a, name_b, card, note, idea_book.title, "idea"]
        owner_browser.visit("/wishlist", "owner-wishlist")
        assert [r.get_attribute("data-item") for r in rows(owner_browser, "wishlist-items")] == list(items)
        assert_owner_sees_nothing(owner_browser, secrets, "the owner's wishlist")
        owner_browser.visit(f"/people/{owner}/ideas", "owner-ideas")
        assert owner_browser.path == "/wishlist", f"the owner's ideas page answered at {owner_browser.driver.current_url}"
        owner_browser.visit("/wishlist/received", "owner-received-empty")
        assert owner_browser.driver.find_elements(By.ID, "received-empty")

        # She gets book 1: I got it leads to Books you received, with A's card and A's name.
        owner_browser.visit("/wishlist", "owner-before-got-it")
        row = row_by_id(owner_browser, "wishlist-items", book1)
        got_it = row.find_element(By.CSS_SELECTOR, "a.received-link")
        assert visible_text(owner_browser, got_it) == "I got it"
        day = utc_today()
        # It asks once (issue 57): the confirmation's own button moves the book.
        follow(owner_browser, got_it, "received-book1-confirm")
        follow(owner_browser, owner_browser.driver.find_element(By.ID, "received-submit"), "received-book1")
        assert owner_browser.path == "/wishlist/received", owner_browser.driver.current_url
        assert flash_message(owner_browser).startswith("Enjoy it!"), flash_message(owner_browser)
        (received,) = received_rows(owner_browser)
        assert received.get_attribute("data-item") == book1
        shown = received.find_element(By.CSS_SELECTOR, ".book-meta time")
        assert shown.get_attribute("datetime") in (day.isoformat(), utc_today().isoformat()), shown.get_attribute("datetime")
        assert text_of(received.find_element(By.CSS_SELECTOR, ".book-meta")) == f"Received {text_of(shown)}"
        assert cards_on(received) == [(card, f"From {name_a}")], cards_on(received)
        buttons = [visible_text(owner_browser, b) for b in received.find_elements(By.CSS_SELECTOR, 'button[type="submit"]')]
        assert buttons == ["I’ve read it", "Reading now", "Wish for it again"], buttons
        assert_well_made(owner_browser, "/wishlist/received")

        # ...and book 2, which B gave without a card: no card, and B's name nowhere on the page.
        owner_browser.visit("/wishlist", "owner-before-book2")
        assert book1 not in [r.get_attribute("data-item") for r in rows(owner_browser, "wishlist-items")]
        follow(owner_browser, row_by_id(owner_browser, "wishlist-items", book2).find_element(
            By.CSS_SELECTOR, "a.received-link"), "received-book2-confirm")
        follow(owner_browser, owner_browser.driver.find_element(By.ID, "received-submit"), "received-book2")
        assert owner_browser.path == "/wishlist/received", owner_browser.driver.current_url
        by_item = {r.get_attribute("data-item"): r for r in received_rows(owner_browser)}
        assert sorted(by_item) == sorted([book1, book2]), list(by_item)
        assert cards_on(by_item[book2]) == [], "a giver who wrote no card has a card"
        assert cards_on(by_item[book1]) == [(card, f"From {name_a}")]
        assert name_b not in owner_browser.driver.page_source, "the giver who wrote no card is named"
        assert note not in owner_browser.driver.page_source and fold(idea_book.title) not in fold(owner_browser.driver.page_source)

        # A's Gifts I'm giving: book 1 given, with the card; the idea still to give.
        a.visit("/reservations", "gifts-a-given")
        title1 = items[book1]
        assert [fold(g) for g in given(a)] == [fold(
            f"{owner} got “{title1}” by {sample_book(LIST, 1).author} on {long_date(day)}. Your card: “{card}”")], given(a)
        assert text_of(a.driver.find_element(By.ID, "given-heading")) == "Given"
        assert book1 not in gift_item_ids(a), "the given book is still to give"
        ideas = a.driver.find_elements(By.CSS_SELECTOR, "section.gift-group li.idea-gift")
        assert [text_of(i.find_element(By.CSS_SELECTOR, ".reserved-mark")) for i in ideas] == [f"A gift idea, reserved by you: “{note}”"]
        assert_well_made(a, "/reservations with a given gift and an idea")
        b.visit("/reservations", "gifts-b-given")
        assert [fold(g) for g in given(b)] == [fold(
            f"{owner} got “{items[book2]}” by {sample_book(LIST, 2).author} on {long_date(day)}.")], given(b)
        assert gift_item_ids(b) == []

        # She wishes for book 2 again: a new wish, free to reserve; book 2 stays received, and B's
        # gift stays given, with a word that it is wished for again (issue 50).
        owner_browser.visit("/wishlist/received", "owner-received-both")
        received_row = [r for r in received_rows(owner_browser) if r.get_attribute("data-item") == book2][0]
        (again,) = [x for x in received_row.find_elements(By.CSS_SELECTOR, 'button[type="submit"]')
                    if visible_text(owner_browser, x) == "Wish for it again"]
        follow(owner_browser, again, "wished-again-book2")
        assert owner_browser.path == "/wishlist", owner_browser.driver.current_url
        assert flash_message(owner_browser) == "The book is on your wishlist again, as a new wish. It stays among the books you received."
        wished = [r.get_attribute("data-item") for r in rows(owner_browser, "wishlist-items")]
        (book2_again,) = [item for item in wished if item != book3]
        assert book2_again not in (book1, book2), wished
        assert_owner_sees_nothing(owner_browser, secrets, "the owner's wishlist after wishing for a book again")
        owner_browser.visit("/wishlist/received", "owner-received-still-both")
        assert sorted(r.get_attribute("data-item") for r in received_rows(owner_browser)) == sorted([book1, book2])

        b.visit(f"/people/{owner}", "member-b-wished-again")
        assert mark_of(row_by_id(b, "member-items", book2_again)) == "open"
        b.visit("/reservations", "gifts-b-wished-again")
        assert [fold(g) for g in given(b)] == [fold(
            f"{owner} got “{items[book2]}” by {sample_book(LIST, 2).author} on {long_date(day)}. "
            f"{owner} put it back on the wishlist on {long_date(utc_today())}, as a new wish.")], given(b)
        assert gift_item_ids(b) == []
        a.visit(f"/people/{owner}", "member-a-wished-again")
        assert mark_of(row_by_id(a, "member-items", book2_again)) == "open"

        # She wishes for the idea's book herself: the idea goes, its reservation (A's) with it to her item.
        add_books(owner_browser, (4,))
        newest = list(wishlist_items(owner_browser))[0]
        assert newest not in items
        assert_owner_sees_nothing(owner_browser, secrets[:4], "the owner's wishlist with the idea's book")
        open_ideas(a, owner, "ideas-a-gone")
        assert not idea_rows(a) and a.driver.find_elements(By.ID, "ideas-empty"), "the idea outlived her own wish"
        a.visit(f"/people/{owner}", "member-a-idea-moved")
        assert mark_of(row_by_id(a, "member-items", newest)) == "Reserved by you"
        b.visit(f"/people/{owner}", "member-b-idea-moved")
        assert mark_of(row_by_id(b, "member-items", newest)) == f"Reserved by {name_a}"

        for session in (owner_browser, a, b):
            session.assert_no_console_errors()
        assert idea_reserved_said.startswith("You reserved this idea as a gift."), \
            f"reserving an idea was confirmed with {idea_reserved_said!r}"


def test_birthdays_coming_up_on_people(browser: Browser, server: str) -> None:
    celebrant, hermit = unique_username("birthday"), unique_username("hermit")
    soon = utc_today() + timedelta(days=10)
    birthday = (MONTHS[soon.month - 1], str(soon.day))

    # A member who shares, and one who does not, both with a birthday in ten days.
    sign_up(browser, celebrant)
    share_with_household(browser)
    browser.visit("/settings/profile", "profile-celebrant")
    save_profile(browser, "", birthday, [], "birthday-saved")
    assert Select(browser.driver.find_element(By.ID, "birthday_month")).first_selected_option.text == birthday[0]
    sign_out(browser)
    sign_up(browser, hermit)
    browser.visit("/settings/profile", "profile-hermit")
    save_profile(browser, "", birthday, [], "hermit-saved")

    with another_browser(server, f"{browser.test_name}-friend") as friend:
        sign_up(friend, unique_username("friend"))
        friend.visit("/people", "people-birthdays")
        section = friend.driver.find_element(By.ID, "birthdays")
        assert text_of(section.find_element(By.TAG_NAME, "h2")) == "Birthdays coming up"
        shown = {text_of(li.find_element(By.TAG_NAME, "a")): li for li in section.find_elements(By.CSS_SELECTOR, "li.birthday")}
        assert celebrant in shown, f"{celebrant} is not among the birthdays: {list(shown)}"
        # Counted from the server's today (UTC) at the moment of looking, should midnight have passed.
        days = (soon - utc_today()).days
        assert text_of(shown[celebrant]) == f"{celebrant}: Birthday in {days} days ({soon.day} {birthday[0]})", text_of(shown[celebrant])
        link = shown[celebrant].find_element(By.TAG_NAME, "a")
        assert link.get_attribute("href") == friend.url(f"/people/{celebrant}")
        assert hermit not in shown and hermit not in friend.driver.page_source, "a private member's birthday is shown"
        whens = [re.search(r"Birthday (today|tomorrow|in (\d+) days)", text_of(li)) for li in shown.values()]
        assert all(whens), [text_of(li) for li in shown.values()]
        order = [0 if w[1] == "today" else 1 if w[1] == "tomorrow" else int(w[2]) for w in whens]
        assert order == sorted(order) and max(order) <= 30, f"not the next 30 days soonest first: {order}"
        assert_well_made(friend, "/people with birthdays")
        friend.assert_no_console_errors()
    browser.assert_no_console_errors()
