"""Keyboard only (issue 16, item 3): sign up, add a book, write a note, reserve a gift, remove an item.

After opening the sign-up page, the keyboard user's browser is driven by Tab, Shift+Tab, Enter,
Space and typed text alone, sent to whatever has focus: no clicks, no URLs. Every focus stop must
show a focus indicator (an outline or a box-shadow), and every form's redirect must start the user
at its outcome:

- a page with a confirmation: the confirmation (#flash) has focus when the page loads (it carries
  tabindex="-1" and autofocus, no script needed), so a screen reader reads it first and the next Tab
  continues from there;
- a page without one: focus starts at the top, the first Tab reaches the skip link and Enter on it
  moves focus to <main>, whose first content is the page heading.

The other member (whose shared list the keyboard user reserves from) is set up in a second Chromium
with the mouse, as in test_household.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from support import Browser, _navigates, sign_up, unique_username
from test_household import (
    LIST, add_books, another_browser, flash_text, heading, reservation_state, row_by_id, rows, share_with_household,
    text_of, wishlist_items,
)

# Typed key by key into the focused field, so plain ASCII (ChromeDriver cannot type every emoji).
KEY_PASSWORD = "keyboard only passphrase"
NOTE = "Hardback, please. Typed without a mouse."
MAX_TABS = 120  # more stops than any page has: a control not reached by then is unreachable

_FOCUS_STATE = """
const el = document.activeElement;
if (!el || el === document.body || el === document.documentElement) return {none: true};
const s = getComputedStyle(el);
const r = el.getBoundingClientRect();
return {
  none: false,
  tag: el.tagName.toLowerCase(), id: el.id, cls: String(el.className),
  text: (el.textContent || el.value || '').replace(/\\s+/g, ' ').trim().slice(0, 60),
  outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0, outlineColor: s.outlineColor,
  boxShadow: s.boxShadow, width: r.width, height: r.height,
  focusMatches: el.matches(':focus'), visibleMatches: el.matches(':focus-visible'), docFocus: document.hasFocus(),
};
"""


def describe(state: dict) -> str:
    if state.get("none"):
        return "(nothing: the page body)"
    return f"<{state['tag']}{'#' + state['id'] if state['id'] else ''} class={state['cls']!r}> {state['text']!r}"


def assert_focus_visible(browser: Browser, where: str) -> dict:
    """The focused element is a real element, has a size and shows an outline (2 px or more,
    not transparent) or a box-shadow."""
    state = browser.js(_FOCUS_STATE)
    assert not state["none"], f"{where}: focus is lost (on the page body) at {browser.path}"
    assert state["width"] > 0 and state["height"] > 0, f"{where}: focus is on an invisible element {describe(state)}"
    outline = (
        state["outlineStyle"] != "none" and state["outlineWidth"] >= 2
        and state["outlineColor"] not in ("transparent", "rgba(0, 0, 0, 0)")
    )
    shadow = state["boxShadow"] not in ("", "none")
    assert outline or shadow, (
        f"{where}: focus is invisible on {describe(state)} at {browser.path} "
        f"(outline {state['outlineStyle']} {state['outlineWidth']}px {state['outlineColor']}, box-shadow {state['boxShadow']}, {state})"
    )
    return state


def is_focused(browser: Browser, element: WebElement) -> bool:
    return browser.js("return document.activeElement === arguments[0];", element)


def tab_to(browser: Browser, element: WebElement, what: str, backwards: bool | None = None) -> None:
    """Presses Tab, or Shift+Tab when `element` comes before the focus in the page (or `backwards`
    says so), until `element` has focus. Every stop on the way must show its focus, and focus must
    never leave the page (Tab past the last control goes to the browser's own controls); fails when
    MAX_TABS presses never reach it."""
    if backwards is None:
        backwards = browser.js(
            "const a = document.activeElement;"
            "return !!a && a !== document.body && !!(arguments[0].compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);",
            element,
        )
    keys = ActionChains(browser.driver)
    seen = []
    for _ in range(MAX_TABS):
        if backwards:
            keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            keys.send_keys(Keys.TAB).perform()
        state = browser.js(_FOCUS_STATE)
        seen.append(describe(state))
        assert not state["none"], (
            f"{'Shift+' if backwards else ''}Tabbing to {what} on {browser.path} left the page without reaching it; "
            f"focus went through: {seen[:40]}"
        )
        assert_focus_visible(browser, f"Tabbing to {what}")
        if is_focused(browser, element):
            return
    pytest.fail(f"{MAX_TABS} {'Shift+' if backwards else ''}Tabs on {browser.path} never reached {what}; "
                f"focus went through: {seen[:40]}", pytrace=False)


def press(browser: Browser, key: str, shot: str) -> None:
    """Presses `key` on the focused control and waits for the page it leads to."""
    assert_focus_visible(browser, f"before pressing {shot}")
    _navigates(browser, lambda: ActionChains(browser.driver).send_keys(key).perform())
    browser.screenshot(shot)


def type_into(browser: Browser, element: WebElement, text: str, what: str) -> None:
    """Tabs to a field and types into whatever has focus (which must be that field)."""
    tab_to(browser, element, what)
    ActionChains(browser.driver).send_keys(text).perform()
    assert element.get_attribute("value") == text, f"typing into {what} gave {element.get_attribute('value')!r}"


def assert_starts_at_confirmation(browser: Browser, expected: str) -> None:
    """After a redirect with a confirmation: focus is on #flash, visibly, and it says `expected`."""
    flash = browser.driver.find_elements(By.ID, "flash")
    assert flash, f"no confirmation after the redirect to {browser.path}"
    WebDriverWait(browser.driver, 5).until(
        lambda _: is_focused(browser, flash[0]),
        f"focus did not land on the confirmation at {browser.path}: {describe(browser.js(_FOCUS_STATE))}",
    )
    assert_focus_visible(browser, "the confirmation after a redirect")
    assert expected in flash_text(browser), flash_text(browser)


def assert_starts_at_heading(browser: Browser) -> None:
    """After a redirect without a confirmation: focus starts at the top of the page, the first Tab
    reaches the skip link, and following it moves focus to <main>, which opens with the h1."""
    assert browser.js(_FOCUS_STATE)["none"], f"focus starts inside the page: {describe(browser.js(_FOCUS_STATE))}"
    skip = browser.driver.find_element(By.CSS_SELECTOR, "a.skip-link")
    ActionChains(browser.driver).send_keys(Keys.TAB).perform()
    assert is_focused(browser, skip), f"the first Tab reached {describe(browser.js(_FOCUS_STATE))}, not the skip link"
    assert_focus_visible(browser, "the skip link")
    ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
    main = browser.driver.find_element(By.ID, "main")
    WebDriverWait(browser.driver, 5).until(lambda _: is_focused(browser, main), "the skip link did not move focus to <main>")
    first = browser.js(
        "const first = document.getElementById('main').firstElementChild;"
        "return first && (first.matches('h1') ? first : first.querySelector(':scope > h1, :scope > header > h1')) ? 'h1' : (first ? first.outerHTML.slice(0, 120) : 'nothing');"
    )
    assert first == "h1", f"<main> on {browser.path} does not open with the heading: {first}"


def test_keyboard_only_journey(browser: Browser, server: str) -> None:
    driver = browser.driver
    member = unique_username("sharer")
    username = unique_username("keys")

    with another_browser(server, f"{browser.test_name}-member") as other:
        # Set-up, with the mouse: another member wishes for a book and shares the list.
        sign_up(other, member)
        add_books(other, (2,))
        member_items = wishlist_items(other)
        assert len(member_items) == 1, member_items
        (member_item,) = member_items
        share_with_household(other)

        # 1. Sign up: the only URL the keyboard user opens.
        browser.visit("/signup", "signup")
        ActionChains(driver).send_keys(Keys.TAB).perform()
        assert "skip-link" in browser.js(_FOCUS_STATE)["cls"], "the first Tab does not reach the skip link"
        assert_focus_visible(browser, "the skip link")
        type_into(browser, driver.find_element(By.ID, "username"), username, "the username field")
        type_into(browser, driver.find_element(By.ID, "password"), KEY_PASSWORD, "the password field")
        type_into(browser, driver.find_element(By.ID, "password_confirm"), KEY_PASSWORD, "the confirmation field")
        submit = driver.find_element(By.ID, "signup-submit")
        tab_to(browser, driver.find_element(By.CSS_SELECTOR, ".auth-alt a"), "the sign-in link")
        tab_to(browser, submit, "the Create account button")  # Shift+Tab back to it
        press(browser, Keys.SPACE, "signed-up")
        assert browser.path != "/signup", "sign-up failed: " + text_of(driver.find_element(By.TAG_NAME, "main"))
        if driver.find_elements(By.ID, "flash"):
            assert_starts_at_confirmation(browser, "")
        else:
            assert_starts_at_heading(browser)

        # 2. Add a book from a list page: to the list, to the first row's button, Space.
        list_link = driver.find_elements(By.CSS_SELECTOR, f'main a[href="/lists/{LIST}"]')
        if browser.path != "/lists" or not list_link:
            tab_to(browser, driver.find_element(By.CSS_SELECTOR, '#site-nav a[href="/lists"]'), "Lists in the navigation")
            press(browser, Keys.ENTER, "lists")
            list_link = driver.find_elements(By.CSS_SELECTOR, f'main a[href="/lists/{LIST}"]')
        assert list_link, f"/lists has no link to {LIST}"
        tab_to(browser, list_link[0], f"the link to {LIST}")
        press(browser, Keys.ENTER, "list")
        assert browser.path == f"/lists/{LIST}", driver.current_url
        first_row = driver.find_element(By.CSS_SELECTOR, '#books > li.book[data-rank="1"]')
        title = text_of(first_row.find_element(By.CSS_SELECTOR, ".book-title"))
        tab_to(browser, first_row.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]'), "Add to wishlist")
        press(browser, Keys.SPACE, "added")
        assert browser.path == f"/lists/{LIST}", driver.current_url
        assert_starts_at_confirmation(browser, "Added")

        # 3. Open the item and write a note: the confirmation's link (or Wishlist), then the title.
        flash_link = driver.find_elements(By.ID, "flash-link")
        if flash_link and flash_link[0].get_attribute("pathname") == "/wishlist":
            ActionChains(driver).send_keys(Keys.TAB).perform()
            assert is_focused(browser, flash_link[0]), "the Tab after the confirmation skips its link"
        else:
            tab_to(browser, driver.find_element(By.ID, "nav-wishlist"), "Wishlist in the navigation")
        press(browser, Keys.ENTER, "wishlist")
        assert browser.path == "/wishlist", driver.current_url
        own = rows(browser, "wishlist-items")
        assert len(own) == 1 and title.casefold() in text_of(own[0]).casefold(), [text_of(r) for r in own]
        item = own[0].get_attribute("data-item")
        tab_to(browser, own[0].find_element(By.CSS_SELECTOR, ".book-title a"), "the book's title link")
        press(browser, Keys.ENTER, "item")
        assert browser.path == f"/wishlist/{item}", driver.current_url
        note = driver.find_element(By.ID, "note")
        tab_to(browser, note, "the note field")
        ActionChains(driver).send_keys(NOTE).perform()
        tab_to(browser, driver.find_element(By.ID, "note-submit"), "Save")
        press(browser, Keys.ENTER, "note-saved")
        assert browser.path == f"/wishlist/{item}", driver.current_url
        assert_starts_at_confirmation(browser, "note were saved")
        assert driver.find_element(By.ID, "note").get_attribute("value") == NOTE

        # 4. Reserve a gift: People, the member, "Reserve as a gift".
        tab_to(browser, driver.find_element(By.ID, "nav-people"), "People in the navigation")
        press(browser, Keys.ENTER, "people")
        assert browser.path == "/people", driver.current_url
        person = driver.find_element(By.CSS_SELECTOR, f'#people-list li.person[data-person="{member}"] a.person-link')
        tab_to(browser, person, f"{member} under People")
        press(browser, Keys.ENTER, "member")
        assert browser.path == f"/people/{member}", driver.current_url
        row = row_by_id(browser, "member-items", member_item)
        assert reservation_state(row) == "open"
        tab_to(browser, row.find_element(By.CSS_SELECTOR, 'form.reserve-form button[type="submit"]'), "Reserve as a gift")
        press(browser, Keys.ENTER, "reserved")
        assert browser.path == f"/people/{member}", driver.current_url
        assert_starts_at_confirmation(browser, f"You reserved “{member_items[member_item]}” as a gift for {member}")
        assert reservation_state(row_by_id(browser, "member-items", member_item)) == "you"

        # 5. Remove the item: Wishlist, the row's Remove link, the confirmation page's button.
        tab_to(browser, driver.find_element(By.ID, "nav-wishlist"), "Wishlist in the navigation")
        press(browser, Keys.ENTER, "wishlist-again")
        remove = row_by_id(browser, "wishlist-items", item).find_element(By.CSS_SELECTOR, "a.item-remove")
        tab_to(browser, remove, "the row's Remove link")
        press(browser, Keys.ENTER, "remove-confirm")
        assert browser.path == f"/wishlist/{item}/remove", driver.current_url
        assert heading(browser).startswith("Remove"), heading(browser)
        tab_to(browser, driver.find_element(By.ID, "keep-link"), "Keep it")
        tab_to(browser, driver.find_element(By.ID, "remove-submit"), "the Remove button")  # Shift+Tab
        press(browser, Keys.ENTER, "removed")
        assert browser.path == "/wishlist", driver.current_url
        assert_starts_at_confirmation(browser, "removed from your wishlist")
        assert rows(browser, "wishlist-items") == [], "the removed book is still listed"

        browser.assert_no_console_errors()
        other.assert_no_console_errors()
