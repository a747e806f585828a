"""A family's phone (issue 36): the header is one row at 360 px, with the four everyday places and
"Me", a menu of the rest that opens without script; the sample-data notice is one line for anyone
but an admin; a list's rows are compact (no cover, the blurb cut to two lines with a "more"), and a
form on a row returns to that row with its confirmation on it.

Headless Chromium will not make its window narrower than 500 px, so the width is set through the
DevTools protocol (as test_accessibility.py does).
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from selenium.webdriver.support.ui import WebDriverWait

from support import SCREENSHOT_DIR, Browser, follow, new_chromium, open_me_menu, sign_up, unique_username
from test_accessibility import emulate

PHONE = 360
HEADER_MOST_PX = 64
LIST = "hardcover-fiction"  # the sample's list of 15 books
LIST_BOOKS = 15
LIST_MOST_PX = 2600


def header_height(browser: Browser) -> float:
    return browser.js("return document.querySelector('.site-header').getBoundingClientRect().height;")


def shown_nav_words(browser: Browser) -> list[str]:
    """The navigation's words a person sees without opening anything, left to right."""
    return browser.js(
        "return Array.from(document.querySelectorAll('#site-nav .nav-list > li > a, #site-nav .nav-list > li > details > summary'))"
        ".filter(e => e.getBoundingClientRect().width > 0)"
        ".map(e => e.innerText.replace(/\\s+/g, ' ').trim());"
    )


def test_the_header_is_one_row_on_a_phone_and_me_holds_the_rest(signed_in: Browser) -> None:
    browser = signed_in
    browser.visit("/lists", "lists-desktop")
    emulate(browser, PHONE)
    browser.visit("/lists", "lists-phone")
    assert header_height(browser) <= HEADER_MOST_PX, f"the header is {header_height(browser)} px tall at {PHONE} px"
    words = shown_nav_words(browser)
    assert [w.split(" ")[0] for w in words] == ["Lists", "Search", "Wishlist", "People", "Me"], words
    nav_right = browser.js("return document.getElementById('site-nav').getBoundingClientRect().right;")
    assert nav_right <= PHONE, f"the navigation runs off the screen ({nav_right} px)"

    menu = browser.driver.find_element(By.ID, "me-menu")
    assert menu.get_attribute("open") is None, "Me starts closed"
    assert not browser.driver.find_element(By.ID, "nav-settings").is_displayed()
    open_me_menu(browser)
    browser.screenshot("me-open")
    for item in ("nav-user", "nav-add-book", "nav-reading", "nav-gifts", "nav-settings"):
        element = browser.driver.find_element(By.ID, item)
        assert element.is_displayed(), f"#{item} is not shown in the open menu"
        box = browser.js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", element)
        assert 0 <= box[0] and box[1] <= PHONE, f"#{item} is cut off at {box}"
    assert browser.driver.find_element(By.CSS_SELECTOR, '#signout-form button[type="submit"]').is_displayed()

    follow(browser, browser.driver.find_element(By.ID, "nav-settings"), "settings-phone")
    assert browser.path == "/settings", browser.driver.current_url
    assert "me-toggle-current" in browser.driver.find_element(By.ID, "me-toggle").get_attribute("class"), \
        "Me does not say that Settings is one of its pages"
    assert header_height(browser) <= HEADER_MOST_PX


def test_the_sample_notice_is_one_short_line_for_a_member(signed_in: Browser) -> None:
    browser = signed_in
    emulate(browser, PHONE)
    browser.visit("/lists", "sample-notice-phone")
    notice = browser.driver.find_element(By.CSS_SELECTOR, "#sample-data-notice p")
    lines = browser.js(
        "const s = getComputedStyle(arguments[0]);"
        "const inner = arguments[0].getBoundingClientRect().height - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);"
        "return inner / parseFloat(s.lineHeight);",
        notice,
    )
    assert round(lines) == 1, f"the sample notice takes {lines:.1f} lines at {PHONE} px: {notice.text!r}"
    assert "NYT_API_KEY" not in notice.text, "a member is told how to set the key"


def page_height(browser: Browser) -> float:
    return browser.js("return document.documentElement.scrollHeight;")


def shown_words(browser: Browser, element) -> str:
    """The words of `element`'s spans that are drawn: neither display: none nor visually hidden."""
    return browser.js(
        "return Array.from(arguments[0].querySelectorAll('span:not(.visually-hidden)'))"
        ".filter(s => getComputedStyle(s).display !== 'none').map(s => s.textContent).join(' ').trim();",
        element,
    )


def card_and_confirmation(browser: Browser, book: str) -> tuple[list[float] | None, list[float] | None, float]:
    """The top and bottom of the book's card and of the confirmation inside it, and the viewport's height."""
    return browser.js(
        "const card = document.getElementById('book-' + arguments[0]); const flash = card && card.querySelector('#flash');"
        "const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };"
        "return [card && box(card), flash && box(flash), window.innerHeight];",
        book,
    )


