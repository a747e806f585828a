"""A family's phone (issue 36): the header is one row at 360 px, with the four everyday places and
"Me", a menu of the rest that opens without script; the sample-data notice is one line for anyone
but an admin.

Headless Chromium will not make its window narrower than 500 px, so the width is set through the
DevTools protocol (as test_accessibility.py does).
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import Browser, follow, open_me_menu
from test_accessibility import emulate

PHONE = 360
HEADER_MOST_PX = 64


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