def test_a_fifteen_book_list_is_short_on_a_phone_and_more_shows_a_whole_blurb(configured_server, request) -> None:
    """On a server of its own: the shared one's other tests add household wishes, readings and
    opinions to the list's rows, so its height there depends on which tests ran before."""
    with configured_server("phone-list", {}) as base_url:
        driver = new_chromium()
        try:
            browser = Browser(driver, base_url, request.node.name)
            sign_up(browser, unique_username("phone"))
            a_fifteen_book_list_is_short(browser)
        finally:
            driver.quit()


def a_fifteen_book_list_is_short(browser: Browser) -> None:
    emulate(browser, PHONE)
    browser.visit(f"/lists/{LIST}", "list-phone")
    rows = browser.driver.find_elements(By.CSS_SELECTOR, "#books > li.book")
    assert len(rows) == LIST_BOOKS, f"{LIST} has {len(rows)} books, not {LIST_BOOKS}"
    assert page_height(browser) <= LIST_MOST_PX, f"a {LIST_BOOKS}-book list is {page_height(browser)} px tall at {PHONE} px"
    assert header_height(browser) <= HEADER_MOST_PX
    tallest = max(browser.js("return arguments[0].getBoundingClientRect().height;", row) for row in rows)
    assert tallest <= 170, f"the tallest row is {tallest} px"

    row = next(r for r in rows if r.find_elements(By.CSS_SELECTOR, ".blurb-more"))
    blurb = row.find_element(By.CSS_SELECTOR, ".book-description")
    lines = lambda: browser.js(
        "return arguments[0].getBoundingClientRect().height / parseFloat(getComputedStyle(arguments[0]).lineHeight);", blurb
    )
    assert round(lines()) <= 2, f"the blurb takes {lines():.1f} lines before 'more'"
    more = row.find_element(By.CSS_SELECTOR, ".blurb-more summary")
    assert shown_words(browser, more) == "more", shown_words(browser, more)
    more.click()
    assert shown_words(browser, more) == "less", shown_words(browser, more)
    expanded = lines()
    browser.screenshot("list-phone-more")
    full_height = browser.js(
        "const p = arguments[0]; return Math.ceil(p.scrollHeight / parseFloat(getComputedStyle(p).lineHeight));", blurb
    )
    assert round(expanded) == full_height, f"'more' shows {expanded:.1f} of {full_height} lines"


def test_adding_the_twelfth_book_on_a_phone_comes_back_to_it_with_the_confirmation(new_account: str, browser: Browser) -> None:
    emulate(browser, PHONE)
    browser.visit(f"/lists/{LIST}", "before-adding-phone")
    row = browser.driver.find_element(By.CSS_SELECTOR, '#books > li.book[data-rank="12"]')
    book = row.get_attribute("data-book")
    follow(browser, row.find_element(By.CSS_SELECTOR, 'form.add-to-wishlist button[type="submit"]'))
    assert browser.driver.current_url.endswith(f"/lists/{LIST}#flash"), browser.driver.current_url
    assert card_and_confirmation(browser, book)[1] is not None, "the confirmation is not on the book's card"

    def both_shown(_) -> bool:
        # The page opens at its fragment; the wait covers a layout that settles after the load.
        card, message, viewport = card_and_confirmation(browser, book)
        return card[0] >= 0 and message[1] <= viewport

    WebDriverWait(browser.driver, 5).until(both_shown, "the card and its confirmation never were both on the screen")
    assert browser.js("return document.activeElement.id;") == "flash", "focus is not on the confirmation"
    assert len(browser.driver.find_elements(By.ID, "flash")) == 1, "the confirmation is shown twice"
    # What the screen shows, as well as the whole page.
    browser.driver.save_screenshot(str(SCREENSHOT_DIR / f"{browser.test_name}-after-adding-twelfth-screen.png"))
    browser.screenshot("after-adding-twelfth-phone")


def test_a_link_shown_once_has_copy_beside_it_and_stays_plain_text_without_script(new_account: str, browser: Browser) -> None:
    emulate(browser, PHONE)
    browser.visit("/settings/sharing", "settings-before-link-phone")
    follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "share-link-made-phone")
    field = browser.driver.find_element(By.ID, "share-link-url")
    buttons = browser.driver.find_elements(By.CSS_SELECTOR, "#new-share-link .copy-share button")
    words = [b.text for b in buttons]
    has_share = browser.js("return typeof navigator.share === 'function';")
    assert words == (["Copy link", "Share link…"] if has_share else ["Copy link"]), words
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", buttons[0])
    buttons[0].click()
    status = browser.driver.find_element(By.CSS_SELECTOR, "#new-share-link .copy-status")
    WebDriverWait(browser.driver, 5).until(lambda _: status.text, "Copy link said nothing")
    if status.text != "Copied.":
        # No clipboard for the page: the whole link is selected for the device's own copy.
        assert "selected" in status.text, status.text
        start, end, length = browser.js("const f = arguments[0]; return [f.selectionStart, f.selectionEnd, f.value.length];", field)
        assert (start, end) == (0, length), "the link is not selected"
    browser.screenshot("share-link-copied-phone")

    browser.disable_javascript()
    follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "share-link-no-script-phone")
    assert browser.driver.find_element(By.ID, "share-link-url").get_attribute("value").startswith("http")
    assert not browser.driver.find_elements(By.CSS_SELECTOR, ".copy-share"), "buttons that could not work without script"
